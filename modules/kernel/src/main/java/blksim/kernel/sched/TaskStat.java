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
 */
public record TaskStat(int tid, String comm, int nice, long utimeNs, long stimeNs, long nvcsw,
    long nivcsw, long runDelayNs, long pcount, long migrations) {

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
  }

  static TaskStat read(DataInputStream in) throws IOException {
    return new TaskStat(in.readInt(), in.readUTF(), in.readInt(), in.readLong(), in.readLong(),
        in.readLong(), in.readLong(), in.readLong(), in.readLong(), in.readLong());
  }
}
