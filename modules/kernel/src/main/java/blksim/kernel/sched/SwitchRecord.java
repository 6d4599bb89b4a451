package blksim.kernel.sched;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * One context switch away from a task, with the columns of {@code perf sched timehist}: when it
 * happened, on which CPU, which task left the CPU, how long it had been away before this
 * timeslice ({@code wait time}: from its previous switch-out to its switch-in, sleeping and
 * queued), how long of that it was runnable but queued ({@code sch delay}), how long it ran
 * ({@code run time}, its switch-in cost included), and why it left.
 *
 * @param timeNs virtual time of the switch-out
 * @param cpu CPU id
 * @param tid thread id of the task switched out
 * @param comm its name
 * @param waitNs time between its previous switch-out and this timeslice's switch-in
 * @param schDelayNs time it waited runnable on the run queue before this timeslice
 * @param runNs length of this timeslice
 * @param state why it left: {@code S} it blocked, {@code R} it was preempted (still runnable),
 *     {@code X} it exited
 */
public record SwitchRecord(long timeNs, int cpu, int tid, String comm, long waitNs,
    long schDelayNs, long runNs, char state) {

  void write(DataOutputStream out) throws IOException {
    out.writeLong(timeNs);
    out.writeInt(cpu);
    out.writeInt(tid);
    out.writeUTF(comm);
    out.writeLong(waitNs);
    out.writeLong(schDelayNs);
    out.writeLong(runNs);
    out.writeChar(state);
  }

  static SwitchRecord read(DataInputStream in) throws IOException {
    return new SwitchRecord(in.readLong(), in.readInt(), in.readInt(), in.readUTF(),
        in.readLong(), in.readLong(), in.readLong(), in.readChar());
  }
}
