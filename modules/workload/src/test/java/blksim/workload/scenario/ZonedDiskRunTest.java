package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.InputException;
import blksim.engine.LocalRunner;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.workload.fio.stats.DiskStats;
import blksim.workload.fio.stats.JobStats;
import blksim.workload.fio.stats.RunResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole runs of fio on a host-managed zoned disk ({@code type = zoned-disk}): the drive rejects
 * writes off the write pointer, fio's zonemode=zbd keeps to the write pointers (resetting full
 * zones), mq-deadline's zone write lock keeps queued writes of a zone in order; and the loader's
 * rules for the zone layout and zbd jobs.
 */
@Timeout(120)
class ZonedDiskRunTest {
  static final long MIB = 1L << 20;
  /** 128 zones of 4 MiB, 4 conventional, at most 8 open; one surface so 512 MiB fills cylinders. */
  static final String ZONED = "{ type = zoned-disk, name = sdb, size = 512M, zone-size = 4M,"
      + " conventional-zones = 4, max-open-zones = 8, surfaces = 1 }";
  @TempDir Path dir;

  Path write(String devices, String fio) throws IOException {
    Path p = dir.resolve("s.conf");
    Files.writeString(p, "blksim {\n  devices = [ " + devices + " ]\n"
        + "  fio.jobs = [\"\"\"\n[global]\ndirect=1\nfilename=/dev/sdb\n" + fio + "\n\"\"\"]\n}\n");
    return p;
  }

  RunResult run(String devices, String fio) throws IOException {
    Scenario s = ScenarioLoader.load(write(devices, fio), List.of(), Map.of());
    RunOutcome out = LocalRunner.run(new ScenarioModelFactory().build(s.spec()), Partitioning.ONE,
        1, ProgressListener.NONE);
    return ScenarioResults.toRunResult(out, 0);
  }

  static DiskStats disk(RunResult r) {
    return r.disks().stream().filter(d -> d.name().equals("sdb")).findFirst().orElseThrow();
  }

  static long writes(RunResult r) {
    long n = 0;
    for (JobStats j : r.jobs()) {
      n += j.totalIos(1);
    }
    return n;
  }

  @Test
  void randomWritesOffTheWritePointerFailWithEio() throws IOException {
    // Without zonemode=zbd, random writes into sequential zones miss the write pointer: the
    // drive fails the first with UNALIGNED WRITE COMMAND, the kernel returns -EIO, fio stops.
    RunResult r = run(ZONED, "[w]\nrw=randwrite\nbs=64k\nioengine=psync\noffset=16M\n"
        + "time_based\nruntime=100ms\n");
    assertEquals(5, r.jobs().get(0).error(), "EIO");
    assertTrue(writes(r) < 3, "the job stopped at the first error: " + writes(r));
  }

  @Test
  void zbdRandomWritesGoToWritePointers() throws IOException {
    RunResult r = run(ZONED, "[w]\nzonemode=zbd\nrw=randwrite\nbs=64k\nioengine=psync\n"
        + "numjobs=4\nmax_open_zones=4\noffset=16M\ntime_based\nruntime=500ms\n");
    for (JobStats j : r.jobs()) {
      assertEquals(0, j.error(), "no write missed a write pointer");
    }
    assertTrue(writes(r) > 20, "writes " + writes(r));
    // Every write is a request or merged into one (two jobs appending to the same write zone),
    // bar the ones in flight when the run stopped.
    long atDisk = disk(r).writeIos() + disk(r).writeMerges();
    assertTrue(atDisk >= writes(r) - 4 && atDisk <= writes(r) + 4,
        "disk " + atDisk + " fio " + writes(r));
  }

  @Test
  void zbdQueuedSequentialWritesStayInOrderUnderTheZoneLock() throws IOException {
    // 16 writes in flight to one zone: mq-deadline dispatches one per zone at a time, so the
    // drive's NCQ reordering never sees two writes of a zone.
    RunResult r = run(ZONED, "[w]\nzonemode=zbd\nrw=write\nbs=64k\nioengine=libaio\n"
        + "iodepth=16\noffset=16M\nsize=8M\ntime_based\nruntime=200ms\n");
    assertEquals(0, r.jobs().get(0).error());
    assertTrue(writes(r) > 64, "writes " + writes(r));
  }

  @Test
  void fullZonesAreResetAndWrittenAgain() throws IOException {
    // Four zones (16 MiB) take 64 writes of 256 KiB; 0.5 s at up to ~237 MiB/s writes far more,
    // which zbd can only do by resetting full zones (a missing reset would be an EIO).
    RunResult r = run(ZONED, "[w]\nzonemode=zbd\nzonesize=4M\nrw=randwrite\nbs=256k\n"
        + "ioengine=psync\noffset=4z\nsize=4z\ntime_based\nruntime=500ms\n");
    assertEquals(0, r.jobs().get(0).error());
    assertTrue(writes(r) > 64, "writes " + writes(r));
    // Each zone reset is one request of the write direction with no data.
    long resets = r.jobs().get(0).zoneResets();
    assertTrue(resets > 0, "zone resets " + resets);
    long atDisk = disk(r).writeIos() - writes(r);
    assertTrue(Math.abs(atDisk - resets) <= 1, "resets at the disk " + atDisk + ", fio " + resets);
  }

