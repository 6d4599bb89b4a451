package blksim.kernel.dm;

/**
 * A table line that {@code dmsetup create} would refuse: the message names the line (1-based,
 * counting every line of the table text, blank and comment lines included) and the field, in the
 * spirit of the target constructor's {@code ti->error}. The scenario loader turns it into an
 * input error at the matching line of the scenario file.
 */
public final class DmTableException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final int line;
  private final String field;

  /**
   * @param line 1-based line of the table text
   * @param field the field at fault ({@code start}, {@code len}, {@code target},
   *     {@code read delay}...)
   * @param message what is wrong, with the value seen
   */
  public DmTableException(int line, String field, String message) {
    super("table line " + line + ", " + field + ": " + message);
    this.line = line;
    this.field = field;
  }

  /** The 1-based line of the table text. */
  public int line() {
    return line;
  }

  /** The field at fault. */
  public String field() {
    return field;
  }
}
