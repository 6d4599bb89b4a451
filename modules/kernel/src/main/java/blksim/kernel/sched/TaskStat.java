package blksim.kernel.sched;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * One task's scheduler statistics at the end of a run: what {@code /proc/<tid>/stat}
 * ({@code utime}, {@code stime}), {@code /proc/<tid>/status} ({@code voluntary_ctxt_switches},
 * {@code nonvoluntary_ctxt_switches}) and {@code /proc/<tid>/schedstat} ({@code run_delay},
 * {@code pcount}) would show for it. Unlike fio's own {@code cpu} line, these exist for every
 * task: io-wq workers, kworkers and kthreads too.
 *
 * @param tid thread id
 * @param comm the task's name
 * @param nice nice value
 * @param utimeNs user time, ns
 * @param stimeNs system time, ns (switch-in cost and interrupts taken while it ran included)
 * @param nvcsw voluntary context switches (it blocked)
 * @param nivcsw involuntary context switches (it was preempted while runnable)
 * @param runDelayNs time spent runnable on a run queue, waiting for the CPU, ns
 * @param pcount times switched in
 * @param migrations times it moved to another CPU ({@code se.nr_migrations})
 * @param state its state at the end as {@code ps} shows it (R, S, D, X)
 * @param wchan the lock a task in D state waits on, else empty
 * @param locks its waits on sleeping locks, per lock in order of first use
 */
public record TaskStat(int tid, String comm, int nice, long utimeNs, long stimeNs, long nvcsw,
    long nivcsw, long runDelayNs, long pcount, long migrations, char state, String wchan,
    java.util.List<LockWaitStat> locks) {

  /** Copies the list. */
  public TaskStat {
    locks = java.util.List.copyOf(locks);
  }

  /** A running task that never took a sleeping lock. */
  public TaskStat(int tid, String comm, int nice, long utimeNs, long stimeNs, long nvcsw,
      long nivcsw, long runDelayNs, long pcount, long migrations) {
    this(tid, comm, nice, utimeNs, stimeNs, nvcsw, nivcsw, runDelayNs, pcount, migrations, 'R',
        "", java.util.List.of());
  }

  void write(DataOutputStream out) throws IOException {
    out.writeInt(tid);
    out.writeUTF(comm);
    out.writeInt(nice);
    out.writeLong(utimeNs);
    out.writeLong(stimeNs);
    out.writeLong(nvcsw);
    out.writeLong(nivcsw);
    out.writeLong(runDelayNs);
    out.writeLong(pcount);
    out.writeLong(migrations);
    out.writeChar(state);
    out.writeUTF(wchan);
    out.writeInt(locks.size());
    for (LockWaitStat l : locks) {
      l.write(out);
    }
  }

  static TaskStat read(DataInputStream in) throws IOException {
    int tid = in.readInt();
    String comm = in.readUTF();
    int nice = in.readInt();
    long u = in.readLong();
    long s = in.readLong();
    long vol = in.readLong();
    long invol = in.readLong();
    long delay = in.readLong();
    long pcount = in.readLong();
    long migr = in.readLong();
    char state = in.readChar();
    String wchan = in.readUTF();
    int n = in.readInt();
    java.util.List<LockWaitStat> locks = new java.util.ArrayList<>(n);
    for (int k = 0; k < n; k++) {
      locks.add(LockWaitStat.read(in));
    }
    return new TaskStat(tid, comm, nice, u, s, vol, invol, delay, pcount, migr, state, wchan,
        locks);
  }
}
