package blksim.workload.shell;

import java.util.ArrayList;
import java.util.List;

/**
 * One command of a scenario's {@code commands} list, parsed: what it does ({@link Kind}), its
 * argument, and whether bash's {@code time} keyword prefixes it.
 *
 * <p>The commands are the ones whose kernel side blksim models: {@code sync} (coreutils: the
 * {@code sync()} system call), {@code sync -f PATH} / {@code sync --file-system PATH}
 * ({@code syncfs()} of the filesystem holding PATH), {@code umount PATH} (util-linux: the
 * {@code umount()} system call on a mount point) and {@code sleep N[smhd]} (coreutils'
 * suffixes; fractions allowed). Anything else is refused by {@link #parse} with the rule.
 *
 * @param kind what the command does
 * @param argument its path, or the sleep duration in ns as a decimal string
 * @param timed whether bash's {@code time} prefixes it
 * @param text the command as written (trimmed)
 */
public record ShellCommand(Kind kind, String argument, boolean timed, String text) {
  /** The commands the model runs. */
  public enum Kind {
    SYNC,
    SYNCFS,
    UMOUNT,
    SLEEP
  }

  /** The argument of a {@link Kind#SLEEP} in ns. */
  public long sleepNs() {
    return Long.parseLong(argument);
  }

  /**
   * Parses one command.
   *
   * @throws IllegalArgumentException with the rule broken, for the caller to place in its file
   */
  public static ShellCommand parse(String line) {
    String text = line.trim();
    List<String> words = new ArrayList<>(List.of(text.isEmpty() ? new String[0]
        : text.split("\\s+")));
    boolean timed = !words.isEmpty() && words.get(0).equals("time");
    if (timed) {
      words.remove(0);
    }
    if (words.isEmpty()) {
      throw new IllegalArgumentException("empty command" + (timed ? " after 'time'" : ""));
    }
    String cmd = words.get(0);
    List<String> args = words.subList(1, words.size());
    switch (cmd) {
      case "sync":
        if (args.isEmpty()) {
          return new ShellCommand(Kind.SYNC, "", timed, text);
        }
        if (args.size() == 2 && (args.get(0).equals("-f") || args.get(0).equals("--file-system"))) {
          return new ShellCommand(Kind.SYNCFS, absolute(cmd, args.get(1)), timed, text);
        }
        throw new IllegalArgumentException("'" + text + "': sync takes no argument (sync()) or"
            + " -f PATH (syncfs() of the filesystem holding PATH); fsync of single files is not"
            + " modelled as a command");
      case "umount":
        if (args.size() != 1 || args.get(0).startsWith("-")) {
          throw new IllegalArgumentException("'" + text + "': umount takes one mount point and"
              + " no options");
        }
        return new ShellCommand(Kind.UMOUNT, absolute(cmd, args.get(0)), timed, text);
      case "sleep":
        if (args.isEmpty()) {
          throw new IllegalArgumentException("'" + text + "': sleep needs a duration");
        }
        long ns = 0;
        for (String a : args) {
          ns = Math.addExact(ns, sleepArg(text, a));
        }
        return new ShellCommand(Kind.SLEEP, Long.toString(ns), timed, text);
      default:
        throw new IllegalArgumentException("'" + text + "': " + cmd + " is not a command blksim"
            + " runs; the commands are sync, sync -f PATH, umount PATH and sleep N, each"
            + " optionally after 'time'");
    }
  }

  private static String absolute(String cmd, String path) {
    if (!path.startsWith("/")) {
      throw new IllegalArgumentException(cmd + ": path '" + path + "' must be absolute");
    }
    return path;
  }

  /** coreutils sleep: a number, optionally fractional, with an optional s, m, h or d. */
  private static long sleepArg(String text, String a) {
    double unit = 1e9;
    String num = a;
    char last = a.isEmpty() ? ' ' : a.charAt(a.length() - 1);
    switch (last) {
      case 's' -> num = a.substring(0, a.length() - 1);
      case 'm' -> {
        unit = 60e9;
        num = a.substring(0, a.length() - 1);
      }
      case 'h' -> {
        unit = 3600e9;
        num = a.substring(0, a.length() - 1);
      }
      case 'd' -> {
        unit = 86400e9;
        num = a.substring(0, a.length() - 1);
      }
      default -> { }
    }
    double v;
    try {
      if (!num.matches("[0-9]*\\.?[0-9]+|[0-9]+\\.")) {
        throw new NumberFormatException();
      }
      v = Double.parseDouble(num);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "': sleep: invalid time interval '" + a
          + "' (a number with an optional s, m, h or d suffix)");
    }
    double ns = v * unit;
    if (ns > 1e18) {
      throw new IllegalArgumentException("'" + text + "': sleep: '" + a + "' is too long");
    }
    return Math.round(ns);
  }
}
