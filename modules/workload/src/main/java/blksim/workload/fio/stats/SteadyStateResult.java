package blksim.workload.fio.stats;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * The {@code "steadystate"} object of fio's JSON output for one job ({@code stat.c},
 * {@code show_thread_status_json()}): the criterion as given ({@code ss}), {@code duration} in
 * seconds, {@code attained}, the last {@code criterion} value, {@code max_deviation},
 * {@code slope}, and the window's samples ({@code data.bw} in bytes/s, {@code data.iops}) with
 * their means, oldest first; for the {@code lat} criteria also {@code data.lat_mean} and
 * {@code data.lat_ns} (the mean completion latency of each interval, ns), else null.
 */
public record SteadyStateResult(String ss, long durationSec, boolean attained, String criterion,
    double maxDeviation, double slope, long bwMean, long iopsMean, long[] bw, long[] iops,
    long latMean, long[] latNs) {

  /** Without the latency samples (the iops and bw criteria). */
  public SteadyStateResult(String ss, long durationSec, boolean attained, String criterion,
      double maxDeviation, double slope, long bwMean, long iopsMean, long[] bw, long[] iops) {
    this(ss, durationSec, attained, criterion, maxDeviation, slope, bwMean, iopsMean, bw, iops,
        0, null);
  }

  void write(DataOutput out) throws IOException {
    out.writeUTF(ss);
    out.writeLong(durationSec);
    out.writeBoolean(attained);
    out.writeUTF(criterion);
    out.writeDouble(maxDeviation);
    out.writeDouble(slope);
    out.writeLong(bwMean);
    out.writeLong(iopsMean);
    out.writeInt(bw.length);
    for (int i = 0; i < bw.length; i++) {
      out.writeLong(bw[i]);
      out.writeLong(iops[i]);
    }
    out.writeBoolean(latNs != null);
    if (latNs != null) {
      out.writeLong(latMean);
      for (long v : latNs) {
        out.writeLong(v);
      }
    }
  }

  static SteadyStateResult read(DataInput in) throws IOException {
    String ss = in.readUTF();
    long dur = in.readLong();
    boolean att = in.readBoolean();
    String crit = in.readUTF();
    double dev = in.readDouble();
    double slope = in.readDouble();
    long bwMean = in.readLong();
    long iopsMean = in.readLong();
    int n = in.readInt();
    if (n < 0 || n > 1_000_000) {
      throw new IOException("corrupt steadystate: " + n + " samples");
    }
    long[] bw = new long[n];
    long[] iops = new long[n];
    for (int i = 0; i < n; i++) {
      bw[i] = in.readLong();
      iops[i] = in.readLong();
    }
    long latMean = 0;
    long[] lat = null;
    if (in.readBoolean()) {
      latMean = in.readLong();
      lat = new long[n];
      for (int i = 0; i < n; i++) {
        lat[i] = in.readLong();
      }
    }
    return new SteadyStateResult(ss, dur, att, crit, dev, slope, bwMean, iopsMean, bw, iops,
        latMean, lat);
  }
}
