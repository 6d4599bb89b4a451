package blksim.cli;

import blksim.report.fsmark.FsMarkJsonReporter;
import blksim.report.fsmark.FsMarkTextReporter;
import blksim.workload.fio.stats.CpuUtil;
import blksim.workload.fio.stats.RunResult;
import blksim.workload.fsmark.FsMarkRunReport;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;

/**
 * fs_mark's part of a run's output: each instance's own text output (header and per-iteration
 * table) and, in the JSON, an {@code fs_mark} array with each instance's JSON form plus the
 * simulated elapsed time of the run ({@code elapsed_ns}, {@code elapsed_s}) and the machine's
 * context switches per second over it ({@code cs_per_sec}, vmstat's {@code cs} column).
 */
final class FsMarkOutput {
  /** fs_mark's clock at virtual time 0 (see ScenarioModelFactory): 2015-09-01 00:00:00 UTC. */
  static final LocalDateTime EPOCH = LocalDateTime.of(2015, 9, 1, 0, 0, 0);

  private FsMarkOutput() {}

  static String date(FsMarkRunReport r) {
    return FsMarkTextReporter.ctime(EPOCH.plusNanos(r.startNs()).atOffset(ZoneOffset.UTC)
        .toLocalDateTime());
  }

  /** Each instance's fs_mark text output, one after the other. */
  static String text(List<FsMarkRunReport> runs) {
    StringBuilder sb = new StringBuilder();
    for (FsMarkRunReport r : runs) {
      sb.append(FsMarkTextReporter.render(r.result(), date(r), false));
      sb.append(String.format(Locale.ROOT, "# blksim: fs_mark ran %.3f s of simulated time%n",
          r.elapsedNs() / 1e9));
    }
    return sb.toString();
  }

  /** Adds the {@code fs_mark} array to the run's JSON. */
  static String addToJson(String json, List<FsMarkRunReport> runs, RunResult r) {
    long ctx = 0;
    for (CpuUtil c : r.cpus()) {
      ctx += c.contextSwitches();
    }
    long simNs = r.engine() == null ? 0 : r.engine().simulatedTimeNs();
    StringBuilder sb = new StringBuilder("{\n\"fs_mark\" : [\n");
    for (int i = 0; i < runs.size(); i++) {
      FsMarkRunReport run = runs.get(i);
      String one = FsMarkJsonReporter.render(run.result(), date(run));
      String extra = String.format(Locale.ROOT, "{\n\"elapsed_ns\" : %d,\n\"elapsed_s\" : %.6f,"
          + "\n\"cs_per_sec\" : %.6f\n}", run.elapsedNs(), run.elapsedNs() / 1e9,
          simNs == 0 ? 0.0 : ctx * 1e9 / simNs);
      sb.append(WqReport.splice(one, extra).trim());
      sb.append(i + 1 < runs.size() ? ",\n" : "\n");
    }
    sb.append("]\n}");
    return WqReport.splice(json, sb.toString());
  }
}
