package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.InputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Issue 10 item 10: fio's output formats, pre-run lines, --section and --parse-only. */
@Timeout(120)
class FioOutputOptionsTest {
  @TempDir Path tmp;

  private static final String SCENARIO = """
      blksim {
        machine { cores-per-llc = 2, threads-per-core = 1 }
        devices = [ { type = null_blk, name = nullb0, size = 1G, irqmode = timer,
          completion-nsec = 10us } ]
        fio.jobs = [\"\"\"
      [global]
      ioengine=psync
      filename=/dev/nullb0
      bs=4k
      runtime=5ms
      time_based

      [reader]
      rw=randread
      numjobs=2

      [writer]
      stonewall
      rw=randwrite
      thread
      \"\"\"]
      }
      """;

  private Path scenario() throws IOException {
    Path p = tmp.resolve("two.conf");
    Files.writeString(p, SCENARIO);
    return p;
  }

  private static MainTest.Result cli(String... args) {
    return MainTest.cli(args);
  }

  @Test
  void normalOutput_startsWithFiosJobLines_versionAndStartingLine() throws IOException {
    MainTest.Result r = cli("run", scenario().toString(), "--host", "local");
    assertEquals(0, r.code(), r.err());
    List<String> lines = r.out().lines().toList();
    assertEquals("reader: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B,"
        + " (T) 4096B-4096B, ioengine=psync, iodepth=1", lines.get(0));
    assertEquals("...", lines.get(1), "numjobs=2: one line for the clones");
    assertEquals("writer: (g=1): rw=randwrite, bs=(R) 4096B-4096B, (W) 4096B-4096B,"
        + " (T) 4096B-4096B, ioengine=psync, iodepth=1", lines.get(2));
    assertEquals("fio-3.36", lines.get(3));
    assertEquals("Starting 1 thread and 2 processes", lines.get(4));
    assertEquals("", lines.get(5), "fio's run stats start with a blank line");
    assertTrue(lines.get(6).startsWith("reader: (groupid=0, jobs=1): err= 0"), lines.get(6));
  }

