package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Buffered reads of a block device ({@code filename=/dev/...} without {@code direct=1}) through
 * the device's page cache: readahead windows for a sequential reader, a second pass served from
 * the cache, and one page at a time for a random one (fio's fadvise hint RANDOM).
 */
@Timeout(120)
class DeviceBufferedReadTest {
  @TempDir Path dir;

  private FioFileReadTest.Run run(String job) throws IOException {
    Path p = dir.resolve("s.conf");
    Files.writeString(p, "blksim {\n"
        + "  machine { cores-per-llc = 2, threads-per-core = 1, memory = 512M }\n"
        + "  devices = [ { type = ssd, name = sdb, size = 4G } ]\n"
        + "  fio.jobs = [\"\"\"\n[j]\nfilename=/dev/sdb\nbs=4k\nsize=4m\n" + job
        + "\n\"\"\"]\n}\n");
    return FioFileReadTest.runScenario(p);
  }

  @Test
  void sequentialRead_readsTheDeviceOnce_inReadaheadWindows() throws IOException {
    FioFileReadTest.Run r = run("rw=read");
    assertEquals(4L << 20, r.bytesRead());
    // 4 MiB once, plus what readahead read past the job's region (the device goes on): at
    // most the current and the async window, 2 x 256 KiB with FADV_SEQUENTIAL.
    assertTrue(r.pgpginKiB() >= 4096 && r.pgpginKiB() <= 4096 + 512, "pgpgin " + r.pgpginKiB());
    assertTrue(r.diskReads() > 4 && r.diskReads() < 1024 / 8, "disk reads " + r.diskReads());
  }

  @Test
  void randomRead_readsOnePageAtATime() throws IOException {
    FioFileReadTest.Run r = run("rw=randread");
    assertEquals(4096, r.pgpginKiB());
    assertTrue(r.diskReads() > 900, "disk reads " + r.diskReads());
  }

  @Test
  void secondLoop_isServedFromThePageCache() throws IOException {
    FioFileReadTest.Run once = run("rw=read");
    FioFileReadTest.Run twice = run("rw=read\nloops=2");
    assertEquals(8L << 20, twice.bytesRead());
    assertEquals(once.diskReads(), twice.diskReads(), "the second pass reads nothing from disk");
  }

  @Test
  void bufferedReaders_shareThePageCache_soOnlyOnePartitionIsAllowed() throws IOException {
    Path p = dir.resolve("parts.conf");
    Files.writeString(p, "blksim {\n  machine { sockets = 2, cores-per-llc = 2 }\n"
        + "  partitions = node\n"
        + "  devices = [ { type = brd, name = ram0, size = 64M } ]\n"
        + "  fio.jobs = [\"\"\"\n[j]\nfilename=/dev/ram0\nrw=read\nsize=4m\n\"\"\"]\n}\n");
    // With direct=1 the same scenario may be split.
    Files.writeString(dir.resolve("direct.conf"), Files.readString(p).replace("rw=read",
        "rw=read\ndirect=1"));
    ScenarioLoader.load(dir.resolve("direct.conf"), List.of(), Map.of());
    blksim.engine.InputException e = org.junit.jupiter.api.Assertions.assertThrows(
        blksim.engine.InputException.class, () -> ScenarioLoader.load(p, List.of(), Map.of()));
    assertTrue(e.getMessage().contains("partitions") && e.getMessage().contains("page cache"),
        e.getMessage());
    // A runner handed a partitioning checks it too: the buffered scenario loaded as one
    // partition may not be split by node.
    Files.writeString(p, Files.readString(p).replace("partitions = node", "partitions = one"));
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    blksim.engine.Model m = new ScenarioModelFactory().build(s);
    ScenarioModelFactory.checkPartitioning(s, m, blksim.engine.Partitioning.ONE);
    e = org.junit.jupiter.api.Assertions.assertThrows(blksim.engine.InputException.class,
        () -> ScenarioModelFactory.checkPartitioning(s, m,
            blksim.engine.Partitioning.parse("node")));
    assertEquals("partitions", e.key());
    Scenario direct = ScenarioLoader.load(dir.resolve("direct.conf"), List.of(), Map.of());
    ScenarioModelFactory.checkPartitioning(direct, new ScenarioModelFactory().build(direct),
        blksim.engine.Partitioning.parse("node"));
  }

  @Test
  void directReads_bypassTheCache() throws IOException {
    FioFileReadTest.Run r = run("rw=read\ndirect=1");
    assertEquals(0, r.pgpginKiB());
    assertEquals(1024, r.diskReads());
  }
}
