package blksim.workload.replay;

import blksim.workload.trace.TraceFormat;
import java.util.List;

/**
 * The replay options of one fio job ({@code read_iolog=} and fio's {@code replay_*} options, plus
 * blksim's extensions), typed and checked when the job file is read.
 *
 * <p>fio's options ({@code options.c}, {@code iolog.c}):
 * <ul>
 *   <li>{@code read_iolog=A:B:...}: the trace files; clone {@code k} of {@code numjobs} replays
 *       file {@code k mod n} (fio's {@code get_name_by_idx(read_iolog_file, subjob_number)});
 *   <li>{@code replay_no_stall}: no delays, order kept ({@code delay_since_ttime()} returns 0 and
 *       v2 {@code wait} records are dropped);
 *   <li>{@code replay_time_scale=P}: every delay is multiplied by {@code 100 / P} (a percentage,
 *       default 100: P=200 replays twice as fast);
 *   <li>{@code replay_redirect=DEV}: every record goes to DEV whatever its device;
 *   <li>{@code replay_align=N}: offsets are rounded down to a multiple of N, a power of two
 *       ({@code ipo_bytes_align()}: {@code offset &= ~(N - 1)}; lengths are not touched);
 *   <li>{@code replay_scale=N}: offsets are divided by N (lengths are not);
 *   <li>{@code replay_skip=read,write,trim,sync}: records of these kinds are dropped as they are
 *       read.
 * </ul>
 * blksim's extensions (not fio options): {@code read_iolog_format=KEY} names the format
 * ({@link TraceFormat#key()}) instead of detecting it from the content, and
 * {@code replay_start=T} / {@code replay_end=T} replay only the records whose trace time,
 * counted from the trace's first record, is in {@code [T_start, T_end)}.
 *
 * @param logs the trace files, resolved, in the order given (at least one)
 * @param format the format of every file, or {@code null} to detect each from its content
 * @param noStall {@code replay_no_stall}
 * @param timeScale {@code replay_time_scale} in percent (at least 1)
 * @param redirect {@code replay_redirect}, or {@code null}
 * @param align {@code replay_align} in bytes, 0 for none (else a power of two)
 * @param scale {@code replay_scale}, 0 or 1 for none
 * @param skipMask the kinds {@code replay_skip} drops: {@link #SKIP_READ} | ...
 * @param startNs {@code replay_start} in ns of trace time, 0 for the beginning
 * @param endNs {@code replay_end} in ns of trace time, {@link Long#MAX_VALUE} for the end
 * @param devices blksim's {@code replay_device}: the trace devices whose records this job
 *     replays (others are left to other jobs and do not count in its delays); empty for all
 * @param knownDevices blksim's {@code replay_known_devices}: every trace device some job
 *     replays; a record of any other device stops the run (exit 2). Empty: no check. The
 *     scenario's {@code replay} section sets both, one job per mapped device
 * @param merge fio's {@code merge_blktrace_file} and its lists, or {@code null}: the inputs are
 *     merged into that file when the replay starts and {@code logs} holds the merged file alone
 * @param skipMalformed blksim's {@code replay_skip_malformed}: skip and count malformed records
 *     of the line formats instead of stopping the run
 */
public record ReplayOptions(List<String> logs, TraceFormat format, boolean noStall, int timeScale,
    String redirect, long align, long scale, int skipMask, long startNs, long endNs,
    List<String> devices, List<String> knownDevices, Merge merge, boolean skipMalformed) {

  /**
   * fio's {@code merge_blktrace_file=F} with {@code merge_blktrace_scalars} and
   * {@code merge_blktrace_iters} ({@link blksim.workload.trace.BlktraceMerge}).
   *
   * @param file the merged file, written when the replay starts
   * @param inputs the blktrace binaries of {@code read_iolog}, resolved
   * @param scalars per input, percent
   * @param iters per input, iterations
   */
  public record Merge(String file, List<String> inputs, List<Integer> scalars,
      List<Integer> iters) {
    /** Copies the lists; they have one entry per input. */
    public Merge {
      inputs = List.copyOf(inputs);
      scalars = List.copyOf(scalars);
      iters = List.copyOf(iters);
      if (scalars.size() != inputs.size() || iters.size() != inputs.size()) {
        throw new IllegalArgumentException("one scalar and one iteration count per input");
      }
    }
  }

  /** Options without a merge. */
  public ReplayOptions(List<String> logs, TraceFormat format, boolean noStall, int timeScale,
      String redirect, long align, long scale, int skipMask, long startNs, long endNs,
      List<String> devices, List<String> knownDevices) {
    this(logs, format, noStall, timeScale, redirect, align, scale, skipMask, startNs, endNs,
        devices, knownDevices, null, false);
  }

  /** Options replaying every device's records (fio's own options only). */
  public ReplayOptions(List<String> logs, TraceFormat format, boolean noStall, int timeScale,
      String redirect, long align, long scale, int skipMask, long startNs, long endNs) {
    this(logs, format, noStall, timeScale, redirect, align, scale, skipMask, startNs, endNs,
        List.of(), List.of());
  }

  /** {@code replay_skip=read}. */
  public static final int SKIP_READ = 1;
  /** {@code replay_skip=write}. */
  public static final int SKIP_WRITE = 2;
  /** {@code replay_skip=trim}. */
  public static final int SKIP_TRIM = 4;
  /** {@code replay_skip=sync}. */
  public static final int SKIP_SYNC = 8;

  /** Copies the list and checks the ranges above. */
  public ReplayOptions {
    logs = List.copyOf(logs);
    devices = List.copyOf(devices);
    knownDevices = List.copyOf(knownDevices);
    if (logs.isEmpty()) {
      throw new IllegalArgumentException("read_iolog needs at least one file");
    }
    if (timeScale < 1) {
      throw new IllegalArgumentException("timeScale must be >= 1, was " + timeScale);
    }
    if (align < 0 || (align & (align - 1)) != 0) {
      throw new IllegalArgumentException("align must be 0 or a power of two, was " + align);
    }
    if (scale < 0 || startNs < 0 || endNs <= startNs) {
      throw new IllegalArgumentException("bad scale or window");
    }
  }

  /** The trace file clone {@code jobIndex} replays: fio's {@code get_name_by_idx()}. */
  public String logFor(int jobIndex) {
    return logs.get(jobIndex % logs.size());
  }

  /** The {@code replay_skip} mask of a comma-separated list, or -1 naming no known kind. */
  public static int skipMask(String list) {
    int m = 0;
    for (String s : list.split(",", -1)) {
      switch (s.trim()) {
        case "read" -> m |= SKIP_READ;
        case "write" -> m |= SKIP_WRITE;
        case "trim" -> m |= SKIP_TRIM;
        case "sync" -> m |= SKIP_SYNC;
        default -> {
          return -1;
        }
      }
    }
    return m;
  }
}
