package blksim.kernel.dm;

import blksim.kernel.block.Bio;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.ReqOp;
import blksim.kernel.workqueue.WorkerCpu;

/**
 * One {@code dm_kcopyd_copy()} of a valid run from one zone to another, as dm-zoned's reclaim
 * issues it and waits for it ({@code dmz_reclaim_copy()}, drivers/md/dm-kcopyd.c; kernel-model.md
 * §15.1.4): split into sub-jobs of {@link #SUB_JOB_BLOCKS} (512 KiB,
 * {@code DEFAULT_SUB_JOB_SIZE_KB}), at most {@link #SPLIT_COUNT} in flight, each a read then a
 * write; with {@code DM_KCOPYD_WRITE_SEQ} (a sequential destination) the writes are issued in
 * order. Each I/O is a kcopyd io job under the client's throttle ({@link Throttle}).
 *
 * <p>Simplified: the sub-jobs are driven by the reclaim worker itself rather than by the
 * {@code kcopyd} workqueue's worker, so the throttle's sleeps ({@code fsleep(SLEEP_USEC)}, at most
 * {@code MAX_SLEEPS} per sub-job) are the reclaim worker's, and only a sub-job's start (its read)
 * may sleep; its write is started from the read's completion. The CPU time of kcopyd is not
 * charged. Owned by the reclaim work running it.
 */
final class DmzKcopyd {
  /** Sub-job size in blocks: 512 KiB ({@code DEFAULT_SUB_JOB_SIZE_KB}) [S]. */
  static final int SUB_JOB_BLOCKS = 512 * 1024 / DmzFormat.BLOCK_SIZE;
  /** {@code SPLIT_COUNT}: sub-jobs in flight [S]. */
  static final int SPLIT_COUNT = 8;
  /** {@code SLEEP_USEC}: 100 ms [S]. */
  static final long SLEEP_NS = 100_000_000L;
  /** {@code MAX_SLEEPS} [S]. */
  static final int MAX_SLEEPS = 10;

  /**
   * {@code struct dm_kcopyd_throttle} with {@code io_job_start()} / {@code io_job_finish()}: the
   * share of time ({@code throttle} %) kcopyd I/O may be in flight, accounted in jiffies over an
   * interval of about a second ({@code ACCOUNT_INTERVAL_SHIFT} = {@code SHIFT_HZ}).
   */
  static final class Throttle {
    int throttle = 100;
    int numIoJobs;
    long ioPeriod;
    long totalPeriod;
    long lastJiffies;
    long sleeps;
    private final int shift;

    Throttle(int hz) {
      this.shift = 32 - Integer.numberOfLeadingZeros(hz - 1);
    }

    /** The accounting part of {@code io_job_start()}: the skew, > 0 when over budget. */
    long skew(long jiffies) {
      if (throttle >= 100) {
        return 0;
      }
      long difference = jiffies - lastJiffies;
      lastJiffies = jiffies;
      if (numIoJobs > 0) {
        ioPeriod += difference;
      }
      totalPeriod += difference;
      if (ioPeriod > totalPeriod) {
        ioPeriod = totalPeriod;
      }
      if (totalPeriod >= (1L << shift)) {
        int s = 64 - Long.numberOfLeadingZeros(totalPeriod >> shift);
        totalPeriod >>= s;
        ioPeriod >>= s;
      }
      return ioPeriod - throttle * totalPeriod / 100;
    }

    /** {@code io_job_start()} past its sleeps. */
    void start() {
      numIoJobs++;
    }

    /** {@code io_job_finish()}. */
    void finish(long jiffies) {
      numIoJobs--;
      if (throttle >= 100 || numIoJobs > 0) {
        return;
      }
      long difference = jiffies - lastJiffies;
      lastJiffies = jiffies;
      ioPeriod += difference;
      totalPeriod += difference;
      if (ioPeriod > totalPeriod) {
        ioPeriod = totalPeriod;
      }
    }
  }

  private final DmzDevice dev;
  private final long srcSector;
  private final long dstSector;
  private final int blocks;
  private final boolean writeSeq;
  private final int subs;
  private final boolean[] readDone;
  private int nextSub;
  private int nextWrite;
  private int inflight;
  private int slept;
  private int error;
  private Runnable waiter;
  private BlockQueue q;

  /** A copy of {@code blocks} blocks from {@code srcSector} to {@code dstSector}. */
  DmzKcopyd(DmzDevice dev, long srcSector, long dstSector, int blocks, boolean writeSeq) {
    this.dev = dev;
    this.srcSector = srcSector;
    this.dstSector = dstSector;
    this.blocks = blocks;
    this.writeSeq = writeSeq;
    this.subs = (blocks + SUB_JOB_BLOCKS - 1) / SUB_JOB_BLOCKS;
    this.readDone = new boolean[subs];
  }

  /** The first error a sub-job saw, 0 if none. */
  int error() {
    return error;
  }

  /** One action of the waiting reclaim worker, or false when the copy completed. */
  boolean step(WorkerCpu cpu) {
    if (q == null) {
      q = dev.queue(cpu.cpu().cpu().id());
    }
    Throttle t = dev.kcThrottle;
    while (nextSub < subs && inflight < SPLIT_COUNT) {
      long skew = t.skew(dev.jiffies());
      if (skew > 0 && slept < MAX_SLEEPS) {
        slept++;
        t.sleeps++;
        cpu.sleepFor(SLEEP_NS);
        return true;
      }
      slept = 0;
      int k = nextSub++;
      inflight++;
      t.start();
      submit(new Bio(ReqOp.READ, srcSector + sectorOf(k), bytesOf(k), 0), err -> readEnd(k, err));
    }
    if (inflight > 0) {
      waiter = cpu.waker();
      cpu.sleep();
      return true;
    }
    return false;
  }

  private long sectorOf(int k) {
    return (long) k * SUB_JOB_BLOCKS * DmzFormat.BLOCK_SECTORS;
  }

  private int bytesOf(int k) {
    return Math.min(SUB_JOB_BLOCKS, blocks - k * SUB_JOB_BLOCKS) * DmzFormat.BLOCK_SIZE;
  }

  private void submit(Bio b, java.util.function.IntConsumer end) {
    dev.kcopydBytes += b.sizeBytes();
    if (!q.issue(b, (bio, err) -> end.accept(err), () -> submit(b, end))) {
      dev.kcopydBytes -= b.sizeBytes();
    }
  }

  private void readEnd(int k, int err) {
    if (err != 0 && error == 0) {
      error = err;
    }
    Throttle t = dev.kcThrottle;
    t.finish(dev.jiffies());
    readDone[k] = true;
    if (!writeSeq) {
      t.start();
      submit(new Bio(ReqOp.WRITE, dstSector + sectorOf(k), bytesOf(k), 0), e -> writeEnd(e));
      return;
    }
    while (nextWrite < subs && readDone[nextWrite]) {
      int w = nextWrite++;
      t.start();
      submit(new Bio(ReqOp.WRITE, dstSector + sectorOf(w), bytesOf(w), 0), e -> writeEnd(e));
    }
  }

  private void writeEnd(int err) {
    if (err != 0 && error == 0) {
      error = err;
    }
    dev.kcThrottle.finish(dev.jiffies());
    inflight--;
    if (waiter != null) {
      Runnable w = waiter;
      waiter = null;
      w.run();
    }
  }
}
