package blksim.workload.scenario;

import blksim.kernel.block.BlockLayerParams;
import blksim.kernel.device.DeviceParams;
import blksim.kernel.dm.DmTable;
import blksim.kernel.fs.FilesystemParams;
import blksim.kernel.iouring.IoUringParams;
import blksim.kernel.sched.SchedParams;
import blksim.kernel.sched.TimehistParams;
import blksim.kernel.topology.TopologyParams;
import blksim.workload.fio.FioEngine;
import blksim.workload.fio.FioJob;
import blksim.kernel.mm.MmParams;
import blksim.workload.fsmark.FsMarkOptions;
import blksim.workload.shell.ShellCommand;
import blksim.kernel.mm.PageCacheParams;
import blksim.kernel.syscall.SyscallParams;
import blksim.workload.fio.thread.FioCostParams;
import java.util.List;

/**
 * A validated scenario: the simulated machine, its devices, the kernel settings and the fio jobs.
 *
 * @param spec the self-contained resolved scenario text every partition builds the model from
 * @param seed run seed
 * @param partitions partitioning choice ({@code one|node|llc|cpu|N}; {@code auto} resolved)
 * @param maxTimeNs virtual-time limit, 0 for none
 * @param description what the scenario is for
 * @param topology the machine's shape
 * @param memoryBytes the machine's memory
 * @param hz CONFIG_HZ
 * @param preempt preemption model
 * @param kernelMode kernel version mode
 * @param housekeepingIntervalNs period of each CPU's background kworker, 0 for none
 * @param wqMonitorIntervalNs wq_monitor sampling interval, 0 for none
 * @param housekeepingWorkNs system time of one background kworker wakeup
 * @param sched scheduler costs
 * @param fioCosts fio's own (user-space) costs
 * @param syscalls the system-call paths' costs
 * @param pageCache costs of buffered reads
 * @param ioUring io_uring, io-wq and libaio costs
 * @param blockLayer generic block-layer costs
 * @param devices devices, in scenario order
 * @param jobs fio jobs (numjobs expanded), in run order
 * @param timehist which CPUs record their context switches, and when
 * @param wakePlacement {@code none} (tasks stay where placed), {@code llc} (kernel-model.md
 *     §1.3 for user threads and io-wq workers) or {@code sis} (6.4's select_idle_sibling, see
 *     {@code CpuComponent})
 * @param kblockdRunNs CPU time of one kblockd queue run ({@code blk_mq_run_work_fn()}), besides
 *     the dispatches it makes
 * @param mm dirty limits, the flusher's plug policy, writeback costs
 * @param filesystems filesystems to make and mount, in scenario order (each on its own device,
 *     each at its own mount point)
 * @param dirtyFiles the volume left dirty at the start ({@code dirty-files}), or null
 * @param wq workqueue settings: max_active overrides and kworker creation costs
 * @param loadBalance {@code kernel.load-balance} and {@code kernel.sched-migration-cost}
 * @param localityGroups {@code locality-groups} resolved: the model's locality groups (1: none)
 */
