package blksim.workload.replay;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * What one replaying fio job did with its trace: records read, skipped, wrapped, per trace
 * device, and, for records whose trace carried a latency (blkparse/blktrace C events, MSR
 * ResponseTime, SYSTOR Response), the recorded latency next to the simulated one of the same I/O
 * (fio's {@code lat}: from the submission to the completion).
 *
 * <p>Devices are kept in the order they first appear in the trace (deterministic). Serialised
 * with the job's statistics ({@link #write}, {@link #read}).
 */
public final class ReplayStats {
  private static final int DIGITS = 3;

  /** Per-device counters, as the job's: read, issued, skipped, wrapped, outside window,
   * unsupported. Index of records read in {@link #devices()} values. */
  public static final int DEV_READ = 0;
  /** Index of issued records in {@link #devices()} values. */
  public static final int DEV_ISSUED = 1;
  /** Index of records {@code replay_skip} dropped in {@link #devices()} values. */
  public static final int DEV_SKIPPED = 2;
  /** Index of wrapped records in {@link #devices()} values. */
  public static final int DEV_WRAPPED = 3;
  /** Index of records outside {@code replay_start}/{@code replay_end} in {@link #devices()}. */
  public static final int DEV_OUTSIDE_WINDOW = 4;
  /** Index of records not replayable (empty, longer than the device, ...) in {@link #devices()}. */
  public static final int DEV_UNSUPPORTED = 5;
  /** Per-device counters. */
  private static final int DEV_COUNTERS = 6;

  private String file = "";
  private String format = "";
  private String device = "";
  private long recordsRead;
  private long issued;
  private long skipped;
  private long outsideWindow;
  private long unsupported;
  private long wrapped;
  private long fileActions;
  private long waits;
  private long lastTraceNs;
  private final LinkedHashMap<String, long[]> devices = new LinkedHashMap<>();
  private String lastDevName;
  private long[] lastDev;
  private final List<String> notes = new ArrayList<>();
  private Histogram recorded = new Histogram(DIGITS);
  private Histogram simulated = new Histogram(DIGITS);

  /** The trace file, its format key and the simulated device it is replayed on. */
  void setSource(String traceFile, String formatKey, String deviceName) {
    this.file = traceFile;
    this.format = formatKey;
    this.device = deviceName;
  }

  long[] dev(String name) {
    // Every record counts here: the last device (the same String object, as the readers keep
    // one per repeated name) is found without hashing.
    if (name == lastDevName && lastDev != null) {
      return lastDev;
    }
    long[] c = devices.computeIfAbsent(name == null ? "-" : name, k -> new long[DEV_COUNTERS]);
    lastDevName = name;
    lastDev = c;
    return c;
  }

  void read(String dev, long traceNs) {
    recordsRead++;
    dev(dev)[DEV_READ]++;
    lastTraceNs = traceNs;
  }

  void skipped(String dev) {
    skipped++;
    dev(dev)[DEV_SKIPPED]++;
  }

  void outsideWindow(String dev) {
    outsideWindow++;
    dev(dev)[DEV_OUTSIDE_WINDOW]++;
  }

  void unsupported(String dev) {
    unsupported++;
    dev(dev)[DEV_UNSUPPORTED]++;
  }

  void wrapped(String dev) {
    wrapped++;
    dev(dev)[DEV_WRAPPED]++;
  }

  void issued(String dev) {
    issued++;
    dev(dev)[DEV_ISSUED]++;
  }

  void fileAction() {
    fileActions++;
  }

  void waitRecord() {
    waits++;
  }

  void note(String s) {
    notes.add(s);
  }

  /** An I/O whose trace recorded {@code recordedNs} completed in {@code simulatedNs}. */
  public void latency(long recordedNs, long simulatedNs) {
    recorded.recordValue(Math.max(1, recordedNs));
    simulated.recordValue(Math.max(1, simulatedNs));
  }

  /** The trace file replayed. */
  public String file() {
    return file;
  }

  /** Its format ({@link blksim.workload.trace.TraceFormat#key()}). */
  public String format() {
    return format;
  }

  /** The simulated device the records went to. */
  public String device() {
    return device;
  }

  /** Records the reader returned (data, sync, file actions, waits), window included. */
  public long recordsRead() {
    return recordsRead;
  }

  /** I/Os (and syncs) issued. */
  public long issued() {
    return issued;
  }

  /** Records dropped by {@code replay_skip}. */
  public long skipped() {
    return skipped;
  }

  /** Records outside the {@code replay_start}/{@code replay_end} window. */
  public long outsideWindow() {
    return outsideWindow;
  }

  /** Records blksim cannot issue (trims, records of no length, over-long records). */
  public long unsupported() {
    return unsupported;
  }

  /** Records beyond the device's end, wrapped modulo its size. */
  public long wrapped() {
    return wrapped;
  }

  /** iolog file actions (add, open, close). */
  public long fileActions() {
    return fileActions;
  }

  /** iolog v2 {@code wait} records obeyed. */
  public long waits() {
    return waits;
  }

  /** Trace time of the last record read, ns from the trace's first record. */
  public long lastTraceNs() {
    return lastTraceNs;
  }

  /**
   * Per trace device: read, issued, skipped, wrapped, outside window, unsupported ({@code DEV_*};
   * a copy, first-seen order).
   */
  public Map<String, long[]> devices() {
    LinkedHashMap<String, long[]> c = new LinkedHashMap<>();
    devices.forEach((k, v) -> c.put(k, v.clone()));
    return c;
  }

  /** Notes from the reader (for example the blkparse arrival event chosen). */
  public List<String> notes() {
    return List.copyOf(notes);
  }

  /** I/Os with a recorded latency. */
  public long latencySamples() {
    return recorded.getTotalCount();
  }

  /** Recorded latency at {@code percentile} (0-100), ns. */
  public long recordedPercentile(double percentile) {
    return recorded.getValueAtPercentile(percentile);
  }

  /** Simulated latency of the same I/Os at {@code percentile}, ns. */
  public long simulatedPercentile(double percentile) {
    return simulated.getValueAtPercentile(percentile);
  }

  /** Mean recorded latency, ns. */
  public double recordedMean() {
    return recorded.getMean();
  }

  /** Mean simulated latency of the same I/Os, ns. */
  public double simulatedMean() {
    return simulated.getMean();
  }

  /** Writes these statistics. */
  public void write(DataOutput out) throws IOException {
    out.writeUTF(file);
    out.writeUTF(format);
    out.writeUTF(device);
    for (long v : new long[] {recordsRead, issued, skipped, outsideWindow, unsupported, wrapped,
        fileActions, waits, lastTraceNs}) {
      out.writeLong(v);
    }
    out.writeInt(devices.size());
    for (Map.Entry<String, long[]> e : devices.entrySet()) {
      out.writeUTF(e.getKey());
      for (long v : e.getValue()) {
        out.writeLong(v);
      }
    }
    out.writeInt(notes.size());
    for (String n : notes) {
      out.writeUTF(n);
    }
    writeHistogram(out, recorded);
    writeHistogram(out, simulated);
  }

  /** Reads statistics written by {@link #write}. */
  public static ReplayStats read(DataInput in) throws IOException {
    ReplayStats s = new ReplayStats();
    s.file = in.readUTF();
    s.format = in.readUTF();
    s.device = in.readUTF();
    s.recordsRead = in.readLong();
    s.issued = in.readLong();
    s.skipped = in.readLong();
    s.outsideWindow = in.readLong();
    s.unsupported = in.readLong();
    s.wrapped = in.readLong();
    s.fileActions = in.readLong();
    s.waits = in.readLong();
    s.lastTraceNs = in.readLong();
    int n = in.readInt();
    for (int i = 0; i < n; i++) {
      long[] v = new long[DEV_COUNTERS];
      String k = in.readUTF();
      for (int j = 0; j < DEV_COUNTERS; j++) {
        v[j] = in.readLong();
      }
      s.devices.put(k, v);
    }
    int notes = in.readInt();
    for (int i = 0; i < notes; i++) {
      s.notes.add(in.readUTF());
    }
    s.recorded = readHistogram(in);
    s.simulated = readHistogram(in);
    return s;
  }

  private static void writeHistogram(DataOutput out, Histogram h) throws IOException {
    int buckets = 0;
    for (HistogramIterationValue ignored : h.recordedValues()) {
      buckets++;
    }
    out.writeInt(buckets);
    for (HistogramIterationValue v : h.recordedValues()) {
      out.writeLong(v.getValueIteratedTo());
      out.writeLong(v.getCountAtValueIteratedTo());
    }
  }

  private static Histogram readHistogram(DataInput in) throws IOException {
    Histogram h = new Histogram(DIGITS);
    int n = in.readInt();
    for (int i = 0; i < n; i++) {
      long value = in.readLong();
      h.recordValueWithCount(value, in.readLong());
    }
    return h;
  }
}
