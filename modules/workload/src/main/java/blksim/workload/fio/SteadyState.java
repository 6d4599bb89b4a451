package blksim.workload.fio;

import blksim.workload.fio.FioValues.BadValue;
import blksim.workload.fio.stats.SteadyStateResult;
import java.util.Locale;

/**
 * fio's {@code steadystate} (alias {@code ss}): a job ends once its IOPS or bandwidth, sampled every
 * check interval, has been steady for {@code ss_dur}.
 *
 * <p>Mirrors fio's {@code steadystate.c}: {@code str_steadystate_cb()} ({@code options.c}) reads
 * {@code iops:X}, {@code iops_slope:X}, {@code bw:X}, {@code bw_slope:X}, {@code lat:X},
 * {@code lat_slope:X} (X a number, a time for lat, or a
 * percentage of the mean with {@code %}; bw in bytes/s with fio's size suffixes); the window holds
 * {@code ss_dur / steadystate_check_interval} samples of the I/Os and bytes done in each interval
 * (per second); recording starts one interval after {@code ss_ramp} has passed since the job began.
 * With a full window, {@code steadystate_deviation()} compares the largest distance of a sample
 * from the window's mean, {@code steadystate_slope()} the least-squares slope of the samples
 * against their index, with the limit (as a percentage of the mean with {@code %}): below it, the
 * steady state is attained and the job ends ({@code fio_mark_td_terminate()}).
 *
 * <p>Simplified: fio's helper thread checks on its own timer; blksim samples at the job's next I/O
 * after each interval boundary, with the counts of that boundary. With {@code group_reporting}
 * fio sums the group's jobs and ends the whole group; blksim checks each job on its own.
 * {@code lat} and {@code lat_slope} take each interval's mean completion latency (ns).
 */
public final class SteadyState {
  private final boolean iops;
  private final boolean lat;
  private final boolean slope;
  private final boolean pct;
  private final double limit;
  private final long durNs;
  private final long rampNs;
  private final long intervalNs;
  private final int intervals;
  private final long[] bwData;
  private final long[] iopsData;
  private final long[] latData;
  private double prevLatSum;
  private long prevLatSamples;
  private final String text;

  private boolean rampOver;
  private int count;
  private int head;
  private long nextSampleNs = -1;
  private long prevIos;
  private long prevBytes;
  private boolean attained;
  private double criterion;
  private double deviation;
  private double slopeValue;

  private SteadyState(boolean iops, boolean lat, boolean slope, boolean pct, double limit,
      long durNs, long rampNs, long intervalNs, String text) {
    this.iops = iops;
    this.lat = lat;
    this.slope = slope;
    this.pct = pct;
    this.limit = limit;
    this.durNs = durNs;
    this.rampNs = rampNs;
    this.intervalNs = intervalNs;
    this.intervals = (int) Math.max(1, durNs / intervalNs);
    this.bwData = new long[intervals];
    this.iopsData = new long[intervals];
    this.latData = new long[intervals];
    this.text = text;
    this.rampOver = rampNs == 0;
  }

  /** The parsed {@code steadystate} value: criterion, limit, and whether it is a percentage. */
  public record Criterion(boolean iops, boolean slope, boolean pct, double limit, boolean lat) {}

  /** Parses {@code steadystate=}; bandwidth limits accept size suffixes ({@code kb_base}). */
  static Criterion parse(String v, int kbBase) {
    int colon = v.indexOf(':');
    if (colon < 0 || colon == v.length() - 1) {
      throw new BadValue("steadystate needs a criterion and a limit such as iops_slope:0.1%, was "
          + v);
    }
    String kind = v.substring(0, colon);
    String nr = v.substring(colon + 1);
    boolean iops;
    boolean slope;
    switch (kind) {
      case "iops" -> {
        iops = true;
        slope = false;
      }
      case "iops_slope" -> {
        iops = true;
        slope = true;
      }
      case "bw" -> {
        iops = false;
        slope = false;
      }
      case "bw_slope" -> {
        iops = false;
        slope = true;
      }
      case "lat", "lat_slope" -> {
        iops = false;
        slope = kind.equals("lat_slope");
      }
      default -> throw new BadValue("steadystate criterion must be iops, iops_slope, bw,"
          + " bw_slope, lat or lat_slope, was " + kind);
    }
    boolean lat = kind.startsWith("lat");
    int pctAt = nr.indexOf('%');
    try {
      if (pctAt >= 0) {
        return new Criterion(iops, slope, true, Double.parseDouble(nr.substring(0, pctAt).trim()),
            lat);
      }
      if (iops) {
        return new Criterion(true, slope, false, Double.parseDouble(nr), false);
      }
      if (lat) {
        // str_steadystate_cb(): check_str_time(), a time (µs without a unit), kept in ns.
        return new Criterion(false, slope, false, FioValues.timeNs(nr, false), true);
      }
    } catch (NumberFormatException e) {
      throw new BadValue("steadystate limit is not a number: " + nr);
    }
    return new Criterion(false, slope, false, FioValues.bytes(nr, kbBase), false);
  }

