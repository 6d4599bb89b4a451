package blksim.kernel.block;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * The I/O statistics of one disk, as {@code /proc/diskstats} keeps them ({@code struct
 * disk_stats}), counted on one CPU: a disk's totals are the sum over CPUs, as the kernel sums its
 * per-CPU {@code part_stat} counters.
 *
 * <p>{@code ioTicksNs} is the time this CPU's share had at least one request in flight; the disk's
 * utilisation is derived from these shares (see {@link #utilisation}).
 */
public final class DiskCounters {
  private final String disk;
  final long[] ios = new long[2];
  final long[] sectors = new long[2];
  final long[] merges = new long[2];
  final long[] ticksNs = new long[2];
  private long inFlight;
  private long busySince;
  private long ioTicksNs;
  private long timeInQueueNs;
  private long tagWaits;
  private long tagWaitNs;
  private long lockSpins;
  private long lockSpinNs;
  /** The CPU's samples this share counts its completions into, null when off. */
  private blksim.kernel.sched.CpuSamples samples;
  private int sampleDisk;

  public DiskCounters(String disk) {
    this.disk = disk;
  }

  /** The disk's name ({@code nullb0}). */
  public String disk() {
    return disk;
  }

  /** A request starts ({@code blk_account_io_start}). */
  public void start(long now) {
    if (inFlight++ == 0) {
      busySince = now;
    }
  }

  /** A request of {@code op} and {@code bytes} started at {@code startNs} completed at {@code now}. */
  public void done(ReqOp op, long bytes, long startNs, long now) {
    if (samples != null) {
      samples.io(sampleDisk, now);
    }
    int g = op.statGroup();
    ios[g]++;
    sectors[g] += bytes >>> 9;
    ticksNs[g] += now - startNs;
    timeInQueueNs += now - startNs;
    if (--inFlight == 0) {
      ioTicksNs += now - busySince;
    }
  }

  /**
   * A submitter slept {@code ns} for a tag of this queue ({@code blk_mq_get_tag()}'s
   * {@code io_schedule()}; blksim's addition, not in {@code /proc/diskstats}).
   */
  public void tagWait(long ns) {
    tagWaits++;
    tagWaitNs += ns;
  }

  /**
   * A submission spun {@code ns} on the queue's contended scheduler lock (blksim's addition;
   * {@code kernel.spinlock-contention = on}).
   */
  public void lockSpin(long ns) {
    lockSpins++;
    lockSpinNs += ns;
  }

  /**
   * A request was merged into another before it was dispatched: it leaves the in-flight count
   * without being counted as an I/O (its bios are counted in the request that took them, and the
   * merge in {@code merges}). The request that took it is still in flight, so the busy period
   * goes on.
   */
  public void mergedAway() {
    inFlight--;
  }

  /**
   * A bio that a synchronous driver served inline, in {@code serviceNs} of the submitter's CPU
   * time ending at {@code now}: {@code bio_start_io_acct()} at driver entry and
   * {@code bio_end_io_acct()} at exit, with nothing else of this share in between.
   */
  public void doneInline(ReqOp op, long bytes, long serviceNs, long now) {
    long startNs = now - serviceNs;
    start(startNs);
    done(op, bytes, startNs, now);
  }

  /**
   * Counts this share's completions per interval into its CPU's samples ({@code run
   * --report}); before the run starts.
   */
  public void sampleInto(blksim.kernel.sched.CpuSamples s) {
    samples = s;
    sampleDisk = s.disk(disk);
  }

  /** Busy time so far, counting an open busy period up to {@code now}. */
  public long ioTicksNs(long now) {
    return ioTicksNs + (inFlight > 0 ? now - busySince : 0);
  }

  /** The counters as of {@code now}. */
  public Snapshot snapshot(long now) {
    return new Snapshot(disk, ios[0], ios[1], sectors[0], sectors[1], merges[0], merges[1],
        ticksNs[0], ticksNs[1], ioTicksNs(now), timeInQueueNs, tagWaits, tagWaitNs, lockSpins, lockSpinNs);
  }

  /**
   * Disk statistics read back from {@link #write}, summable across CPUs.
   *
   * @param ioTicksNs busy time of this share
   * @param tagWaits sleeps for a tag ({@link #tagWait})
   * @param tagWaitNs time those sleeps lasted, ns
   * @param lockSpins submissions that spun on the contended scheduler lock ({@link #lockSpin})
   * @param lockSpinNs time they spun, ns
   */
  public record Snapshot(String disk, long readIos, long writeIos, long readSectors,
      long writeSectors, long readMerges, long writeMerges, long readTicksNs, long writeTicksNs,
      long ioTicksNs, long timeInQueueNs, long tagWaits, long tagWaitNs, long lockSpins,
      long lockSpinNs) {

    /** A snapshot without tag waits. */
    public Snapshot(String disk, long readIos, long writeIos, long readSectors,
        long writeSectors, long readMerges, long writeMerges, long readTicksNs,
        long writeTicksNs, long ioTicksNs, long timeInQueueNs) {
      this(disk, readIos, writeIos, readSectors, writeSectors, readMerges, writeMerges,
          readTicksNs, writeTicksNs, ioTicksNs, timeInQueueNs, 0, 0, 0, 0);
    }

    /** Writes this snapshot. */
    public void write(DataOutputStream out) throws IOException {
      out.writeUTF(disk);
      for (long v : new long[] {readIos, writeIos, readSectors, writeSectors, readMerges,
          writeMerges, readTicksNs, writeTicksNs, ioTicksNs, timeInQueueNs, tagWaits,
          tagWaitNs, lockSpins, lockSpinNs}) {
        out.writeLong(v);
      }
    }

    /** Reads a snapshot written by {@link #write}. */
    public static Snapshot read(DataInputStream in) throws IOException {
      String d = in.readUTF();
      long[] v = new long[14];
      for (int i = 0; i < 14; i++) {
        v[i] = in.readLong();
      }
      return new Snapshot(d, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10],
          v[11], v[12], v[13]);
    }

    /** The sum of two shares of the same disk; busy times are kept apart by the caller. */
    public Snapshot plus(Snapshot o) {
      return new Snapshot(disk, readIos + o.readIos, writeIos + o.writeIos,
          readSectors + o.readSectors, writeSectors + o.writeSectors, readMerges + o.readMerges,
          writeMerges + o.writeMerges, readTicksNs + o.readTicksNs, writeTicksNs + o.writeTicksNs,
          ioTicksNs + o.ioTicksNs, timeInQueueNs + o.timeInQueueNs, tagWaits + o.tagWaits,
          tagWaitNs + o.tagWaitNs, lockSpins + o.lockSpins, lockSpinNs + o.lockSpinNs);
    }
  }

  /**
   * Estimated utilisation of a disk from its per-CPU busy shares: the chance that at least one
   * share is busy, assuming shares are independent, {@code 1 - prod(1 - busy_i / elapsed)}.
   * Simplified: the kernel measures one busy time per disk; per-CPU shares overlap in time.
   */
  public static double utilisation(long[] busyNs, long elapsedNs) {
    if (elapsedNs <= 0) {
      return 0;
    }
    double idle = 1;
    for (long b : busyNs) {
      idle *= 1 - Math.min(1.0, (double) b / elapsedNs);
    }
    return 1 - idle;
  }
}
