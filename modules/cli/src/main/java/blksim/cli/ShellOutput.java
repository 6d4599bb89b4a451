package blksim.cli;

import blksim.workload.shell.ShellReport;
import java.util.Locale;

/**
 * The scenario's {@code commands} in a run's output: each command after a {@code $ } prompt,
 * the message a failing tool prints, and for a command under {@code time} bash's report
 * ({@code real}, {@code user}, {@code sys} in its default {@code TIMEFORMAT}); in the JSON a
 * {@code commands} array with each command's times in ns and its exit status.
 */
final class ShellOutput {
  private ShellOutput() {}

  /** The commands as a terminal would show them. */
  static String text(ShellReport r) {
    StringBuilder sb = new StringBuilder();
    for (ShellReport.Result c : r.results()) {
      sb.append("$ ").append(c.command()).append('\n');
      if (!c.finished()) {
        sb.append("# blksim: still running when the run ended (max-time)\n");
        continue;
      }
      if (!c.message().isEmpty()) {
        sb.append(c.message()).append('\n');
      }
      if (c.timed()) {
        sb.append('\n');
        sb.append("real\t").append(bashTime(c.elapsedNs())).append('\n');
        sb.append("user\t").append(bashTime(c.userNs())).append('\n');
        sb.append("sys\t").append(bashTime(c.sysNs())).append('\n');
      }
    }
    return sb.toString();
  }

  /** bash's {@code %3lR}: minutes and seconds with three decimals ({@code 29m3.000s}). */
  static String bashTime(long ns) {
    long ms = Math.round(ns / 1e6);
    return String.format(Locale.ROOT, "%dm%d.%03ds", ms / 60_000, (ms / 1000) % 60, ms % 1000);
  }

  /** Adds the {@code commands} array to the run's JSON. */
  static String addToJson(String json, ShellReport r) {
    StringBuilder sb = new StringBuilder("{\n\"commands\" : [\n");
    for (int i = 0; i < r.results().size(); i++) {
      ShellReport.Result c = r.results().get(i);
      sb.append(String.format(Locale.ROOT, "{\n\"command\" : \"%s\",\n\"finished\" : %b,\n"
          + "\"start_ns\" : %d,\n\"elapsed_ns\" : %d,\n\"real_s\" : %.6f,\n\"user_ns\" : %d,\n"
          + "\"sys_ns\" : %d,\n\"status\" : %d,\n\"message\" : \"%s\"\n}",
          escape(c.command()), c.finished(), c.startNs(), c.elapsedNs(), c.elapsedNs() / 1e9,
          c.userNs(), c.sysNs(), c.status(), escape(c.message())));
      sb.append(i + 1 < r.results().size() ? ",\n" : "\n");
    }
    sb.append("]");
    // The last unmount as time(1) reports it, with what the kernel did during it.
    for (int i = r.results().size() - 1; i >= 0; i--) {
      ShellReport.Result c = r.results().get(i);
      if (c.command().matches("(time\\s+)?umount\\s.*") && c.finished()) {
        sb.append(String.format(Locale.ROOT, ",\n\"umount\" : {\n\"command\" : \"%s\",\n"
            + "\"real_ns\" : %d,\n\"user_ns\" : %d,\n\"sys_ns\" : %d,\n\"real\" : \"%s\"%s\n}",
            escape(c.command()), c.elapsedNs(), c.userNs(), c.sysNs(), bashTime(c.elapsedNs()),
            c.detailJson().isEmpty() ? "" : ",\n" + c.detailJson()));
        break;
      }
    }
    sb.append("\n}");
    return WqReport.splice(json, sb.toString());
  }

  private static String escape(String s) {
    return s.replace("\\", "\\\\").replace("\"", "\\\"");
  }
}
