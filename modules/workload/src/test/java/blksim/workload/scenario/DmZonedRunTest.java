package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.ComponentReport;
import blksim.engine.InputException;
import blksim.engine.LocalRunner;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.kernel.dm.DmzReportTask;
import blksim.kernel.sched.CpuReport;
import blksim.workload.fio.stats.JobStats;
import blksim.workload.fio.stats.RunResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * dm-zoned over a small host-managed zoned disk end to end: fio's random writes through the
 * chunk works, reclaim when the random zones run out, buffer zones for overwrites of reclaimed
 * chunks; the table rules at load (exit 2 with the key and the rule).
 */
@Timeout(120)
class DmZonedRunTest {
  /** 128 zones of 8 MiB, 12 conventional: 115 chunks, 10 random zones for data. */
  static final String DISK = "{ type = zoned-disk, name = sdb, size = 1G, zone-size = 8M,"
      + " conventional-zones = 12, max-open-zones = 16 }";
  static final String DMZ = "{ type = dm, name = dmz, table = \"0 1884160 zoned /dev/sdb\" }";
  @TempDir Path dir;

  Path write(String devices, String fio) throws IOException {
    Path p = dir.resolve("s.conf");
    Files.writeString(p, "blksim {\n  machine { cores-per-llc = 4, threads-per-core = 1 }\n"
        + "  devices = [ " + devices + " ]\n"
        + "  fio.jobs = [\"\"\"\n[global]\ndirect=1\nfilename=/dev/mapper/dmz\n" + fio
        + "\n\"\"\"]\n}\n");
    return p;
  }

  static String report(RunOutcome out) {
    List<String> texts = new ArrayList<>();
    for (var ir : out.reports()) {
      ComponentReport r = ir.report();
      if (r.kind().equals(CpuReport.KIND)) {
        texts.addAll(DmzReportTask.texts(CpuReport.decode(r.payload()).tasks()));
      }
    }
    assertEquals(1, texts.size(), "one dm-zoned target, one report");
    return texts.get(0);
  }

  static long counter(String report, String name) {
    Matcher m = Pattern.compile(name + " ([0-9]+)").matcher(report);
    assertTrue(m.find(), name + " in " + report);
    return Long.parseLong(m.group(1));
  }

  @Test
  void randomWritesOverMoreChunksThanRandomZones_driveReclaimAndBufferZones() throws IOException {
    Scenario s = ScenarioLoader.load(write(DISK + ", " + DMZ, "[w]\nrw=randwrite\nbs=4k\n"
        + "ioengine=libaio\niodepth=8\nsize=96m\ntime_based\nruntime=1500ms\n"), List.of(),
        Map.of());
    RunOutcome out = LocalRunner.run(new ScenarioModelFactory().build(s.spec()), Partitioning.ONE,
        1, ProgressListener.NONE);
    RunResult r = ScenarioResults.toRunResult(out, 0);
    JobStats j = r.jobs().get(0);
    assertEquals(0, j.error(), "no write missed a write pointer or failed");
    long ios = j.totalIos(1);
    assertTrue(ios > 20, "writes completed: " + ios);
    String rep = report(out);
    assertEquals(ios, counter(rep, "bios"), "one chunk-work bio per 4 KiB write: " + rep);
    assertTrue(counter(rep, "direct writes") > 0, rep);
    assertTrue(counter(rep, "free-zone waits") > 0, "12 chunks on 10 random zones: " + rep);
    assertTrue(counter(rep, "zones reclaimed") > 0, "busy reclaim ran: " + rep);
    assertTrue(counter(rep, "metadata flushes") > 0, rep);
    assertTrue(counter(rep, "buffered writes") > 0, "overwrites of reclaimed chunks below"
        + " their write pointer: " + rep);
    assertTrue(rep.contains("zcond:oi [type: 2] data chunk"), "chunks moved to sequential"
        + " zones by reclaim: " + rep);
    assertTrue(rep.contains("115 data chunks capacity"), rep);
  }

