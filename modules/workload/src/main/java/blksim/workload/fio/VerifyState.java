package blksim.workload.fio;

import blksim.engine.InputException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * fio's {@code verify_state_load}: how many of its reads a read-only verify job checks, from the
 * verify state an earlier write job saved ({@code verify_state_save}, on by default).
 *
 * <p>fio ({@code verify.c}, {@code backend.c}, axboe/fio f5344384): a writing job with
 * {@code verify} and {@code verify_state_save} writes, when it exits, the file
 * {@code local-<jobname>-<thread index>-verify.state} in the working directory: a
 * {@code struct verify_state_hdr} (version 7, size, {@code fio_crc32c()} of the list) then a
 * {@code struct thread_io_list}: its {@code depth}, {@code numberio} (the writes it issued,
 * {@code td->inflight_issued}) and the {@code numberio} of each write still in flight. A job with
 * {@code verify_state_load=1} loads the file of its own name and thread index before it starts
 * ({@code fio_verify_load_state()}); its reads are numbered from 0 (across loops) and
 * {@code verify_state_should_stop()} ends the job at the first read whose number is at or beyond
 * the saved {@code numberio} or was a write in flight. So the job issues
 * {@code min(numberio, the smallest in-flight number below it)} reads and stops.
 *
 * <p>blksim reads such a file when it is there (one written by fio, or by hand in fio's format),
 * and bounds the job's I/Os by it. When it is not there fio fails the job ("fio: open state file:
 * No such file or directory"); blksim, which takes the files a job names as left by an earlier
 * run, takes the state that earlier run would have left had it completed (every write issued and
 * none in flight): the job verifies its whole read pattern, as without the option, and a warning
 * on stderr says so. Simplified: the failed writes a state file lists after the in-flight ones
 * (skipped by fio's {@code verify_state_should_skip()}) are read and checked like the others
 * (blksim never fails a write, so its own runs have none); a state file only bounds a job that
 * only reads (a writing job with {@code verify_only} replaying an earlier run is refused).
 */
final class VerifyState {
  private static final Logger LOG = LoggerFactory.getLogger(VerifyState.class);

  /** {@code VSTATE_HDR_VERSION} ({@code verify-state.h}). */
  static final long VERSION = 7;
  /** {@code sizeof(struct thread_io_list)} on x86-64: depth, pad, numberio, index, rand, name. */
  static final int LIST_BYTES = 144;

  /** The missing state files already warned about (a message only; no model state). */
  private static final java.util.Set<String> WARNED =
      java.util.concurrent.ConcurrentHashMap.newKeySet();

  private VerifyState() {
  }

  /** fio's {@code verify_state_gen_name()} for a local run: '/' in the name becomes '.'. */
  static String fileName(String jobName, int threadIndex) {
    return "local-" + jobName.replace('/', '.') + "-" + threadIndex + "-verify.state";
  }

  /**
   * The number of reads job {@code jobName} (thread {@code threadIndex} of its job file, from 0)
   * verifies before it stops, from its state file in {@code dir}; -1 when there is no file (fio's
   * default of a completed earlier run is assumed and said on stderr).
   *
   * @param iodepth the loading job's {@code iodepth} (how many saved in-flight entries it reads)
   */
  static long readsToVerify(Path dir, String jobName, int threadIndex, int iodepth,
      FioJobFile.Origin at) {
    Path p = dir.resolve(fileName(jobName, threadIndex));
    if (!Files.isRegularFile(p)) {
      if (!WARNED.add(at.file() + ":" + at.line() + ":" + p)) {
        return -1; // a job file is parsed more than once (checks, then the run): said once
      }
      LOG.warn("{}:{}: verify_state_load: no verify state file {} (fio would fail the job);"
          + " blksim assumes the write job that saves it completed, so job '{}' verifies its"
          + " whole read pattern", at.file(), at.line(), p.getFileName(), jobName);
      return -1;
    }
    byte[] b;
    try {
      b = Files.readAllBytes(p);
    } catch (IOException e) {
      throw new InputException(at.file(), at.line(), at.key(), "cannot read the verify state file "
          + p + ": " + e.getMessage());
    }
    ByteBuffer buf = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    if (b.length < 24 + LIST_BYTES || buf.getLong(0) != VERSION) {
      throw bad(at, p, "not a version " + VERSION + " fio verify state file");
    }
    long size = buf.getLong(8);
    if (size < LIST_BYTES || size != b.length - 24) {
      throw bad(at, p, "its header says " + size + " bytes of state, the file holds "
          + (b.length - 24));
    }
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(b, 24, (int) size);
    // fio_crc32c() starts from ~0 and does not invert at the end: the standard CRC-32C inverted.
    long fioCrc = ~crc.getValue() & 0xffffffffL;
    if (buf.getLong(16) != fioCrc) {
      throw bad(at, p, "its crc32c does not match (fio: verify state is corrupt)");
    }
    ByteBuffer s = buf.slice(24, (int) size).order(ByteOrder.LITTLE_ENDIAN);
    long depth = Integer.toUnsignedLong(s.getInt(0));
    if (LIST_BYTES + 8 * depth != size) {
      throw bad(at, p, "depth " + depth + " does not match its size " + size);
    }
    long numberio = s.getLong(8);
    long stop = numberio;
    long inflight = Math.min(depth, iodepth);
    for (int i = 0; i < inflight; i++) {
      long n = s.getLong(LIST_BYTES + 8 * i);
      if (Long.compareUnsigned(n, stop) < 0) {
        stop = n; // INVALID_NUMBERIO (all ones) is never below
      }
    }
    if (depth > iodepth) {
      LOG.warn("{}:{}: verify_state_load: {} lists failed writes, which fio skips; blksim reads"
          + " and checks them like the others", at.file(), at.line(), p.getFileName());
    }
    LOG.info("{}:{}: verify_state_load: {}: {} writes saved, job {} verifies {} reads",
        at.file(), at.line(), p.getFileName(), Long.toUnsignedString(numberio), jobName,
        Long.toUnsignedString(stop));
    return stop < 0 ? Long.MAX_VALUE : stop;
  }

  private static InputException bad(FioJobFile.Origin at, Path p, String why) {
    return new InputException(at.file(), at.line(), at.key(), "verify state file " + p + ": "
        + why);
  }
}
