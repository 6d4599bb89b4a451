package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.IndexedReport;
import blksim.engine.InputException;
import blksim.engine.LocalRunner;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.kernel.block.DiskCounters;
import blksim.kernel.fs.btrfs.BtrfsFilesystem;
import blksim.kernel.fs.btrfs.OrderedExtent;
import blksim.kernel.sched.CpuReport;
import blksim.kernel.sched.TaskReport;
import blksim.kernel.workqueue.Workqueue;
import blksim.workload.fio.stats.JobStats;
import blksim.workload.fio.thread.FioJobThread;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * btrfs direct writes in whole runs (kernel-model.md §15.3): ordered extents created per write
 * and finished on btrfs-endio-write after the aio completed, end_fsync waiting for them, data
 * striped over the RAID0 devices, the workqueue's max_active, bad input, determinism.
 */
@Timeout(180)
class BtrfsScenarioTest {
  @TempDir Path dir;

  record Run(BtrfsFilesystem fs, List<OrderedExtent> finished, List<JobStats> jobs,
      Map<String, Long> diskWriteSectors, Workqueue endio) {}

  private String extraCosts = "";

  private Path write(String fsOptions, String job) throws IOException {
    Path p = dir.resolve("s.conf");
    Files.writeString(p, "blksim {\n"
        + "  machine { cores-per-llc = 4, threads-per-core = 1, memory = 1G }\n"
        + "  kernel { mode = " + (fsOptions.contains("thread_pool=1") ? "PRE_6_5" : "V6_5_TO_6_8")
        + " }\n"
        + "  devices = [ { type = ssd, name = sda, size = 4G }, { type = ssd, name = sdb,"
        + " size = 4G } ]\n"
        + "  filesystems = [ { type = btrfs, devices = [sda, sdb], mount = /mnt/b"
        + fsOptions + " } ]\n"
        + (fsOptions.contains("thread_pool=64") ? "  costs.btrfs.finish-tree-hold = 100us\n"
            : "")
        + extraCosts
        + "  fio.jobs = [\"\"\"\n[w]\ndirectory=/mnt/b\n" + job + "\n\"\"\"]\n}\n");
    return p;
  }

  private Run run(String fsOptions, String job) throws IOException {
    Scenario s = ScenarioLoader.load(write(fsOptions, job), List.of(), Map.of());
    ScenarioModelFactory.Machine m = new ScenarioModelFactory().machine(s);
    BtrfsFilesystem fs = (BtrfsFilesystem) m.vfs().mountAt("/mnt/b").fs();
    List<OrderedExtent> finished = new ArrayList<>();
    fs.onOrderedFinished(finished::add);
    RunOutcome out = LocalRunner.run(m.model(), Partitioning.ONE, 1, ProgressListener.NONE);
    List<JobStats> jobs = new ArrayList<>();
    Map<String, Long> disk = new TreeMap<>();
    for (IndexedReport r : out.reports()) {
      if (r.report().kind().equals(CpuReport.KIND)) {
        CpuReport c = CpuReport.decode(r.report().payload());
        for (DiskCounters.Snapshot d : c.disks()) {
          disk.merge(d.disk(), d.writeSectors(), Long::sum);
        }
        for (TaskReport t : c.tasks()) {
          if (t.kind().equals(FioJobThread.KIND)) {
            jobs.add(JobStats.decode(t.payload()));
          }
        }
      }
    }
    Workqueue endio = m.workqueues().workqueues().stream()
        .filter(w -> w.name().equals("btrfs-endio-write")).findFirst().orElseThrow();
    return new Run(fs, finished, jobs, disk, endio);
  }

  private static final String JOB = "rw=write\nbs=64k\nsize=32m\nioengine=libaio\niodepth=8\n"
      + "direct=1\nfallocate=none\nnumjobs=2\nend_fsync=1";