  @Test
  void ncqAgingBoundsTheWaitOfACommandSptfPassesOver() throws IOException {
    // A sequential stream keeps its next read queued at the drive, always the nearest command;
    // SPTF therefore passes over a random read elsewhere for as long as the stream lasts. With
    // a 20 ms aging limit that read is served once it has waited 20 ms.
    String fio = "[seq]\nrw=read\nbs=64k\nioengine=libaio\niodepth=16\noffset=16M\n"
        + "size=128M\ntime_based\nruntime=500ms\n"
        + "[rand]\nrw=randread\nbs=4k\nioengine=psync\noffset=256M\nsize=256M\n"
        + "time_based\nruntime=500ms\n";
    JobStats sptf = run(ZONED, fio).jobs().get(1);
    JobStats aged = run(ZONED.replace(" }", ", ncq-aging = 20ms }"), fio).jobs().get(1);
    assertTrue(aged.totalIos(0) > 10, "random reads with aging " + aged.totalIos(0));
    assertTrue(aged.totalIos(0) > 2 * sptf.totalIos(0),
        "random reads with aging " + aged.totalIos(0) + ", without " + sptf.totalIos(0));
    // Each waits at most the limit plus the command being served and its own service.
    assertTrue(aged.clat(0).max() < 50_000_000L, "aged max " + aged.clat(0).max() + " ns");
  }

  @Test
  void zbdReadsOnlyWrittenData() throws IOException {
    RunResult r = run(ZONED, "[w]\nzonemode=zbd\nrw=write\nbs=64k\nioengine=psync\noffset=16M\n"
        + "size=4M\n[r]\nstonewall\nzonemode=zbd\nrw=read\nbs=64k\nioengine=psync\noffset=16M\n"
        + "size=16M\nnumber_ios=1000\n");
    JobStats w = r.jobs().get(0);
    JobStats rd = r.jobs().get(1);
    assertEquals(4 * MIB, w.ioBytes(1));
    assertEquals(0, rd.error());
    assertEquals(4 * MIB, rd.ioBytes(0), "the written zone, then no zone with data: EOF");
  }

  @Test
  void zbdTrimsAreZoneResets() throws IOException {
    // Two zones written, then a random trim job over them: each trim of a zone with data is a
    // zone reset (zbd_do_io_u_trim()); once both are empty there is nothing to trim (EOF).
    RunResult r = run(ZONED, "[w]\nzonemode=zbd\nrw=write\nbs=1M\nioengine=psync\noffset=16M\n"
        + "size=2z\n[t]\nstonewall\nzonemode=zbd\nrw=randtrim\nbs=4M\nioengine=psync\n"
        + "offset=16M\nsize=2z\nnumber_ios=10\n");
    assertEquals(8 * MIB, r.jobs().get(0).ioBytes(1));
    assertEquals(2, r.jobs().get(1).zoneResets());
    assertEquals(0, r.jobs().get(1).error());
    // max_sectors 512 KiB: bio_split_to_limits() makes each 1 MiB write two requests.
    assertEquals(8 * 2 + 2, disk(r).writeIos(),
        "eight 1 MiB writes of two requests each and two zone resets");
  }

  @Test
  void nothingWrittenMeansNothingToRead() throws IOException {
    RunResult r = run(ZONED, "[r]\nzonemode=zbd\nrw=read\nbs=64k\nioengine=libaio\niodepth=4\n"
        + "offset=16M\nsize=16M\n");
    assertEquals(0, r.jobs().get(0).totalIos(0));
    assertEquals(0, r.jobs().get(0).error());
  }

  @Test
  void badInputNamesTheKeyAndTheRule() throws IOException {
    String fio = "[w]\nrw=write\nbs=64k\nruntime=10ms\ntime_based\n";
    Map<String, String> cases = Map.of(
        "{ type = zoned-disk, name = sdb, size = 480M, zone-size = 3M,"
            + " conventional-zones = 4, surfaces = 1 }",
        "devices.0.zone-size",
        "{ type = zoned-disk, name = sdb, size = 512M, zone-size = 4M, conventional-zones = 200,"
            + " surfaces = 1 }", "devices.0.conventional-zones",
        "{ type = zoned-disk, name = sdb, size = 510M, zone-size = 4M,"
            + " conventional-zones = 4, surfaces = 1 }",
        "devices.0.size",
        "{ type = zoned-disk, name = sdb, size = 512M, zone-size = 4M, max-open-zones = 0,"
            + " conventional-zones = 4, surfaces = 1 }", "devices.0.max-open-zones");
    for (Map.Entry<String, String> c : new java.util.TreeMap<>(cases).entrySet()) {
      Path p = write(c.getKey(), fio);
      InputException e = assertThrows(InputException.class,
          () -> ScenarioLoader.load(p, List.of(), Map.of()), c.getKey());
      assertTrue(e.getMessage().contains(c.getValue()), c.getKey() + ": " + e.getMessage());
    }
    Map<String, String> jobs = Map.of(
        "zonemode=zbd\nzonesize=8M\n", "zonesize",
        "zonemode=zbd\nmax_open_zones=9\n", "max_open_zones",
        "zonemode=zbd\ndirect=0\n", "direct",
        "size=4z\n", "size");
    for (Map.Entry<String, String> c : new java.util.TreeMap<>(jobs).entrySet()) {
      Path p = write(ZONED, fio + c.getKey());
      InputException e = assertThrows(InputException.class,
          () -> ScenarioLoader.load(p, List.of(), Map.of()), c.getKey());
      assertTrue(e.getMessage().contains(c.getValue()), c.getKey() + ": " + e.getMessage());
    }
    Path p = write("{ type = disk, name = sdb, size = 60G }", fio + "zonemode=zbd\n");
    InputException e = assertThrows(InputException.class,
        () -> ScenarioLoader.load(p, List.of(), Map.of()));
    assertTrue(e.getMessage().contains("zonemode") && e.getMessage().contains("zoned"),
        e.getMessage());
  }
}
