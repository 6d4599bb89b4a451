package blksim.kernel.mm;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The page cache's results of a run, as {@link MmComponent} reports them: the dirty thresholds,
 * the samples of {@code /proc/meminfo} and {@code /proc/vmstat} (pages), the final state, each
 * wb's flusher statistics, the balance_dirty_pages statistics ({@link BdpStats}), and the read
 * side: {@code pgpgin} (KiB read from disk into the page cache, as /proc/vmstat counts it) and the
 * pages readahead added ({@link PageCache#readaheadPages}).
 */
public record MmReport(long backgroundThreshPages, long threshPages, List<Sample> samples,
    Sample end, List<Wb> wbs, long bdpIterations, long bdpFreerun, long bdpSleeps,
    long bdpPauseNs, long bdpMaxPauseNs, long[] bdpPauseBuckets, long reclaimedPages,
    long pgpgin, long readaheadPages) {

  /** One sample, in pages (Dirty and Writeback as /proc/meminfo shows them, in kB = x4). */
  public record Sample(long timeNs, long dirty, long writeback, long nrDirtied, long nrWritten,
      long filePages) {}

  /** One wb's flusher statistics ({@link FlusherStats}) and final estimates (pages/s). */
  public record Wb(String name, long works, long inodes, long pages, long bios,
      long reschedBetweenInodes, long flushBeforeResched, long tagSleeps, long writeBandwidth,
      long dirtyRatelimit) {}

  /** The encoded report. */
  public byte[] encode() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeLong(backgroundThreshPages);
      out.writeLong(threshPages);
      out.writeInt(samples.size());
      for (Sample s : samples) {
        write(out, s);
      }
      write(out, end);
      out.writeInt(wbs.size());
      for (Wb w : wbs) {
        out.writeUTF(w.name());
        for (long v : new long[] {w.works(), w.inodes(), w.pages(), w.bios(),
            w.reschedBetweenInodes(), w.flushBeforeResched(), w.tagSleeps(), w.writeBandwidth(),
            w.dirtyRatelimit()}) {
          out.writeLong(v);
        }
      }
      for (long v : new long[] {bdpIterations, bdpFreerun, bdpSleeps, bdpPauseNs,
          bdpMaxPauseNs, reclaimedPages, pgpgin, readaheadPages}) {
        out.writeLong(v);
      }
      out.writeInt(bdpPauseBuckets.length);
      for (long v : bdpPauseBuckets) {
        out.writeLong(v);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  private static void write(DataOutputStream out, Sample s) throws IOException {
    out.writeLong(s.timeNs());
    out.writeLong(s.dirty());
    out.writeLong(s.writeback());
    out.writeLong(s.nrDirtied());
    out.writeLong(s.nrWritten());
    out.writeLong(s.filePages());
  }

  private static Sample readSample(DataInputStream in) throws IOException {
    return new Sample(in.readLong(), in.readLong(), in.readLong(), in.readLong(), in.readLong(),
        in.readLong());
  }

  /** Decodes {@link #encode()}'s bytes. */
  public static MmReport decode(byte[] payload) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload))) {
      long bg = in.readLong();
      long th = in.readLong();
      int n = in.readInt();
      List<Sample> samples = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        samples.add(readSample(in));
      }
      Sample end = readSample(in);
      int nw = in.readInt();
      List<Wb> wbs = new ArrayList<>(nw);
      for (int i = 0; i < nw; i++) {
        String name = in.readUTF();
        long[] v = new long[9];
        for (int k = 0; k < v.length; k++) {
          v[k] = in.readLong();
        }
        wbs.add(new Wb(name, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]));
      }
      long[] b = new long[8];
      for (int k = 0; k < b.length; k++) {
        b[k] = in.readLong();
      }
      long[] buckets = new long[in.readInt()];
      for (int k = 0; k < buckets.length; k++) {
        buckets[k] = in.readLong();
      }
      return new MmReport(bg, th, samples, end, wbs, b[0], b[1], b[2], b[3], b[4], buckets, b[5],
          b[6], b[7]);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
