package blksim.workload.scenario;

import blksim.kernel.device.DeviceParams;
import blksim.kernel.device.MemCharDevice;
import blksim.workload.fio.FioEngine;
import blksim.workload.fio.FioJob;
import java.util.List;
import java.util.Set;

/**
 * fio jobs on the character devices {@code /dev/null} and {@code /dev/zero}, which every
 * scenario's machine has (as every Linux machine does) unless a simulated device takes the name:
 * which job is one, and the loader's rules for it.
 */
final class CharDeviceJobs {
  /** The engines modelled on a character device. */
  static final Set<FioEngine> ENGINES = Set.of(FioEngine.PSYNC, FioEngine.SYNC, FioEngine.VSYNC,
      FioEngine.PVSYNC, FioEngine.PVSYNC2, FioEngine.LIBAIO, FioEngine.IO_URING);

  private CharDeviceJobs() {}

  /**
   * The character device job {@code j}'s {@code filename=} names, or null: a diskless engine's
   * filename names nothing, and a simulated device named {@code null} or {@code zero} wins.
   */
  static MemCharDevice of(FioJob j, List<DeviceParams> devices) {
    if (j.ioengine().diskless() || j.filenames().isEmpty()) {
      return null;
    }
    MemCharDevice d = MemCharDevice.of(j.filenames().get(0));
    if (d == null) {
      return null;
    }
    for (DeviceParams p : devices) {
      if (p.name().equals(d.path().substring(5))) {
        return null;
      }
    }
    return d;
  }

  /**
   * Checks a job on a character device; false when {@code j} is none, so the device checks run.
   */
  static boolean check(FioJob j, List<DeviceParams> devices) {
    MemCharDevice d = of(j, devices);
    if (d == null) {
      for (String f : j.filenames()) {
        if (MemCharDevice.of(f) != null && j.filenames().size() > 1) {
          throw j.error("filename", "filename lists " + f + " among other files;"
              + " a character device is modelled as a job's only file");
        }
      }
      return false;
    }
    String on = " on " + d.path() + " (a character device)";
    if (j.filenames().size() > 1) {
      throw j.error("filename", "filename lists other files with " + d.path() + ", and a"
          + " character device is modelled as a job's only file");
    }
    if (!ENGINES.contains(j.ioengine())) {
      throw j.error("ioengine", "ioengine=" + j.ioengine().fioName() + " is not modelled"
          + on + "; use psync, sync, pvsync, pvsync2, vsync, libaio or io_uring");
    }
    if (j.direct()) {
      // fs/open.c do_dentry_open(): O_DIRECT without FMODE_CAN_ODIRECT is -EINVAL; mem.c's
      // devices have no ->direct_IO. fio fails the job's open().
      throw j.error("direct", "direct=1" + on + ": open(O_DIRECT) fails with EINVAL (the"
          + " kernel's memory devices do not support O_DIRECT); turn it off");
    }
    if (j.sizeBytes() <= 0) {
      // filesetup.c: on Linux char_size() leaves real_file_size at -1 (no FIO_HAVE_CHARDEV_SIZE)
      // and setup_files() stops with "you need to specify size=".
      throw j.error("size", "size is needed on " + d.path() + ": a character device has none of"
          + " its own (fio's real_file_size is -1, unlimited; fio: you need to specify it)");
    }
    if (j.rw().trims()) {
      throw j.error("rw", "rw=" + j.rw().fioName() + " trims, which is not modelled" + on);
    }
    if (j.verify().enabled()) {
      throw j.error("verify", "verify is not modelled" + on);
    }
    if (j.offload()) {
      throw j.error("io_submit_mode", "io_submit_mode=offload is not modelled" + on);
    }
    if (j.replay() != null) {
      throw j.error("read_iolog", "read_iolog is not modelled" + on);
    }
    if (j.thinktimeNs() > 0) {
      throw j.error("thinktime", "thinktime is not modelled" + on);
    }
    for (int dd = 0; dd < 2; dd++) {
      if (j.rateBytesPerSec(dd) > 0) {
        throw j.error("rate", "rate is not modelled" + on);
      }
    }
    return true;
  }
}