  /** The steady-state check of a job, or {@code null} if it has none ({@code ss_dur} 0). */
  public static SteadyState of(FioJob job) {
    FioJob.SteadyStateOptions o = job.steadyState();
    if (o == null || o.durNs() <= 0) {
      return null;
    }
    Criterion c = o.criterion();
    String ss = String.format(Locale.ROOT, "%s%s:%f%s", c.iops() ? "iops" : c.lat() ? "lat" : "bw",
        c.slope() ? "_slope" : "", (float) c.limit(), c.pct() ? "%" : "");
    return new SteadyState(c.iops(), c.lat(), c.slope(), c.pct(), c.limit(), o.durNs(),
        o.rampNs(), o.intervalNs(), ss);
  }

  /**
   * Takes the samples due by {@code elapsedNs} (time since the job began) with the job's
   * cumulative I/O counts; returns true once the steady state is attained.
   */
  public boolean check(long elapsedNs, long totalIos, long totalBytes) {
    return check(elapsedNs, totalIos, totalBytes, 0, 0);
  }

  /**
   * {@link #check(long, long, long)} with the job's completion latencies so far, their sum
   * (ns) and count, for the {@code lat} criteria: each interval's sample is the mean
   * completion latency of the I/Os completed in it (steadystate_check(): the change of
   * {@code clat_stat} mean × samples over the change of samples), 0 if none completed.
   */
  public boolean check(long elapsedNs, long totalIos, long totalBytes, double clatSumNs,
      long clatSamples) {
    if (attained) {
      return true;
    }
    if (nextSampleNs < 0) {
      nextSampleNs = intervalNs;
    }
    while (elapsedNs >= nextSampleNs && !attained) {
      if (!rampOver && nextSampleNs >= rampNs + intervalNs) {
        rampOver = true;
      }
      if (rampOver) {
        // steadystate_check(): per-second rates of the interval just ended.
        long bw = (totalBytes - prevBytes) * 1_000_000_000L / intervalNs;
        long io = (totalIos - prevIos) * 1_000_000_000L / intervalNs;
        long n = clatSamples - prevLatSamples;
        long l = n > 0 ? (long) ((clatSumNs - prevLatSum) / n) : 0;
        add(bw, io, l);
      }
      prevBytes = totalBytes;
      prevIos = totalIos;
      prevLatSum = clatSumNs;
      prevLatSamples = clatSamples;
      nextSampleNs += intervalNs;
    }
    return attained;
  }

  private void add(long bw, long io, long latNs) {
    int at;
    if (count == intervals) {
      // The window is full: the oldest sample (at head) gives way.
      at = head;
      head = (head + 1) % intervals;
    } else {
      at = (head + count) % intervals;
      count++;
    }
    bwData[at] = bw;
    iopsData[at] = io;
    latData[at] = latNs;
    if (count < intervals) {
      return;
    }
    long[] y = iops ? iopsData : lat ? latData : bwData;
    double sum = 0;
    for (long v : y) {
      sum += v;
    }
    double mean = sum / intervals;
    if (slope) {
      // Least squares of y against x = 0..n-1 in time order.
      double sx = intervals * (intervals - 1) / 2.0;
      double sxx = (intervals - 1) * (double) intervals * (2 * intervals - 1) / 6.0;
      double sxy = 0;
      for (int i = 0; i < intervals; i++) {
        sxy += i * (double) y[(head + i) % intervals];
      }
      double denom = sxx - sx * sx / intervals;
      slopeValue = denom == 0 ? 0 : (sxy - sx * sum / intervals) / denom;
      criterion = pct ? 100.0 * slopeValue / mean : slopeValue;
      attained = Math.abs(criterion) < limit;
    } else {
      deviation = 0;
      for (long v : y) {
        deviation = Math.max(deviation, Math.abs(v - mean));
      }
      criterion = pct ? 100.0 * deviation / mean : deviation;
      attained = criterion < limit;
    }
  }

  /** Whether the steady state was attained. */
  public boolean attained() {
    return attained;
  }

  /** The block fio's JSON prints under {@code "steadystate"} ({@code stat.c}). */
  public SteadyStateResult result() {
    long[] bw = new long[intervals];
    long[] io = new long[intervals];
    for (int i = 0; i < intervals; i++) {
      int k = (head + i) % intervals;
      bw[i] = bwData[k];
      io[i] = iopsData[k];
    }
    long bwSum = 0;
    long ioSum = 0;
    for (int i = 0; i < intervals; i++) {
      bwSum += bwData[i];
      ioSum += iopsData[i];
    }
    String crit = String.format(Locale.ROOT, "%f%s", (float) criterion, pct ? "%" : "");
    long[] latOut = null;
    long latMean = 0;
    if (lat) {
      latOut = new long[intervals];
      long latSum = 0;
      for (int i = 0; i < intervals; i++) {
        latOut[i] = latData[(head + i) % intervals];
        latSum += latData[i];
      }
      latMean = latSum / intervals;
    }
    return new SteadyStateResult(text, durNs / 1_000_000_000L, attained, crit, deviation,
        slopeValue, bwSum / intervals, ioSum / intervals, bw, io, latMean, latOut);
  }
}
