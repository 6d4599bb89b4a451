package blksim.kernel.dm;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * What a dm-delay target's releasing task did on one CPU during the run: the
 * {@code dm-delay-flush-worker} kthread in kthread mode, the kdelayd worker in timer mode. Its
 * CPU time is what thread 3's kthread mode trades for latency (kernel-model.md §8.4, §12.3); it
 * never shows in fio's usr/sys (§1.6).
 *
 * @param comm the task's name
 * @param device the mapped device's name
 * @param cpu the CPU's id
 * @param mode the target's mode
 * @param utimeNs user time (always 0: a kernel thread)
 * @param stimeNs system time, context switches included
 * @param nvcsw voluntary context switches
 * @param nivcsw involuntary context switches
 * @param passes passes of the kthread's loop, or runs of the kdelayd work item
 * @param bios bios resubmitted
 */
public record DelayWorkerReport(String comm, String device, int cpu, DelayMode mode,
    long utimeNs, long stimeNs, long nvcsw, long nivcsw, long passes, long bios) {

  /** The {@link blksim.kernel.sched.TaskReport#kind()} of this report. */
  public static final String KIND = "dm-delay-worker";

  /** Encodes this report deterministically. */
  public byte[] encode() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeUTF(comm);
      out.writeUTF(device);
      out.writeInt(cpu);
      out.writeUTF(mode.name());
      for (long v : new long[] {utimeNs, stimeNs, nvcsw, nivcsw, passes, bios}) {
        out.writeLong(v);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /** Decodes a report made by {@link #encode}. */
  public static DelayWorkerReport decode(byte[] payload) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload))) {
      String comm = in.readUTF();
      String device = in.readUTF();
      int cpu = in.readInt();
      DelayMode mode = DelayMode.valueOf(in.readUTF());
      long[] v = new long[6];
      for (int i = 0; i < v.length; i++) {
        v[i] = in.readLong();
      }
      return new DelayWorkerReport(comm, device, cpu, mode, v[0], v[1], v[2], v[3], v[4], v[5]);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
