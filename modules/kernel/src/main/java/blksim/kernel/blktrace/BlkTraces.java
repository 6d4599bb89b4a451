package blksim.kernel.blktrace;

import blksim.engine.Component;
import blksim.kernel.block.BioBasedQueue;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.HwCtx;
import blksim.kernel.block.RequestQueue;
import blksim.kernel.device.BrdParams;
import blksim.kernel.device.DeviceParams;
import blksim.kernel.device.NvmeParams;
import blksim.kernel.device.NullBlkParams;
import blksim.kernel.device.ZramParams;
import blksim.kernel.dm.DmParams;
import blksim.kernel.dm.DmQueue;
import blksim.kernel.sched.CpuComponent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code blktrace -d DEV} on every device of a machine: one {@link BlkTrace} per device, set on
 * all of its queues (the device's {@code q->blk_trace}), and one {@link BlkTraceCloser} per CPU.
 *
 * <p>Device numbers, which blksim does not otherwise model: SCSI disks ({@code disk}, {@code ssd})
 * major 8, minor 16 per disk in scenario order (sd's 16 minors a disk); brd 1
 * ({@code RAMDISK_MAJOR}), minor the index; null_blk 252, zram 251 and device-mapper 253 (the
 * kernel gives those three dynamic majors; these are the values commonly seen), minor the index
 * among devices of the kind, in scenario order; nvme 259 ({@code BLOCK_EXT_MAJOR}), minor the
 * index among nvme devices.
 */
public final class BlkTraces {
  /** SCSI_DISK0_MAJOR. */
  public static final int SD_MAJOR = 8;
  /** RAMDISK_MAJOR. */
  public static final int RAMDISK_MAJOR = 1;
  /** null_blk's dynamic major, as blksim numbers it. */
  public static final int NULLB_MAJOR = 252;
  /** zram's dynamic major, as blksim numbers it. */
  public static final int ZRAM_MAJOR = 251;
  /** device-mapper's dynamic major, as blksim numbers it. */
  public static final int DM_MAJOR = 253;
  /** BLOCK_EXT_MAJOR: NVMe namespaces get their numbers from the extended range. */
  public static final int NVME_MAJOR = 259;

  private BlkTraces() {}

  /**
   * Traces every device into {@code dir}: sets the traces on the queues and returns the
   * components that close each CPU's files at the end of the run (add them to the model).
   *
   * @param devices the devices, in scenario order
   * @param shared the request queue of each request-based device, by name
   * @param hctxs the hardware contexts of each multi-queue device (null_blk, nvme), by name
   * @param queues every device's queue on each CPU, by name
   * @param cpus the CPUs
   */
  public static List<Component> install(Path dir, List<DeviceParams> devices,
      Map<String, RequestQueue> shared, Map<String, List<HwCtx>> hctxs,
      Map<String, List<BlockQueue>> queues, List<CpuComponent> cpus) {
    Map<Integer, Integer> perMajor = new LinkedHashMap<>();
    List<BlkTrace> traces = new ArrayList<>();
    for (DeviceParams d : devices) {
      int major = major(d);
      int k = perMajor.merge(major, 1, Integer::sum) - 1;
      int minor = major == SD_MAJOR ? 16 * k : k;
      BlkTrace t = new BlkTrace(d.name(), BlkTrace.mkdev(major, minor), dir, cpus.size());
      traces.add(t);
      RequestQueue rq = shared.get(d.name());
      if (rq != null) {
        rq.setBlkTrace(t);
      }
      for (HwCtx h : hctxs.getOrDefault(d.name(), List.of())) {
        h.queue().setBlkTrace(t);
      }
      for (BlockQueue q : queues.getOrDefault(d.name(), List.of())) {
        if (q instanceof BioBasedQueue b) {
          b.setBlkTrace(t);
        } else if (q instanceof DmQueue dm) {
          dm.setBlkTrace(t);
        }
      }
    }
    List<Component> closers = new ArrayList<>();
    for (CpuComponent c : cpus) {
      closers.add(new BlkTraceCloser(c.cpu().id(), c.locality(), traces));
    }
    return closers;
  }

  /** The major number blksim gives device {@code d}. */
  static int major(DeviceParams d) {
    if (d instanceof NullBlkParams) {
      return NULLB_MAJOR;
    }
    if (d instanceof BrdParams) {
      return RAMDISK_MAJOR;
    }
    if (d instanceof ZramParams) {
      return ZRAM_MAJOR;
    }
    if (d instanceof DmParams) {
      return DM_MAJOR;
    }
    if (d instanceof NvmeParams) {
      return NVME_MAJOR;
    }
    return SD_MAJOR;
  }
}
