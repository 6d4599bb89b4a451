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
  /**
   * engines/sync.c's vsync: {@code readv()}/{@code writev()} after an {@code lseek()}. With
   * {@code iodepth=1} (the only depth blksim accepts for it) each call carries one iovec, and it
   * costs what sync does: the kernel's {@code import_iovec()} of one 16-byte iovec is the same
   * step {@code pvsync}'s {@code preadv()} takes, which the model does not price separately from
   * {@code pread()} either. Simplified: fio's coalescing of contiguous I/Os into one call
   * ({@code fio_vsyncio_queue()}, iodepth > 1) is not modelled.
   */
  VSYNC("vsync", true),
  PVSYNC("pvsync", true),
  PVSYNC2("pvsync2", true),
  LIBAIO("libaio", false),
  IO_URING("io_uring", false),
  /**
   * fio's posixaio engine (engines/posixaio.c) over glibc's POSIX AIO (rt/aio_misc.c): each
   * I/O is an {@code aio_read()} / {@code aio_write()} that queues a request for a user-space
   * helper thread, which does it as a {@code pread()} / {@code pwrite()}; fio reaps with
   * {@code aio_error()} and sleeps in {@code aio_suspend()}. Modelled on regular files.
   */
  POSIXAIO("posixaio", false),
  /**
   * fio's null engine: completes every I/O at once without touching a device. Like fio's
   * {@code null_init()}, it queues up to {@code iodepth} I/Os, so it is not a sync engine.
   */
  NULL("null", false),
  /**
   * fio's cpuio engine (engines/cpu.c): no file and no I/O ({@code FIO_DISKLESSIO | FIO_NOIO});
   * each "I/O" burns {@code cpuchunks} microseconds of user time ({@code cpumode=noop}) or one
   * qsort round ({@code cpumode=qsort}), then sleeps the thinktime that makes the job's CPU share
   * {@code cpuload} percent ({@code fio_cpuio_init()}).
   */
  CPUIO("cpuio", true),
  /** engines/fileoperations.c: {@code open(O_CREAT|O_RDWR)} of each file, timed; no data I/O. */
  FILECREATE("filecreate", true),
  /** engines/fileoperations.c: {@code stat}/{@code lstat}/{@code statx} of each file, timed. */
  FILESTAT("filestat", true),
  /** engines/fileoperations.c: {@code unlink} of each file, timed. */
  FILEDELETE("filedelete", true),
  /** engines/fileoperations.c: {@code mkdir} of each "file" (a directory), timed. */
  DIRCREATE("dircreate", true),
  /** engines/fileoperations.c: the directories made at set-up, each {@code stat}ed, timed. */
  DIRSTAT("dirstat", true),
  /** engines/fileoperations.c: the directories made at set-up, each {@code rmdir}ed, timed. */
  DIRDELETE("dirdelete", true),
  /**
   * engines/falloc.c: each I/O is {@code fallocate(fd, mode, offset, len)}, mode by direction:
   * read {@code FALLOC_FL_KEEP_SIZE}, write 0, trim {@code PUNCH_HOLE | KEEP_SIZE}.
   */
  FALLOC("falloc", true),
  /** engines/ftruncate.c: each write is {@code ftruncate(fd, offset)}; a read fails EINVAL. */
  FTRUNCATE("ftruncate", true),
  /**
   * engines/mmap.c: each file mapped {@code MAP_SHARED} ({@code mmap()} of its whole region at
   * its first I/O, {@code madvise()} by {@code fadvise_hint}), each I/O a {@code memcpy()} to or
   * from the mapping, its page faults the kernel's ({@link blksim.kernel.mm.MmapAccess}); a sync
   * is {@code msync(MS_SYNC)}.
   */
  MMAP("mmap", true),
  /**
   * engines/page_fault.c: one private anonymous mapping of {@code size} at init, each I/O a
   * {@code memcpy()} to or from it, faulting each page on its first touch
   * ({@link blksim.kernel.mm.AnonMapping}); no file, no device ({@code FIO_DISKLESSIO}).
   */
  PAGE_FAULT("page_fault", true);

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
    for (String e : List.of("sg", "io_uring_cmd", "xnvme", "libzbc", "libblkio", "spdk",
        "spdk_bdev")) {
      m.put(e, passthrough);
    }
    String pmem = "persistent memory is not modelled";
    for (String e : List.of("pmemblk", "dev-dax", "libpmem")) {
      m.put(e, pmem);
    }
    for (String e : List.of("ime_psync", "ime_psyncv", "ime_aio")) {
      m.put(e, "DDN's IME is not modelled");
    }
    m.put("splice", "the vmsplice()/splice() pipe path is not modelled");
    m.put("e4defrag", "it needs ext4's online defragmentation ioctl; there is no ext4 model");
    m.put("exec", "it runs an external program");
    m.put("mtd", "raw flash (MTD) devices are not modelled");
    m.put("libcufile", "GPU direct storage is not modelled");
    m.put("libhipfile", "GPU direct storage (AMD hipFile) is not modelled");
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

  /** Whether the engine touches no file and no device (fio's {@code FIO_DISKLESSIO} jobs). */
  public boolean diskless() {
    return this == NULL || this == CPUIO || this == PAGE_FAULT;
  }

  /**
   * Whether the engine's unit of work is a file or directory operation made when fio "opens"
   * the file (engines/fileoperations.c), its data I/O being fake ({@code FIO_FAKEIO}).
   */
  public boolean fileOperation() {
    return switch (this) {
      case FILECREATE, FILESTAT, FILEDELETE, DIRCREATE, DIRSTAT, DIRDELETE -> true;
      default -> false;
    };
  }

  /** Whether the "files" of the engine are directories (dircreate, dirstat, dirdelete). */
  public boolean directories() {
    return this == DIRCREATE || this == DIRSTAT || this == DIRDELETE;
  }

  /**
   * Whether the engine works on regular files only (fio's {@code f->filetype != FIO_TYPE_FILE}
   * check: "only files are supported"): the file-operation engines, falloc and ftruncate.
   */
  public boolean filesOnly() {
    return fileOperation() || this == FALLOC || this == FTRUNCATE;
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
