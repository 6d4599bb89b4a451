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
 * Whole runs of fio on the request-based devices ({@code disk}, {@code ssd}), checked against
 * the service models' arithmetic, and the loader's rules for them.
 */
@Timeout(120)
class RequestDeviceRunTest {
  static final double MIB = 1 << 20;
  @TempDir Path dir;

  Path write(String devices, String fio, String... extra) throws IOException {
    Path p = dir.resolve("s.conf");
    Files.writeString(p, "blksim {\n"
        + String.join("\n", extra) + "\n"
        + "  devices = [ " + devices + " ]\n"
        + "  fio.jobs = [\"\"\"\n[global]\ndirect=1\ntime_based\n" + fio + "\n\"\"\"]\n}\n");
    return p;
  }

  RunResult run(String devices, String fio, String... extra) throws IOException {
    Scenario s = ScenarioLoader.load(write(devices, fio, extra), List.of(), Map.of());
    RunOutcome out = LocalRunner.run(new ScenarioModelFactory().build(s.spec()), Partitioning.ONE,
        1, ProgressListener.NONE);
    return ScenarioResults.toRunResult(out, 0);
  }

  static final String DISK = "{ type = disk, name = sdb, size = 60G }";
  static final String SSD = "{ type = ssd, name = sdc, size = 64G }";

  static long ios(RunResult r) {
    long n = 0;
    for (JobStats j : r.jobs()) {
      n += j.totalIos(0) + j.totalIos(1);
    }
    return n;
  }

