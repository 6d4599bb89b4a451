package blksim.workload.fio.thread;

import blksim.engine.Seeds;
import blksim.workload.fio.FioJob;
import blksim.workload.fio.FioRw;
import blksim.workload.fio.IoPattern;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The files of a fio job in a {@code directory=} (fio's {@code td->files}): their paths, their
 * sizes, each file's own access pattern, which are open and done, and the order in which the job
 * services them. Follows fio 3.42's {@code init.c} ({@code add_job()}, {@code make_filename()}),
 * {@code filesetup.c} ({@code setup_files()}, {@code get_rand_file_size()}) and {@code io_u.c}
 * ({@code __get_next_file()}, {@code get_next_file_rr()}, {@code get_next_file_rand()},
 * {@code set_io_u_file()}):
 * <ul>
 *   <li>names: {@link FioJob#fileName} for files {@code 0 .. nrfiles-1}, in the job's directory;
 *   <li>sizes: without {@code filesize}, each file gets {@code size / nrfiles} and the remainder
 *       goes, one minimum block size each, to the first files; with {@code filesize} each file
 *       has that size, or for a range a size drawn uniformly in it and rounded down to the
 *       minimum block size ({@code rw_min_bs}). A file's I/O region is its size less the job's
 *       start offset ({@code offset} plus {@code offset_increment} per clone). The job's I/O
 *       budget is {@code size}, cut to the sum of the regions, or that sum without
 *       {@code size};
 *   <li>each file has its own {@link IoPattern} (its own sequential position and random map, as
 *       fio keeps {@code last_pos} and the map per file); the patterns share the job's stream;
 *   <li>service: {@code roundrobin} takes the next file in order, {@code random} draws one
 *       uniformly, each after {@code N} I/Os to the current one ({@code file_service_type=T:N},
 *       default 1); {@code sequential} stays on a file until it is done. A file that is done is
 *       skipped; one that is not open is taken only while fewer than {@code openfiles} are open
 *       (fio's EBUSY and retry, which costs no time in the model);
 *   <li>a file is done when its region was covered (its bytes issued) or, for sequential I/O,
 *       when its next I/O has no room left in the file ({@link IoPattern#passEnded()}, fio's
 *       {@code fill_io_u()} failing, as with {@code rw=read:N} holes): always for sequential
 *       I/O, for random I/O when it goes through the random map or the lfsr (fio's
 *       {@code get_next_block()} failing); never with {@code time_based} (fio wraps), nor for
 *       random I/O without a map ({@code norandommap}, non-uniform distributions), which ends
 *       only with the job's budget. When every file is done the job's loop is over
 *       ({@link #reset} starts the next one).
 * </ul>
 * File sizes are drawn from a stream of their own ({@code file_size_state}) and the random
 * service from another ({@code next_file_state}), both derived from the job's seed. Simplified:
 * {@code zipf}, {@code pareto} and {@code normal} file service are refused when the job is
 * loaded. Owned by one job thread.
 */
public final class FioFileSet {
  private final String[] paths;
  private final long[] ioBytes;
  private final long startOffset;
  private final long budgetBytes;
  private final IoPattern[] patterns;
  private final long[] issued;
  private final boolean[] open;
  private final boolean[] done;
  private final boolean endsAtSize;
  private final boolean random;
  private final boolean sequential;
  private final int serviceNr;
  private final int openLimit;
  private final SplittableRandom serviceRandom;
  private int openCount;
  private int doneCount;
  private int nextFile;
  private int current = -1;
  private int left;

  /**
   * @param job the job ({@code directory=}, no {@code filename=})
   * @param jobSeed the job's seed ({@code randseed}, or the run's)
   * @param patternRandom the job's stream, which the files' access patterns draw from
   */
  public FioFileSet(FioJob job, long jobSeed, int globalJobNumber,
      SplittableRandom patternRandom) {
    // filename=a:b:c names the files (fio ignores nrfiles then); else nrfiles in directory=.
    int n = job.filename() != null ? job.filenames().size() : job.nrFiles();
    String base = "fio/" + job.name() + "/" + globalJobNumber;
    SplittableRandom sizeRandom = new SplittableRandom(Seeds.forComponent(jobSeed,
        base + "/file_size"));
    this.serviceRandom = new SplittableRandom(Seeds.forComponent(jobSeed,
        base + "/next_file"));
    paths = new String[n];
    ioBytes = new long[n];
    patterns = new IoPattern[n];
    issued = new long[n];
    open = new boolean[n];
    done = new boolean[n];
    startOffset = job.offsetBytes() + job.jobIndex() * job.offsetIncrementBytes();
    long minBs = minBs(job);
    long share = 0;
    long extra = 0;
    if (job.fileSizeLow() == 0) {
      share = job.sizeBytes() / n;
      extra = (job.sizeBytes() - share * n) / minBs;
    }
    long total = 0;
    for (int i = 0; i < n; i++) {
      paths[i] = job.filename() != null ? job.regularFile(i)
          : job.directoryPath(i);
      long io;
      if (job.fileSizeLow() == 0) {
        io = share;
        if (extra > 0) {
          extra--;
          io += minBs;
        }
      } else {
        long size = job.fileSizeLow();
        if (job.fileSizeHigh() != job.fileSizeLow()) {
          long span = job.fileSizeHigh() - job.fileSizeLow();
          size += (long) (span * sizeRandom.nextDouble());
          size -= size % minBs;
        }
        io = Math.max(0, size - startOffset);
      }
      ioBytes[i] = io;
      total += io;
    }
    this.budgetBytes = job.sizeBytes() > 0 ? Math.min(job.sizeBytes(), total) : total;
    for (int i = 0; i < n; i++) {
      if (ioBytes[i] > 0) {
        patterns[i] = new IoPattern(job, startOffset, ioBytes[i], startOffset + ioBytes[i],
            patternRandom);
      } else {
        done[i] = true;
        doneCount++;
      }
    }
    FioRw rw = job.rw();
    boolean mapless = rw.isRandom() && (job.norandommap()
        || !job.randomDistribution(rw.writes() ? 1 : 0).usesRandomMap());
    this.endsAtSize = !job.timeBased() && !mapless;
    this.random = job.fileServiceType().equals("random");
    this.sequential = job.fileServiceType().equals("sequential");
    this.serviceNr = job.fileServiceNr();
    this.openLimit = job.openFiles();
  }

  /** fio's {@code td_min_bs()}: the smallest minimum block size of the directions used. */
  private static long minBs(FioJob job) {
    long m = Long.MAX_VALUE;
    if (job.rw().reads()) {
      m = Math.min(m, job.minBs()[0]);
    }
    if (job.rw().writes()) {
      m = Math.min(m, job.minBs()[1]);
    }
    return m == Long.MAX_VALUE ? job.minBs()[0] : m;
  }

  /** The number of files ({@code nrfiles}). */
  public int count() {
    return paths.length;
  }

  /** The absolute path of file {@code i}. */
  public String path(int i) {
    return paths[i];
  }

  /** The paths, in file order. */
  public List<String> paths() {
    return List.of(paths);
  }

  /** File {@code i}'s I/O region in bytes (fio's {@code io_size}). */
  public long ioBytes(int i) {
    return ioBytes[i];
  }

  /** File {@code i}'s size once laid out: its start offset plus its region. */
  public long fileBytes(int i) {
    return startOffset + ioBytes[i];
  }

  /** The job's I/O budget per loop: {@code size} cut to the files' regions, or their sum. */
  public long budgetBytes() {
    return budgetBytes;
  }

  /** The directories on the way to the files, shortest first, each once. */
  public List<String> directories() {
    List<String> out = new ArrayList<>();
    for (String p : paths) {
      int slash = p.indexOf('/', 1);
      while (slash > 0) {
        String d = p.substring(0, slash);
        if (!out.contains(d)) {
          out.add(d);
        }
        slash = p.indexOf('/', slash + 1);
      }
    }
    return out;
  }

  /** File {@code i}'s access pattern. */
  public IoPattern pattern(int i) {
    return patterns[i];
  }

  /** Whether file {@code i} is open. */
  public boolean isOpen(int i) {
    return open[i];
  }

  /** Whether file {@code i} is done for this loop. */
  public boolean isDone(int i) {
    return done[i];
  }

  /** Whether every file is done for this loop. */
  public boolean allDone() {
    return doneCount == paths.length;
  }

  /** Records that file {@code i} was opened. */
  public void opened(int i) {
    if (!open[i]) {
      open[i] = true;
      openCount++;
    }
  }

  /** Records that file {@code i} was closed. */
  public void closed(int i) {
    if (open[i]) {
      open[i] = false;
      openCount--;
    }
  }

  /**
   * The file the next I/O goes to ({@code __get_next_file()}), or -1 when every file is done.
   * The caller opens it first if it is not open ({@link #isOpen}, {@link #opened}).
   */
  public int pick() {
    if (allDone()) {
      return -1;
    }
    if (current >= 0 && open[current] && !done[current]) {
      if (sequential) {
        return current;
      }
      if (left > 0) {
        left--;
        return current;
      }
    }
    int f;
    int tries = 0;
    while (true) {
      if (random) {
        f = (int) (paths.length * serviceRandom.nextDouble());
      } else {
        f = nextFile;
        nextFile = (nextFile + 1) % paths.length;
      }
      if (!done[f] && (open[f] || openCount < openLimit)) {
        break;
      }
      if (!random && ++tries > 2 * paths.length) {
        throw new IllegalStateException("no file to service: " + openCount + " open of "
            + openLimit + ", " + doneCount + " done of " + paths.length);
      }
    }
    current = f;
    left = serviceNr - 1;
    return f;
  }

  /**
   * Records {@code bytes} issued to file {@code i}; true when the file is now done (the caller
   * closes it, as fio does when {@code fill_io_u()} finds nothing left in it).
   */
  public boolean issued(int i, long bytes) {
    issued[i] += bytes;
    if (endsAtSize && !done[i] && (issued[i] >= ioBytes[i] || patterns[i].passEnded())) {
      done[i] = true;
      doneCount++;
      return true;
    }
    return false;
  }

  /**
   * A new loop ({@code clear_io_state()}): no file is done, the service starts again from the
   * first file. A sequential pattern starts again at its region's start ({@code fio_file_reset()});
   * a full random map starts a new pass. Files with no region stay done.
   */
  public void reset() {
    doneCount = 0;
    for (int i = 0; i < paths.length; i++) {
      issued[i] = 0;
      done[i] = ioBytes[i] == 0;
      if (!done[i]) {
        patterns[i].rewind();
      }
      if (done[i]) {
        doneCount++;
      }
    }
    nextFile = 0;
    current = -1;
    left = 0;
  }
}