  @Test
  void everyWriteHasAnOrderedExtent_finishedAfterItsAioCompleted_andEndFsyncWaitsForAll()
      throws IOException {
    // One finisher (thread_pool=1 on a PRE_6_5 kernel: one pwq for the one node, so one work
    // at a time): the ordered extents finish well behind the device.
    Run r = run(", data-profile = raid0, options = \"thread_pool=1\"", JOB);
    long writes = 2 * (32 << 20) / (64 << 10);
    long ios = 0;
    long lastJobEnd = 0;
    for (JobStats j : r.jobs()) {
      ios += j.totalIos(1);
      lastJobEnd = Math.max(lastJobEnd, j.endNs());
    }
    assertEquals(writes, ios);
    assertEquals(writes, r.fs().orderedCreated(), "one ordered extent per write");
    assertEquals(writes, r.fs().orderedFinished());
    assertEquals(0, r.fs().orderedOutstanding());
    assertEquals(writes, r.finished().size());
    long lastFinish = 0;
    for (OrderedExtent oe : r.finished()) {
      assertTrue(oe.createdNs() <= oe.queuedNs(), "queued after its creation");
      assertTrue(oe.queuedNs() <= oe.aioDoneNs(), "btrfs_dio_end_io() queues"
          + " finish_ordered_fn before iomap_dio_bio_end_io() completes the dio");
      assertTrue(oe.aioDoneNs() < oe.finishedNs(), "the aio completes before the ordered"
          + " extent finishes: " + oe.aioDoneNs() + " vs " + oe.finishedNs());
      assertEquals(64 << 10, oe.numBytes());
      lastFinish = Math.max(lastFinish, oe.finishedNs());
    }
    // fio refills on the aio events: more ordered extents pile up than the 16 aios in flight.
    assertTrue(r.fs().maxOrderedOutstanding() > 16, "outstanding ordered extents: "
        + r.fs().maxOrderedOutstanding());
    // end_fsync: the jobs end only after their files' ordered extents finished.
    assertTrue(lastJobEnd >= lastFinish, "job end " + lastJobEnd + " before the last finish "
        + lastFinish);
    assertEquals(1, r.endio().maxActive(), "thread_pool=1");
  }

  @Test
  void withoutEndFsyncTheJobsEndWithOrderedExtentsOutstanding() throws IOException {
    Run r = run(", data-profile = raid0, options = \"thread_pool=1\"",
        JOB.replace("end_fsync=1", "end_fsync=0"));
    long writes = 2 * (32 << 20) / (64 << 10);
    assertEquals(writes, r.fs().orderedCreated());
    // The run ends with the jobs: nothing waited for the one finisher, which had done only
    // part of them (the same job with end_fsync=1 finishes every one, see above).
    assertTrue(r.fs().orderedOutstanding() > writes / 4, "outstanding at the end: "
        + r.fs().orderedOutstanding() + " of " + writes);
    assertEquals(writes - r.fs().orderedOutstanding(), r.finished().size());
  }

  @Test
  void manyFinishersPileUpInDStateOnTheTreeLock_oneNeverWaits() throws IOException {
    // A long exclusive hold (100 us) makes the tree lock the bottleneck. With 64 finishers per
    // pwq (V6_5_TO_6_8), completions queue finishers faster than the lock serves them: they
    // sleep on it in D state. With one finisher (PRE_6_5, thread_pool=1) none ever waits for
    // another finisher; only a submitter's shared hold can make it spin or sleep.
    Run many = run(", data-profile = raid0, options = \"thread_pool=64\"", JOB);
    assertTrue(many.fs().treeLock().maxSleepers() > 8, "sleepers on the tree lock at once: "
        + many.fs().treeLock().maxSleepers());
    assertTrue(many.fs().treeLock().handoffs() + many.fs().treeLock().contended() > 100,
        "contended acquisitions: " + many.fs().treeLock().contended());
    Run one = run(", data-profile = raid0, options = \"thread_pool=1\"", JOB);
    assertTrue(one.fs().treeLock().maxSleepers() <= 2, "sleepers with one finisher: "
        + one.fs().treeLock().maxSleepers());
    assertEquals(one.fs().orderedCreated(), many.fs().orderedCreated());
  }

  private static long lastJobEnd(Run r) {
    long end = 0;
    for (JobStats j : r.jobs()) {
      end = Math.max(end, j.endNs());
    }
    return end;
  }

