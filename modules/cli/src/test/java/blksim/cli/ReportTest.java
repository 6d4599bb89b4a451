package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import javax.xml.parsers.DocumentBuilderFactory;
import org.htmlunit.WebClient;
import org.htmlunit.html.DomElement;
import org.htmlunit.html.HtmlPage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run --report DIR} and {@code sweep --report DIR}: the page loads in a headless browser
 * and everything it references exists; the SVGs are well-formed XML; the report changes nothing
 * in fio's output; a directory that is a file or cannot be made is refused before the run.
 */
@Timeout(300)
class ReportTest {
  @TempDir Path tmp;

  private static final String JOB = "[r]\nioengine=psync\ndirect=1\nbs=4k\nrw=randrw\n"
      + "filename=/dev/nullb0\nsize=1m\nnumber_ios=400\nnumjobs=2\n";

  private Path job() throws IOException {
    Path p = tmp.resolve("r.fio");
    Files.writeString(p, JOB);
    return p;
  }

  private static MainTest.Result cli(String... args) {
    List<String> a = new ArrayList<>(List.of(args));
    a.addAll(List.of("--host", "local"));
    return MainTest.cli(a.toArray(String[]::new));
  }

  /** The files index.html references (img src, a href), after checking the page loads. */
  private static Set<String> referenced(Path dir) throws IOException {
    Set<String> refs = new TreeSet<>();
    try (WebClient web = new WebClient()) {
      web.getOptions().setJavaScriptEnabled(false);
      web.getOptions().setCssEnabled(false);
      HtmlPage page = web.getPage(dir.resolve("index.html").toUri().toURL());
      assertFalse(page.getTitleText().isBlank(), "the page has a title");
      for (DomElement img : page.getElementsByTagName("img")) {
        refs.add(img.getAttribute("src"));
      }
      for (DomElement a : page.getElementsByTagName("a")) {
        refs.add(a.getAttribute("href"));
      }
    }
    for (String r : refs) {
      Path f = dir.resolve(r);
      assertTrue(Files.isRegularFile(f) && Files.size(f) > 0, r + " is referenced but missing");
      if (r.endsWith(".svg")) {
        try {
          DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(f.toFile());
        } catch (Exception e) {
          throw new AssertionError(r + " is not well-formed XML: " + e, e);
        }
      }
      if (r.endsWith(".png")) {
        byte[] b = Files.readAllBytes(f);
        assertTrue(b[1] == 'P' && b[2] == 'N' && b[3] == 'G', r + " is a PNG");
      }
    }
    return refs;
  }

  @Test
  void runReport_pageLoadsAndEveryReferenceResolves_fioOutputUnchanged() throws IOException {
    Path dir = tmp.resolve("report");
    MainTest.Result plain = cli("run", job().toString());
    MainTest.Result r = cli("run", job().toString(), "--report", dir.toString());
    assertEquals(0, r.code(), r.err());
    assertEquals(plain.out().replaceAll("(pid=\\d+): .*", "$1"),
        r.out().replaceAll("(pid=\\d+): .*", "$1"), "fio's output with and without --report");
    Set<String> refs = referenced(dir);
    for (String plot : List.of("clat-percentiles", "clat-histogram", "iops-over-time",
        "cpu-over-time", "cpu-heatmap")) {
      assertTrue(refs.contains(plot + ".svg") && refs.contains(plot + ".png"), plot + " in "
          + refs);
    }
    assertTrue(refs.containsAll(List.of("fio.json", "fio.txt", "time_series.json")),
        refs.toString());
    // every I/O fio counted completed on the device: the sampled completions add up
    String ts = Files.readString(dir.resolve("time_series.json"));
    assertTrue(ts.contains("\"nullb0\""), ts);
  }

  /** A 10 ms libaio job at QD 1 on a 25 us null_blk: about 28k IOPS, steady. */
  private static final String STEADY = "[s]\nioengine=libaio\ndirect=1\nbs=16k\nrw=randrw\n"
      + "iodepth=1\nfilename=/dev/nullb0\nruntime=10ms\ntime_based\n";

