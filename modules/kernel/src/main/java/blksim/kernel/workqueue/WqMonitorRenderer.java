package blksim.kernel.workqueue;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.regex.Pattern;

/**
 * Prints a {@link WqMonitorSnapshot} as tools/workqueue/wq_monitor.py does: the table (a blank
 * line, the header, one line per workqueue, in allocation order) or, for {@code -j}, one Python
 * dict per workqueue. Workqueues can be filtered by a regex as the script's arguments do.
 *
 * <p>Column rules: {@code infl} is started minus completed, floored at 0; {@code CPUtime} is
 * seconds with one decimal (Python's round-half-even on the exact binary value);
 * {@code CPUitsv} is "-" for unbound wqs; {@code CMW/RPR} shows repatriations for unbound wqs and
 * concurrency-management wakeups for per-CPU ones; {@code mayday} and {@code rescued} are "-"
 * without WQ_MEM_RECLAIM.
 */
public final class WqMonitorRenderer {
  private WqMonitorRenderer() {}

  /** {@code WqStats.table_header_str()}. */
  public static String header() {
    return String.format("%24s %8s %5s %8s %7s %7s %7s %7s", "", "total", "infl", "CPUtime",
        "CPUitsv", "CMW/RPR", "mayday", "rescued");
  }

  /** {@code WqStats.table_row_str()} (the trailing blank is the script's). */
  public static String row(WqMonitorSnapshot.Row r) {
    String cpuIntensive = "-";
    String cmwRpr;
    String mayday = "-";
    String rescued = "-";
    if (r.unbound()) {
      cmwRpr = Long.toString(r.stat(PwqStat.REPATRIATED));
    } else {
      cpuIntensive = Long.toString(r.stat(PwqStat.CPU_INTENSIVE));
      cmwRpr = Long.toString(r.stat(PwqStat.CM_WAKEUP));
    }
    if (r.memReclaim()) {
      mayday = Long.toString(r.stat(PwqStat.MAYDAY));
      rescued = Long.toString(r.stat(PwqStat.RESCUED));
    }
    String name = r.name();
    if (name.length() > WqConstants.WQ_MONITOR_NAME_WIDTH) {
      name = name.substring(name.length() - WqConstants.WQ_MONITOR_NAME_WIDTH);
    }
    return String.format("%-24s %8d %5d %8s %7s %7s %7s %7s ", name, r.total(), r.infl(),
        seconds(r.stat(PwqStat.CPU_TIME)), cpuIntensive, cmwRpr, mayday, rescued);
  }

  /** One iteration of the table output: a blank line, the header, the matching rows. */
  public static String table(WqMonitorSnapshot s, Pattern filter) {
    StringBuilder b = new StringBuilder("\n").append(header()).append('\n');
    for (WqMonitorSnapshot.Row r : s.rows()) {
      if (filter == null || filter.matcher(r.name()).find()) {
        b.append(row(r)).append('\n');
      }
    }
    return b.toString();
  }

  /** One iteration of {@code -j} output: {@code WqStats.dict(now)} printed per row. */
  public static String json(WqMonitorSnapshot s, Pattern filter) {
    StringBuilder b = new StringBuilder();
    String ts = timestamp(s.timeNs());
    for (WqMonitorSnapshot.Row r : s.rows()) {
      if (filter != null && !filter.matcher(r.name()).find()) {
        continue;
      }
      b.append("{'timestamp': ").append(ts)
          .append(", 'name': '").append(r.name().replace("\\", "\\\\").replace("'", "\\'"))
          .append("', 'unbound': ").append(r.unbound() ? "True" : "False")
          .append(", 'mem_reclaim': ").append(r.memReclaim() ? "True" : "False")
          .append(", 'started': ").append(r.stat(PwqStat.STARTED))
          .append(", 'completed': ").append(r.stat(PwqStat.COMPLETED))
          .append(", 'cpu_time': ").append(r.stat(PwqStat.CPU_TIME))
          .append(", 'cpu_intensive': ").append(r.stat(PwqStat.CPU_INTENSIVE))
          .append(", 'cm_wakeup': ").append(r.stat(PwqStat.CM_WAKEUP))
          .append(", 'repatriated': ").append(r.stat(PwqStat.REPATRIATED))
          .append(", 'mayday': ").append(r.stat(PwqStat.MAYDAY))
          .append(", 'rescued': ").append(r.stat(PwqStat.RESCUED))
          .append("}\n");
    }
    return b.toString();
  }

  /** {@code f'{us / 1000000:8.1f}'} with Python's rounding. */
  static String seconds(long us) {
    double v = us / 1_000_000.0;
    return new BigDecimal(v).setScale(1, RoundingMode.HALF_EVEN).toPlainString();
  }

  /** The sample time as a Python float literal, in seconds. */
  static String timestamp(long ns) {
    String s = BigDecimal.valueOf(ns).movePointLeft(9).stripTrailingZeros().toPlainString();
    return s.contains(".") ? s : s + ".0";
  }
}
