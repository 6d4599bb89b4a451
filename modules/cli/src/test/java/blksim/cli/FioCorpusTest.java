package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The third acceptance corpus of the fio-compatibility issue (item 11): job files that other
 * public projects ship (SPDK, Ceph, PerfKitBenchmarker, Longhorn's kbench, Kata Containers),
 * kept unchanged in {@code src/test/resources/fio-corpus/PROJECT/} with each project's licence
 * and a {@code SOURCE.md} (repository, commit, path). Each runs alone, as
 * {@link FioExamplesTest} runs fio's examples, {@code ./blksim run FILE --set max-time=20ms},
 * and must do what {@code fio-corpus/EXPECTED.tsv} records: run, or be refused for an engine
 * blksim does not model, as fio itself would refuse it (run alone, without the command-line
 * options or the environment its project's scripts add), or for another reason. A file whose
 * name ends in {@code -include.fio} is another file's {@code include} and is not run by itself.
 * Regenerate with {@code -Dblksim.fioCorpus.update=true}, which also writes the README's table.
 */
@Timeout(600)
class FioCorpusTest {
  static final Path DIR = Path.of("src/test/resources/fio-corpus");
  static final Path EXPECTED = DIR.resolve("EXPECTED.tsv");
  static final String BEGIN = "<!-- fio-corpus:begin -->";
  static final String END = "<!-- fio-corpus:end -->";

  @TempDir Path tmp;

  /** The job files of every project folder, as {@code project/file}, sorted. */
  static List<Path> jobFiles() throws IOException {
    List<Path> all = new ArrayList<>();
    try (Stream<Path> projects = Files.list(DIR)) {
      for (Path p : projects.filter(Files::isDirectory).sorted().toList()) {
        for (Path f : FioExamplesTest.jobFiles(p)) {
          if (!f.getFileName().toString().endsWith("-include.fio")) {
            all.add(f);
          }
        }
      }
    }
    return all;
  }

  @Test
  void everyCorpusJob_runsOrIsRefusedCleanly_asRecorded() throws IOException {
    List<FioExamplesTest.Outcome> got = new ArrayList<>();
    // A job without filename= writes its files into the working directory, as fio does: the
    // simulated one, not this one; what a run leaves here anyway is removed afterwards.
    Path cwd = Path.of("").toAbsolutePath();
    java.util.Set<Path> before;
    try (Stream<Path> l = Files.list(cwd)) {
      before = new java.util.HashSet<>(l.toList());
    }
    try {
      for (Path job : jobFiles()) {
        String name = DIR.relativize(job).toString().replace('\\', '/');
        got.add(FioExamplesTest.run(job, tmp, name, "20ms"));
      }
    } finally {
      try (Stream<Path> l = Files.list(cwd)) {
        for (Path p : l.toList()) {
          if (!before.contains(p) && Files.isRegularFile(p)) {
            Files.delete(p);
          }
        }
      }
    }
    assertTrue(got.size() >= 20, "the corpus is there: " + got.size());
    FioExamplesTest.checkOrUpdate(got, EXPECTED, BEGIN, END, "blksim.fioCorpus.update",
        FioTJobsTest.END);
  }

  @Test
  void readmeTable_isTheRecordedOutcomes() throws IOException {
    String table = FioExamplesTest.readmeTable(
        new ArrayList<>(FioExamplesTest.expected(EXPECTED).values()), BEGIN, END);
    assertTrue(Files.readString(FioExamplesTest.README).contains(table),
        "the README's fio corpus table is " + EXPECTED + "; regenerate it");
  }
}