  @Test
  void rwsemWaitLock_onlyWhenTheKeyIsOn_takenByTheSlowPaths_andABadValueIsRefused()
      throws IOException {
    String opts = ", data-profile = raid0, options = \"thread_pool=64\"";
    Run off = run(opts, JOB);
    assertEquals(null, off.fs().treeLock().waitLock(), "off by default: not modelled");
    extraCosts = "  kernel.rwsem-wait-lock = on\n";
    Run on = run(opts, JOB);
    extraCosts = "";
    // Every contended acquisition queues or is woken under wait_lock at least once.
    assertTrue(on.fs().treeLock().waitLock().acquisitions()
        >= on.fs().treeLock().contended() / 2, on.fs().treeLock().waitLock().toString());
    assertTrue(lastJobEnd(on) > lastJobEnd(off), "the sections and the serial wakeups cost time: "
        + lastJobEnd(on) + " vs " + lastJobEnd(off));
    assertEquals(off.fs().orderedCreated(), on.fs().orderedCreated());
    extraCosts = "  kernel.rwsem-wait-lock = maybe\n";
    InputException bad = refused(opts, JOB);
    extraCosts = "";
    assertEquals("blksim.kernel.rwsem-wait-lock", bad.key());
  }

  @Test
  void cpuidleSkx_handOffsToSleepersOnIdleCpusCostTheirExit_andABadValueIsRefused()
      throws IOException {
    String opts = ", data-profile = raid0, options = \"thread_pool=64\"";
    Run c1 = run(opts, JOB);
    extraCosts = "  kernel.cpuidle = skx\n";
    Run skx = run(opts, JOB);
    extraCosts = "";
    // The same writes, but every wakeup of a sleeper on a CPU idle for 20 us or more pays
    // C1E's or C6's exit: the lock's hand-offs and the finishers' wakeups take longer.
    assertEquals(c1.fs().orderedCreated(), skx.fs().orderedCreated());
    assertTrue(lastJobEnd(skx) > lastJobEnd(c1), "idle-state exits cost time: "
        + lastJobEnd(skx) + " vs " + lastJobEnd(c1));
    extraCosts = "  kernel.cpuidle = c6\n";
    InputException bad = refused(opts, JOB);
    extraCosts = "";
    assertEquals("blksim.kernel.cpuidle", bad.key());
  }

  @Test
  void treeNodeTransfers_lengthenTheHolds_onlyAcrossCoresOfTheirKind() throws IOException {
    // 4 CPUs in one LLC: submitters and finishers alternate on the tree lock from different
    // cores, so every such hold pays the same-LLC transfer; the other-LLC cost never applies.
    String opts = ", data-profile = raid0, options = \"thread_pool=4\"";
    Run plain = run(opts, JOB);
    extraCosts = "  costs.btrfs.tree-transfer-remote = 200us\n";
    Run remoteOnly = run(opts, JOB);
    extraCosts = "  costs.btrfs.tree-transfer = 200us\n";
    Run local = run(opts, JOB);
    extraCosts = "";
    assertEquals(lastJobEnd(plain), lastJobEnd(remoteOnly),
        "one LLC: no holder ever comes from another LLC");
    assertTrue(lastJobEnd(local) > lastJobEnd(plain) * 3 / 2, "200 us per hold across cores"
        + " makes the lock the bottleneck: " + lastJobEnd(local) + " vs " + lastJobEnd(plain));
    assertEquals(plain.fs().orderedCreated(), local.fs().orderedCreated());
  }

  @Test
  void lockCoupling_aFinisherWaitingForItsLeafHoldsTheTreeLock() throws IOException {
    // Two jobs, so two leaves; up to 16 finishers (V6_5_TO_6_8, thread_pool=4 per CPU pwq).
    // With coupling a finisher takes its file's leaf while holding the tree lock; a long leaf
    // hold (40 us) then keeps the next finisher of that file, and everybody queued behind it on
    // the tree lock, waiting: the tree lock sees more sleepers and the run is longer.
    String opts = ", data-profile = raid0, options = \"thread_pool=4\"";
    Run plain = run(opts, JOB);
    extraCosts = "  costs.btrfs.finish-leaf-hold = 40us\n  costs.btrfs.submit-leaf-hold = 1us\n";
    Run coupled = run(opts, JOB);
    extraCosts = "";
    assertTrue(coupled.fs().treeLock().contended() > plain.fs().treeLock().contended(),
        "tree lock contended: " + coupled.fs().treeLock().contended() + " coupled vs "
            + plain.fs().treeLock().contended());
    assertTrue(lastJobEnd(coupled) > lastJobEnd(plain), lastJobEnd(coupled) + " vs "
        + lastJobEnd(plain));
    assertEquals(plain.fs().orderedCreated(), coupled.fs().orderedFinished());
  }