  @Test
  void freeZoneWaits_endAfterOneSecondWhenNoZoneIsFreed() throws IOException {
    // 1 MiB random writes at queue depth 32 over 46 chunks of 256 MiB with 6 random zones:
    // chunk works wait for zones that busy reclaim frees one 256 MiB copy at a time.
    // dmz_wait_for_free_zones() sleeps at most HZ, then the work re-takes mblk_sem and
    // retries, so some waits end by the timeout, never more than there were waits.
    String disk = "{ type = zoned-disk, name = sdb, size = 8G, zone-size = 256M,"
        + " conventional-zones = 8, max-open-zones = 16 }";
    String dmz = "{ type = dm, name = dmz, table = \"0 12058624 zoned /dev/sdb\" }";
    Scenario s = ScenarioLoader.load(write(disk + ", " + dmz, "[w]\nrw=randwrite\nbs=1m\n"
        + "ioengine=libaio\niodepth=32\nsize=4g\ntime_based\nruntime=4s\n"), List.of(),
        Map.of());
    RunOutcome out = LocalRunner.run(new ScenarioModelFactory().build(s.spec()), Partitioning.ONE,
        1, ProgressListener.NONE);
    String rep = report(out);
    long waits = counter(rep, "free-zone waits") + counter(rep, "reclaim waits");
    long timeouts = counter(rep, "wait timeouts");
    assertTrue(timeouts > 0, "some waits outlast 1 s: " + rep);
    assertTrue(timeouts < waits, "a timeout ends one wait, a freed zone the others: " + rep);
  }

  @Test
  void metadataIsFlushedEveryTenSeconds() throws IOException {
    // Two chunks on ten random zones: no reclaim, so only dmz_flush_work's period flushes.
    Scenario s = ScenarioLoader.load(write(DISK + ", " + DMZ, "[w]\nrw=randwrite\nbs=4k\n"
        + "ioengine=psync\nsize=16m\ntime_based\nruntime=10500ms\n"), List.of(), Map.of());
    RunOutcome out = LocalRunner.run(new ScenarioModelFactory().build(s.spec()), Partitioning.ONE,
        1, ProgressListener.NONE);
    String rep = report(out);
    assertEquals(0, counter(rep, "zones reclaimed"), rep);
    assertEquals(1, counter(rep, "metadata flushes"), "one period of DMZ_FLUSH_PERIOD: " + rep);
    assertTrue(rep.matches("(?s).*metadata flushes 1 \\(([1-9][0-9]*) blocks\\).*"),
        "the dirty mapping and bitmap blocks were written: " + rep);
  }

  @Test
  void zonedTargetOnARegularDisk_exitsWithTheTableKeyAndTheRule() throws IOException {
    InputException e = assertThrows(InputException.class, () -> ScenarioLoader.load(write(
        "{ type = disk, name = sdb, size = 1G }, " + DMZ, "[w]\nrw=write\nsize=1m\n"),
        List.of(), Map.of()));
    assertTrue(e.getMessage().contains("table"), e.getMessage());
    assertTrue(e.getMessage().contains("Invalid regular device"), e.getMessage());
    assertTrue(e.getMessage().contains("zoned-disk"), e.getMessage());
  }

  @Test
  void zonedTargetOfTheWrongLength_namesTheLengthDmzadmExposes() throws IOException {
    InputException e = assertThrows(InputException.class, () -> ScenarioLoader.load(write(
        DISK + ", { type = dm, name = dmz, table = \"0 2097152 zoned /dev/sdb\" }",
        "[w]\nrw=write\nsize=1m\n"), List.of(), Map.of()));
    assertTrue(e.getMessage().contains("len"), e.getMessage());
    assertTrue(e.getMessage().contains("must be 1884160"), e.getMessage());
  }

  /** The run of {@code devices} with fio's 4 KiB random libaio writes for {@code runtime}. */
  RunOutcome randwrite(String devices, String runtime, int threads) throws IOException {
    Scenario s = ScenarioLoader.load(write(devices, "[w]\nrw=randwrite\nbs=4k\n"
        + "ioengine=libaio\niodepth=16\nsize=96m\ntime_based\nruntime=" + runtime + "\n"),
        List.of(), Map.of());
    return LocalRunner.run(new ScenarioModelFactory().build(s.spec()), Partitioning.ONE, threads,
        ProgressListener.NONE);
  }

  @Test
  void wbtOnTheZonedDisk_throttlesTheChunkWorksWritesAndIsDeterministic() throws IOException {
    String wbt = DISK.replace("max-open-zones = 16", "max-open-zones = 16, wbt = on");
    RunOutcome a = randwrite(wbt + ", " + DMZ, "600ms", 1);
    String rep = report(a);
    assertTrue(rep.contains("sdb wbt: min_lat 75000 us"), rep);
    assertTrue(counter(rep, "throttled writes") > 0, rep);
    assertEquals(0, ScenarioResults.toRunResult(a, 0).jobs().get(0).error());
    RunOutcome b = randwrite(wbt + ", " + DMZ, "600ms", 2);
    assertEquals(rep, report(b), "the same run on two threads");
    assertEquals(ScenarioResults.toRunResult(a, 0).jobs().get(0).totalIos(1),
        ScenarioResults.toRunResult(b, 0).jobs().get(0).totalIos(1));
    String off = report(randwrite(DISK + ", " + DMZ, "600ms", 1));
    assertFalse(off.contains("wbt:"), "wbt is off unless asked: " + off);
  }