  static DiskStats disk(RunResult r, String name) {
    return r.disks().stream().filter(d -> d.name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void sequentialReadsAtQd1ReachTheMediaRate() throws IOException {
    // 128 KiB reads from LBA 0 stream at the outer media rate, 237 MiB/s: 128 KiB takes
    // 0.125 / 237 s = 527 us on the media, each command after the first pays no positioning
    // (RotationalDisk's sequential streaming). The host adds about 10 us per I/O (syscall,
    // submit, kblockd run, completion interrupt, wakeup): 237 x 527 / 537 = 232.6 MiB/s. The
    // first read waits for sector 0 to come round (almost a whole 8.33 ms revolution, as the
    // spindle's phase is 0 at t = 0): 1 s - 8.4 ms of streaming, 230.6 MiB/s over the second.
    RunResult r = run(DISK, "[seq]\nfilename=/dev/sdb\nrw=read\nbs=128k\nioengine=psync\n"
        + "runtime=1s\n");
    JobStats j = r.jobs().get(0);
    double mibPerSec = j.totalIos(0) * 128 * 1024 / MIB / 1.0;
    assertTrue(mibPerSec > 0.95 * 237 && mibPerSec <= 237, "MiB/s " + mibPerSec);
    DiskStats d = disk(r, "sdb");
    assertEquals(j.totalIos(0), d.readIos(), "one request per bio at QD1");
    assertEquals(j.totalIos(0) * 256, d.readSectors());
  }

  @Test
  void randomReadsAtQd1PaySeekAndRotation() throws IOException {
    // Random 4 KiB reads over the whole 60 GB: 50 us command overhead, a mean random seek of
    // about 7.6 ms (RotationalDisk: the three-point curve averaged over the distance density
    // 2(1 - x)), half a revolution at 7200 rpm = 4.17 ms, 4 KiB of transfer (~17 us): about
    // 11.8 ms per read. Half a second gives about 170 reads; allow 12 % for their spread.
    RunResult r = run(DISK, "[rand]\nfilename=/dev/sdb\nrw=randread\nbs=4k\nioengine=psync\n"
        + "runtime=2s\n");
    double clatMs = r.jobs().get(0).clat(0).mean() / 1e6;
    assertTrue(clatMs > 11.8 * 0.88 && clatMs < 11.8 * 1.12, "mean clat ms " + clatMs);
  }

  @Test
  void ncqRaisesRandomReadIopsAtDepth() throws IOException {
    // With 32 commands queued the drive serves the one with the shortest positioning time, so
    // each costs far less than the 11.8 ms of a random access at QD1.
    RunResult qd1 = run(DISK, "[rand]\nfilename=/dev/sdb\nrw=randread\nbs=4k\nioengine=libaio\n"
        + "iodepth=1\nruntime=1s\n");
    RunResult qd32 = run(DISK, "[rand]\nfilename=/dev/sdb\nrw=randread\nbs=4k\nioengine=libaio\n"
        + "iodepth=32\nruntime=1s\n");
    assertTrue(ios(qd32) > 2 * ios(qd1), "qd1 " + ios(qd1) + " qd32 " + ios(qd32));
  }

  @Test
  void ssdRandomReadAtQd1TakesFlashLatencyPlusTheLink() throws IOException {
    // 40 us on a channel, then 4096 B / 490 MB/s = 8.4 us on the link: 48.4 us at the device,
    // plus the host's submission and completion path (a few us).
    RunResult r = run(SSD, "[rand]\nfilename=/dev/sdc\nrw=randread\nbs=4k\nioengine=psync\n"
        + "runtime=50ms\n");
    double clatUs = r.jobs().get(0).clat(0).mean() / 1e3;
    assertTrue(clatUs > 48.4 && clatUs < 48.4 + 15, "mean clat us " + clatUs);
  }

  @Test
  void ssdThroughputLevelsOffAtTheLinkBandwidth() throws IOException {
    // 4 jobs x QD 16 of 4 KiB reads: the link caps at 490e6 / 4096 = 119,629 IOPS (8 channels
    // could read 8 / 40 us = 200,000 pages/s).
    RunResult r = run(SSD, "[rand]\nfilename=/dev/sdc\nrw=randread\nbs=4k\nioengine=libaio\n"
        + "iodepth=16\nnumjobs=4\nruntime=100ms\n");
    double iops = ios(r) / 0.1;
    assertTrue(iops > 0.9 * 119_629 && iops < 1.01 * 119_629, "IOPS " + iops);
  }

  @Test
  void submittersSleepForRequestsWhenNrRequestsIsExhausted() throws IOException {
    // nr_requests = queue_depth = 4 without a scheduler, fio asks for 32: the submitter sleeps
    // for a request and is woken by each completion. At most 4 reads are at the device, each
    // at least 48.4 us (40 us flash + 8.4 us link), so IOPS stay below 4 / 48.4 us = 82,645
    // (the Ssd model itself throws if more than its 4 tags were ever in flight).
    RunResult r = run("{ type = ssd, name = sdc, size = 64G, scheduler = none, queue-depth = 4 }",
        "[rand]\nfilename=/dev/sdc\nrw=randread\nbs=4k\nioengine=libaio\niodepth=32\n"
        + "runtime=50ms\n");
    double iops = ios(r) / 0.05;
    assertTrue(iops > 40_000 && iops < 82_645, "IOPS " + iops);
  }

  @Test
  void sameSeedTwiceGivesTheSameRun() throws IOException {
    String fio = "[rand]\nfilename=/dev/sdb\nrw=randrw\nbs=4k\nioengine=libaio\niodepth=8\n"
        + "numjobs=2\nruntime=300ms\n";
    RunResult a = run(DISK, fio);
    RunResult b = run(DISK, fio);
    assertEquals(summary(a), summary(b));
  }

  static String summary(RunResult r) {
    StringBuilder sb = new StringBuilder();
    for (JobStats j : r.jobs()) {
      sb.append(j.totalIos(0)).append(' ').append(j.totalIos(1)).append(' ')
          .append(j.clat(0)).append(' ').append(j.clat(1)).append('\n');
    }
    sb.append(r.disks());
    return sb.toString();
  }

  @Test
  void aSharedQueueRefusesPartitionsThatSplitTheCpus() throws IOException {
    Path p = write(DISK, "[r]\nfilename=/dev/sdb\nrw=read\nbs=4k\nruntime=1ms\n",
        "partitions = cpu");
    InputException e = assertThrows(InputException.class,
        () -> ScenarioLoader.load(p, List.of(), Map.of()));
    assertTrue(e.getMessage().contains("partitions") && e.getMessage().contains("sdb"),
        e.getMessage());
  }

  @Test
  void badDeviceValuesNameTheirKey() throws IOException {
    String fio = "[r]\nfilename=/dev/sdb\nrw=read\nbs=4k\nruntime=1ms\n";
    Map<String, String> cases = Map.of(
        "{ type = disk, name = sdb, size = 60G, scheduler = cfq }", "scheduler",
        "{ type = disk, name = sdb, size = 60G, scheduler = none, nr-requests = 64 }",
        "nr-requests",
        "{ type = disk, name = sdb, size = 60G, nr-requests = lots }", "nr-requests",
        "{ type = disk, name = sdb, size = 60G, inner-rate = 300M }", "inner-rate",
        "{ type = ssd, name = sdb, size = 64G, page-size = 3000 }", "page-size",
        "{ type = disk, name = sdb, size = 60G, rpm = 5 }", "rpm");
    for (Map.Entry<String, String> c : new java.util.TreeMap<>(cases).entrySet()) {
      Path p = write(c.getKey(), fio);
      InputException e = assertThrows(InputException.class,
          () -> ScenarioLoader.load(p, List.of(), Map.of()), c.getKey());
      assertTrue(e.getMessage().contains("devices.0." + c.getValue()),
          c.getKey() + ": " + e.getMessage());
    }
  }
}
