package blksim.workload.fsmark;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Objects;

/**
 * The timers of one fs_mark process in one iteration: mirrors the locals of {@code do_run()} and
 * {@code write_file()} (fs_mark 3.3) that {@code start()}/{@code stop()} of {@code lib_timing.c}
 * fill, and the log line built from them.
 *
 * <p>The caller reports each {@link FsMarkOp} it carried out with the simulated
 * {@code gettimeofday} (microseconds) just before and just after it; a marker has both equal. A
 * step's time is the difference, or 0 if the clock ran backwards ({@code tvsub()}). The loop time
 * runs from {@link FsMarkOp.Kind#LOOP_START} to {@link FsMarkOp.Kind#LOOP_END}; app overhead is the
 * loop time less creat, write, fsync, sync and close; files/s is {@code num_files / (loop_usecs /
 * 1e6)} stored in a {@code float} and then rounded through the log file's {@code "%.1f"}. Not
 * thread-safe; one instance per process and iteration.
 */
public final class FsMarkProcessStats {
  private final int numFiles;
  private final boolean firstFileOnly;

  private final long[] creat = new long[3];
  private final long[] write = new long[3];
  private final long[] fsync = new long[3];
  private final long[] close = new long[3];
  private final long[] unlink = new long[3];
  private long totalWriteUsec;
  private long fileWriteUsec;
  private long fileWriteCalls;
  private long syncUsec;
  private long reopenStartUsec;
  private long loopStartUsec = -1;
  private long loopUsec = -1;

  /** Timers for a process of {@code options}. */
  public FsMarkProcessStats(FsMarkOptions options) {
    Objects.requireNonNull(options, "options");
    this.numFiles = options.filesPerIteration();
    this.firstFileOnly = options.syncMethod().firstFile();
  }

  /**
   * Records one step.
   *
   * @param op the step
   * @param startUsec the clock before it, microseconds
   * @param endUsec the clock after it, microseconds
   */
  public void record(FsMarkOp op, long startUsec, long endUsec) {
    long d = Math.max(0, endUsec - startUsec);
    switch (op.kind()) {
      case LOOP_START -> loopStartUsec = endUsec;
      case LOOP_END -> {
        if (loopStartUsec < 0) {
          throw new IllegalStateException("fs_mark process: LOOP_END before LOOP_START");
        }
        loopUsec = Math.max(0, endUsec - loopStartUsec);
      }
      case CREATE -> add(creat, d);
      case WRITE -> {
        fileWriteUsec += d;
        fileWriteCalls++;
        minMax(write, d);
      }
      case FSYNC -> add(fsync, d);
      case CLOSE -> {
        endFileWrites();
        add(close, d);
      }
      case SYNC -> syncUsec = d;
      case REOPEN -> reopenStartUsec = startUsec;
      case REOPEN_FSYNC -> {
        // timed together with its open and close
      }
      case REOPEN_CLOSE -> {
        long all = Math.max(0, endUsec - reopenStartUsec);
        if (firstFileOnly) {
          fsync[1] += all; // fs_mark adds the -S 2 fsync to the sum only, not to min/max
        } else {
          add(fsync, all);
        }
      }
      case UNLINK -> add(unlink, d);
      case SETUP_MKDIR, STATFS, MKDIR -> {
        // app overhead: inside the loop time, outside the measured calls
      }
      default -> throw new IllegalStateException("unknown step " + op.kind());
    }
  }

  /** write_file(): adds this file's mean write time to the sum of means. */
  private void endFileWrites() {
    if (fileWriteCalls > 0) {
      write[1] += fileWriteUsec / fileWriteCalls;
      totalWriteUsec += fileWriteUsec;
    }
    fileWriteUsec = 0;
    fileWriteCalls = 0;
  }

  /** [min, sum, max] with fs_mark's "0 means unset" minimum. */
  private static void add(long[] t, long d) {
    t[1] += d;
    minMax(t, d);
  }

  private static void minMax(long[] t, long d) {
    if (d > t[2]) {
      t[2] = d;
    }
    if (t[0] == 0 || d < t[0]) {
      t[0] = d;
    }
  }

  /** The loop time in microseconds, once {@link FsMarkOp.Kind#LOOP_END} was recorded. */
  public long loopUsec() {
    if (loopUsec < 0) {
      throw new IllegalStateException("fs_mark process: the loop has not ended");
    }
    return loopUsec;
  }

  /** The process's line of its log file, as the parent reads it back. */
  public FsMarkStats toStats() {
    long loop = loopUsec();
    long fileOps = creat[1] + totalWriteUsec + fsync[1] + syncUsec + close[1];
    if (fileOps > loop) {
      throw new IllegalStateException("fs_mark process: measured calls (" + fileOps
          + " us) exceed the loop time (" + loop + " us)");
    }
    float fps = (float) (numFiles / (loop / 1_000_000.0));
    return new FsMarkStats(numFiles, throughLogFile(fps), loop - fileOps,
        avg(creat, creat[1]), avg(write, write[1]), avg(fsync, fsync[1]),
        new FsMarkStats.SyscallTimes(0, syncUsec, 0), avg(close, close[1]),
        avg(unlink, unlink[1]));
  }

  private FsMarkStats.SyscallTimes avg(long[] t, long sum) {
    return new FsMarkStats.SyscallTimes(t[0], sum / numFiles, t[2]);
  }

  /**
   * A float written with {@code "%.1f"} (the exact binary value rounded half to even, as glibc
   * does) and read back with {@code "%f"}.
   */
  static float throughLogFile(float v) {
    if (!Float.isFinite(v)) {
      return v;
    }
    return Float.parseFloat(
        new BigDecimal((double) v).setScale(1, RoundingMode.HALF_EVEN).toPlainString());
  }
}
