package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
 * The plug of a btrfs direct write ({@code btrfs_dio_write()} → {@code __iomap_dio_rw()}'s
 * {@code blk_start_plug()} around the {@code iomap_iter()} loop, {@code fs.DioPlug} from
 * {@code fs.btrfs.BtrfsDirectWrite}): the model cuts a write into one bio per 64 KiB stripe
 * element ({@code Raid0Map}, the same for {@code single}), so a 256 KiB write to a one-device
 * btrfs is four contiguous bios; on an ssd without a scheduler they merge in the plug
 * ({@code blk_attempt_plug_merge()}) into one request. Without the plug each bio goes to the
 * queue alone: four requests per write and no merge. The plug is off by default
 * ({@code kernel.btrfs-dio-plug}, which thread 2's calibration needs off).
 */
@Timeout(120)
class BtrfsDirectIoPlugTest {
  @TempDir Path dir;

  String plug = "on";

  RunResult run(String fsLine, String devices, String job) throws IOException {
    Path p = dir.resolve("s.conf");
    Files.writeString(p, "blksim {\n"
        + "  machine { cores-per-llc = 2, threads-per-core = 1, memory = 512M }\n"
        + (plug == null ? "" : "  kernel.btrfs-dio-plug = " + plug + "\n")
        + "  devices = [ " + devices + " ]\n"
        + "  filesystems = [ " + fsLine + " ]\n"
        + "  fio.jobs = [\"\"\"\n" + job + "\n\"\"\"]\n}\n");
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    RunOutcome out = LocalRunner.run(new ScenarioModelFactory().build(s.spec()), Partitioning.ONE,
        1, ProgressListener.NONE);
    return ScenarioResults.toRunResult(out, 0);
  }

  static DiskStats disk(RunResult r, String name) {
    return r.disks().stream().filter(d -> d.name().equals(name)).findFirst().orElseThrow();
  }

  static long writes(RunResult r) {
    long n = 0;
    for (JobStats j : r.jobs()) {
      n += j.totalIos(1);
    }
    return n;
  }

  static final String JOB = "[w]\ndirectory=/mnt/b\nrw=write\nbs=256k\nsize=16m\ndirect=1\n"
      + "fallocate=none\nioengine=libaio\niodepth=1\n";

  @Test
  void theStripeElementBiosOfOneWriteMergeInItsPlug() throws IOException {
    RunResult r = run("{ type = btrfs, devices = [sdb], mount = /mnt/b, data-profile = single }",
        "{ type = ssd, name = sdb, size = 1G, scheduler = none }", JOB);
    DiskStats d = disk(r, "sdb");
    assertEquals(64, writes(r));
    assertEquals(16L << 20, d.writeSectors() * 512, "the data went to the disk");
    // One request per 256 KiB write (max_sectors 512 KiB): its three later bios plug-merged.
    assertEquals(64, d.writeIos(), "requests");
    assertEquals(192, d.writeMerges(), "plug merges");
  }

  @Test
  void offByDefault_eachBioIsARequest() throws IOException {
    plug = null;
    RunResult r = run("{ type = btrfs, devices = [sdb], mount = /mnt/b, data-profile = single }",
        "{ type = ssd, name = sdb, size = 1G, scheduler = none }", JOB);
    assertEquals(64, writes(r));
    assertEquals(256, disk(r, "sdb").writeIos(), "requests");
    assertEquals(0, disk(r, "sdb").writeMerges());
  }

  @Test
  void overRaid0TheBiosGoToTwoQueuesAndNothingMerges() throws IOException {
    // A 128 KiB write aligned to the stripe is one bio on each device: the plug holds both
    // (two queues) and changes when they are dispatched, not what they are.
    RunResult r = run("{ type = btrfs, devices = [sda, sdb], mount = /mnt/b,"
        + " data-profile = raid0 }",
        "{ type = ssd, name = sda, size = 1G, scheduler = none },"
        + " { type = ssd, name = sdb, size = 1G, scheduler = none }",
        JOB.replace("bs=256k", "bs=128k"));
    assertEquals(128, writes(r));
    for (String dev : List.of("sda", "sdb")) {
      assertEquals(128, disk(r, dev).writeIos(), dev + ": requests");
      assertEquals(0, disk(r, dev).writeMerges(), dev);
    }
  }
}
