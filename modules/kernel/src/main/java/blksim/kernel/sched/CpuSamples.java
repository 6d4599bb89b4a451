package blksim.kernel.sched;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One CPU's time series for {@code run --report}'s plots ({@code trace.sample-interval}): busy
 * time (user, system and interrupt) and the completions of each device share mapped to the CPU,
 * per interval of simulated time. Interval {@code k} covers {@code [k * interval, (k + 1) *
 * interval)}.
 *
 * <p>Simplified: no event is added to the run and nothing is read between events. A charge of
 * CPU time is booked at the moment the CPU accounts it, spread over the intervals of the
 * {@code ns} that end there (a burst when it ends or is settled, an interrupt or wakeup cost
 * from when it is taken), so a burst stretched by interrupts is booked slightly earlier than it
 * ran. The figures in the report are unchanged by sampling. Owned by its CPU; not thread-safe.
 */
public final class CpuSamples {
  private final long intervalNs;
  private long[] busyNs = new long[0];
  private final List<String> disks = new ArrayList<>();
  private final List<long[]> ios = new ArrayList<>();
  /** Run-queue length integrated over time (task-ns) per interval. */
  private long[] nrRunningNs = new long[0];
  private long[] migrations = new long[0];
  private int lastNr;
  private long lastNrNs;

  /** Samples every {@code intervalNs} (> 0) of simulated time. */
  public CpuSamples(long intervalNs) {
    if (intervalNs <= 0) {
      throw new IllegalArgumentException("sample interval must be > 0, was " + intervalNs);
    }
    this.intervalNs = intervalNs;
  }

  /** The interval, ns. */
  public long intervalNs() {
    return intervalNs;
  }

  /** {@code ns} of CPU time that ended at {@code endNs}. */
  public void busy(long endNs, long ns) {
    if (ns <= 0) {
      return;
    }
    long start = Math.max(0, endNs - ns);
    long t = start;
    while (t < endNs) {
      int k = (int) (t / intervalNs);
      long bucketEnd = (k + 1) * intervalNs;
      long part = Math.min(endNs, bucketEnd) - t;
      busyNs = grow(busyNs, k);
      busyNs[k] += part;
      t += part;
    }
  }

  /**
   * The run queue's length ({@code rq->nr_running}) became {@code nr} at {@code now}: the
   * previous length is booked up to {@code now}.
   */
  public void nrRunning(long now, int nr) {
    bookNr(now);
    lastNr = nr;
  }

  private void bookNr(long now) {
    long t = lastNrNs;
    if (lastNr > 0) {
      while (t < now) {
        int k = (int) (t / intervalNs);
        long part = Math.min(now, (k + 1) * intervalNs) - t;
        nrRunningNs = grow(nrRunningNs, k);
        nrRunningNs[k] += part * lastNr;
        t += part;
      }
    }
    lastNrNs = Math.max(lastNrNs, now);
  }

  /** A task migrated to this CPU at {@code now} (load balancing or wakeup placement). */
  public void migration(long now) {
    int k = (int) (now / intervalNs);
    migrations = grow(migrations, k);
    migrations[k]++;
  }

  /** A device share whose completions are counted; returns its index for {@link #io}. */
  public int disk(String name) {
    disks.add(name);
    ios.add(new long[0]);
    return disks.size() - 1;
  }

  /** One completion on device share {@code disk} at {@code now}. */
  public void io(int disk, long now) {
    int k = (int) (now / intervalNs);
    long[] a = grow(ios.get(disk), k);
    a[k]++;
    ios.set(disk, a);
  }

  private static long[] grow(long[] a, int k) {
    if (k < a.length) {
      return a;
    }
    return Arrays.copyOf(a, Math.max(k + 1, Math.min(a.length * 2, k + 1 + 1024)));
  }

  /** Busy ns per interval up to {@code endNs}. */
  public long[] busyNs(long endNs) {
    return Arrays.copyOf(busyNs, intervals(endNs));
  }

  /** The device shares counted, in order of {@link #disk}. */
  public List<String> disks() {
    return List.copyOf(disks);
  }

  /** Completions per interval of device share {@code disk} up to {@code endNs}. */
  public long[] ios(int disk, long endNs) {
    return Arrays.copyOf(ios.get(disk), intervals(endNs));
  }

  /**
   * Whole intervals before {@code endNs} (a trailing partial one is dropped, as fio drops its
   * last partial bw/iops window), at least one.
   */
  public int intervals(long endNs) {
    return (int) Math.max(1, endNs / intervalNs);
  }

  /**
   * The samples up to {@code endNs} as they travel in a {@link CpuReport}.
   *
   * @param intervalNs the interval
   * @param busyNs busy ns per interval
   * @param disks device shares mapped to the CPU
   * @param ios completions per interval, one array per entry of {@code disks}
   * @param nrRunningNs the run queue's length integrated over each interval (task-ns: divide
   *     by the interval for the mean length)
   * @param migrations tasks that migrated to the CPU in each interval
   */
  public record Series(long intervalNs, long[] busyNs, List<String> disks, List<long[]> ios,
      long[] nrRunningNs, long[] migrations) {

    /** Copies the lists. */
    public Series {
      disks = List.copyOf(disks);
      ios = List.copyOf(ios);
    }

    void write(DataOutputStream out) throws IOException {
      out.writeLong(intervalNs);
      writeArray(out, busyNs);
      out.writeInt(disks.size());
      for (int i = 0; i < disks.size(); i++) {
        out.writeUTF(disks.get(i));
        writeArray(out, ios.get(i));
      }
      writeArray(out, nrRunningNs);
      writeArray(out, migrations);
    }

    static Series read(DataInputStream in) throws IOException {
      long interval = in.readLong();
      long[] busy = readArray(in);
      int n = in.readInt();
      List<String> d = new ArrayList<>(n);
      List<long[]> io = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        d.add(in.readUTF());
        io.add(readArray(in));
      }
      long[] nr = readArray(in);
      long[] mig = readArray(in);
      return new Series(interval, busy, d, io, nr, mig);
    }

    private static void writeArray(DataOutputStream out, long[] a) throws IOException {
      out.writeInt(a.length);
      for (long v : a) {
        out.writeLong(v);
      }
    }

    private static long[] readArray(DataInputStream in) throws IOException {
      long[] a = new long[in.readInt()];
      for (int i = 0; i < a.length; i++) {
        a[i] = in.readLong();
      }
      return a;
    }
  }

  /** The samples up to {@code endNs}. */
  public Series series(long endNs) {
    List<long[]> io = new ArrayList<>();
    for (int i = 0; i < disks.size(); i++) {
      io.add(ios(i, endNs));
    }
    bookNr(endNs);
    int n = intervals(endNs);
    return new Series(intervalNs, busyNs(endNs), disks, io, Arrays.copyOf(nrRunningNs, n),
        Arrays.copyOf(migrations, n));
  }
}
