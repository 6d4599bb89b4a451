package blksim.kernel.blktrace;

import blksim.kernel.block.Bio;
import blksim.kernel.block.DriverCpu;
import blksim.kernel.block.ReqOp;
import blksim.kernel.block.Request;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.Task;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * One device's blktrace ({@code q->blk_trace}, {@code kernel/trace/blktrace.c}): the events the
 * block layer's {@code blk_add_trace_*} probes emit, written as blktrace writes them, one file
 * per CPU, {@code DIR/<dev>.blktrace.<cpu>}, of 48-byte {@code struct blk_io_trace} records
 * ({@code include/uapi/linux/blktrace_api.h}, version 7) in little-endian (x86-64's host order)
 * followed by their payload.
 *
 * <p>Each probe is one call from the block layer where the kernel emits the event:
 * {@link #queue Q} ({@code submit_bio_noacct_nocheck()}), {@link #getrq G}
 * ({@code blk_mq_get_new_requests()}), {@link #merge M/F} ({@code bio_attempt_back_merge()},
 * {@code bio_attempt_front_merge()}), {@link #insert I} (insertion into the I/O scheduler),
 * {@link #issue D} ({@code blk_mq_start_request()}), {@link #complete C}
 * ({@code blk_update_request()}, or {@code bio_endio()} for bio-based devices:
 * {@link #bioComplete}), {@link #plug P} ({@code blk_add_rq_to_plug()}), {@link #unplug U/UT}
 * ({@code blk_mq_dispatch_plug_list()}), {@link #remap A} ({@code trace_block_bio_remap()} in
 * dm's {@code __map_bio()}) and {@link #split X} ({@code trace_block_split()}).
 *
 * <p>Per CPU, as the kernel's per-CPU relay buffers: a sequence number counting from 1, the
 * event's CPU, the pid of the task current on that CPU (0 when it is idle), and a
 * {@code BLK_TN_PROCESS} note ({@code trace_note_tsk()}, payload the 16-byte comm) the first
 * time a pid appears on the CPU, so that blkparse can name it. Simplified: the kernel emits that
 * note once per task and trace session, not once per CPU.
 *
 * <p>A submission the block layer refuses for want of a tag and the caller retries later is
 * traced once (the kernel traces Q once, {@code BIO_TRACE_COMPLETION}): {@link #retry} marks the
 * bio (by value: dm re-creates an equal clone when it retries) and its next {@link #queue} is
 * skipped, as is any {@link #remap} while it is marked.
 *
 * <p>Only touched by the CPU named in each call, like the rest of the per-CPU state, so it is
 * exact in any partitioning: each CPU's buffer is written by that CPU's partition alone, and the
 * files are closed by {@link #close(int)} from that CPU's {@link BlkTraceCloser} at the end.
 * Recording changes nothing in the simulation.
 */
public final class BlkTrace {
  /** {@code BLK_IO_TRACE_MAGIC}. */
  public static final int MAGIC = 0x65617400;
  /** {@code BLK_IO_TRACE_VERSION}. */
  public static final int VERSION = 7;
  /** {@code sizeof(struct blk_io_trace)}. */
  public static final int EVENT_BYTES = 48;
  /** {@code TASK_COMM_LEN}. */
  public static final int COMM_LEN = 16;

  /** {@code enum blktrace_cat}. */
  public static final int TC_READ = 1;
  public static final int TC_WRITE = 1 << 1;
  public static final int TC_FLUSH = 1 << 2;
  public static final int TC_SYNC = 1 << 3;
  public static final int TC_QUEUE = 1 << 4;
  public static final int TC_REQUEUE = 1 << 5;
  public static final int TC_ISSUE = 1 << 6;
  public static final int TC_COMPLETE = 1 << 7;
  public static final int TC_FS = 1 << 8;
  public static final int TC_PC = 1 << 9;
  public static final int TC_NOTIFY = 1 << 10;
  public static final int TC_AHEAD = 1 << 11;
  public static final int TC_META = 1 << 12;
  public static final int TC_DISCARD = 1 << 13;
  public static final int TC_FUA = 1 << 15;
  /** {@code BLK_TC_SHIFT}. */
  public static final int TC_SHIFT = 16;

  /** {@code enum blktrace_act}. */
  public static final int TA_QUEUE = 1;
  public static final int TA_BACKMERGE = 2;
  public static final int TA_FRONTMERGE = 3;
  public static final int TA_GETRQ = 4;
  public static final int TA_SLEEPRQ = 5;
  public static final int TA_REQUEUE = 6;
  public static final int TA_ISSUE = 7;
  public static final int TA_COMPLETE = 8;
  public static final int TA_PLUG = 9;
  public static final int TA_UNPLUG_IO = 10;
  public static final int TA_UNPLUG_TIMER = 11;
  public static final int TA_INSERT = 12;
  public static final int TA_SPLIT = 13;
  public static final int TA_BOUNCE = 14;
  public static final int TA_REMAP = 15;
  /** {@code __BLK_TN_PROCESS}. */
  public static final int TN_PROCESS = 0;

  private final String name;
  private final int dev;
  private final Path dir;
  private final PerCpu[] cpus;

  /**
   * @param name the disk's name, the files' prefix
   * @param dev its {@code dev_t} as blktrace stores it ({@code major << 20 | minor})
   * @param dir the directory the per-CPU files go into
   * @param nCpus CPUs of the machine
   */
  public BlkTrace(String name, int dev, Path dir, int nCpus) {
    this.name = name;
    this.dev = dev;
    this.dir = dir;
    this.cpus = new PerCpu[nCpus];
    for (int i = 0; i < nCpus; i++) {
      cpus[i] = new PerCpu(i);
    }
  }

  /** {@code MKDEV(major, minor)} as blktrace stores a device ({@code MINORBITS} = 20). */
  public static int mkdev(int major, int minor) {
    return major << 20 | minor;
  }

  /** The disk's name. */
  public String name() {
    return name;
  }

  /** Its {@code dev_t}. */
  public int dev() {
    return dev;
  }

  /** The file of {@code cpu}'s events: {@code DIR/<dev>.blktrace.<cpu>}. */
  public Path file(int cpu) {
    return dir.resolve(name + ".blktrace." + cpu);
  }

  /** The category bits of a bio or request of {@code op} with {@code REQ_*} {@code flags}. */
  static int categories(ReqOp op, int flags) {
    // __blk_add_trace(): ddir_act[op_is_write(op)], then the flag bits, then DISCARD/FLUSH.
    int c = switch (op) {
      // op_is_write() is the op's low bit: REQ_OP_ZONE_CLOSE (11) and ZONE_RESET (15) are
      // odd, ZONE_OPEN (10) and ZONE_FINISH (12) even (include/linux/blk_types.h).
      case WRITE, DISCARD, ZONE_CLOSE, ZONE_RESET -> TC_WRITE;
      case READ, FLUSH, ZONE_OPEN, ZONE_FINISH -> TC_READ;
    };
    if ((flags & Bio.REQ_SYNC) != 0) {
      c |= TC_SYNC;
    }
    if ((flags & Bio.REQ_RAHEAD) != 0) {
      c |= TC_AHEAD;
    }
    if ((flags & Bio.REQ_PREFLUSH) != 0) {
      c |= TC_FLUSH;
    }
    if (op == ReqOp.DISCARD) {
      c |= TC_DISCARD;
    }
    if (op == ReqOp.FLUSH) {
      c |= TC_FLUSH;
    }
    return c;
  }

  private static int requestCategories(Request rq) {
    // blk_add_trace_rq(): the first bio's flags, and BLK_TC_FS for a non-passthrough request.
    int flags = rq.bios().isEmpty() ? 0 : rq.bios().get(0).flags();
    return categories(rq.op(), flags) | TC_FS;
  }

  /** Q: {@code trace_block_bio_queue()}, unless the bio is a retry of a traced submission. */
  public void queue(DriverCpu cpu, Bio bio) {
    PerCpu c = cpus[cpu.cpuId()];
    if (c.takeRetry(bio)) {
      return;
    }
    bioEvent(cpu, bio, TA_QUEUE | TC_QUEUE << TC_SHIFT, 0);
  }

  /** Marks {@code bio} as refused for want of a tag: its resubmission is not traced again. */
  public void retry(DriverCpu cpu, Bio bio) {
    cpus[cpu.cpuId()].retrying.merge(bio, 1, Integer::sum);
  }

  /** G: {@code trace_block_getrq()}. */
  public void getrq(DriverCpu cpu, Bio bio) {
    bioEvent(cpu, bio, TA_GETRQ | TC_QUEUE << TC_SHIFT, 0);
  }

  /** M (back) or F (front): {@code trace_block_bio_backmerge/frontmerge()}. */
  public void merge(DriverCpu cpu, Bio bio, boolean back) {
    bioEvent(cpu, bio, (back ? TA_BACKMERGE : TA_FRONTMERGE) | TC_QUEUE << TC_SHIFT, 0);
  }

  /** I: {@code trace_block_rq_insert()}. */
  public void insert(DriverCpu cpu, Request rq) {
    rqEvent(cpu, rq, TA_INSERT | TC_QUEUE << TC_SHIFT, 0);
  }

  /** D: {@code trace_block_rq_issue()}. */
  public void issue(DriverCpu cpu, Request rq) {
    rqEvent(cpu, rq, TA_ISSUE | TC_ISSUE << TC_SHIFT, 0);
  }

  /** C of a request: {@code trace_block_rq_complete()}. */
  public void complete(DriverCpu cpu, Request rq, int error) {
    rqEvent(cpu, rq, TA_COMPLETE | TC_COMPLETE << TC_SHIFT, error);
  }

  /** C of a bio on a bio-based device: {@code trace_block_bio_complete()}. */
  public void bioComplete(DriverCpu cpu, Bio bio, int error) {
    bioEvent(cpu, bio, TA_COMPLETE | TC_COMPLETE << TC_SHIFT, error);
  }

  /** P: {@code trace_block_plug()}. */
  public void plug(DriverCpu cpu) {
    write(cpu, 0, 0, TA_PLUG | TC_QUEUE << TC_SHIFT, 0, null);
  }

  /**
   * U ({@code explicit}) or UT: {@code trace_block_unplug(q, depth, explicit)}, payload the
   * depth as a big-endian u64.
   */
  public void unplug(DriverCpu cpu, int depth, boolean explicit) {
    write(cpu, 0, 0, (explicit ? TA_UNPLUG_IO : TA_UNPLUG_TIMER) | TC_QUEUE << TC_SHIFT, 0,
        be64(depth));
  }

  /**
   * A: {@code trace_block_bio_remap(bio, from, fromSector)} on this (the lower) device, payload a
   * {@code struct blk_io_trace_remap} in big-endian; skipped for a retried submission.
   */
  public void remap(DriverCpu cpu, Bio bio, int fromDev, long fromSector) {
    if (cpus[cpu.cpuId()].retrying.containsKey(bio)) {
      return;
    }
    ByteBuffer r = ByteBuffer.allocate(16).order(ByteOrder.BIG_ENDIAN);
    r.putInt(fromDev).putInt(dev).putLong(fromSector);
    write(cpu, bio.sector(), bio.sizeBytes(),
        TA_REMAP | (TC_QUEUE << TC_SHIFT) | categories(bio.op(), bio.flags()) << TC_SHIFT, 0,
        r.array());
  }

  /**
   * X: {@code trace_block_split(split, newSector)}: {@code split} is the front part, the payload
   * the sector where the rest starts (big-endian u64).
   */
  public void split(DriverCpu cpu, Bio split, long newSector) {
    write(cpu, split.sector(), split.sizeBytes(),
        TA_SPLIT | categories(split.op(), split.flags()) << TC_SHIFT, 0, be64(newSector));
  }

  private void bioEvent(DriverCpu cpu, Bio bio, int what, int error) {
    write(cpu, bio.sector(), bio.sizeBytes(),
        what | categories(bio.op(), bio.flags()) << TC_SHIFT, error, null);
  }

  private void rqEvent(DriverCpu cpu, Request rq, int what, int error) {
    write(cpu, rq.sector(), (int) rq.bytes(), what | requestCategories(rq) << TC_SHIFT, error,
        null);
  }

  private static byte[] be64(long v) {
    return ByteBuffer.allocate(8).order(ByteOrder.BIG_ENDIAN).putLong(v).array();
  }

  private void write(DriverCpu cpu, long sector, int bytes, int action, int error, byte[] pdu) {
    PerCpu c = cpus[cpu.cpuId()];
    int pid = 0;
    String comm = null;
    if (cpu instanceof CpuComponent cc) {
      Task t = cc.current();
      if (t != null) {
        pid = t.pid();
        comm = t.comm();
      }
    }
    long now = cpu.now();
    if (c.named.add(pid)) {
      byte[] name = new byte[COMM_LEN];
      byte[] s = (comm != null ? comm : "swapper/" + cpu.cpuId())
          .getBytes(StandardCharsets.UTF_8);
      System.arraycopy(s, 0, name, 0, Math.min(s.length, COMM_LEN - 1));
      // trace_note(): sequence, sector and bytes 0.
      c.put(0, now, 0, 0, TN_PROCESS | TC_NOTIFY << TC_SHIFT, pid, dev, 0, name);
    }
    c.put(++c.sequence, now, sector, bytes, action, pid, dev, error, pdu);
  }

  /** Writes out and closes {@code cpu}'s file, if it has events (at the end of the run). */
  public void close(int cpu) {
    cpus[cpu].close();
  }

  /** One CPU's relay buffer. */
  private final class PerCpu {
    final int cpu;
    /** Bios refused for a tag, by value (a dm retry re-creates an equal clone), counted. */
    final Map<Bio, Integer> retrying = new HashMap<>();
    final Set<Integer> named = new HashSet<>();
    final ByteBuffer buf = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
    long sequence;
    OutputStream out;

    PerCpu(int cpu) {
      this.cpu = cpu;
    }

    boolean takeRetry(Bio bio) {
      Integer n = retrying.get(bio);
      if (n == null) {
        return false;
      }
      if (n == 1) {
        retrying.remove(bio);
      } else {
        retrying.put(bio, n - 1);
      }
      return true;
    }

    void put(long seq, long time, long sector, int bytes, int action, int pid, int device,
        int error, byte[] pdu) {
      int len = pdu == null ? 0 : pdu.length;
      if (buf.remaining() < EVENT_BYTES + len) {
        flush();
      }
      buf.putInt(MAGIC | VERSION).putInt((int) seq).putLong(time).putLong(sector)
          .putInt(bytes).putInt(action).putInt(pid).putInt(device).putInt(cpu)
          .putShort((short) error).putShort((short) len);
      if (pdu != null) {
        buf.put(pdu);
      }
    }

    void flush() {
      try {
        if (out == null) {
          out = Files.newOutputStream(file(cpu));
        }
        out.write(buf.array(), 0, buf.position());
        buf.clear();
      } catch (IOException e) {
        throw new UncheckedIOException("blktrace: writing " + file(cpu) + ": " + e.getMessage(),
            e);
      }
    }

    void close() {
      if (buf.position() > 0) {
        flush();
      }
      if (out != null) {
        try {
          out.close();
        } catch (IOException e) {
          throw new UncheckedIOException("blktrace: closing " + file(cpu), e);
        }
        out = null;
      }
    }
  }
}
