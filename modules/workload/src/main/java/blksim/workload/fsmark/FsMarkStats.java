package blksim.workload.fsmark;

import java.util.List;
import java.util.Objects;

/**
 * fs_mark's {@code fs_mark_stat_t}: what one process reports for an iteration (the line it writes to
 * its log file in {@code do_run()}), or the sum over processes that the parent prints
 * ({@code aggregate_thread_stats()}), fs_mark 3.3.
 *
 * @param fileCount files created ({@code file_count})
 * @param filesPerSec files over the loop time ({@code files_per_sec}, a C {@code float}); a
 *     process's value has passed through its log file's {@code "%.1f"} and {@code fscanf("%f")}
 * @param appOverheadUsec loop time not spent in creat/write/fsync/sync/close, microseconds
 * @param creat {@code open(O_CREAT)} times
 * @param write {@code write()} times (the average is the mean over files of each file's mean)
 * @param fsync {@code fsync()} times (post-loop passes count open+fsync+close as one)
 * @param sync {@code sync()} times (a process reports only its one call, as the average)
 * @param close {@code close()} times
 * @param unlink {@code unlink()} times
 */
public record FsMarkStats(
    long fileCount,
    float filesPerSec,
    long appOverheadUsec,
    SyscallTimes creat,
    SyscallTimes write,
    SyscallTimes fsync,
    SyscallTimes sync,
    SyscallTimes close,
    SyscallTimes unlink) {

  /**
   * Minimum, average and maximum time of one system call, microseconds (0 when not called).
   *
   * @param minUsec the smallest
   * @param avgUsec the average
   * @param maxUsec the largest
   */
  public record SyscallTimes(long minUsec, long avgUsec, long maxUsec) {
    /** No calls. */
    public static final SyscallTimes NONE = new SyscallTimes(0, 0, 0);

    /** Checks the values are not negative. */
    public SyscallTimes {
      if (minUsec < 0 || avgUsec < 0 || maxUsec < 0) {
        throw new IllegalArgumentException("times must be >= 0, were min=" + minUsec + " avg="
            + avgUsec + " max=" + maxUsec);
      }
    }
  }

  /** Checks the counts are not negative. */
  public FsMarkStats {
    Objects.requireNonNull(creat, "creat");
    Objects.requireNonNull(write, "write");
    Objects.requireNonNull(fsync, "fsync");
    Objects.requireNonNull(sync, "sync");
    Objects.requireNonNull(close, "close");
    Objects.requireNonNull(unlink, "unlink");
    if (fileCount < 0) {
      throw new IllegalArgumentException("fileCount must be >= 0, was " + fileCount);
    }
    if (appOverheadUsec < 0) {
      throw new IllegalArgumentException("appOverheadUsec must be >= 0, was " + appOverheadUsec);
    }
  }

  /**
   * The parent's sum over its processes, in process order ({@code aggregate_thread_stats()}):
   * file counts, files/s (in {@code float} arithmetic) and app overheads add up; per system call
   * the minimum of the minimums (a 0 minimum is "not set" and is replaced), the maximum of the
   * maximums, and the integer mean of the averages when there is more than one process. Like fs_mark,
   * the sync minimum and maximum stay 0 (a process reports only its one call).
   */
  public static FsMarkStats aggregate(List<FsMarkStats> processes) {
    if (processes.isEmpty()) {
      throw new IllegalArgumentException("processes must not be empty");
    }
    long count = 0;
    float fps = 0f;
    long app = 0;
    long[][] t = new long[6][3];
    for (FsMarkStats p : processes) {
      count += p.fileCount;
      fps += p.filesPerSec;
      app += p.appOverheadUsec;
      SyscallTimes[] per = {p.creat, p.write, p.fsync, null, p.close, p.unlink};
      for (int k = 0; k < per.length; k++) {
        if (per[k] == null) {
          continue;
        }
        t[k][1] += per[k].avgUsec();
        if (t[k][0] == 0 || per[k].minUsec() < t[k][0]) {
          t[k][0] = per[k].minUsec();
        }
        if (per[k].maxUsec() > t[k][2]) {
          t[k][2] = per[k].maxUsec();
        }
      }
      // fs_mark reads no sync min/max from the log, so only the average is summed.
      t[3][1] += p.sync.avgUsec();
    }
    int n = processes.size();
    if (n > 1) {
      for (long[] row : t) {
        row[1] /= n;
      }
    }
    return new FsMarkStats(count, fps, app, times(t[0]), times(t[1]), times(t[2]), times(t[3]),
        times(t[4]), times(t[5]));
  }

  private static SyscallTimes times(long[] row) {
    return new SyscallTimes(row[0], row[1], row[2]);
  }
}
