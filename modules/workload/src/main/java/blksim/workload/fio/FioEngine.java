package blksim.workload.fio;

import java.util.Set;

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

  /** Engines fio 3.33 on Linux knows (from {@code fio --enghelp}) that blksim does not model. */
  static final Set<String> OTHER_FIO_ENGINES = Set.of(
      "cpuio", "mmap", "vsync", "net", "netsplice", "ftruncate", "filecreate", "filestat",
      "filedelete", "exec", "posixaio", "falloc", "e4defrag", "splice", "gfapi", "gfapi_async",
      "mtd", "sg", "io_uring_cmd", "nbd", "rdma", "rados", "rbd", "pmemblk", "dev-dax", "libpmem",
      "http", "libcufile", "libhdfs", "libiscsi", "libzbc", "nfs", "windowsaio", "solarisaio",
      "xnvme", "dfs", "ime_psync", "ime_psyncv", "ime_aio", "external");

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
