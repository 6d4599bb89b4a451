package blksim.workload.trace;

import java.nio.file.Path;

/**
 * The common loop of the line-per-record readers: blank lines are skipped, an optional header row
 * on the first non-blank line is skipped, and every other line is handed to {@link #parse}.
 */
abstract class LineTraceReader implements TraceReader {
  protected final LineSource lines;
  protected final Fields fields;
  private final String headerFirstField;
  private boolean firstSeen;

  /**
   * @param headerFirstField the first column name of the format's header row (compared without
   *     case), or {@code null} when the format has none
   */
  LineTraceReader(Path path, String headerFirstField) {
    this.lines = new LineSource(path);
    this.fields = new Fields(lines.file());
    this.headerFirstField = headerFirstField;
  }

  @Override
  public TraceRecord next() {
    while (lines.nextLine()) {
      if (lines.blank()) {
        continue;
      }
      if (!firstSeen) {
        firstSeen = true;
        if (headerFirstField != null && isHeader(lines.string(), headerFirstField)) {
          continue;
        }
      }
      TraceRecord r = parseLine(lines.lineNo());
      if (r != null) {
        return r;
      }
    }
    return null;
  }

  /**
   * The record of the current non-blank line of {@link #lines}, or {@code null} when it holds
   * none: {@link #parse} of its text, unless a reader parses the bytes.
   */
  protected TraceRecord parseLine(long lineNo) {
    return parse(lines.string(), lineNo);
  }

  /** Whether {@code line} starts with the column name {@code first} followed by a comma. */
  static boolean isHeader(String line, String first) {
    String t = line.strip();
    return t.regionMatches(true, 0, first, 0, first.length())
        && t.length() > first.length() && t.charAt(first.length()) == ',';
  }

  /** The record of one non-blank line, or {@code null} when the line holds none. */
  protected abstract TraceRecord parse(String line, long lineNo);

  @Override
  public void close() {
    lines.close();
  }
}
