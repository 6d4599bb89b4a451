package blksim.workload.fio.stats;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;

/**
 * Every measured I/O of one job, kept when the job writes fio's per-I/O logs
 * ({@code write_lat_log}, {@code write_bw_log}, {@code write_iops_log}): the completion time, the
 * submission and completion latencies, the direction, size and offset, in completion order.
 * {@link FioLogWriter} turns them into fio's log files after the run.
 *
 * <p>About 40 bytes per I/O, as fio's own in-memory log (it also keeps every sample until the
 * log is flushed at the end of the job).
 */
public final class IoSamples {
  private long[] completionNs = new long[256];
  private long[] clatNs = new long[256];
  private long[] slatNs = new long[256];
  private long[] offset = new long[256];
  private int[] bytes = new int[256];
  private byte[] ddir = new byte[256];
  private int size;

  /** Number of I/Os recorded. */
  public int size() {
    return size;
  }

  void clear() {
    size = 0;
  }

  void add(long completion, int dir, long len, long slat, long clat, long off) {
    if (size == ddir.length) {
      int n = size * 2;
      completionNs = Arrays.copyOf(completionNs, n);
      clatNs = Arrays.copyOf(clatNs, n);
      slatNs = Arrays.copyOf(slatNs, n);
      offset = Arrays.copyOf(offset, n);
      bytes = Arrays.copyOf(bytes, n);
      ddir = Arrays.copyOf(ddir, n);
    }
    completionNs[size] = completion;
    clatNs[size] = clat;
    slatNs[size] = slat;
    offset[size] = off;
    bytes[size] = (int) Math.min(Integer.MAX_VALUE, len);
    ddir[size] = (byte) dir;
    size++;
  }

  /** Virtual time of the {@code i}th completion. */
  public long completionNs(int i) {
    return completionNs[i];
  }

  /** Completion latency (issue to completion) of the {@code i}th I/O. */
  public long clatNs(int i) {
    return clatNs[i];
  }

  /** Submission latency of the {@code i}th I/O, negative when not measured (sync engines). */
  public long slatNs(int i) {
    return slatNs[i];
  }

  /** Byte offset of the {@code i}th I/O, negative when unknown. */
  public long offset(int i) {
    return offset[i];
  }

  /** Size in bytes of the {@code i}th I/O. */
  public int bytes(int i) {
    return bytes[i];
  }

  /** Direction of the {@code i}th I/O: 0 read, 1 write, 2 trim. */
  public int ddir(int i) {
    return ddir[i];
  }

  void write(DataOutputStream out) throws IOException {
    out.writeInt(size);
    for (int i = 0; i < size; i++) {
      out.writeLong(completionNs[i]);
      out.writeLong(clatNs[i]);
      out.writeLong(slatNs[i]);
      out.writeLong(offset[i]);
      out.writeInt(bytes[i]);
      out.writeByte(ddir[i]);
    }
  }

  static IoSamples read(DataInputStream in) throws IOException {
    IoSamples s = new IoSamples();
    int n = in.readInt();
    for (int i = 0; i < n; i++) {
      s.add(in.readLong(), 0, 0, 0, 0, 0);
      s.clatNs[i] = in.readLong();
      s.slatNs[i] = in.readLong();
      s.offset[i] = in.readLong();
      s.bytes[i] = in.readInt();
      s.ddir[i] = in.readByte();
    }
    return s;
  }
}
