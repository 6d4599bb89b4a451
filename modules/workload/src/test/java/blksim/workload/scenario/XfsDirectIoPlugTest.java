package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * The plug of an XFS direct I/O ({@code __iomap_dio_rw()}'s {@code blk_start_plug()} around the
 * {@code iomap_iter()} loop, {@code fs.DirectIo}): a 4 MiB O_DIRECT write is four bios of
 * {@code BIO_MAX_VECS} pages; on an ssd without a scheduler (no elevator merging) whose limits
 * take 4 MiB requests, the three later bios merge into the first in the plug
 * ({@code blk_attempt_plug_merge()}), so each write is one request. Without the plug each bio
 * would go to the queue alone: four requests and no merge.
 */
@Timeout(120)
class XfsDirectIoPlugTest {
  @TempDir Path dir;

  RunResult run(String device, String job) throws IOException {
    return run(dir, device, job);
  }

  /** One fio job on an XFS file system on {@code device} (named sdb), in one partition. */
  static RunResult run(Path dir, String device, String job) throws IOException {
    Path p = dir.resolve("s.conf");
    Files.writeString(p, "blksim {\n"
        + "  machine { cores-per-llc = 2, threads-per-core = 1, memory = 512M }\n"
        + "  devices = [ " + device + " ]\n"
        + "  filesystems = [ { type = xfs, device = sdb, mount = /mnt/t } ]\n"
        + "  fio.jobs = [\"\"\"\n" + job + "\n\"\"\"]\n}\n");
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
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

  static final String BIG_REQUESTS = "{ type = ssd, name = sdb, size = 1G, scheduler = none,"
      + " max-sectors = 4m, max-segments = 1024 }";

  @Test
  void theBiosOfOneDirectWriteMergeInItsPlug() throws IOException {
    // Synchronous and libaio (FileAio) at one iocb per io_submit(): the dio's own plug either
    // way (io_submit()'s batch plug takes more than two iocbs, FileAioPlugTest).
    for (String engine : List.of("psync", "libaio\niodepth=4")) {
      RunResult r = run(BIG_REQUESTS, "[w]\nfilename=/mnt/t/f\nrw=write\nbs=4m\nsize=64m\n"
          + "direct=1\nioengine=" + engine + "\n");
      DiskStats d = disk(r);
      assertEquals(16, writes(r), engine);
      assertEquals(64L << 20, d.writeSectors() * 512, engine + ": the data went to the disk");
      // One request per 4 MiB write (the file's extents are contiguous): 3 plug merges each.
      assertEquals(16, d.writeIos(), engine + ": requests");
      assertEquals(48, d.writeMerges(), engine + ": plug merges");
    }
  }

  @Test
  void atTheDefaultLimitsEachBioIsSplitAndNothingMerges() throws IOException {
    // max_sectors 512 KiB, 128 segments: each 1 MiB bio is two full requests, which cannot
    // merge with anything: the plug changes when they are dispatched, not what they are.
    RunResult r = run("{ type = ssd, name = sdb, size = 1G, scheduler = none }",
        "[w]\nfilename=/mnt/t/f\nrw=write\nbs=4m\nsize=16m\ndirect=1\nioengine=psync\n");
    DiskStats d = disk(r);
    assertEquals(4, writes(r));
    assertEquals(32, d.writeIos(), "requests");
    assertEquals(0, d.writeMerges());
  }
}
