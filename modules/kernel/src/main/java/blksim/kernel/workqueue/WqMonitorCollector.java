package blksim.kernel.workqueue;

import blksim.engine.Component;
import blksim.engine.ComponentReport;
import blksim.engine.Context;
import blksim.engine.Locality;
import blksim.engine.Message;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * wq_monitor.py's sampling loop as a component ({@code wq/monitor}): every owner of workqueue
 * counters sends its share at each multiple of {@link WorkqueueParams#monitorIntervalNs}
 * ({@link WqMessage.Sample}, one lookahead later); the collector sums them per sample time. Every
 * share of one sample arrives at the same virtual time, so a sample is either complete or, if the
 * run ended first, absent. Owners whose counters are all zero send nothing (their share is zero).
 * Its report ({@link #KIND}) is the series of snapshots.
 */
public final class WqMonitorCollector implements Component {
  /** The collector's component id. */
  public static final String ID = "wq/monitor";
  /** Its report kind. */
  public static final String KIND = "wq-monitor";

  private final WorkqueueSystem system;
  private final TreeMap<Long, long[]> samples = new TreeMap<>();

  WqMonitorCollector(WorkqueueSystem system) {
    this.system = system;
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  public Locality locality() {
    return Locality.MACHINE;
  }

  @Override
  public void handle(Message message, Context ctx) {
    if (!(message instanceof WqMessage.Sample s)) {
      throw new IllegalStateException(ID + ": unexpected " + message);
    }
    long[] sum = samples.computeIfAbsent(s.timeNs(), t -> new long[s.counters().length]);
    WorkqueueSystem.add(sum, s.counters());
  }

  /** The samples so far, oldest first. */
  public List<WqMonitorSnapshot> samples() {
    List<WqMonitorSnapshot> out = new ArrayList<>();
    for (Map.Entry<Long, long[]> e : samples.entrySet()) {
      out.add(WqMonitorSnapshot.of(system, e.getKey(), e.getValue()));
    }
    return out;
  }

  @Override
  public ComponentReport report(long endNs) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      List<WqMonitorSnapshot> all = samples();
      out.writeInt(all.size());
      for (WqMonitorSnapshot s : all) {
        s.write(out);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new ComponentReport(ID, KIND, bytes.toByteArray());
  }

  /** Decodes the collector's report. */
  static List<WqMonitorSnapshot> decode(WorkqueueSystem sys, byte[] payload) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload))) {
      int n = in.readInt();
      List<WqMonitorSnapshot> out = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        out.add(WqMonitorSnapshot.read(in));
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
