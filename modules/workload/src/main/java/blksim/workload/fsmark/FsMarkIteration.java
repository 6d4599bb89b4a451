package blksim.workload.fsmark;

import java.util.List;
import java.util.Objects;

/**
 * One line of fs_mark's table: {@code print_iteration_stats()} of fs_mark 3.3.
 *
 * @param fsUsePercent FSUse%: how full the first {@code -d} directory's filesystem is after the
 *     iteration ({@code get_df_full()})
 * @param count Count: files written since the start of the run ({@code files_written}), all
 *     processes
 * @param sizeBytes Size: the file size {@code -s}
 * @param stats the sum over processes; Files/sec is {@link FsMarkStats#filesPerSec()}, App Overhead
 *     {@link FsMarkStats#appOverheadUsec()}
 */
public record FsMarkIteration(int fsUsePercent, long count, long sizeBytes, FsMarkStats stats) {

  /** Checks the ranges. */
  public FsMarkIteration {
    Objects.requireNonNull(stats, "stats");
    if (fsUsePercent < 0 || fsUsePercent > 100) {
      throw new IllegalArgumentException("fsUsePercent must be in [0, 100], was " + fsUsePercent);
    }
    if (count < 0 || sizeBytes < 0) {
      throw new IllegalArgumentException(
          "count and sizeBytes must be >= 0, were " + count + ", " + sizeBytes);
    }
  }

  /**
   * The line after an iteration, as {@code main()} builds it: the processes' stats summed, the
   * count carried on from the previous line.
   *
   * @param previous the previous iteration's line, or {@code null} for the first
   * @param processes each process's stats, in process order
   * @param fsUsePercent see {@link #dfFullPercent(long, long)}
   * @param options the command line
   */
  public static FsMarkIteration after(FsMarkIteration previous, List<FsMarkStats> processes,
      int fsUsePercent, FsMarkOptions options) {
    FsMarkStats sum = FsMarkStats.aggregate(processes);
    long before = previous == null ? 0 : previous.count;
    return new FsMarkIteration(fsUsePercent, before + sum.fileCount(), options.fileSizeBytes(), sum);
  }

  /**
   * {@code get_df_full()}: {@code (int)(100 * ((float)(f_blocks - f_bavail) / f_blocks))} in C
   * {@code float} arithmetic, truncated.
   *
   * @param totalBlocks {@code f_blocks}
   * @param availableBlocks {@code f_bavail}
   */
  public static int dfFullPercent(long totalBlocks, long availableBlocks) {
    if (totalBlocks <= 0 || availableBlocks < 0 || availableBlocks > totalBlocks) {
      throw new IllegalArgumentException("need 0 <= availableBlocks <= totalBlocks, 0 < totalBlocks;"
          + " were " + availableBlocks + ", " + totalBlocks);
    }
    float used = (float) (totalBlocks - availableBlocks);
    float fraction = used / (float) totalBlocks;
    return (int) (100 * fraction);
  }
}
