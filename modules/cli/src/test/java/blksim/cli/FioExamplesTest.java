package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The acceptance corpus of the fio-compatibility issue: every job file of fio's own
 * {@code examples/} (kept, GPL-2.0, in {@code src/test/resources/fio-examples} with fio's
 * COPYING) is run as a user would, {@code ./blksim run FILE --set max-time=20ms}, and must do
 * what {@code EXPECTED.tsv} says: run (exit 0, fio's output with a status line), or be refused
 * with exit 2 and the recorded one-line reason. The README's table is that file. A change that
 * makes more files run regenerates both with {@code -Dblksim.fioExamples.update=true}; a change
 * that makes a file fail differently, or crash, fails here.
 */
@Timeout(600)
class FioExamplesTest {
  static final Path DIR = Path.of("src/test/resources/fio-examples");
  static final Path EXPECTED = DIR.resolve("EXPECTED.tsv");
  static final Path README = Path.of("../../README.md");
  static final String BEGIN = "<!-- fio-examples:begin -->";
  static final String END = "<!-- fio-examples:end -->";

  /**
   * What happened to one file: {@code runs}, {@code refused-engine}, {@code refused-by-fio} (fio
   * fails on it as well) or {@code refused}.
   */
  record Outcome(String file, String result, String reason) {
    String tsv() {
      return file + "\t" + result + "\t" + reason;
    }
  }

  @TempDir Path tmp;

  /** Runs one example; what it writes (fio's logs) goes into {@code --output DIR}. */
  static Outcome run(Path job, Path outDir) {
    return run(job, outDir, job.getFileName().toString(), "20ms");
  }

  /** Runs one job file under {@code name} (what the table shows) for {@code maxTime}. */
  static Outcome run(Path job, Path outDir, String name, String maxTime) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.execute(new String[] {"run", job.toString(), "--host", "local", "--set",
        "max-time=" + maxTime, "--output", outDir.resolve(name.replace('/', '_')).toString()},
        new PrintWriter(out), new PrintWriter(err));
    if (code == 0) {
      assertTrue(out.toString().contains("Run status group 0 (all jobs):"),
          name + " ran without fio's status line:\n" + out);
      return new Outcome(name, "runs", "");
    }
    assertEquals(2, code, name + ": exit " + code + ", not a clean refusal:\n" + err);
    String reason = lastMessage(err.toString(), name);
    assertTrue(!reason.contains("Exception") && !reason.contains("\tat "),
        name + ": a stack trace:\n" + err);
    return new Outcome(name, reason.contains("ioengine=") && reason.contains("is not modelled")
        ? "refused-engine" : fioRefusesToo(reason) ? "refused-by-fio" : "refused", reason);
  }

  /**
   * Whether blksim's reason says that fio itself fails on the file as it stands (an option fio
   * does not know, a value fio cannot parse): such a file is no fio job file to run unchanged.
   */
  static boolean fioRefusesToo(String reason) {
    return reason.contains("(fio refuses it too:") || reason.contains("fio fails the same way");
  }

  /** The error line, without the {@code blksim: } prefix and the file's directory. */
  static String lastMessage(String err, String name) {
    String last = "";
    for (String line : err.split("\n")) {
      if (line.startsWith("blksim: ") && !line.startsWith("blksim:   ")
          && !line.contains("is a fio job file")) {
        last = line.substring("blksim: ".length());
      }
    }
    int at = last.indexOf(name + ":");
    if (at >= 0) {
      last = last.substring(at);
    }
    return last.replace('\t', ' ');
  }

  static List<Path> examples() throws IOException {
    return jobFiles(DIR);
  }

  /** The job files ({@code *.fio}, {@code *.job}) of a corpus directory, sorted. */
  static List<Path> jobFiles(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.toString().endsWith(".fio") || p.toString().endsWith(".job"))
          .sorted().toList();
    }
  }

  static Map<String, Outcome> expected() throws IOException {
    return expected(EXPECTED);
  }

  /** An {@code EXPECTED.tsv}: file, result, reason. */
  static Map<String, Outcome> expected(Path tsv) throws IOException {
    Map<String, Outcome> m = new LinkedHashMap<>();
    for (String line : Files.readAllLines(tsv, StandardCharsets.UTF_8)) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] f = line.split("\t", -1);
      m.put(f[0], new Outcome(f[0], f[1], f.length > 2 ? f[2] : ""));
    }
    return m;
  }

  private static String are(long n) {
    return n == 1 ? " is" : " are";
  }

  static String readmeTable(List<Outcome> all) {
    return readmeTable(all, BEGIN, END);
  }

  /** The README's table of a corpus between its markers: a count line, then file and result. */
  static String readmeTable(List<Outcome> all, String begin, String end) {
    long runs = all.stream().filter(o -> o.result().equals("runs")).count();
    long engine = all.stream().filter(o -> o.result().equals("refused-engine")).count();
    long byFio = all.stream().filter(o -> o.result().equals("refused-by-fio")).count();
    StringBuilder b = new StringBuilder(begin).append('\n');
    b.append(all.size()).append(" job files: ").append(runs).append(" run unchanged, ")
        .append(engine).append(are(engine)).append(" refused for an engine blksim does not model, ")
        .append(byFio).append(are(byFio)).append(" refused as fio itself refuses them, ")
        .append(all.size() - runs - engine - byFio).append(are(all.size() - runs - engine - byFio))
        .append(" refused for another reason.\n\n");
    b.append("| file | result |\n|---|---|\n");
    for (Outcome o : all) {
      String r = switch (o.result()) {
        case "runs" -> "runs";
        default -> "refused: " + o.reason().replace("|", "\\|");
      };
      b.append("| `").append(o.file()).append("` | ").append(r).append(" |\n");
    }
    return b.append(end).toString();
  }

  @Test
  void everyFioExample_runsOrIsRefusedCleanly_asRecorded() throws IOException {
    List<Outcome> got = new ArrayList<>();
    for (Path job : examples()) {
      got.add(run(job, tmp));
    }
    assertTrue(got.size() >= 100, "fio's examples are there: " + got.size());
    checkOrUpdate(got, EXPECTED, BEGIN, END, "blksim.fioExamples.update", null);
  }

  /**
   * Compares a corpus's outcomes with its {@code EXPECTED.tsv}; with the system property
   * {@code update} set, first rewrites that file and the README's table between the markers
   * (inserted after {@code insertAfter} when the README has none yet).
   */
  static void checkOrUpdate(List<Outcome> got, Path expectedTsv, String begin, String end,
      String update, String insertAfter) throws IOException {
    if (Boolean.getBoolean(update)) {
      String writer = switch (update) {
        case "blksim.fioExamples.update" -> "FioExamplesTest";
        case "blksim.fioTJobs.update" -> "FioTJobsTest";
        default -> "FioCorpusTest";
      };
      StringBuilder b = new StringBuilder("# file\tresult\treason (written by " + writer
          + "; see SOURCE.md)\n");
      got.forEach(o -> b.append(o.tsv()).append('\n'));
      Files.writeString(expectedTsv, b.toString());
      String readme = Files.readString(README);
      int from = readme.indexOf(begin);
      int to = readme.indexOf(end);
      if (from < 0 && insertAfter != null && readme.contains(insertAfter)) {
        int at = readme.indexOf(insertAfter) + insertAfter.length();
        readme = readme.substring(0, at) + "\n\n" + begin + "\n" + end + readme.substring(at);
        from = readme.indexOf(begin);
        to = readme.indexOf(end);
      }
      assertTrue(from >= 0 && to > from, "the README has the table's markers " + begin);
      Files.writeString(README, readme.substring(0, from) + readmeTable(got, begin, end)
          + readme.substring(to + end.length()));
    }
    Map<String, Outcome> want = expected(expectedTsv);
    List<String> diffs = new ArrayList<>();
    for (Outcome o : got) {
      Outcome w = want.get(o.file());
      if (w == null || !w.equals(o)) {
        diffs.add(o.file() + ": recorded " + (w == null ? "nothing" : w.tsv()) + "\n   now "
            + o.tsv());
      }
    }
    assertTrue(diffs.isEmpty(), "job files changed (regenerate with -D" + update
        + "=true if intended):\n" + String.join("\n", diffs));
    assertEquals(want.keySet(), new java.util.LinkedHashSet<>(got.stream().map(Outcome::file)
        .toList()), expectedTsv + " lists exactly the job files");
  }

  @Test
  void readmeTable_isTheRecordedOutcomes() throws IOException {
    String table = readmeTable(new ArrayList<>(expected().values()));
    assertTrue(Files.readString(README).contains(table),
        "the README's fio examples table is EXPECTED.tsv; regenerate it");
  }
}
