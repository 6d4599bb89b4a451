package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The second acceptance corpus of the fio-compatibility issue (item 11): fio's own regression
 * job files, {@code t/jobs/*.fio} (kept, GPL-2.0, in {@code src/test/resources/fio-t-jobs} with
 * fio's COPYING), each run alone as {@link FioExamplesTest} runs fio's examples,
 * {@code ./blksim run FILE --set max-time=20ms}, and checked against that directory's
 * {@code EXPECTED.tsv}. fio's own runner ({@code t/run-fio-tests.py}) runs some of them after a
 * {@code -pre} job and checks their output; here every file runs on its own, in name order in
 * one working directory, so a file that reads its {@code -pre} file's {@code write_iolog}
 * (t0031) finds it, and a {@code -post} file that needs other state of its {@code -pre} run is
 * refused as fio would refuse it alone. Regenerate with {@code -Dblksim.fioTJobs.update=true}, which also writes the
 * README's table.
 */
@Timeout(600)
class FioTJobsTest {
  static final Path DIR = Path.of("src/test/resources/fio-t-jobs");
  static final Path EXPECTED = DIR.resolve("EXPECTED.tsv");
  static final String BEGIN = "<!-- fio-t-jobs:begin -->";
  static final String END = "<!-- fio-t-jobs:end -->";

  @TempDir Path tmp;

  @Test
  void everyFioTJob_runsOrIsRefusedCleanly_asRecorded() throws IOException {
    List<FioExamplesTest.Outcome> got = new ArrayList<>();
    // write_iolog=NAME writes into the working directory, as fio does; a -pre file runs just
    // before its main file (sorted: "t0031-pre.fio" < "t0031.fio"), whose read_iolog then finds
    // that log, as fio's runner chains them. What the runs leave there is removed afterwards.
    Path cwd = Path.of("");
    java.util.Set<Path> before;
    try (java.util.stream.Stream<Path> l = Files.list(cwd.toAbsolutePath())) {
      before = new java.util.HashSet<>(l.toList());
    }
    try {
      for (Path job : FioExamplesTest.jobFiles(DIR)) {
        got.add(FioExamplesTest.run(job, tmp));
      }
    } finally {
      try (java.util.stream.Stream<Path> l = Files.list(cwd.toAbsolutePath())) {
        for (Path p : l.toList()) {
          if (!before.contains(p) && Files.isRegularFile(p)) {
            Files.delete(p);
          }
        }
      }
    }
    assertTrue(got.size() >= 40, "fio's t/jobs are there: " + got.size());
    FioExamplesTest.checkOrUpdate(got, EXPECTED, BEGIN, END, "blksim.fioTJobs.update",
        FioExamplesTest.END);
  }

  @Test
  void readmeTable_isTheRecordedOutcomes() throws IOException {
    String table = FioExamplesTest.readmeTable(
        new ArrayList<>(FioExamplesTest.expected(EXPECTED).values()), BEGIN, END);
    assertTrue(Files.readString(FioExamplesTest.README).contains(table),
        "the README's fio t/jobs table is " + EXPECTED + "; regenerate it");
  }
}
