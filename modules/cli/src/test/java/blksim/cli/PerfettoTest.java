package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.report.json.JsonReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run --perfetto FILE}: valid JSON, slices nest on every track, bios pair up, the window
 * bounds the events, the same bytes in two partitionings, and bad uses exit 2 before the run.
 */
@Timeout(300)
class PerfettoTest {
  @TempDir Path tmp;

  private static final String JOB = "[p]\nioengine=psync\ndirect=1\nbs=4k\nrw=randrw\n"
      + "filename=/dev/nullb0\nsize=1m\nnumber_ios=300\nnumjobs=3\n";

  private MainTest.Result run(String... args) throws IOException {
    Path job = tmp.resolve("p.fio");
    Files.writeString(job, JOB);
    List<String> a = new ArrayList<>(List.of("run", job.toString()));
    a.addAll(List.of(args));
    a.addAll(List.of("--host", "local"));
    return MainTest.cli(a.toArray(String[]::new));
  }

  private static double num(Object o) {
    return ((Number) o).doubleValue();
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> events(Path file) throws IOException {
    Map<String, Object> root = JsonReader.parseObject(Files.readString(file));
    return (List<Map<String, Object>>) (List<?>) root.get("traceEvents");
  }

  @Test
  void traceIsValid_nested_windowed_andTheSameInEveryPartitioning() throws IOException {
    Path one = tmp.resolve("one.json");
    Path cpu = tmp.resolve("cpu.json");
    MainTest.Result plain = run();
    MainTest.Result r1 = run("--perfetto", one.toString(), "--partitions", "one",
        "--perfetto-window", "50us..400us");
    MainTest.Result r2 = run("--perfetto", cpu.toString(), "--partitions", "cpu",
        "--perfetto-window", "50us..400us");
    assertEquals(0, r1.code(), r1.err());
    assertEquals(0, r2.code(), r2.err());
    assertArrayEquals(Files.readAllBytes(one), Files.readAllBytes(cpu),
        "the same trace in one partition and one per CPU");
    assertEquals(plain.out().replaceAll("(pid=\\d+): .*", "$1"),
        r1.out().replaceAll("(pid=\\d+): .*", "$1"), "tracing changes nothing");

    List<Map<String, Object>> ev = events(one);
    Map<String, List<double[]>> slices = new TreeMap<>();
    Map<Object, double[]> bios = new TreeMap<>(Comparator.comparing(Object::toString));
    int sched = 0;
    int idle = 0;
    int irq = 0;
    for (Map<String, Object> e : ev) {
      String ph = (String) e.get("ph");
      if (ph.equals("X")) {
        double ts = num(e.get("ts"));
        double dur = num(e.get("dur"));
        assertTrue(dur >= 0 && ts >= 50 && ts + dur <= 400.0001, "in the window: " + e);
        slices.computeIfAbsent(e.get("pid") + "/" + e.get("tid"), k -> new ArrayList<>())
            .add(new double[] {ts, ts + dur});
        switch ((String) e.get("cat")) {
          case "sched" -> sched++;
          case "idle" -> idle++;
          case "irq" -> irq++;
          default -> throw new AssertionError("category of " + e);
        }
      } else if (ph.equals("b")) {
        assertTrue(num(e.get("ts")) >= 50 && num(e.get("ts")) < 400, "in the window: " + e);
        bios.put(e.get("id"), new double[] {num(e.get("ts")), Double.NaN});
      } else if (ph.equals("e")) {
        double[] b = bios.get(e.get("id"));
        assertTrue(b != null && Double.isNaN(b[1]), "one begin before each end: " + e);
        b[1] = num(e.get("ts"));
        assertTrue(b[1] >= b[0], "a bio ends after it began: " + e);
      }
    }
    assertTrue(sched > 0 && idle > 0 && irq > 0 && !bios.isEmpty(), "run slices " + sched
        + ", idle " + idle + ", interrupts " + irq + ", bios " + bios.size());
    bios.values().forEach(b -> assertTrue(!Double.isNaN(b[1]), "every bio ends"));
    for (Map.Entry<String, List<double[]>> t : slices.entrySet()) {
      List<double[]> s = t.getValue();
      s.sort(Comparator.<double[]>comparingDouble(a -> a[0]).thenComparingDouble(a -> -a[1]));
      Deque<double[]> open = new ArrayDeque<>();
      for (double[] x : s) {
        while (!open.isEmpty() && open.peek()[1] <= x[0] + 1e-9) {
          open.pop();
        }
        assertTrue(open.isEmpty() || x[1] <= open.peek()[1] + 1e-9, "track " + t.getKey()
            + ": [" + x[0] + ", " + x[1] + "] overlaps [" + (open.isEmpty() ? "" : open.peek()[0]
            + ", " + open.peek()[1]) + "] without nesting");
        open.push(x);
      }
    }
  }

  @Test
  void badUses_exit2_beforeTheRun() throws IOException {
    Path f = tmp.resolve("t.json");
    for (String[] args : List.of(
        new String[] {"--perfetto-window", "1ms..2ms"},
        new String[] {"--perfetto", f.toString(), "--perfetto-window", "1ms"},
        new String[] {"--perfetto", f.toString(), "--timehist", "0"},
        new String[] {"--perfetto", tmp.resolve("no/such/dir/t.json").toString()},
        new String[] {"--perfetto", tmp.toString()})) {
      MainTest.Result r = run(args);
      assertEquals(2, r.code(), String.join(" ", args) + ": " + r.err());
      assertTrue(r.err().contains("--perfetto"), r.err());
      assertEquals("", r.out(), "nothing ran");
    }
  }
}