  @Test
  void jsonJobOptions_leaveTheGlobalOptionsUnderGlobalOptionsOnly() throws IOException {
    MainTest.Result r = cli("run", scenario().toString(), "--host", "local",
        "--output-format=json");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().startsWith("{"), "stdout holds the JSON document only");
    @SuppressWarnings("unchecked")
    var json = (java.util.Map<String, Object>) blksim.report.json.JsonReader.parse(r.out());
    @SuppressWarnings("unchecked")
    var global = (java.util.Map<String, Object>) json.get("global options");
    assertEquals("psync", global.get("ioengine"));
    @SuppressWarnings("unchecked")
    var jobs = (List<java.util.Map<String, Object>>) json.get("jobs");
    @SuppressWarnings("unchecked")
    var reader = (java.util.Map<String, Object>) jobs.get(0).get("job options");
    assertEquals(java.util.Map.of("rw", "randread", "numjobs", "2"), reader);
    @SuppressWarnings("unchecked")
    var writer = (java.util.Map<String, Object>) jobs.get(2).get("job options");
    assertEquals(List.of("rw"), List.copyOf(writer.keySet()),
        "bare flags (stonewall, thread) have empty values, which fio leaves out");
    assertFalse(jobs.get(0).get("read").toString().contains("bins"));
  }

  @Test
  void terse_isOneVersion3LinePerJob_withFiosFieldCount() throws IOException {
    MainTest.Result r = cli("run", scenario().toString(), "--host", "local",
        "--output-format=terse");
    assertEquals(0, r.code(), r.err());
    List<String> lines = r.out().lines().toList();
    assertEquals(3, lines.size(), r.out());
    for (String l : lines) {
      String[] f = l.split(";", -1);
      // 121 fields of terse v3, then 9 per disk
      assertEquals(121 + 9, f.length, l);
      assertEquals("3", f[0]);
      assertEquals("fio-3.36", f[1]);
      assertEquals("nullb0", f[121]);
    }
    assertTrue(lines.get(0).startsWith("3;fio-3.36;reader;0;0;"), lines.get(0));
    assertTrue(lines.get(2).startsWith("3;fio-3.36;writer;1;0;0;0;0;0;"),
        "writer: no reads: " + lines.get(2));
  }

  @Test
  void combinedFormats_printInFiosOrder_preambleThenTerseThenJsonThenNormal()
      throws IOException {
    MainTest.Result r = cli("run", scenario().toString(), "--host", "local",
        "--output-format=normal,json+,minimal");
    assertEquals(0, r.code(), r.err());
    String out = r.out();
    int starting = out.indexOf("Starting 1 thread and 2 processes\n");
    int terse = out.indexOf("3;fio-3.36;reader;");
    int json = out.indexOf("{\n");
    int bins = out.indexOf("\"bins\"");
    int normal = out.indexOf("reader: (groupid=0");
    assertTrue(starting == out.indexOf("fio-3.36\n") + "fio-3.36\n".length(), out);
    assertTrue(starting < terse && terse < json && json < bins && bins < normal, out);
  }

  @Test
  void minimalAndEta_withAFile_areFiosProgramOptions_terseOutputAndNoProgressChange()
      throws IOException {
    // fio --minimal --eta=never JOB.fio: the options fio's command line takes with a job file.
    MainTest.Result r = cli("run", scenario().toString(), "--host", "local", "--minimal",
        "--eta=never", "--eta-newline=1");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().startsWith("3;fio-3.36;reader;"), "terse output: " + r.out());
    assertFalse(r.out().contains("(groupid="), r.out());
    MainTest.Result bad = cli("run", scenario().toString(), "--host", "local", "--minimalist");
    assertEquals(2, bad.code(), bad.err());
    MainTest.Result v3 = cli("run", scenario().toString(), "--host", "local", "--minimal",
        "--terse-version=3");
    assertEquals(0, v3.code(), v3.err());
    assertTrue(v3.out().startsWith("3;fio-3.36;reader;"), v3.out());
    MainTest.Result v5 = cli("run", scenario().toString(), "--host", "local", "--minimal",
        "--terse-version=5");
    assertEquals(2, v5.code(), v5.err());
    assertTrue(v5.err().contains("--terse-version=5: blksim prints fio's terse version 3 only"),
        v5.err());
  }

  private Path percentileJob(String options) throws IOException {
    Path p = tmp.resolve("pct.conf");
    Files.writeString(p, "blksim {\n  machine { cores-per-llc = 2, threads-per-core = 1 }\n"
        + "  devices = [ { type = null_blk, name = nullb0, size = 1G, irqmode = timer,"
        + " completion-nsec = 10us } ]\n"
        + "  fio.jobs = [\"\"\"\n[j]\nfilename=/dev/nullb0\nioengine=libaio\niodepth=4\n"
        + "rw=randread\nbs=4k\nruntime=2ms\ntime_based\n" + options + "\n\"\"\"]\n}\n");
    return p;
  }

  @Test
  void percentileOptions_chooseWhichLatenciesGetPercentiles_inTextJsonAndTerse()
      throws IOException {
    // stat.c: clat_percentiles=0 drops the clat percentiles (text block, JSON "percentile",
    // terse fields 0%=0); lat_percentiles and slat_percentiles add theirs.
    MainTest.Result off = cli("run", percentileJob("clat_percentiles=0").toString(), "--host",
        "local", "--output-format=normal,json,terse");
    assertEquals(0, off.code(), off.err());
    assertFalse(off.out().contains("percentiles ("), off.out());
    assertFalse(off.out().contains("\"percentile\""), off.out());
    String terse = off.out().lines().filter(l -> l.startsWith("3;")).findFirst().orElseThrow();
    assertFalse(terse.contains("99.000000%="), terse);
    assertEquals(40, terse.split(";0%=0", -1).length - 1, "read and write: 20 each: " + terse);
    MainTest.Result all = cli("run", percentileJob("lat_percentiles=1\nslat_percentiles=1")
        .toString(), "--host", "local", "--output-format=normal,json");
    assertEquals(0, all.code(), all.err());
    String out = all.out();
    assertTrue(out.contains("    slat percentiles (") && out.contains("    clat percentiles (")
        && out.contains("     lat percentiles (") == false && out.contains("    lat percentiles ("),
        out);
    int json = out.indexOf("{\n");
    String j = out.substring(json);
    int lat = j.indexOf("\"lat_ns\"");
    int slat = j.indexOf("\"slat_ns\"");
    assertTrue(j.indexOf("\"percentile\"", slat) < j.indexOf("\"clat_ns\""), "slat_ns has them");
    assertTrue(j.indexOf("\"percentile\"", lat) > lat
        && j.indexOf("\"percentile\"", lat) < j.indexOf("\"bw_min\"", lat), "lat_ns has them");
  }

  @Test
  void outputDir_fioTxtHoldsTheNormalOutputWithItsPreRunLines_whateverIsPrinted()
      throws IOException {
    Path dir = tmp.resolve("out");
    MainTest.Result r = cli("run", scenario().toString(), "--host", "local",
        "--output-format=terse", "--output", dir.toString());
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().startsWith("3;fio-3.36;reader;"), "terse only on stdout: " + r.out());
    String txt = Files.readString(dir.resolve("fio.txt"));
    assertTrue(txt.startsWith("reader: (g=0): rw=randread,"), txt);
    assertTrue(txt.contains("Starting 1 thread and 2 processes\n\nreader: (groupid=0"), txt);
  }

  @Test
  void fileJobs_printFiosLayingOutLine_afterTheStartingLine() throws IOException {
    Path job = tmp.resolve("files.fio");
    Files.writeString(job, "[global]\nbs=64k\nsize=16m\n[seqwrite]\ndirectory=/mnt/test\n"
        + "rw=write\n");
    MainTest.Result r = cli("run", job.toString(), "--host", "local");
    assertEquals(0, r.code(), r.err());
    List<String> lines = r.out().lines().toList();
    assertEquals("seqwrite: (g=0): rw=write, bs=(R) 64.0KiB-64.0KiB, (W) 64.0KiB-64.0KiB,"
        + " (T) 64.0KiB-64.0KiB, ioengine=psync, iodepth=1", lines.get(0));
    assertEquals(List.of("fio-3.36", "Starting 1 process",
        "seqwrite: Laying out IO file (1 file / 16MiB)", ""), lines.subList(1, 5));
  }

  @Test
  void badOutputFormat_exitsWith2NamingIt() throws IOException {
    MainTest.Result r = cli("run", scenario().toString(), "--host", "local",
        "--output-format=normal,xml");
    assertEquals(2, r.code());
    assertTrue(r.err().contains("--output-format") && r.err().contains("'xml'"), r.err());
    assertThrows(InputException.class, () -> OutputFormats.parse("json,"));
    assertEquals(new OutputFormats(false, true, true, false), OutputFormats.parse("json+"));
    assertEquals(new OutputFormats(true, false, false, true), OutputFormats.parse("csv,normal"));
  }

  @Test
  void section_runsOnlyTheNamedSections_globalsStillApply() throws IOException {
    MainTest.Result r = cli("run", scenario().toString(), "--host", "local",
        "--section", "writer");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().startsWith("writer: (g=0): rw=randwrite,"), r.out());
    assertTrue(r.out().contains("ioengine=psync"), "[global] applies: " + r.out());
    assertTrue(r.out().contains("Starting 1 thread\n"), r.out());
    assertFalse(r.out().contains("reader"), r.out());

    MainTest.Result both = cli("run", scenario().toString(), "--host", "local",
        "--section", "writer", "--section", "reader", "--parse-only");
    assertEquals(0, both.code(), both.err());

    MainTest.Result none = cli("run", scenario().toString(), "--host", "local",
        "--section", "nope");
    assertEquals(2, none.code());
    assertTrue(none.err().contains("--section: ") && none.err().contains("[nope]"),
        none.err());
    MainTest.Result global = cli("run", scenario().toString(), "--section", "global");
    assertEquals(2, global.code());
    assertTrue(global.err().contains("--section"), global.err());
  }

  @Test
  void section_skipsTheOtherSectionsUnread_asFioDoes() throws IOException {
    Path job = tmp.resolve("mixed.fio");
    Files.writeString(job, "[good]\nfilename=/dev/nullb0\nrw=read\nbs=4k\nsize=1m\n"
        + "[bad]\nfilename=/dev/nullb0\nnot_an_option=1\n");
    MainTest.Result all = cli("run", job.toString(), "--parse-only");
    assertEquals(2, all.code());
    assertTrue(all.err().contains("mixed.fio:8: not_an_option"), all.err());
    MainTest.Result good = cli("run", job.toString(), "--section=good", "--parse-only");
    assertEquals(0, good.code(), good.err());
    assertEquals("", good.out(), "--parse-only prints nothing on stdout");
  }

  @Test
  void parseOnly_runsNothing_andReportsErrorsAsARunWould() throws IOException {
    Path p = scenario();
    MainTest.Result ok = cli("run", p.toString(), "--parse-only");
    assertEquals(0, ok.code(), ok.err());
    assertEquals("", ok.out());
    Path bad = tmp.resolve("bad.conf");
    Files.writeString(bad, SCENARIO.replace("bs=4k", "bs=4q"));
    MainTest.Result r = cli("run", bad.toString(), "--parse-only");
    assertEquals(2, r.code());
    assertTrue(r.err().contains(": bs: "), r.err());
  }
}
