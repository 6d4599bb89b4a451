package blksim.engine;

/**
 * A user's input broke a rule: a scenario key, a fio option, a trace line or a value out of range.
 *
 * <p>The message always names where the input came from (file and line when known), which key or
 * option, and the rule that was broken, so the CLI can print it as one line and exit with code 2.
 * It never carries a stack trace to the user.
 */
public final class InputException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String file;
  private final int line;
  private final String key;
  private final String rule;

  /**
   * @param file the file the input came from, or {@code null} (for example a {@code --set} override)
   * @param line 1-based line number, or 0 when unknown
   * @param key the key, option or field at fault, or {@code null}
   * @param rule what is wrong, phrased as the rule ("bs must be a positive multiple of 512, was 100")
   */
  public InputException(String file, int line, String key, String rule) {
    super(format(file, line, key, rule));
    this.file = file;
    this.line = line;
    this.key = key;
    this.rule = rule;
  }

  private static String format(String file, int line, String key, String rule) {
    StringBuilder sb = new StringBuilder();
    if (file != null) {
      sb.append(file);
      if (line > 0) {
        sb.append(':').append(line);
      }
      sb.append(": ");
    }
    String scope = scope(rule);
    if (scope != null) {
      // A fio job's cross-check names the job before its option: "job 'x': size ...".
      sb.append(scope);
      rule = rule.substring(scope.length());
    }
    String tail = key == null ? null : key.substring(key.lastIndexOf('.') + 1);
    if (key == null || namesKey(key, rule)) {
      sb.append(rule);
    } else if (!tail.equals(key) && !tail.isEmpty() && rule.startsWith(tail + " ")) {
      // A device's rule names the key by its last part ("nr-requests must be ..."): the message
      // says the whole key in its place ("blksim.devices.0.nr-requests must be ...").
      sb.append(key).append(rule, tail.length(), rule.length());
    } else {
      sb.append(key).append(": ").append(rule);
    }
    return sb.toString();
  }

  /**
   * The job a rule is about, {@code job 'NAME': } at its start (with the colon and space), or
   * {@code null}. A job-level refusal ({@code FioJob.error}) names its job there, before the
   * option, so that with several jobs in a file (or a {@code [global]} line they share) the
   * message says which job, and the option still comes once, first in what follows.
   */
  public static String scope(String rule) {
    if (rule == null || !rule.startsWith(JOB)) {
      return null;
    }
    int end = rule.indexOf("': ", JOB.length());
    return end < 0 ? null : rule.substring(0, end + 3);
  }

  private static final String JOB = "job '";

  /**
   * Whether {@code rule} starts by naming {@code key}, so that the message does not put the key
   * in front of it again: with {@code KEY=} ("ioengine=posixaio is not modelled ...", "bsx=1 is
   * an unknown fio option ...") or with the key as its first word ("bs must be a positive
   * multiple of 512, was 100", "blksim.machine.cores-per-llc must be in [1, 4096], was 0", "time
   * must be seconds.nanoseconds, was 'x'"). Any other rule gets the key in front ("iodepth: must
   * not be negative, was -1"); a rule names its key either first or not at all, so that every
   * message names it once.
   */
  public static boolean namesKey(String key, String rule) {
    String scope = scope(rule);
    if (scope != null) {
      rule = rule.substring(scope.length());
    }
    return rule.startsWith(key + "=") || rule.startsWith(key + " ");
  }

  /** The file the bad input came from, or {@code null}. */
  public String file() {
    return file;
  }

  /** The 1-based line of the bad input, or 0 when unknown. */
  public int line() {
    return line;
  }

  /** The key or option at fault, or {@code null}. */
  public String key() {
    return key;
  }

  /** The rule that was broken. */
  public String rule() {
    return rule;
  }
}
