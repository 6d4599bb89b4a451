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

  private Path buffered(String bs, String extra) throws IOException {
    Path p = tmp.resolve("buf-" + bs + "-" + Math.abs(extra.hashCode()) + ".conf");
    Files.writeString(p, """
        blksim {
          seed = 5
          %s
          machine { cores-per-llc = 2, threads-per-core = 1 }
          devices = [ { type = null_blk, name = nullb0, size = 256M, irqmode = none } ]
          fio.jobs = [\"\"\"
        [r]
        ioengine=psync
        filename=/dev/nullb0
        bs=%s
        rw=read
        runtime=40ms
        time_based
        \"\"\"]
        }
        """.formatted(extra, bs));
    return p;
  }

  @Test
  void bufferedCopies_aBufferLargerThanTheFootprintPaysColdLines() throws IOException {
    String on = "kernel.cache-cold = on";
    double bigOff = clatMean(json(buffered("4m", "")), "read");
    String bigOnJson = json(buffered("4m", on));
    assertEquals(bigOnJson, json(buffered("4m", on)), "same seed, same JSON");
    double bigOn = clatMean(bigOnJson, "read");
    double smallOff = clatMean(json(buffered("512k", "")), "read");
    double smallOn = clatMean(json(buffered("512k", on)), "read");
    // 4 MiB (1,024 pages) cycles through a 2 MiB (512-page) footprint: every page cold, 500 ns
    // more each. 512 KiB stays warm after the first copy.
    double bigPerPage = (bigOn - bigOff) / 1024;
    double smallPerPage = (smallOn - smallOff) / 128;
    assertTrue(bigPerPage > 400 && bigPerPage < 600, "4m: " + bigPerPage + " ns per page");
    assertTrue(smallPerPage < 50, "512k: " + smallPerPage + " ns per page");
  }

  @Test
  void directIo_buffersStayOutOfIt() throws IOException {
    Path off = buffered("4m", "");
    Files.writeString(off, Files.readString(off).replace("rw=read", "rw=read\ndirect=1"));
    Path on = buffered("4m", "kernel.cache-cold = on");
    Files.writeString(on, Files.readString(on).replace("rw=read", "rw=read\ndirect=1"));
    assertEquals(json(off), json(on), "DMA touches no buffer line; plain null_blk no page");
  }

  @Test
  void badMemoryBacked_isOneLineNamingFileAndKey() throws IOException {
    Path p = nullBlk("1M", "");
    Files.writeString(p, Files.readString(p).replace("memory-backed = on", "memory-backed = maybe"));
    MainTest.Result r = MainTest.cli("run", p.toString(), "--host", "local");
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains(p.getFileName() + ":") && r.err().contains("devices.0.memory-backed")
        && !r.err().contains("Exception"), r.err());
  }
}
