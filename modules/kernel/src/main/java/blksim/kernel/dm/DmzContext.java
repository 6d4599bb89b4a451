package blksim.kernel.dm;

import blksim.kernel.device.DeviceParams;
import blksim.kernel.device.ZonedDiskParams;
import blksim.kernel.workqueue.Workqueue;
import blksim.kernel.workqueue.WorkqueueSystem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The dm-zoned targets of one machine: their workqueues, allocated by name through the normal
 * workqueue API before the system is built ({@code dmz_ctr()}: {@code dmz_cwq_<label>},
 * {@code dmz_fwq_<label>}; {@code dmz_ctr_reclaim()}: {@code dmz_rwq_<label>_0}), and the one
 * {@link DmzDevice} of each mapped device, shared by the {@link DmzTarget}s each CPU builds.
 * Made per model build (never static): two runs in one JVM share nothing.
 */
public final class DmzContext {
  private final List<DmParams> zoned = new ArrayList<>();
  private final Map<String, DmzFormat> formats = new LinkedHashMap<>();
  private final Map<String, DmzDevice> devices = new LinkedHashMap<>();
  private final Map<String, Boolean> boundedCache = new LinkedHashMap<>();
  private WorkqueueSystem wqs;
  private int hz;
  private int nCpus;

  /**
   * Allocates the workqueues of every dm-zoned target among {@code dms} on {@code b};
   * {@code declared} gives the parameters of a device by name.
   */
  public static DmzContext alloc(WorkqueueSystem.Builder b, List<DmParams> dms,
      Function<String, DeviceParams> declared) {
    DmzContext c = new DmzContext();
    for (DmParams dm : dms) {
      for (DmTableEntry e : dm.table().entries()) {
        if (e.args() instanceof DmTargetArgs.Zoned z) {
          String disk = DmTable.deviceName(z.device());
          ZonedDiskParams zd = (ZonedDiskParams) declared.apply(disk);
          DmzFormat f = DmzTarget.format(zd, disk);
          c.boundedCache.put(dm.name(), zd.dmzBoundedCache());
          c.zoned.add(dm);
          c.formats.put(dm.name(), f);
          b.allocWorkqueue(DmzDevice.cwqName(f.label()), DmzDevice.CWQ_FLAGS,
              DmzDevice.CWQ_MAX_ACTIVE);
          b.allocOrderedWorkqueue(DmzDevice.fwqName(f.label()), Workqueue.WQ_MEM_RECLAIM);
          b.allocOrderedWorkqueue(DmzDevice.rwqName(f.label()), Workqueue.WQ_MEM_RECLAIM);
        }
      }
    }
    return c;
  }

  /** Whether any dm-zoned target exists. */
  public boolean any() {
    return !zoned.isEmpty();
  }

  /** Binds the built workqueue system; {@code hz} and the CPU count of the machine. */
  public void bind(WorkqueueSystem system, int hz, int cpus) {
    this.wqs = system;
    this.hz = hz;
    this.nCpus = cpus;
  }

  /** The shared target of mapped device {@code name}, made on first use. */
  DmzDevice device(String name) {
    DmzDevice d = devices.get(name);
    if (d == null) {
      if (wqs == null) {
        throw new IllegalStateException("dm-zoned device " + name + " needs a workqueue system"
            + " (DmzContext.bind)");
      }
      DmzFormat f = formats.get(name);
      if (f == null) {
        throw new IllegalStateException("dm-zoned device " + name + " was not allocated");
      }
      d = new DmzDevice(name, f, wqs, hz, nCpus, boundedCache.getOrDefault(name, true));
      devices.put(name, d);
    }
    return d;
  }

  /** The shared targets built, by mapped device name, in declaration order. */
  public Map<String, DmzDevice> devices() {
    return devices;
  }
}
