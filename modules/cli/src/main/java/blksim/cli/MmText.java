package blksim.cli;

import blksim.kernel.mm.BdpStats;
import blksim.kernel.mm.MmReport;
import blksim.report.json.JsonWriter;
import java.util.Locale;

/**
 * The page cache's part of a run's output, when a job wrote through it: the {@code vmstat} object
 * of the JSON ({@code /proc/meminfo}'s Dirty and Writeback in kB and {@code /proc/vmstat}'s
 * {@code nr_dirtied} and {@code nr_written} over time, the thresholds, the flusher and
 * balance_dirty_pages statistics), and a few lines after fio's text.
 */
final class MmText {
  private MmText() {}

  /** Adds {@code "vmstat"} and {@code "writeback"} objects to fio's JSON. */
  static String addToJson(String fioJson, MmReport m) {
    JsonWriter w = new JsonWriter();
    w.beginObject();
    w.name("vmstat").beginObject();
    w.name("dirty_background_thresh_kb").value(m.backgroundThreshPages() * 4);
    w.name("dirty_thresh_kb").value(m.threshPages() * 4);
    w.name("samples").beginArray();
    for (MmReport.Sample s : m.samples()) {
      sample(w, s);
    }
    w.endArray();
    w.name("end");
    sample(w, m.end());
    w.endObject();
    w.name("writeback").beginObject();
    w.name("flushers").beginArray();
    for (MmReport.Wb b : m.wbs()) {
      w.beginObject();
      w.name("bdi").value(b.name());
      w.name("works").value(b.works());
      w.name("inodes").value(b.inodes());
      w.name("pages").value(b.pages());
      w.name("bios").value(b.bios());
      w.name("resched_between_inodes").value(b.reschedBetweenInodes());
      w.name("flush_before_resched").value(b.flushBeforeResched());
      w.name("request_sleeps").value(b.tagSleeps());
      w.name("write_bandwidth_kbps").value(b.writeBandwidth() * 4);
      w.name("dirty_ratelimit_kbps").value(b.dirtyRatelimit() * 4);
      w.endObject();
    }
    w.endArray();
    w.name("balance_dirty_pages").beginObject();
    w.name("iterations").value(m.bdpIterations());
    w.name("freerun").value(m.bdpFreerun());
    w.name("sleeps").value(m.bdpSleeps());
    w.name("pause_ns").value(m.bdpPauseNs());
    w.name("max_pause_ns").value(m.bdpMaxPauseNs());
    w.name("pause_ms_histogram").beginArray();
    long[] b = m.bdpPauseBuckets();
    for (int i = 0; i < b.length; i++) {
      w.beginObject();
      w.name("bucket").value(bucketLabel(i, b.length));
      w.name("sleeps").value(b[i]);
      w.endObject();
    }
    w.endArray();
    w.endObject();
    w.name("reclaimed_pages").value(m.reclaimedPages());
    w.name("pgpgin").value(m.pgpgin());
    w.name("readahead_pages").value(m.readaheadPages());
    w.endObject();
    w.endObject();
    return WqReport.splice(fioJson, w.toString());
  }

  private static void sample(JsonWriter w, MmReport.Sample s) {
    w.beginObject();
    w.name("time_ns").value(s.timeNs());
    w.name("Dirty").value(s.dirty() * 4);
    w.name("Writeback").value(s.writeback() * 4);
    w.name("nr_dirtied").value(s.nrDirtied());
    w.name("nr_written").value(s.nrWritten());
    w.name("file_pages").value(s.filePages());
    w.endObject();
  }

  /** The label of pause bucket {@code i} of {@link BdpStats}: "<1", "1-2", ..., "256+". */
  static String bucketLabel(int i, int n) {
    if (i == 0) {
      return "<1";
    }
    long lo = 1L << (i - 1);
    return i == n - 1 ? lo + "+" : lo + "-" + (lo * 2);
  }

  /** A few lines after fio's text. */
  static String text(MmReport m) {
    StringBuilder sb = new StringBuilder();
    sb.append("\nPage cache and writeback (blksim; kB as /proc/meminfo):\n");
    sb.append(String.format(Locale.ROOT,
        "  thresholds: background=%d kB, dirty=%d kB; at the end: Dirty=%d kB, Writeback=%d kB,"
            + " nr_dirtied=%d, nr_written=%d%n", m.backgroundThreshPages() * 4,
        m.threshPages() * 4, m.end().dirty() * 4, m.end().writeback() * 4, m.end().nrDirtied(),
        m.end().nrWritten()));
    for (MmReport.Wb b : m.wbs()) {
      sb.append(String.format(Locale.ROOT,
          "  flusher %s: works=%d inodes=%d pages=%d bios=%d resched-between-inodes=%d"
              + " flush-before-resched=%d request-sleeps=%d%n", b.name(), b.works(), b.inodes(),
          b.pages(), b.bios(), b.reschedBetweenInodes(), b.flushBeforeResched(), b.tagSleeps()));
    }
    double avgMs = m.bdpSleeps() == 0 ? 0 : m.bdpPauseNs() / 1e6 / m.bdpSleeps();
    sb.append(String.format(Locale.ROOT,
        "  balance_dirty_pages: %d checks, %d in freerun, %d pauses (avg %.2f ms, max %.2f ms)%n",
        m.bdpIterations(), m.bdpFreerun(), m.bdpSleeps(), avgMs, m.bdpMaxPauseNs() / 1e6));
    return sb.toString();
  }
}
