package blksim.workload.scenario;

import blksim.kernel.device.DeviceParams;
import blksim.kernel.device.ZramParams;
import blksim.kernel.dm.DmTable;
import blksim.workload.fio.FioJob;
import java.util.List;

/**
 * zram's page mix taken from the buffers a fio job writes, when the job sets
 * {@code buffer_compress_percentage} or {@code zero_buffers}: fio's content mapped onto the page kinds
 * {@link blksim.kernel.device.ZramQueue} costs (same-filled, huge, compressed).
 *
 * <p>fio's fill ({@code fill_io_buffer()} in {@code io_u.c}, {@code fill_random_buf_percentage()}
 * in {@code lib/rand.c}) [S]: the write buffer is cut, from its start, into segments of
 * {@code buffer_compress_chunk} bytes (default 512; at most the smallest write); each segment starts with
 * {@code chunk × (100 − percentage) / 100} random bytes and the rest is zeros (or
 * {@code buffer_pattern}); {@code fixup_options()} turns {@code buffer_compress_percentage=100}
 * into {@code zero_buffers}. Every buffer therefore has the same layout, so each 4 KiB page of a
 * write has a kind fixed by its position in the buffer (the random bytes' values do not change
 * it): no random draw is needed, and the mix is the same for every write of the job.
 *
 * <p>Kinds, per 4 KiB page of one buffer of the job's largest write block size: no random byte →
 * same-filled (zram's {@code page_same_filled()} finds one repeated word; with a
 * {@code buffer_pattern} the page is taken as compressed instead); random bytes plus a small
 * compressor overhead at least zsmalloc's {@code huge_class_size} → huge; otherwise compressed.
 * {@code HUGE_CLASS_SIZE} 3,264 bytes [A]: zsmalloc's first class whose objects take a whole
 * zspage each for 4 KiB pages (ZS_MAX_PAGES_PER_ZSPAGE 4, class step 16), as
 * {@code zs_huge_class_size()} reports on x86-64; random bytes are taken as incompressible and a
 * run of zeros as compressing to nothing, plus {@code OVERHEAD_BYTES} 64 per page [A] (lzo-rle's
 * literal-run headers).
 *
 * <p>Simplified: the mix replaces the device's {@code same-filled-fraction} and
 * {@code huge-fraction} for the whole device (reads included: zram's model keeps one kind per
 * page, and the job's writes are taken to be what the device holds); the page kinds of a write
 * are those of the page indexes as {@link blksim.kernel.device.ZramQueue} hashes them, in the
 * derived proportions, not the page's position in the buffer. Jobs that write one zram device
 * with different mixes are refused. {@code zero_buffers} without a compress percentage gives
 * zeroed buffers ({@link #zeroMix}). Without either, the device's own keys apply unchanged
 * (fio's default buffers are random, which the device's keys stand for).
 */
public final class ZramBufferMix {

  /** zsmalloc's huge class size for 4 KiB pages, [A] (see the class comment). */
  public static final int HUGE_CLASS_SIZE = 3264;
  /** Compressor output per page besides the random bytes, [A]. */
  public static final int OVERHEAD_BYTES = 64;
  private static final int PAGE = 4096;

  private ZramBufferMix() {}

  /**
   * The fractions {same-filled, huge} of the 4 KiB pages of one fio write buffer of
   * {@code bufBytes} bytes filled with {@code percentage} compressible content in segments of
   * {@code chunk} bytes, cut at the smallest write {@code minWrite} as fio's
   * {@code fill_io_buffer()} does ({@code min_not_zero(min_write, compress_chunk)});
   * {@code pattern} whether a {@code buffer_pattern} replaces the zeros.
   */
  public static double[] mix(int percentage, long chunk, long minWrite, long bufBytes,
      boolean pattern) {
    long pages = Math.max(1, (bufBytes + PAGE - 1) / PAGE);
    long seg = Math.max(1, minWrite > 0 && chunk > 0 ? Math.min(chunk, minWrite)
        : Math.max(chunk, minWrite));
    long randomPerSeg = percentage >= 100 ? 0 : seg * (100 - percentage) / 100;
    long same = 0;
    long huge = 0;
    for (long p = 0; p < pages; p++) {
      long from = p * PAGE;
      long to = Math.min(bufBytes, from + PAGE);
      long random = randomIn(from, to, seg, randomPerSeg);
      if (random == 0) {
        same += pattern ? 0 : 1;
      } else if (random + OVERHEAD_BYTES >= HUGE_CLASS_SIZE) {
        huge++;
      }
    }
    return new double[] {(double) same / pages, (double) huge / pages};
  }

  /**
   * The fractions {same-filled, huge} of zeroed write buffers ({@code zero_buffers}): every
   * page same-filled, or, when fio scrambles them ({@code small_content_scramble()}: 24 bytes of
   * offset and time in each 512-byte block, 192 bytes a page), every page compressed (far under
   * {@link #HUGE_CLASS_SIZE}).
   */
  public static double[] zeroMix(boolean scrambled) {
    return scrambled ? new double[] {0, 0} : new double[] {1, 0};
  }

  /** Random bytes in [from, to) when each segment of {@code seg} bytes opens with {@code r}. */
  private static long randomIn(long from, long to, long seg, long r) {
    long n = 0;
    for (long s = from / seg * seg; s < to; s += seg) {
      long a = Math.max(from, s);
      long b = Math.min(to, s + r);
      if (b > a) {
        n += b - a;
      }
    }
    return n;
  }

  /**
   * Replaces, in {@code devices}, each zram device written by a job that sets
   * {@code buffer_compress_percentage} with the same device at the job's mix.
   *
   * @throws blksim.engine.InputException when two jobs write one zram device with different mixes
   */
  static void apply(List<FioJob> jobs, List<DeviceParams> devices) {
    for (int i = 0; i < devices.size(); i++) {
      if (!(devices.get(i) instanceof ZramParams z)) {
        continue;
      }
      double[] chosen = null;
      FioJob first = null;
      for (FioJob j : jobs) {
        if (j.bufferCompressPercentage() < 0 && !j.zeroBuffers() || !j.rw().writes()
            || j.filename() == null || !DmTable.deviceName(j.filename()).equals(z.name())) {
          continue;
        }
        double[] m = j.bufferCompressPercentage() >= 0
            ? mix(j.bufferCompressPercentage(), j.bufferCompressChunk(), j.minBs()[1],
                j.maxWriteBs(), j.bufferPattern())
            : zeroMix(j.scrambledZeros());
        if (chosen != null && (m[0] != chosen[0] || m[1] != chosen[1])) {
          throw j.error(j.bufferCompressPercentage() >= 0 ? "buffer_compress_percentage"
              : "zero_buffers", (j.bufferCompressPercentage() >= 0 ? "buffer_compress_percentage"
              : "zero_buffers") + " gives the writes to " + z.name() + " a different page"
              + " mix than job '" + first.name() + "' gives them (blksim keeps one mix per zram"
              + " device): give the jobs the same buffer options");
        }
        chosen = m;
        first = j;
      }
      if (chosen != null) {
        devices.set(i, z.withMix(chosen[0], chosen[1]));
      }
    }
  }
}
