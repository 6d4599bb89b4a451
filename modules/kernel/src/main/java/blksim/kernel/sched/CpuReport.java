package blksim.kernel.sched;

import blksim.kernel.block.DiskCounters;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A CPU's results: where its time went, and the reports of the tasks it ran.
 *
 * @param cpu CPU id
 * @param userNs time in user mode
 * @param sysNs time in system mode (tasks)
 * @param irqNs time in interrupts
 * @param contextSwitches switches to a task ({@code rq->nr_switches}, switches to idle excluded)
 * @param nvcsw voluntary switches of the CPU's tasks (they blocked)
 * @param nivcsw involuntary switches of the CPU's tasks (they were preempted or yielded)
 * @param elapsedNs virtual time at the end of the run
 * @param tasks task reports, in order of task creation
 * @param disks this CPU's share of each attached disk's statistics
 * @param threads scheduler statistics of every task placed on this CPU, in order of placement
 * @param timehist the context switches this CPU recorded, in time order (empty unless traced)
 * @param timehistDropped switches in the window not recorded because of the line limit
 * @param samples busy time and completions per interval ({@code trace.sample-interval}), or null
 * @param irqs the interrupts a CPU that traces its switches took in the window: start and
 *     duration (ns) of each, in pairs, in time order ({@code run --perfetto})
 */
public record CpuReport(int cpu, long userNs, long sysNs, long irqNs, long contextSwitches,
    long nvcsw, long nivcsw, long elapsedNs, List<TaskReport> tasks,
    List<DiskCounters.Snapshot> disks, List<TaskStat> threads, List<SwitchRecord> timehist,
    long timehistDropped, CpuSamples.Series samples, long[] irqs) {

  /** Copies the lists. */
  public CpuReport {
    tasks = List.copyOf(tasks);
    disks = List.copyOf(disks);
    threads = List.copyOf(threads);
    timehist = List.copyOf(timehist);
  }

  /** A report without a switch trace. */
  public CpuReport(int cpu, long userNs, long sysNs, long irqNs, long contextSwitches,
      long nvcsw, long nivcsw, long elapsedNs, List<TaskReport> tasks,
      List<DiskCounters.Snapshot> disks, List<TaskStat> threads) {
    this(cpu, userNs, sysNs, irqNs, contextSwitches, nvcsw, nivcsw, elapsedNs, tasks, disks,
        threads, List.of(), 0, null, new long[0]);
  }

  /** This report with other task reports (the rest unchanged). */
  public CpuReport withTasks(List<TaskReport> otherTasks) {
    return new CpuReport(cpu, userNs, sysNs, irqNs, contextSwitches, nvcsw, nivcsw, elapsedNs,
        otherTasks, disks, threads, timehist, timehistDropped, samples, irqs);
  }

  /** Equal when the encodings are: the arrays ({@code samples}, {@code irqs}) by content. */
  @Override
  public boolean equals(Object o) {
    return o instanceof CpuReport r && java.util.Arrays.equals(encode(), r.encode());
  }

  @Override
  public int hashCode() {
    return java.util.Arrays.hashCode(encode());
  }

  /** The {@link blksim.engine.ComponentReport#kind()} of a CPU report. */
  public static final String KIND = "cpu";

  /** Busy time: user, system and interrupt time, ns. */
  public long busyNs() {
    return userNs + sysNs + irqNs;
  }

  /**
   * Idle time, ns: the elapsed time not busy (never negative; interrupt time is counted when the
   * interrupt is taken, so one still in progress at the end may overlap the end).
   */
  public long idleNs() {
    return Math.max(0, elapsedNs - busyNs());
  }

  /** Encodes this report deterministically. */
  public byte[] encode() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(cpu);
      out.writeLong(userNs);
      out.writeLong(sysNs);
      out.writeLong(irqNs);
      out.writeLong(contextSwitches);
      out.writeLong(nvcsw);
      out.writeLong(nivcsw);
      out.writeLong(elapsedNs);
      out.writeInt(tasks.size());
      for (TaskReport t : tasks) {
        out.writeUTF(t.name());
        out.writeUTF(t.kind());
        out.writeInt(t.payload().length);
        out.write(t.payload());
      }
      out.writeInt(disks.size());
      for (DiskCounters.Snapshot d : disks) {
        d.write(out);
      }
      out.writeInt(threads.size());
      for (TaskStat t : threads) {
        t.write(out);
      }
      out.writeInt(timehist.size());
      for (SwitchRecord r : timehist) {
        r.write(out);
      }
      out.writeLong(timehistDropped);
      out.writeBoolean(samples != null);
      if (samples != null) {
        samples.write(out);
      }
      out.writeInt(irqs.length);
      for (long v : irqs) {
        out.writeLong(v);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /** Decodes a report written by {@link #encode}. */
  public static CpuReport decode(byte[] payload) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload))) {
      int cpu = in.readInt();
      long u = in.readLong();
      long s = in.readLong();
      long i = in.readLong();
      long cs = in.readLong();
      long vol = in.readLong();
      long invol = in.readLong();
      long el = in.readLong();
      int n = in.readInt();
      List<TaskReport> tasks = new ArrayList<>(n);
      for (int k = 0; k < n; k++) {
        String name = in.readUTF();
        String kind = in.readUTF();
        byte[] p = new byte[in.readInt()];
        in.readFully(p);
        tasks.add(new TaskReport(name, kind, p));
      }
      int nd = in.readInt();
      List<DiskCounters.Snapshot> disks = new ArrayList<>(nd);
      for (int k = 0; k < nd; k++) {
        disks.add(DiskCounters.Snapshot.read(in));
      }
      int nt = in.readInt();
      List<TaskStat> threads = new ArrayList<>(nt);
      for (int k = 0; k < nt; k++) {
        threads.add(TaskStat.read(in));
      }
      int nh = in.readInt();
      List<SwitchRecord> hist = new ArrayList<>(nh);
      for (int k = 0; k < nh; k++) {
        hist.add(SwitchRecord.read(in));
      }
      long dropped = in.readLong();
      CpuSamples.Series samples = in.readBoolean() ? CpuSamples.Series.read(in) : null;
      long[] irqs = new long[in.readInt()];
      for (int k = 0; k < irqs.length; k++) {
        irqs[k] = in.readLong();
      }
      return new CpuReport(cpu, u, s, i, cs, vol, invol, el, tasks, disks, threads, hist,
          dropped, samples, irqs);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