  /** The interval and completions per interval of nullb0 in a report's time_series.json. */
  private static long[] series(Path dir) throws IOException {
    String ts = Files.readString(dir.resolve("time_series.json")).replaceAll("\\s", "");
    java.util.regex.Matcher iv = java.util.regex.Pattern.compile("\"interval_ns\":(\\d+)")
        .matcher(ts);
    java.util.regex.Matcher io = java.util.regex.Pattern.compile("\"nullb0\":\\[([\\d,]*)]")
        .matcher(ts);
    assertTrue(iv.find() && io.find(), ts);
    String[] v = io.group(1).split(",");
    long[] out = new long[v.length + 1];
    out[0] = Long.parseLong(iv.group(1));
    for (int i = 0; i < v.length; i++) {
      out[i + 1] = Long.parseLong(v[i]);
    }
    return out;
  }

  @Test
  void runReport_shortSteadyRun_iopsPlotHoldsEnoughIosPerInterval_noSaw() throws IOException {
    Path p = Files.writeString(tmp.resolve("s.fio"), STEADY);
    Path dir = tmp.resolve("steady");
    MainTest.Result r = cli("run", p.toString(), "--set", "devices.0.irqmode=timer", "--set",
        "devices.0.completion-nsec=25us", "--report", dir.toString());
    assertEquals(0, r.code(), r.err());
    long[] s = series(dir);
    // 1/200 of 10 ms is 50 us: 1 or 2 I/Os each, plotted as a saw between 20k and 40k IOPS
    assertTrue(s.length - 1 >= 5, "still a series over time: " + java.util.Arrays.toString(s));
    long sum = 0;
    for (int i = 1; i < s.length; i++) {
      sum += s[i];
      assertTrue(s[i] >= ReportDir.MIN_IOS_PER_SAMPLE - 2, "interval " + i + " holds "
          + s[i] + " I/Os: " + java.util.Arrays.toString(s));
    }
    double mean = (double) sum / (s.length - 1);
    for (int i = 2; i < s.length; i++) {
      assertTrue(Math.abs(s[i] - s[i - 1]) <= 0.1 * mean, "a steady job swings from " + s[i - 1]
          + " to " + s[i] + " I/Os per " + s[0] + " ns: " + java.util.Arrays.toString(s));
    }
    // an explicit trace.sample-interval still wins, however few I/Os it holds
    Path dir2 = tmp.resolve("explicit");
    MainTest.Result e = cli("run", p.toString(), "--set", "devices.0.irqmode=timer", "--set",
        "devices.0.completion-nsec=25us", "--set", "trace.sample-interval=50us", "--report",
        dir2.toString());
    assertEquals(0, e.code(), e.err());
    assertEquals(50_000, series(dir2)[0]);
  }

  @Test
  void sweepReport_onePlotPerMetric() throws IOException {
    Path dir = tmp.resolve("sweep");
    MainTest.Result r = cli("sweep", job().toString(), "--vary", "devices.0.completion-nsec="
        + "1000,5000", "--metric", "iops=jobs.0.read.iops", "--metric", "jobs.0.sys_cpu",
        "--report", dir.toString());
    assertEquals(0, r.code(), r.err());
    Set<String> refs = referenced(dir);
    assertTrue(refs.containsAll(List.of("metric-0.svg", "metric-1.png", "sweep.csv")),
        refs.toString());
    assertTrue(Files.readString(dir.resolve("metric-0.svg")).contains("<polyline"),
        "a numeric key gives a line");
  }

  @Test
  void sweepAxis_numbersWithOneUnitAreALine() {
    assertEquals("us", SweepReport.unit(List.of("1us", "4.8us", "10us")));
    assertEquals("", SweepReport.unit(List.of("8", "16")));
    assertEquals(null, SweepReport.unit(List.of("1us", "2ms")));
    assertEquals(null, SweepReport.unit(List.of("none", "softirq")));
  }

  @Test
  void reportDirThatIsAFileOrCannotBeMade_isRefusedBeforeTheRun() throws IOException {
    Path file = Files.writeString(tmp.resolve("afile"), "x");
    for (Path bad : List.of(file, file.resolve("sub"))) {
      MainTest.Result r = cli("run", job().toString(), "--report", bad.toString());
      assertEquals(2, r.code(), r.err());
      assertTrue(r.err().contains("--report"), r.err());
      assertEquals("", r.out(), "nothing ran");
      MainTest.Result s = cli("sweep", job().toString(), "--vary",
          "devices.0.completion-nsec=1000,2000", "--report", bad.toString());
      assertEquals(2, s.code(), s.err());
      assertFalse(s.err().contains("sweep: run"), s.err());
    }
  }
}
