package blksim.workload.fio;

import blksim.engine.InputException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * fio's job options from the command line ({@code --opt=value}, {@code --flag}) as job-file
 * text, the way fio's {@code parse_cmd_line()} takes them: options before the first
 * {@code --name} are {@code [global]}, each {@code --name=N} starts job N ({@code --name=global}
 * the global section). Each line remembers the option it came from, so that an error about a
 * line is restated as the option the user typed ({@link #restate}).
 */
public final class FioCommandLineText {
  /** The name the text goes by in errors before they are restated. */
  public static final String NAME = "fio command line";

  private final List<String> lines = new ArrayList<>();
  /** The option each line came from (null for a section header fio adds). */
  private final List<String> origin = new ArrayList<>();

  private FioCommandLineText() {}

  /**
   * The text of {@code options}.
   *
   * @throws InputException naming the option, for one that is not {@code --opt[=value]}, a
   *     {@code --name} without a value, or a value with a line break
   */
  public static FioCommandLineText of(List<String> options) {
    FioCommandLineText c = new FioCommandLineText();
    for (String a : options) {
      if (!a.startsWith("--") || a.length() == 2 || a.charAt(2) == '=') {
        throw new InputException(null, 0, a, "not an option: fio's job options are given as"
            + " --option=value or --flag");
      }
      int eq = a.indexOf('=');
      String key = (eq < 0 ? a.substring(2) : a.substring(2, eq)).trim();
      String value = eq < 0 ? null : a.substring(eq + 1);
      if (value != null && (value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0)) {
        throw new InputException(null, 0, a, "a value on the command line holds no line break");
      }
      if (key.equals("name")) {
        if (value == null || value.isBlank()) {
          throw new InputException(null, 0, a, "fio: option name requires an argument");
        }
        c.lines.add("[" + value.trim() + "]");
        c.origin.add(a);
        continue;
      }
      if (c.lines.isEmpty()) {
        c.lines.add("[global]");
        c.origin.add(null);
      }
      c.lines.add(value == null ? key : key + "=" + value);
      c.origin.add(a);
    }
    return c;
  }

  /** The job-file text. */
  public String text() {
    return String.join("\n", lines) + "\n";
  }

  /** Whether the options define a job of their own ({@code --name} other than global). */
  public boolean hasJob() {
    for (String l : lines) {
      if (l.startsWith("[") && !l.toLowerCase(Locale.ROOT).equals("[global]")) {
        return true;
      }
    }
    return false;
  }

  /** {@code e} restated by {@link #restateLine} if it is about this text ({@link #NAME}). */
  public InputException restate(InputException e) {
    return NAME.equals(e.file()) ? restateLine(e) : e;
  }

  /**
   * {@code e}, an error about line {@code e.line()} of this text (under whatever name it was
   * parsed), restated as the option typed: the option stands for the key; a rule that starts
   * with the key loses it ("--bs=100: must be a positive multiple of 512"), one that starts with
   * {@code KEY=VALUE} starts with the option instead ("--bsx=1 is an unknown fio option"), so
   * that the message names the option once.
   */
  public InputException restateLine(InputException e) {
    int i = e.line() - 1;
    String opt = i >= 0 && i < origin.size() ? origin.get(i) : null;
    if (opt == null || opt.startsWith("--name=") && !"name".equals(e.key())) {
      // a section's line (a job-level rule about another key): the key as the rule names it
      return new InputException(NAME, 0, e.key(), e.rule());
    }
    String scope = InputException.scope(e.rule());
    String rule = scope == null ? e.rule() : e.rule().substring(scope.length());
    String k = e.key();
    if (k != null && rule.startsWith(k + " ")) {
      rule = rule.substring(k.length() + 1);
    } else if (k != null && rule.startsWith(k + "=") && ("--" + rule).startsWith(opt + " ")) {
      rule = "--" + rule;
    }
    return new InputException(NAME, 0, opt, scope == null ? rule : scope + rule);
  }
}