  @Test
  void dmzadmSeqAndLabel_changeTheFormatAndTheWorkqueueNames() throws IOException {
    // --seq=4: 128 - (2 metadata + 4 reserved) = 122 chunks of 16384 sectors.
    String seq4 = DISK.replace("max-open-zones = 16", "max-open-zones = 16, dmzadm-seq = 4,"
        + " dmzadm-label = \"archive.1\"");
    InputException e = assertThrows(InputException.class, () -> ScenarioLoader.load(write(
        seq4 + ", " + DMZ, "[w]\nrw=write\nsize=1m\n"), List.of(), Map.of()));
    assertTrue(e.getMessage().contains("must be 1998848"), e.getMessage());
    RunOutcome out = randwrite(seq4 + ", { type = dm, name = dmz, table = \"0 1998848 zoned"
        + " /dev/sdb\" }", "200ms", 1);
    String rep = report(out);
    assertTrue(rep.contains("DM-Zoned Label archive.1"), rep);
    assertTrue(rep.contains("122 data chunks capacity"), rep);
    assertTrue(rep.contains("dmz (archive.1)"), rep);
  }

  @Test
  void badDmzadmLabelOrWbtValue_exitsWithTheKeyAndTheRule() throws IOException {
    InputException e = assertThrows(InputException.class, () -> ScenarioLoader.load(write(
        DISK.replace("max-open-zones = 16", "max-open-zones = 16, dmzadm-label = \"a b\"")
        + ", " + DMZ, "[w]\nrw=write\nsize=1m\n"), List.of(), Map.of()));
    assertTrue(e.getMessage().contains("dmzadm-label"), e.getMessage());
    assertTrue(e.getMessage().contains("1 to 31 characters"), e.getMessage());
    InputException w = assertThrows(InputException.class, () -> ScenarioLoader.load(write(
        DISK.replace("max-open-zones = 16", "max-open-zones = 16, wbt = yes")
        + ", " + DMZ, "[w]\nrw=write\nsize=1m\n"), List.of(), Map.of()));
    assertTrue(w.getMessage().contains("wbt"), w.getMessage());
  }

  @Test
  void boundedMetadataCache_chunkWorksWaitForTheirBitmapReads_unboundedNeverMisses()
      throws IOException {
    // Synchronous 4 KiB writes over 12 chunks of a fresh device: the first update of each
    // zone's bitmap block misses the cache (dmz_get_mblock_slow()), and the chunk work reads it
    // before the bio completes, so the job completes fewer writes in the same time.
    String fio = "[w]\nrw=randwrite\nbs=4k\nioengine=psync\nsize=96m\ntime_based\n"
        + "runtime=1s\n";
    long[] ios = new long[2];
    String[] reps = new String[2];
    for (int i = 0; i < 2; i++) {
      // The drive's write cache off: with it reclaim and the metadata flushes of this second
      // differ and touch more zones' bitmaps than the bound below counts.
      String base = DISK.replace(" }", ", write-cache = off }");
      String disk = i == 0 ? base : base.replace(" }", ", dmz-metadata-cache = unbounded }");
      Scenario s = ScenarioLoader.load(write(disk + ", " + DMZ, fio), List.of(), Map.of());
      RunOutcome out = LocalRunner.run(new ScenarioModelFactory().build(s.spec()),
          Partitioning.ONE, 1, ProgressListener.NONE);
      ios[i] = ScenarioResults.toRunResult(out, 0).jobs().get(0).totalIos(1);
      reps[i] = report(out);
    }
    long misses = counter(reps[0], "misses");
    assertTrue(misses >= 2 && misses <= 12 + 4, "one miss per zone's bitmap block first"
        + " touched: " + reps[0]);
    assertTrue(counter(reps[0], "miss waits") > 0, "the works waited for the reads: " + reps[0]);
    assertTrue(reps[1].contains("metadata cache unbounded"), reps[1]);
    assertTrue(ios[0] < ios[1], "the reads cost the job writes: bounded " + ios[0]
        + ", unbounded " + ios[1]);
  }
}