  @Test
  void raid0SpreadsTheDataEvenlyOverTheDevices_andMaxActiveIsMinCpusPlus2And8()
      throws IOException {
    Run r = run(", data-profile = raid0", JOB);
    long sectors = 2L * (32 << 20) / 512;
    assertEquals(sectors, r.diskWriteSectors().get("sda") + r.diskWriteSectors().get("sdb"));
    assertEquals(r.diskWriteSectors().get("sda"), r.diskWriteSectors().get("sdb"),
        "aligned 64 KiB extents alternate between the two devices");
    assertEquals(r.fs().deviceBytes(0), r.fs().deviceBytes(1));
    assertEquals(6, r.endio().maxActive(), "min(4 CPUs + 2, 8)");
    assertEquals(Workqueue.WQ_UNBOUND | Workqueue.WQ_MEM_RECLAIM | Workqueue.WQ_FREEZABLE,
        r.endio().flags() & (Workqueue.WQ_UNBOUND | Workqueue.WQ_MEM_RECLAIM
            | Workqueue.WQ_FREEZABLE));
  }

  @Test
  void sameScenarioTwice_sameRun() throws IOException {
    String a = summary(run(", data-profile = raid0", JOB));
    String b = summary(run(", data-profile = raid0", JOB));
    assertEquals(a, b);
  }

  private static String summary(Run r) {
    StringBuilder sb = new StringBuilder();
    for (JobStats j : r.jobs()) {
      sb.append(j.endNs()).append('/').append(j.totalIos(1)).append(' ');
    }
    long h = 0;
    for (OrderedExtent oe : r.finished()) {
      h = h * 31 + oe.finishedNs() * 17 + oe.diskLogical();
    }
    return sb.append(h).append(' ').append(r.fs().treeLock().contended()).toString();
  }

  private InputException refused(String fsOptions, String job) throws IOException {
    Path p = write(fsOptions, job);
    return assertThrows(InputException.class, () -> ScenarioLoader.load(p, List.of(), Map.of()));
  }

  @Test
  void badInput_isRefusedNamingTheRule() throws IOException {
    InputException zero = refused(", data-profile = raid0, options = \"thread_pool=0\"", JOB);
    assertTrue(zero.getMessage().contains("thread_pool=0")
        && zero.getMessage().contains("options"), zero.getMessage());
    InputException unknown = refused(", data-profile = raid0, options = [rw, nodatacow]", JOB);
    assertTrue(unknown.getMessage().contains("unknown mount option 'nodatacow'"),
        unknown.getMessage());
    InputException notNumber = refused(", options = \"thread_pool=x\", data-profile = raid0",
        JOB);
    assertTrue(notNumber.getMessage().contains("thread_pool=x"), notNumber.getMessage());
    Path one = dir.resolve("one.conf");
    Files.writeString(one, Files.readString(write("", JOB))
        .replace("devices = [sda, sdb]", "devices = [sda], data-profile = raid0"));
    InputException raid0 = assertThrows(InputException.class,
        () -> ScenarioLoader.load(one, List.of(), Map.of()));
    assertTrue(raid0.getMessage().contains("raid0 over one device (sda)")
        && raid0.getMessage().contains("one.conf"), raid0.getMessage());
    InputException single = refused("", JOB);
    assertTrue(single.getMessage().contains("data-profile single"), single.getMessage());
    InputException buffered = refused(", data-profile = raid0", JOB.replace("direct=1",
        "direct=0"));
    assertTrue(buffered.getMessage().contains("direct") && buffered.getMessage().contains(
        "btrfs"), buffered.getMessage());
    InputException reads = refused(", data-profile = raid0", JOB.replace("rw=write",
        "rw=randrw"));
    assertTrue(reads.getMessage().contains("rw"), reads.getMessage());
    InputException xfsKey = refused(", data-profile = raid0, ag-count = 4", JOB);
    assertTrue(xfsKey.getMessage().contains("ag-count"), xfsKey.getMessage());
  }
}
