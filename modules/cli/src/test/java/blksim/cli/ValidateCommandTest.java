package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.cli.MainTest.Result;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code blksim validate} on small experiments written into a temporary scenarios directory, each
 * running the self-check scenario (5 ms of psync 4 KiB reads from a null_blk whose timer completes
 * each I/O after 10 us). Two facts of that scenario are used, both from its definition: a psync
 * read sleeps until its timer completion, so there is exactly one context switch per I/O
 * (ctx / total_ios = 1); and no read completes in less than 10 us, so 5 ms hold at most
 * 5 ms / 10 us = 500 of them.
 */
@Timeout(120)
class ValidateCommandTest {
  @TempDir Path tmp;

  private static final String SMALL = "small.conf";
  private static final String CTX_PER_IO = "jobs.0.ctx / jobs.0.read.total_ios";

  /** Writes experiment {@code name} with a copy of the self-check scenario; returns its folder. */
  private Path experiment(String name, String figures) throws IOException {
    Path dir = tmp.resolve(name);
    Files.createDirectories(dir);
    Files.copy(MainTest.resource("selfcheck/" + SMALL), dir.resolve(SMALL));
    Files.writeString(dir.resolve("published.conf"), "title = \"test\"\nfigures = [\n" + figures
        + "]\n");
    return dir;
  }

  private Result validate(String name) {
    return MainTest.cli("validate", "--host", "local", "--scenarios", tmp.toString(), name);
  }

  private static String figure(String scenario, String label, String metric, String rest) {
    return "  { scenario = \"" + scenario + "\", label = \"" + label + "\", metric = \"" + metric
        + "\"" + (rest.isEmpty() ? "" : ", " + rest) + " }\n";
  }

