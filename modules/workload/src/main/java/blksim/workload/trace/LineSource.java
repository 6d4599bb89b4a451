package blksim.workload.trace;

import blksim.engine.InputException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Lines of a text trace, one at a time, with their 1-based numbers.
 *
 * <p>Unlike {@link java.io.BufferedReader#readLine()} a line is bounded ({@link #MAX_LINE_CHARS}),
 * so a binary or newline-free file cannot make a reader hold the whole file. {@code \n},
 * {@code \r\n} and a final line without newline are accepted; text is UTF-8 (invalid bytes become
 * U+FFFD, which then fails the field checks).
 */
final class LineSource implements AutoCloseable {
  /** The longest line accepted. */
  static final int MAX_LINE_CHARS = 1 << 16;

  private final String file;
  private final Reader in;
  private final char[] buf = new char[1 << 16];
  private final StringBuilder line = new StringBuilder(256);
  private int pos;
  private int end;
  private long lineNo;

  LineSource(Path path) {
    this(path.toString(), TraceInput.open(path));
  }

  LineSource(String file, InputStream in) {
    this.file = file;
    this.in = new InputStreamReader(in, StandardCharsets.UTF_8);
  }

  /** The file name used in errors. */
  String file() {
    return file;
  }

  /** The number of the line last returned by {@link #next()}. */
  long lineNo() {
    return lineNo;
  }

  /** The next line without its terminator, or {@code null} at the end. */
  String next() {
    line.setLength(0);
    boolean any = false;
    try {
      while (true) {
        if (pos == end) {
          end = in.read(buf, 0, buf.length);
          pos = 0;
          if (end <= 0) {
            end = 0;
            if (!any) {
              return null;
            }
            break;
          }
        }
        any = true;
        int start = pos;
        while (pos < end && buf[pos] != '\n') {
          pos++;
        }
        line.append(buf, start, pos - start);
        if (line.length() > MAX_LINE_CHARS) {
          throw error(lineNo + 1, null, "line is longer than " + MAX_LINE_CHARS
              + " characters: this is not a text trace");
        }
        if (pos < end) {
          pos++;
          break;
        }
      }
    } catch (IOException e) {
      throw TraceInput.readError(file, e);
    }
    lineNo++;
    int n = line.length();
    if (n > 0 && line.charAt(n - 1) == '\r') {
      line.setLength(n - 1);
    }
    return line.toString();
  }

  /** An {@link InputException} for {@code line}, which may exceed an int. */
  InputException error(long atLine, String field, String rule) {
    return error(file, atLine, field, rule);
  }

  /** An {@link InputException} for {@code line} of {@code file}, which may exceed an int. */
  static InputException error(String file, long atLine, String field, String rule) {
    if (atLine > Integer.MAX_VALUE) {
      return new InputException(file, 0, field, "line " + atLine + ": " + rule);
    }
    return new InputException(file, (int) atLine, field, rule);
  }

  @Override
  public void close() {
    TraceInput.closeQuietly(in);
  }
}
