package blksim.cli;

import blksim.engine.InputException;
import blksim.workload.fio.FioJob;
import blksim.workload.fio.stats.FioLogOptions;
import blksim.workload.fio.stats.FioLogWriter;
import blksim.workload.fio.stats.JobStats;
import blksim.workload.fio.stats.RunResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * fio's per-I/O log files of a run ({@code write_lat_log}, {@code write_bw_log},
 * {@code write_iops_log}), as fio names them ({@code PREFIX_TYPE.N.log}, N the job's number),
 * relative to {@code --output DIR} when given, else to the current directory as fio writes them.
 * Checked before the run (a missing directory is an input error), written after it.
 */
final class FioLogFiles {
  private FioLogFiles() {}

  /**
   * Refuses, before anything runs, a log whose directory does not exist ({@code created}, the
   * {@code --output} directory or null, counts as existing: it is created before the logs).
   */
  static void check(List<FioJob> jobs, Path base, Path created) {
    Path made = created == null ? null : created.toAbsolutePath().normalize();
    for (int k = 0; k < jobs.size(); k++) {
      FioJob j = jobs.get(k);
      FioLogOptions o = j.logOptions();
      if (o == null) {
        continue;
      }
      for (var f : FioLogWriter.files(o, j.name(), k + 1).entrySet()) {
        String name = f.getKey();
        Path parent = base.resolve(name).toAbsolutePath().normalize().getParent();
        if (parent != null && !Files.isDirectory(parent) && !parent.equals(made)) {
          throw j.error(f.getValue(), f.getValue() + " puts the log " + name
              + " into " + parent + ", which does not exist");
        }
      }
    }
  }

  /** Writes every job's logs; returns the files written. */
  static List<Path> write(List<FioJob> jobs, RunResult r, Path base) throws IOException {
    List<Path> out = new ArrayList<>();
    List<JobStats> stats = r.jobs();
    for (int k = 0; k < jobs.size() && k < stats.size(); k++) {
      FioJob j = jobs.get(k);
      FioLogOptions o = j.logOptions();
      if (o == null) {
        continue;
      }
      JobStats st = stats.get(k);
      for (Path f : FioLogWriter.write(base, o, j.name(), k + 1, st, st.endNs())) {
        if (!out.contains(f)) { // per_job_logs=0: jobs of one name share a file
          out.add(f);
        }
      }
    }
    return out;
  }
}