  /** The 1-based line of the first line of {@code file} that contains {@code text}. */
  private static int lineOf(Path file, String text) throws IOException {
    List<String> lines = Files.readAllLines(file);
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains(text)) {
        return i + 1;
      }
    }
    throw new AssertionError(text + " not in " + file);
  }

  /** A table line split back into its cells (columns are two or more spaces apart). */
  private static String[] cells(String line) {
    return line.strip().split(" {2,}");
  }

  @Test
  void bounds_passAndFail_showTheBoundWithoutRatioOrTolerance_andAreCounted() throws IOException {
    experiment("bounds", figure(SMALL, "ios", "jobs.0.read.total_ios", "max = 500")
        + figure(SMALL, "ctx range", CTX_PER_IO, "min = 0.5, max = 1.5")
        + figure(SMALL, "ctx floor", CTX_PER_IO, "min = 2, kind = validation"));
    Result r = validate("bounds");
    assertEquals(1, r.code(), "the >= 2 bound fails: " + r.out() + r.err());
    List<String> lines = r.out().lines().toList();
    // at most 500 I/Os in 5 ms (see the class comment)
    assertEquals(List.of("bounds", SMALL, "ios", "<= 500"), List.of(cells(lines.get(1)))
        .subList(0, 4), lines.get(1));
    assertEquals(List.of("-", "-", "PASS (bound)"), List.of(cells(lines.get(1))).subList(5, 8));
    // ctx per I/O is 1: inside 0.5..1.5, below 2
    assertEquals(List.of("0.5..1.5", "1.000", "-", "-", "PASS (bound)"),
        List.of(cells(lines.get(2))).subList(3, 8), lines.get(2));
    assertEquals(List.of(">= 2", "1.000", "-", "-", "FAIL (bound)"),
        List.of(cells(lines.get(3))).subList(3, 8), lines.get(3));
    assertEquals("", lines.get(4));
    assertEquals("bounds: 2 of 3 compared figures within tolerance, 0 predictions", lines.get(5));
    assertEquals("  FAIL small.conf ctx floor: simulated 1.000 is outside the published bound"
        + " >= 2", lines.get(6));
    assertEquals(7, lines.size(), r.out());
  }

  @Test
  void aDirectoryWithoutExperiments_exits2_notAPass() throws IOException {
    Files.createDirectories(tmp.resolve("empty"));
    MainTest.Result r = MainTest.cli("validate", "--host", "local", "--scenarios",
        tmp.resolve("empty").toString());
    assertEquals(2, r.code(), r.out() + r.err());
    assertTrue(r.err().startsWith("blksim: ") && r.err().contains("--scenarios: no reference"
        + " experiment"), r.err());
    assertEquals(1, r.err().strip().lines().count(), r.err());
  }

  @Test
  void aBoundThatHolds_exitsZero() throws IOException {
    experiment("ok", figure(SMALL, "ios", "jobs.0.read.total_ios", "max = 500, min = 1"));
    Result r = validate("ok");
    assertEquals(0, r.code(), r.out() + r.err());
    assertTrue(r.out().contains("ok: 1 of 1 compared figures within tolerance, 0 predictions"),
        r.out());
  }

  @Test
  void longScenarioAndLabel_keepEveryColumnTwoSpacesFromTheNext() throws IOException {
    String longScenario = "a-scenario-whose-file-name-is-far-longer-than-any-column-of-a-fixed"
        + "-width-table.conf";
    String longLabel = "a label of sixty characters or more, with single spaces in it";
    Path dir = experiment("columns-experiment-with-a-long-name",
        figure(longScenario, longLabel, "jobs.0.read.total_ios",
            "published = 1, tolerance = 1000000")
        + figure(SMALL, "ctx/io", CTX_PER_IO, "kind = prediction"));
    Files.copy(dir.resolve(SMALL), dir.resolve(longScenario));
    Result r = validate("columns-experiment-with-a-long-name");
    assertEquals(0, r.code(), r.out() + r.err());
    List<String> table = r.out().lines().toList().subList(0, 3);
    assertEquals(List.of("experiment", "scenario", "label", "published", "simulated", "ratio",
        "tol", "verdict"), List.of(cells(table.get(0))));
    String[] row = cells(table.get(1));
    assertEquals(8, row.length, table.get(1));
    assertEquals(List.of("columns-experiment-with-a-long-name", longScenario, longLabel, "1.000"),
        List.of(row).subList(0, 4));
    assertEquals("PASS", row[7]);
    String[] pred = cells(table.get(2));
    assertEquals(List.of(SMALL, "ctx/io", "(withheld)", "1.000", "-", "-", "PREDICTION"),
        List.of(pred).subList(1, 8), table.get(2));
    // Left-aligned columns start where their heading starts.
    assertEquals(table.get(0).indexOf("label"), table.get(1).indexOf(longLabel));
    assertEquals(table.get(0).indexOf("label"), table.get(2).indexOf("ctx/io"));
    assertEquals(table.get(0).indexOf("verdict"), table.get(1).indexOf("PASS"));
    assertEquals(table.get(0).indexOf("verdict"), table.get(2).indexOf("PREDICTION"));
  }

  /** A number operand is a constant: bw in KiB/s over 1024 is MiB/s; a bare path still fails. */
  @Test
  void metric_constantOperand_dividesByTheNumber() {
    java.util.Map<String, Object> json = java.util.Map.of("jobs", List.of(java.util.Map.of(
        "write", java.util.Map.of("bw", 2_355_857, "runtime", 2024))));
    assertEquals(2_355_857 / 1024.0, Metrics.evaluate(json, "jobs.0.write.bw / 1024", "p", 1));
    assertEquals(1.012, Metrics.evaluate(json, "jobs.0.write.runtime / 2000", "p", 1), 1e-12);
    assertEquals(2.5, Metrics.evaluate(json, "5 / 2.0", "p", 1));
    org.junit.jupiter.api.Assertions.assertThrows(blksim.engine.InputException.class,
        () -> Metrics.evaluate(json, "jobs.0.write.bw2 / 1024", "p", 1));
  }

  /** '/' divides with or without spaces; '-' stays part of a key; a missing operand is an error. */
  @Test
  void metric_quotientWithoutSpaces_isTheSameAsWithSpaces() {
    java.util.Map<String, Object> json = java.util.Map.of("jobs", List.of(java.util.Map.of(
        "ctx", 300, "read", java.util.Map.of("iops", 1500.0, "total_ios", 100))),
        "dm_zoned", java.util.Map.of("dmz_cwq_dmz-sdb", java.util.Map.of("n", 8)));
    double spaced = Metrics.evaluate(json, "jobs.0.ctx / jobs.0.read.total_ios", "p", 1);
    assertEquals(3.0, spaced);
    assertEquals(spaced, Metrics.evaluate(json, "jobs.0.ctx/jobs.0.read.total_ios", "p", 1));
    assertEquals(spaced, Metrics.evaluate(json, "jobs.0.ctx /jobs.0.read.total_ios", "p", 1));
    assertEquals(15.0, Metrics.evaluate(json, "jobs.0.read.iops/jobs.0.read.total_ios", "p", 1));
    // Left to right: (1500 / 100) / 3.
    assertEquals(5.0, Metrics.evaluate(json, "jobs.0.read.iops/jobs.0.read.total_ios/3", "p", 1));
    assertEquals(2.0, Metrics.evaluate(json, "dm_zoned.dmz_cwq_dmz-sdb.n/4", "p", 1));
    org.junit.jupiter.api.Assertions.assertThrows(blksim.engine.InputException.class,
        () -> Metrics.evaluate(json, "jobs.0.ctx/", "p", 1));
  }

  @Test
  void textTable_sizesColumnsFromTheirContents() {
    TextTable t = new TextTable(List.of("a", "n", "v"), false, true, false);
    t.add("xxxxxxxx", "1", "PASS (calibration)");
    t.add("y", "12345", "-");
    StringWriter s = new StringWriter();
    t.print(new PrintWriter(s, true));
    // widths 8, 5 and (last column, not padded) the cell itself; two spaces between columns
    assertEquals("a             n  v\n"
        + "xxxxxxxx      1  PASS (calibration)\n"
        + "y         12345  -\n", s.toString().replace(System.lineSeparator(), "\n"));
  }

  @Test
  void pinnedPredictions_secondTable_pinnedNextToCurrent_andNotPinned() throws IOException {
    Path dir = experiment("pin", figure(SMALL, "ios", "jobs.0.read.total_ios",
        "published = 1, tolerance = 1000000, kind = calibration")
        + figure(SMALL, "ctx/io", CTX_PER_IO, "kind = prediction")
        + figure(SMALL, "ctx/io moved", CTX_PER_IO, "kind = prediction")
        + figure(SMALL, "ios predicted", "jobs.0.read.total_ios", "kind = prediction"));
    Files.writeString(dir.resolve("predictions.conf"), """
        commit = "0123456789abcdef0123456789abcdef01234567"
        note = "written by the test"
        predictions = [
          { scenario = "small.conf", label = "ctx/io", value = 1.0 }
          { scenario = "small.conf", label = "ctx/io moved", value = 0.8 }
        ]
        """);
    Result r = validate("pin");
    assertEquals(0, r.code(), r.out() + r.err());
    List<String> lines = r.out().lines().toList();
    // the first table: header and one line per figure, eight columns each, nothing pinned in it
    for (int i = 0; i <= 4; i++) {
      assertEquals(8, cells(lines.get(i)).length, lines.get(i));
    }
    assertEquals("", lines.get(5));
    assertEquals("pin: 1 of 1 compared figures within tolerance, 3 predictions", lines.get(6));
    assertEquals("", lines.get(7));
    assertEquals(List.of("experiment", "scenario", "label", "pinned", "current",
        "current/pinned"), List.of(cells(lines.get(8))));
    // ctx per I/O is 1 (class comment): pinned 1.0 -> ratio 1/1 = 1; pinned 0.8 -> 1/0.8 = 1.25
    assertEquals(List.of("pin", SMALL, "ctx/io", "1.000 (0123456)", "1.000", "1.0000"),
        List.of(cells(lines.get(9))));
    assertEquals(List.of("pin", SMALL, "ctx/io moved", "0.8000 (0123456)", "1.000", "1.2500"),
        List.of(cells(lines.get(10))));
    String[] notPinned = cells(lines.get(11));
    assertEquals(List.of("pin", SMALL, "ios predicted", "not pinned"),
        List.of(notPinned).subList(0, 4), lines.get(11));
    assertEquals("-", notPinned[5]);
    assertEquals("", lines.get(12));
    assertEquals("pin: 2 of 3 predictions pinned at 0123456 (pin" + java.io.File.separator
        + "predictions.conf), 1 unchanged", lines.get(13));
    assertEquals("  MOVED small.conf ctx/io moved: current 1.000 is 1.2500 of pinned 0.8000",
        lines.get(14));
    assertEquals(15, lines.size(), r.out());
  }

  @Test
  void aMoveBelowFourDigits_printsTheDigitsThatDiffer() throws IOException {
    Path dir = experiment("nudge", figure(SMALL, "ios", "jobs.0.read.total_ios",
        "published = 1, tolerance = 1000000, kind = calibration")
        + figure(SMALL, "ctx/io", CTX_PER_IO, "kind = prediction"));
    Files.writeString(dir.resolve("predictions.conf"), """
        commit = "0123456789abcdef0123456789abcdef01234567"
        note = "written by the test"
        predictions = [
          { scenario = "small.conf", label = "ctx/io", value = 1.000001 }
        ]
        """);
    Result r = validate("nudge");
    assertEquals(0, r.code(), r.out() + r.err());
    assertTrue(r.out().contains("nudge: 1 of 1 predictions pinned at 0123456"), r.out());
    // 1.000 against 1.000 would say nothing: the line shows both values in full
    assertTrue(r.out().contains("  MOVED small.conf ctx/io: current 1.0 is 0.99999900 of pinned"
        + " 1.000001"), r.out());
  }

  @Test
  void withoutPredictionsConf_thereIsNoSecondTable() throws IOException {
    experiment("plain", figure(SMALL, "ctx/io", CTX_PER_IO, "kind = prediction"));
    Result r = validate("plain");
    assertEquals(0, r.code(), r.err());
    assertEquals(4, r.out().lines().count(), "table of two lines, blank, summary: " + r.out());
  }

  @Test
  void orphanPinnedEntry_exitsWith2_namingFileLineAndEntry_beforeAnyRun() throws IOException {
    Path dir = experiment("orphan", figure(SMALL, "ctx/io", CTX_PER_IO, "kind = prediction")
        + figure(SMALL, "ios", "jobs.0.read.total_ios", "published = 400"));
    Path pred = dir.resolve("predictions.conf");
    Files.writeString(pred, """
        commit = "0123456789abcdef0123456789abcdef01234567"
        note = "written by the test"
        predictions = [
          { scenario = "small.conf", label = "ctx/io", value = 1.0 }
          { scenario = "small.conf", label = "ios", value = 400 }
        ]
        """);
    Result r = validate("orphan");
    assertEquals(2, r.code(), r.out() + r.err());
    assertEquals("", r.out(), "nothing ran");
    assertEquals(1, r.err().strip().lines().count(), r.err());
    assertTrue(r.err().contains(pred + ":" + lineOf(pred, "\"ios\"") + ": predictions: the"
        + " pinned entry 'small.conf' 'ios' matches no figure of kind prediction"), r.err());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "published = 1, max = 3000 | max | not both",
      "min = 1, published = 1 | min | not both",
      "tolerance = 0.1 | published | each figure needs it",
      "min = 5, max = 1 | max | max must be >= min",
      "max = 10, tolerance = 0.1 | tolerance | a bound ('min' and/or 'max') has none",
      "max = lots | max | must be a number",
      "maximum = 3000 | maximum | unknown figure key",
      "kind = prediction, max = 3 | max | a prediction",
      "published = 0 | published | must not be 0",
  })
  void malformedFigure_exitsWith2_namingFileLineAndKey(String rest, String key, String rule)
      throws IOException {
    Path dir = experiment("bad", figure(SMALL, "fine", "jobs.0.read.total_ios", "max = 500")
        + figure(SMALL, "broken", "jobs.0.read.total_ios", rest));
    Path pub = dir.resolve("published.conf");
    Result r = validate("bad");
    assertEquals(2, r.code(), r.out() + r.err());
    assertEquals("", r.out(), "nothing ran");
    assertEquals(1, r.err().strip().lines().count(), r.err());
    String where = pub + ":" + lineOf(pub, "broken") + ": ";
    // The key once: first in the rule ("max must be >= min") or in front of it ("max: must be a
    // number"), never both ("max: max must be ...").
    String said = r.err().strip().substring(("blksim: " + where).length());
    assertTrue(r.err().startsWith("blksim: " + where) && r.err().contains(rule), r.err());
    assertTrue(said.startsWith(key + ": ") || said.startsWith(key + " "), r.err());
    assertEquals(1, said.split("(?<!\\w)" + key + "(?!\\w)", -1).length - 1, r.err());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "commit = \"db8e8db\" | commit | 40 lower-case hex",
      "note = \"\" | note | one line",
      "predictions = [ { scenario = \"small.conf\", label = \"ctx/io\" } ] | value | value is missing",
  })
  void malformedPredictionsConf_exitsWith2_namingTheKey(String replace, String key, String rule)
      throws IOException {
    Path dir = experiment("badpin", figure(SMALL, "ctx/io", CTX_PER_IO, "kind = prediction"));
    Path pred = dir.resolve("predictions.conf");
    String good = "commit = \"0123456789abcdef0123456789abcdef01234567\"\n"
        + "note = \"written by the test\"\n"
        + "predictions = [ { scenario = \"small.conf\", label = \"ctx/io\", value = 1 } ]\n";
    String k = replace.substring(0, replace.indexOf(' '));
    Files.writeString(pred, good.replaceAll("(?m)^" + k + " = .*$",
        java.util.regex.Matcher.quoteReplacement(replace)));
    Result r = validate("badpin");
    assertEquals(2, r.code(), r.out() + r.err());
    assertTrue(r.err().startsWith("blksim: " + pred + ":") && r.err().contains(rule), r.err());
    String said = r.err().strip().substring(r.err().indexOf(": ", "blksim: ".length() + pred
        .toString().length()) + 2);
    assertTrue(said.startsWith(key + ": ") || said.startsWith(key + " "), r.err());
  }
}
