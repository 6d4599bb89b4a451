package blksim.workload.trace;

import blksim.engine.InputException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Lines of a text trace, one at a time, with their 1-based numbers.
 *
 * <p>Unlike {@link java.io.BufferedReader#readLine()} a line is bounded ({@link #MAX_LINE_CHARS}),
 * so a binary or newline-free file cannot make a reader hold the whole file. {@code \n},
 * {@code \r\n} and a final line without newline are accepted; text is UTF-8 (invalid bytes become
 * U+FFFD, which then fails the field checks).
 *
 * <p>Lines are found in the bytes ({@code \n} and {@code \r} never occur inside a UTF-8
 * sequence): {@link #nextLine()} leaves the line as a byte range ({@link #bytes()},
 * {@link #start()}, {@link #end()}) for readers that parse bytes without making a {@code String}
 * per line (the replay's hot path, {@link Fields#splitBlanks(byte[], int, int, long)});
 * {@link #next()} decodes it.
 */
final class LineSource implements AutoCloseable {
  /** The longest line accepted. */
  static final int MAX_LINE_CHARS = 1 << 16;
  /**
   * A line of more bytes than this has more than {@link #MAX_LINE_CHARS} chars whatever its
   * content: UTF-8 decoding gives at least one char per 3 bytes (a malformed sequence is at most
   * 3 bytes for one U+FFFD).
   */
  private static final int MAX_LINE_BYTES = 3 * (MAX_LINE_CHARS + 1);

  private final String file;
  private final InputStream in;
  private final byte[] buf = new byte[1 << 16];
  /** A line that crosses the end of {@link #buf} is gathered here. */
  private byte[] join = new byte[256];
  private int pos;
  private int end;
  private long lineNo;
  private byte[] lineBytes;
  private int lineStart;
  private int lineEnd;

  LineSource(Path path) {
    this(path.toString(), TraceInput.open(path));
  }

  LineSource(String file, InputStream in) {
    this.file = file;
    this.in = in;
  }

  /** The file name used in errors. */
  String file() {
    return file;
  }

  /** The number of the line last returned by {@link #next()} or {@link #nextLine()}. */
  long lineNo() {
    return lineNo;
  }

  /** The next line without its terminator, or {@code null} at the end. */
  String next() {
    return nextLine() ? string() : null;
  }

  /**
   * Moves to the next line, leaving it in {@link #bytes()} from {@link #start()} to
   * {@link #end()} (without its terminator) until the next call; false at the end.
   */
  boolean nextLine() {
    int i = pos;
    byte[] b = buf;
    int e = end;
    while (i < e && b[i] != '\n') {
      i++;
    }
    if (i < e) {
      // The common case: the whole line is in the buffer.
      if (i - pos > MAX_LINE_CHARS) {
        checkLength(b, pos, i, true);
      }
      return found(b, pos, i, i + 1);
    }
    // The line crosses the end of the buffer (or the file ends): gather it.
    int n = 0;
    boolean any = false;
    try {
      while (true) {
        if (pos == end) {
          end = in.read(buf, 0, buf.length);
          pos = 0;
          if (end <= 0) {
            end = 0;
            if (!any) {
              return false;
            }
            checkLength(join, 0, n, true);
            return found(join, 0, n, 0);
          }
        }
        any = true;
        int start = pos;
        while (pos < end && buf[pos] != '\n') {
          pos++;
        }
        int len = pos - start;
        if (n + len > join.length) {
          join = java.util.Arrays.copyOf(join, Math.max(n + len, 2 * join.length));
        }
        System.arraycopy(buf, start, join, n, len);
        n += len;
        checkLength(join, 0, n, false);
        if (pos < end) {
          pos++;
          checkLength(join, 0, n, true);
          return found(join, 0, n, pos);
        }
      }
    } catch (IOException ex) {
      throw TraceInput.readError(file, ex);
    }
  }

  /**
   * Fails when {@code b[from, to)}, a line ({@code whole}) or its beginning, is longer than
   * {@link #MAX_LINE_CHARS} chars once decoded (the {@code \r} of a {@code \r\n} counts, as
   * before the line is cut).
   */
  private void checkLength(byte[] b, int from, int to, boolean whole) {
    int n = to - from;
    if (n <= MAX_LINE_CHARS) {
      return;
    }
    // A line's beginning may end inside a UTF-8 sequence: only the bound is exact for it.
    if (n > MAX_LINE_BYTES || whole
        && new String(b, from, n, StandardCharsets.UTF_8).length() > MAX_LINE_CHARS) {
      throw error(lineNo + 1, null, "line is longer than " + MAX_LINE_CHARS
          + " characters: this is not a text trace");
    }
  }

  private boolean found(byte[] b, int from, int to, int next) {
    if (b == buf) {
      pos = next;
    }
    lineNo++;
    if (to > from && b[to - 1] == '\r') {
      to--;
    }
    lineBytes = b;
    lineStart = from;
    lineEnd = to;
    return true;
  }

  /** The current line's bytes (valid until the next call of {@link #nextLine()}). */
  byte[] bytes() {
    return lineBytes;
  }

  /** Where the current line starts in {@link #bytes()}. */
  int start() {
    return lineStart;
  }

  /** Where the current line ends in {@link #bytes()} (exclusive, without its terminator). */
  int end() {
    return lineEnd;
  }

  /** The current line, decoded. */
  String string() {
    return new String(lineBytes, lineStart, lineEnd - lineStart, StandardCharsets.UTF_8);
  }

  /** Whether the current line is blank ({@link String#isBlank()} of its text). */
  boolean blank() {
    byte[] b = lineBytes;
    for (int i = lineStart; i < lineEnd; i++) {
      int c = b[i];
      if (c < 0) {
        return string().isBlank(); // not ASCII: Unicode's white space, decoded
      }
      if (!Character.isWhitespace(c)) {
        return false;
      }
    }
    return true;
  }

  /** An {@link InputException} for {@code line}, which may exceed an int. */
  InputException error(long atLine, String field, String rule) {
    return error(file, atLine, field, rule);
  }

  /** An {@link InputException} for {@code line} of {@code file}, which may exceed an int. */
  static InputException error(String file, long atLine, String field, String rule) {
    if (atLine > Integer.MAX_VALUE) {
      // A rule that starts with its field keeps it first, so that the field is named once.
      return field != null && rule.startsWith(field + " ")
          ? new InputException(file, 0, field,
              field + " at line " + atLine + rule.substring(field.length()))
          : new InputException(file, 0, field, "line " + atLine + ": " + rule);
    }
    return new InputException(file, (int) atLine, field, rule);
  }

  @Override
  public void close() {
    TraceInput.closeQuietly(in);
  }
}
