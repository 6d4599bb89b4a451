package blksim.kernel.sched;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * One task's waits on one sleeping lock ({@code blksim.kernel.locking}) over the run, the
 * per-task half of what {@code /proc/lock_stat} shows per lock class: acquisitions, how many
 * found the lock taken, and where the wait went (spinning on the CPU or asleep in D state).
 * Summed over tasks by lock name, they give the lock's figures; tasks are reported by their home
 * CPU, so the sums do not depend on the partitioning.
 *
 * @param lock the lock's name
 * @param acquisitions times the task took it (read and write)
 * @param contended acquisitions that found it unavailable
 * @param spun contended acquisitions that ended by spinning (no sleep)
 * @param slept contended acquisitions that slept at least once
 * @param spinNs CPU time spent spinning on it, ns
 * @param sleepNs time spent asleep waiting for it (D state), ns
 * @param maxWaitNs longest single wait (from the first attempt to holding it), ns
 * @param handoffs acquisitions handed over by the anti-starvation hand-off
 */
public record LockWaitStat(String lock, long acquisitions, long contended, long spun, long slept,
    long spinNs, long sleepNs, long maxWaitNs, long handoffs) {

  /** Total wait: spinning plus sleeping, ns. */
  public long waitNs() {
    return spinNs + sleepNs;
  }

  /** This and {@code o} (same lock) summed; the maximum of the maxima. */
  public LockWaitStat plus(LockWaitStat o) {
    return new LockWaitStat(lock, acquisitions + o.acquisitions, contended + o.contended,
        spun + o.spun, slept + o.slept, spinNs + o.spinNs, sleepNs + o.sleepNs,
        Math.max(maxWaitNs, o.maxWaitNs), handoffs + o.handoffs);
  }

  void write(DataOutputStream out) throws IOException {
    out.writeUTF(lock);
    out.writeLong(acquisitions);
    out.writeLong(contended);
    out.writeLong(spun);
    out.writeLong(slept);
    out.writeLong(spinNs);
    out.writeLong(sleepNs);
    out.writeLong(maxWaitNs);
    out.writeLong(handoffs);
  }

  static LockWaitStat read(DataInputStream in) throws IOException {
    return new LockWaitStat(in.readUTF(), in.readLong(), in.readLong(), in.readLong(),
        in.readLong(), in.readLong(), in.readLong(), in.readLong(), in.readLong());
  }

  /** The running account a task keeps for one lock (owned by the task's lock code). */
  public static final class Account {
    private final String lock;
    /** Times taken. */
    public long acquisitions;
    /** Times it was unavailable at the first attempt. */
    public long contended;
    /** Contended acquisitions without a sleep. */
    public long spun;
    /** Contended acquisitions with a sleep. */
    public long slept;
    /** Spinning time, ns. */
    public long spinNs;
    /** D-state time, ns. */
    public long sleepNs;
    /** Longest wait, ns. */
    public long maxWaitNs;
    /** Anti-starvation hand-offs received. */
    public long handoffs;

    /** An empty account for {@code lock}. */
    public Account(String lock) {
      this.lock = lock;
    }

    /** The figures now. */
    public LockWaitStat snapshot() {
      return new LockWaitStat(lock, acquisitions, contended, spun, slept, spinNs, sleepNs,
          maxWaitNs, handoffs);
    }
  }
}