public record Scenario(String spec, long seed, String partitions, long maxTimeNs,
    String description, TopologyParams topology, long memoryBytes, int hz, String preempt,
    String kernelMode, long housekeepingIntervalNs, long wqMonitorIntervalNs,
    long housekeepingWorkNs, SchedParams sched, FioCostParams fioCosts, SyscallParams syscalls,
    PageCacheParams pageCache,
    IoUringParams ioUring, BlockLayerParams blockLayer,
    List<DeviceParams> devices,
    List<FioJob> jobs, TimehistParams timehist, String wakePlacement, long kblockdRunNs,
    MmParams mm, List<FilesystemParams> filesystems, List<FsMarkOptions> fsMark,
    FsMarkCosts fsMarkCosts, List<ShellCommand> commands, long shellExecNs,
    blksim.workload.umount.DirtyFiles dirtyFiles, WqSettings wq,
    blksim.kernel.sched.LoadBalanceParams loadBalance, int localityGroups) {

  /**
   * The workqueue settings of a scenario: {@code kernel.wq-max-active} and the kworker creation
   * costs {@code costs.wq.create-worker} and {@code costs.wq.create-worker-cpu}.
   */
  public record WqSettings(List<blksim.kernel.workqueue.MaxActiveOverride> maxActive,
      long createWorkerNs, long createWorkerCpuNs, boolean nodeBoundPools) {}

  /** fs_mark's own costs: user time per file and the fork of a child ({@code costs.fs-mark.*}). */
  public record FsMarkCosts(long userPerFileNs, long forkNs) {}

  /**
   * Whether a job goes through the page cache (so the machine needs one, and writeback): a
   * buffered writer, a buffered reader of a device or of files, fs_mark or a shell command.
   */
  public boolean usesPageCacheWrites() {
    if (!fsMark.isEmpty() || commandsUseVfs() || dirtyFiles != null) {
      return true;
    }
    for (FioJob j : jobs) {
      // A buffered writer dirties pages; a buffered reader of a device or of files reads
      // through the page cache. Files need the VFS and its page cache even with O_DIRECT
      // (their mappings are invalidated, their layout is written through it).
      if (!j.ioengine().diskless() && charDevice(j) == null
          && (onFilesystem(j) || !j.direct() && (j.rw().writes() || j.rw().reads()))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the scenario has kernel state every CPU touches directly (a page cache, a
   * filesystem, fs_mark, a disk/ssd request queue), which is deterministic only inside one
   * partition. The loader refuses other {@code partitions} for it; runners that are handed a
   * partitioning check it here ({@code ScenarioModelFactory.checkPartitioning}).
   */
  public boolean sharesKernelState() {
    return usesPageCacheWrites() || !filesystems.isEmpty() || !fsMark.isEmpty()
        || devices.stream().anyMatch(d -> d instanceof blksim.kernel.device.RequestBasedParams
            || d instanceof blksim.kernel.device.NvmeParams)
        || devices.stream().anyMatch(d -> d instanceof blksim.kernel.device.NullBlkParams nb
            && nb.sharedTagBitmap());
  }

  /** Whether a command of {@code commands} calls the VFS (all but sleep do). */
  public boolean commandsUseVfs() {
    return commands.stream().anyMatch(c -> c.kind() != ShellCommand.Kind.SLEEP);
  }

  /** Whether woken user threads and io-wq workers may move within their LLC. */
  public boolean migratesInLlc() {
    return wakePlacement.equals("llc") || wakePlacement.equals("sis");
  }

  /**
   * Whether job {@code j} works on regular files of a mounted filesystem: a {@code directory=}
   * job without {@code filename=}, or one whose {@code filename=} names no device but a path in
   * a filesystem of the scenario.
   */
  public boolean onFilesystem(FioJob j) {
    if (j.filename() == null) {
      return j.directory() != null;
    }
    if (charDevice(j) != null) {
      return false;
    }
    return device(j.filename()) == null && holdsPath(j.regularFile(0));
  }

  private boolean holdsPath(String path) {
    for (FilesystemParams f : filesystems) {
      String m = f.mountPoint();
      if (m.equals("/") || path.equals(m) || path.startsWith(m.endsWith("/") ? m : m + "/")) {
        return true;
      }
    }
    return false;
  }

  /** The character device ({@code /dev/null}, {@code /dev/zero}) job {@code j} uses, or null. */
  public blksim.kernel.device.MemCharDevice charDevice(FioJob j) {
    return CharDeviceJobs.of(j, devices);
  }

  /** The device named by a fio {@code filename} ({@code nullb0} or {@code /dev/nullb0}). */
  public DeviceParams device(String filename) {
    String n;
    try {
      n = DmTable.deviceName(filename);
    } catch (IllegalArgumentException e) {
      return null; // a path that cannot name a device (a regular file)
    }
    for (DeviceParams d : devices) {
      if (d.name().equals(n)) {
        return d;
      }
    }
    return null;
  }
}
