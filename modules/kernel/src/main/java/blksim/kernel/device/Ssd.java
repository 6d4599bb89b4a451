package blksim.kernel.device;

/**
 * The service model of a solid-state drive (kernel-model.md §7.4, §15.5 T2): "a parallel server
 * with k internal channels", with a per-device bandwidth cap. Given commands in the order they
 * reach the device, it returns each one's completion time. The blk-mq request layer drives it;
 * pure and deterministic; owned by whichever component owns the device.
 *
 * <p>Two stages, each a set of booked busy intervals ({@link BusyIntervals}):
 * <ul>
 *   <li><b>Flash channels</b> ({@code channels} of them, in parallel). A command is cut into the
 *       {@code pageBytes} pages it touches; each page keeps one channel busy for the read or
 *       write latency. Reads go where the data is: page p on channel {@code p mod channels}
 *       (striping by LBA). Writes go to whichever channel can take the page first (the FTL
 *       writes out of place), ties to the lowest channel.</li>
 *   <li><b>Host link</b> (one, serial): the command's bytes at {@code bandwidthBytesPerSec}.</li>
 * </ul>
 * A read occupies its channels from arrival, then the link once all its pages are read; a write
 * crosses the link first, then its pages occupy channels; the command completes at the end of
 * its second stage. So at queue depth 1 a read of b bytes takes (pages per channel) × latency +
 * b / bandwidth, and under load the busy stage queues: throughput levels off at the lower of the
 * link's bandwidth and {@code channels × pageBytes / latency}, and latency grows with the queue.
 * Each booking takes the earliest gap that fits at or after its ready time, so one command's
 * pages may slip in ahead of an earlier command's that were booked later on; bookings are never
 * moved (no preemption), which is where this differs from an event-by-event server.
 *
 * <p><b>Simplified:</b> no write cache distinct from the channels (a write is acknowledged when
 * its pages are taken, §7.4's 10–30 µs cache acknowledgement is the write latency's to carry),
 * no garbage collection or write amplification, no read-after-write or mixed read/write
 * interference beyond channel sharing, no dies or planes below a channel, no link transfer
 * overlapped with the flash stage of the same command, no per-command controller overhead
 * distinct from the latencies, and no difference between sequential and random access.
 */
public final class Ssd {
  private final SsdParams params;
  private final BusyIntervals[] channels;
  /** Scratch: each channel's earliest start for the write being booked. */
  private final long[] earliest;
  /** Scratch: whether that earliest start lies after the channel's last booking. */
  private final boolean[] atTail;
  /** Scratch: pages of the write counted for a channel {@link #atTail}, booked at the end. */
  private final long[] pending;
  private final BusyIntervals link = new BusyIntervals();
  /** Completion times of the commands in flight: a binary min-heap in {@code inFlight[0, n)}. */
  private long[] inFlight = new long[32];
  private int inFlightCount;
  private long lastSubmitNs;

  public Ssd(SsdParams params) {
    this.params = params;
    this.channels = new BusyIntervals[params.channels()];
    this.earliest = new long[params.channels()];
    this.atTail = new boolean[params.channels()];
    this.pending = new long[params.channels()];
    for (int i = 0; i < channels.length; i++) {
      channels[i] = new BusyIntervals();
    }
  }

  /** The parameters. */
  public SsdParams params() {
    return params;
  }

  /** Commands submitted and not complete at {@code nowNs} (one completing at nowNs is done). */
  public int inFlight(long nowNs) {
    while (inFlightCount > 0 && inFlight[0] <= nowNs) {
      pollInFlight();
    }
    return inFlightCount;
  }

