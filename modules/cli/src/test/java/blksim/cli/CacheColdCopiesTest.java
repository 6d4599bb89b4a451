package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 10 item 9: cache-cold first touches ({@code kernel.cache-cold}) beyond brd and zram:
 * memory-backed null_blk's copies of its own pages, and the copies of a buffered job's I/O
 * buffers. With the switch on a working set larger than the CPU's footprint costs more than a
 * small one; off, the size does not matter.
 */
@Timeout(180)
class CacheColdCopiesTest {
  @TempDir Path tmp;

  private Path nullBlk(String size, String extra) throws IOException {
    Path p = tmp.resolve("nb-" + size + "-" + Math.abs(extra.hashCode()) + ".conf");
    Files.writeString(p, """
        blksim {
          seed = 5
          %s
          machine { cores-per-llc = 2, threads-per-core = 1 }
          devices = [ { type = null_blk, name = nullb0, size = %s, irqmode = none,
            memory-backed = on } ]
          fio.jobs = [\"\"\"
        [r]
        ioengine=psync
        direct=1
        filename=/dev/nullb0
        bs=4k
        rw=randread
        norandommap
        runtime=20ms
        time_based
        \"\"\"]
        }
        """.formatted(extra, size));
    return p;
  }

  static String json(Path scenario) {
    MainTest.Result r = MainTest.cli("run", scenario.toString(), "--host", "local",
        "--output-format=json");
    assertEquals(0, r.code(), r.err());
    return r.out().lines().filter(l -> !l.contains("\"timestamp") && !l.contains("\"time\"")
        && !l.contains("wall")).collect(Collectors.joining("\n"));
  }

  @SuppressWarnings("unchecked")
  static double clatMean(String json, String dir) {
    Map<String, Object> doc = (Map<String, Object>) blksim.report.json.JsonReader.parse(json);
    Map<String, Object> job = (Map<String, Object>) ((List<Object>) doc.get("jobs")).get(0);
    Map<String, Object> clat = (Map<String, Object>) ((Map<String, Object>) job.get(dir))
        .get("clat_ns");
    return ((Number) clat.get("mean")).doubleValue();
  }

  @Test
  void memoryBackedNullBlk_largeDeviceCostsMoreThanSmall_onlyWithCacheCold() throws IOException {
    double smallOff = clatMean(json(nullBlk("1M", "")), "read");
    double largeOff = clatMean(json(nullBlk("1G", "")), "read");
    assertEquals(smallOff, largeOff, 1.0, "off: the device's size does not matter");
    String on = "kernel.cache-cold = on";
    String largeOnJson = json(nullBlk("1G", on));
    assertEquals(largeOnJson, json(nullBlk("1G", on)), "same seed, same JSON");
    double smallOn = clatMean(json(nullBlk("1M", on)), "read");
    double largeOn = clatMean(largeOnJson, "read");
    // 1 MiB fits the 2 MiB footprint: after the first touches every page is warm. 1 GiB of
    // random 4 KiB reads: nearly every page is cold, 500 ns more each.
    assertTrue(largeOn - smallOn > 400, "large " + largeOn + " small " + smallOn);
    assertTrue(smallOn - smallOff < 100, "small on " + smallOn + " off " + smallOff);
  }

  @Test
  void memoryBacked_chargesTheCopy() throws IOException {
    Path p = nullBlk("1M", "");
    double backed = clatMean(json(p), "read");
    Files.writeString(p, Files.readString(p).replace("memory-backed = on", "memory-backed = off"));
    double plain = clatMean(json(p), "read");
    assertEquals(5_000, backed - plain, 100, "one 4 KiB copy: backed " + backed + " plain " + plain);
  }
}
