package blksim.workload.fio;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fio I/O engines blksim models ({@code ioengine=}).
 *
 * <p>Mirrors the engines of fio's {@code engines/} directory that matter for a block device:
 * {@code sync.c} (psync, sync, pvsync, pvsync2), {@code libaio.c}, {@code io_uring.c} and
 * {@code null.c}. Simplified: the engine is a label for the simulator's submission model; the
 * engine-private options blksim keeps are the io_uring/pvsync2 flags on {@link FioJob}.
 */
public enum FioEngine {
  PSYNC("psync", true),
  SYNC("sync", true),
  PVSYNC("pvsync", true),
  PVSYNC2("pvsync2", true),
  LIBAIO("libaio", false),
  IO_URING("io_uring", false),
  /**
   * fio's null engine: completes every I/O at once without touching a device. Like fio's
   * {@code null_init()}, it queues up to {@code iodepth} I/Os, so it is not a sync engine.
   */
  NULL("null", false);

  /**
   * Engines fio knows (fio 3.33+ on Linux, {@code fio --enghelp}, and the metadata engines of
   * engines/fileoperations.c) that blksim does not model, each with the reason.
   */
  static final Map<String, String> OTHER_FIO_ENGINES = otherEngines();

  private static Map<String, String> otherEngines() {
    Map<String, String> m = new LinkedHashMap<>();
    String network = "it talks to a network service; blksim models no network";
    for (String e : List.of("net", "netsplice", "http", "nbd", "rdma", "rados", "rbd", "gfapi",
        "gfapi_async", "nfs", "libiscsi", "dfs", "libhdfs")) {
      m.put(e, network);
    }
    String passthrough = "it passes commands to the device (SCSI generic, NVMe passthrough or"
        + " a user-space driver); blksim has no such device model";
    for (String e : List.of("sg", "io_uring_cmd", "xnvme", "libzbc", "libblkio", "spdk")) {
      m.put(e, passthrough);
    }
    String metadata = "a filesystem metadata engine; the XFS-like filesystem has create and"
        + " unlink, but this engine's loop is not modelled yet";
    for (String e : List.of("filecreate", "filestat", "filedelete", "dircreate", "dirstat",
        "dirdelete", "ftruncate", "falloc")) {
      m.put(e, metadata);
    }
    String pmem = "persistent memory is not modelled";
    for (String e : List.of("pmemblk", "dev-dax", "libpmem")) {
      m.put(e, pmem);
    }
    for (String e : List.of("ime_psync", "ime_psyncv", "ime_aio")) {
      m.put(e, "DDN's IME is not modelled");
    }
    m.put("cpuio", "a CPU-burning job with no I/O; its report is not modelled yet");
    m.put("vsync", "readv()/writev() of coalesced contiguous I/Os is not modelled yet; psync or"
        + " sync issue the same I/Os one at a time");
    m.put("posixaio", "glibc's POSIX AIO runs each request on a user-space helper thread, which"
        + " is not modelled; libaio or io_uring are");
    m.put("mmap", "I/O through page faults on a mapped file is not modelled");
    m.put("splice", "the vmsplice()/splice() pipe path is not modelled");
    m.put("e4defrag", "it needs ext4's online defragmentation ioctl; there is no ext4 model");
    m.put("exec", "it runs an external program");
    m.put("mtd", "raw flash (MTD) devices are not modelled");
    m.put("libcufile", "GPU direct storage is not modelled");
    m.put("libhipfile", "GPU direct storage (AMD hipFile) is not modelled");
    m.put("page_fault", "I/O through page faults on a mapped file is not modelled");
    m.put("cpp_null", "an external engine built from engines/null.c as C++; ioengine=null is"
        + " the same engine and is modelled");
    m.put("windowsaio", "not a Linux engine");
    m.put("solarisaio", "not a Linux engine");
    m.put("external", "it loads an engine from a shared object");
    return Collections.unmodifiableMap(m);
  }

  private final String fioName;
  private final boolean sync;

  FioEngine(String fioName, boolean sync) {
    this.fioName = fioName;
    this.sync = sync;
  }

  /** The {@code ioengine=} value, e.g. {@code io_uring}. */
  public String fioName() {
    return fioName;
  }

  /** Whether each submission blocks until it completes (effective depth 1, fio's FIO_SYNCIO). */
  public boolean isSync() {
    return sync;
  }

  /** The engine for an {@code ioengine=} value, or {@code null} if blksim does not model it. */
  static FioEngine fromFioName(String value) {
    for (FioEngine e : values()) {
      if (e.fioName.equals(value)) {
        return e;
      }
    }
    return null;
  }
}