  private void addInFlight(long t) {
    if (inFlightCount == inFlight.length) {
      inFlight = java.util.Arrays.copyOf(inFlight, inFlightCount * 2);
    }
    int i = inFlightCount++;
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (inFlight[parent] <= t) {
        break;
      }
      inFlight[i] = inFlight[parent];
      i = parent;
    }
    inFlight[i] = t;
  }

  private void pollInFlight() {
    long last = inFlight[--inFlightCount];
    int n = inFlightCount;
    int i = 0;
    while (true) {
      int child = 2 * i + 1;
      if (child >= n) {
        break;
      }
      if (child + 1 < n && inFlight[child + 1] < inFlight[child]) {
        child++;
      }
      if (inFlight[child] >= last) {
        break;
      }
      inFlight[i] = inFlight[child];
      i = child;
    }
    if (n > 0) {
      inFlight[i] = last;
    }
  }

  /** The link time of {@code bytes}: bytes / bandwidth, rounded to the nanosecond. */
  public long linkNs(long bytes) {
    return Math.round(bytes * 1e9 / params.bandwidthBytesPerSec());
  }

  /**
   * Accepts a command at {@code nowNs} and books its service.
   *
   * @return the completion time
   * @throws IllegalStateException if commands come out of time order or {@code queueDepth}
   *     are already in flight
   */
  public long submit(long nowNs, long sector, long bytes, boolean write) {
    if (nowNs < lastSubmitNs) {
      throw new IllegalStateException("Ssd: command at t=" + nowNs
          + " ns after one at t=" + lastSubmitNs + " ns");
    }
    long offset = sector * 512;
    if (sector < 0 || bytes <= 0 || bytes % 512 != 0
        || bytes > params.capacityBytes() - offset) {
      throw new IllegalArgumentException("command must lie inside the " + params.capacityBytes()
          + "-byte device in whole sectors, was " + bytes + " bytes at sector " + sector);
    }
    if (inFlight(nowNs) == params.queueDepth()) {
      throw new IllegalStateException("Ssd: command at t=" + nowNs + " ns with all "
          + params.queueDepth() + " tags in flight");
    }
    lastSubmitNs = nowNs;
    for (BusyIntervals c : channels) {
      c.forgetBefore(nowNs);
    }
    link.forgetBefore(nowNs);

    long firstPage = offset / params.pageBytes();
    long lastPage = (offset + bytes - 1) / params.pageBytes();
    long done;
    if (write) {
      long linked = link.book(nowNs, linkNs(bytes));
      done = linked;
      // Every page of the write is ready at the same time for the same duration, so a
      // channel's earliest start changes only when a page is booked on it: compute each once,
      // then only the chosen one again (the same choices as asking every channel per page).
      // A channel whose earliest start is at or after the end of its last booking (always so
      // once the channels are saturated) takes its pages back to back from there: they are
      // counted and booked as one interval at the end, which is the same booking (touching
      // intervals merge) for one TreeMap operation instead of two per page.
      long wl = params.writeLatencyNs();
      for (int i = 0; i < channels.length; i++) {
        earliest[i] = channels[i].earliestStart(linked, wl);
        atTail[i] = earliest[i] >= channels[i].lastEnd();
        pending[i] = 0;
      }
      for (long p = firstPage; p <= lastPage; p++) {
        int best = 0;
        for (int i = 1; i < channels.length; i++) {
          if (earliest[i] < earliest[best]) {
            best = i;
          }
        }
        if (atTail[best]) {
          pending[best]++;
          earliest[best] += wl;
        } else {
          done = Math.max(done, channels[best].book(linked, wl));
          earliest[best] = channels[best].earliestStart(linked, wl);
          atTail[best] = earliest[best] >= channels[best].lastEnd();
        }
      }
      for (int i = 0; i < channels.length; i++) {
        if (pending[i] > 0) {
          done = Math.max(done, channels[i].book(linked, pending[i] * wl));
        }
      }
    } else {
      long read = nowNs;
      for (long p = firstPage; p <= lastPage; p++) {
        int channel = (int) (p % channels.length);
        read = Math.max(read, channels[channel].book(nowNs, params.readLatencyNs()));
      }
      done = link.book(read, linkNs(bytes));
    }
    addInFlight(done);
    return done;
  }

}
