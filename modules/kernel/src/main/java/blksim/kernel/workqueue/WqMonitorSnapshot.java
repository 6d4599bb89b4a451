package blksim.kernel.workqueue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What wq_monitor.py reads at one instant (kernel-model.md §10): for every workqueue, in
 * allocation order, its counters summed over all its pwqs. Values are cumulative since the wq was
 * created. Deterministic encoding, so a series of snapshots can travel in a
 * {@link blksim.engine.ComponentReport}.
 *
 * @param timeNs virtual time of the sample
 * @param rows one per workqueue
 */
public record WqMonitorSnapshot(long timeNs, List<Row> rows) {

  public WqMonitorSnapshot {
    rows = List.copyOf(rows);
  }

  /**
   * One workqueue's line.
   *
   * @param name {@code wq->name}
   * @param unbound {@code WQ_UNBOUND}
   * @param memReclaim {@code WQ_MEM_RECLAIM}
   * @param stats the {@link PwqStat} counters, by ordinal
   */
  public record Row(String name, boolean unbound, boolean memReclaim, long[] stats) {
    public Row {
      stats = stats.clone();
      if (stats.length != PwqStat.COUNT) {
        throw new IllegalArgumentException("a row has " + PwqStat.COUNT + " counters, got "
            + stats.length);
      }
    }

    /** Counter {@code s}. */
    public long stat(PwqStat s) {
      return stats[s.ordinal()];
    }

    /** wq_monitor's {@code total}: items started. */
    public long total() {
      return stat(PwqStat.STARTED);
    }

    /** wq_monitor's {@code infl}: started minus completed, floored at 0 (items executing now). */
    public long infl() {
      return Math.max(0, stat(PwqStat.STARTED) - stat(PwqStat.COMPLETED));
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Row r && r.name.equals(name) && r.unbound == unbound
          && r.memReclaim == memReclaim && Arrays.equals(r.stats, stats);
    }

    @Override
    public int hashCode() {
      return name.hashCode() * 31 + Arrays.hashCode(stats);
    }

    @Override
    public String toString() {
      return name + Arrays.toString(stats);
    }
  }

  /** The snapshot of {@code sys}'s workqueues from summed counters. */
  static WqMonitorSnapshot of(WorkqueueSystem sys, long timeNs, long[] sum) {
    List<Row> rows = new ArrayList<>();
    for (Workqueue wq : sys.workqueues()) {
      int base = wq.id() * PwqStat.COUNT;
      rows.add(new Row(wq.name(), wq.unbound(), wq.memReclaim(),
          Arrays.copyOfRange(sum, base, base + PwqStat.COUNT)));
    }
    return new WqMonitorSnapshot(timeNs, rows);
  }

  /** The row of workqueue {@code name}. */
  public Row row(String name) {
    for (Row r : rows) {
      if (r.name().equals(name)) {
        return r;
      }
    }
    throw new IllegalArgumentException("no workqueue " + name + " in the snapshot");
  }

  /** Encodes this snapshot deterministically. */
  public byte[] encode() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      write(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  void write(DataOutputStream out) throws IOException {
    out.writeLong(timeNs);
    out.writeInt(rows.size());
    for (Row r : rows) {
      out.writeUTF(r.name());
      out.writeBoolean(r.unbound());
      out.writeBoolean(r.memReclaim());
      for (long v : r.stats) {
        out.writeLong(v);
      }
    }
  }

  /** Decodes a snapshot written by {@link #encode}. */
  public static WqMonitorSnapshot decode(byte[] payload) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload))) {
      return read(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static WqMonitorSnapshot read(DataInputStream in) throws IOException {
    long t = in.readLong();
    int n = in.readInt();
    List<Row> rows = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      String name = in.readUTF();
      boolean unbound = in.readBoolean();
      boolean reclaim = in.readBoolean();
      long[] s = new long[PwqStat.COUNT];
      for (int k = 0; k < s.length; k++) {
        s[k] = in.readLong();
      }
      rows.add(new Row(name, unbound, reclaim, s));
    }
    return new WqMonitorSnapshot(t, rows);
  }
}
