package blksim.workload.fsmark;

import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;

/**
 * What one fs_mark process does in one iteration, step by step: mirrors {@code setup()},
 * {@code check_space()}, {@code do_run()}, {@code setup_file_name()} and {@code write_file()} of
 * fs_mark 3.3 ({@code fs_mark.c}).
 *
 * <p>Per process: {@code mkdir} of its {@code -d} directory, {@code statfs} (the caller compares the
 * free bytes with {@link FsMarkOptions#bytesNeededPerProcess()}), the loop timer starts; per file a
 * name, a {@code mkdir} of the file's (sub)directory, {@code open(O_CREAT|O_RDWR|O_TRUNC)},
 * {@code -s} bytes in {@code -w} pieces (the last one short; one write of 0 bytes for an empty
 * file), {@code fsync} with {@code -S 1}, {@code close}; then per {@link FsMarkSyncMethod} a
 * {@code sync()} and the reopen-fsync-close passes; the loop timer stops; the unlinks in creation
 * order unless files are kept ({@code -k}, {@code -L}, {@code -F}).
 *
 * <p>Names are fs_mark's: the low {@code -p} minus {@code -r} hex digits of the {@code gettimeofday}
 * seconds (padded with {@code ~} when there are fewer), then {@code -r} characters drawn uniformly
 * from {@code 0-9A-Z}. fs_mark draws them by rejection from {@code random()} seeded with the
 * microseconds of its start; blksim draws the same distribution from the {@link SplittableRandom}
 * it is given. Subdirectories follow {@code -D}/{@code -N} with fs_mark's state: the first
 * subdirectory is the start second modulo {@code -D}; round robin moves on after {@code -N} files;
 * the time hash moves on once more than 180 s have passed since the subdirectory was entered.
 *
 * <p>Simplified: fs_mark's per-process log file ({@code fopen}, one line written after the loop) and
 * the {@code gettimeofday} calls are not steps. The clock is read lazily, at the step that reads it
 * in fs_mark: when {@code next()} returns {@link FsMarkOp.Kind#SETUP_MKDIR} and each
 * {@link FsMarkOp.Kind#MKDIR}. The caller owns the iterator; it is not thread-safe.
 */
public final class FsMarkPlan {
  private static final char[] NAME_CHARS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ".toCharArray();
  private static final long USEC_PER_SEC = 1_000_000L;

  private final FsMarkOptions options;

  /** A plan for processes of the given command line. */
  public FsMarkPlan(FsMarkOptions options) {
    this.options = Objects.requireNonNull(options, "options");
  }

  /** The command line this plan follows. */
  public FsMarkOptions options() {
    return options;
  }

  /**
   * The steps of process {@code processIndex} (0-based) in one iteration. fs_mark forks its
   * processes afresh each iteration, so every iteration starts a new iterator with fresh state.
   *
   * @param processIndex which process, in {@code [0, threads)}; picks its directory
   * @param gettimeofdayUsec the simulated wall clock, microseconds since the epoch
   * @param random the process's random stream (file names only)
   */
  public Iterator<FsMarkOp> process(int processIndex, LongSupplier gettimeofdayUsec,
      SplittableRandom random) {
    return new Process(options, options.directoryOf(processIndex),
        Objects.requireNonNull(gettimeofdayUsec, "gettimeofdayUsec"),
        Objects.requireNonNull(random, "random"));
  }

  /**
   * The operations one process makes per iteration (markers excluded), for sizing and tests:
   * mkdir + statfs + per file (mkdir, create, writes, fsync?, close) + post-loop calls + unlinks.
   */
  public long systemCallsPerProcess() {
    FsMarkSyncMethod s = options.syncMethod();
    long n = options.filesPerIteration();
    long perFile = 3 + options.writesPerFile() + (s.fsyncBeforeClose() ? 1 : 0);
    long post = (s.syncSyscall() ? 1 : 0) + (s.firstFile() ? 3 : 0)
        + (s.postInOrder() || s.postReverse() ? 3 * n : 0);
    return 2 + n * perFile + post + (options.keepFiles() ? 0 : n);
  }

  /**
   * The file name fs_mark builds from the clock's seconds ({@code setup_file_name()}).
   *
   * @param secTime {@code tv_sec} of {@code gettimeofday}
   * @param names the {@code -p}/{@code -r} layout
   * @param random the stream for the random characters
   */
  public static String fileName(long secTime, FsMarkOptions.Names names, SplittableRandom random) {
    String seq = Long.toHexString(secTime);
    int seqLen = names.timeStampChars();
    StringBuilder sb = new StringBuilder(names.lengthChars());
    int skip = seq.length() - seqLen;
    // The least significant hex digits, which change; then '~' if the stamp is shorter.
    sb.append(seq, Math.max(0, skip), seq.length());
    for (int pad = seqLen - seq.length(); pad > 0; pad--) {
      sb.append('~');
    }
    for (int j = 0; j < names.randomChars(); j++) {
      sb.append(NAME_CHARS[random.nextInt(NAME_CHARS.length)]);
    }
    return sb.toString();
  }

  /** The subdirectory name: {@code sprintf("%02x", current_subdir)}. */
  public static String subdirName(int index) {
    String h = Integer.toHexString(index);
    return h.length() < 2 ? "0" + h : h;
  }

  /** Where {@link Process} is in {@code do_run()}. */
  private enum Phase {
    SETUP_MKDIR, STATFS, LOOP_START, FILE_MKDIR, FILE_CREATE, FILE_WRITE, FILE_FSYNC, FILE_CLOSE,
    SYNC, POST_OPEN, POST_FSYNC, POST_CLOSE, LOOP_END, UNLINK, DONE
  }

  /** One process's iteration, produced step by step. */
  private static final class Process implements Iterator<FsMarkOp> {
    private final FsMarkOptions o;
    private final String baseDir;
    private final LongSupplier clock;
    private final SplittableRandom random;
    private final int n;
    private final String[] subdirPaths;
    /** Names and directories of this iteration's files, kept only when a later pass needs them. */
    private final String[] names;
    private final String[] dirs;

    private Phase phase = Phase.SETUP_MKDIR;
    private int file;
    private long bytesLeft;
    private String curName;
    private String curDir;
    /** setup_file_name() state: current_subdir, files_in_subdir, start_sec_time. */
    private int currentSubdir;
    private int filesInSubdir;
    private long startSecTime;
    /** The post-loop pass: first index, step, and how many files. */
    private int postIndex;
    private int postStep;
    private int postLeft;

    Process(FsMarkOptions o, String dir, LongSupplier clock, SplittableRandom random) {
      this.o = o;
      this.baseDir = stripTrailingSlashes(dir);
      this.clock = clock;
      this.random = random;
      this.n = o.filesPerIteration();
      FsMarkOptions.Subdirs sd = o.subdirs();
      this.subdirPaths = sd.policy() == FsMarkDirPolicy.NO_SUBDIRS ? null
          : new String[Math.max(1, sd.count())];
      FsMarkSyncMethod s = o.syncMethod();
      boolean storeNames = !o.keepFiles() || s.postInOrder() || s.postReverse() || s.firstFile();
      this.names = storeNames ? new String[n] : null;
      this.dirs = storeNames ? new String[n] : null;
    }

    private static String stripTrailingSlashes(String d) {
      int end = d.length();
      while (end > 1 && d.charAt(end - 1) == '/') {
        end--;
      }
      return d.substring(0, end);
    }

    @Override
    public boolean hasNext() {
      return phase != Phase.DONE;
    }

    @Override
    public FsMarkOp next() {
      FsMarkSyncMethod s = o.syncMethod();
      switch (phase) {
        case SETUP_MKDIR -> {
          // setup(): gettimeofday, srandom(tv_usec), current_subdir = tv_sec % num_subdirs.
          long sec = clock.getAsLong() / USEC_PER_SEC;
          if (o.subdirs().count() > 0) {
            currentSubdir = (int) Math.floorMod(sec, (long) o.subdirs().count());
          }
          phase = Phase.STATFS;
          return new FsMarkOp(FsMarkOp.Kind.SETUP_MKDIR, -1, baseDir, null, 0);
        }
        case STATFS -> {
          phase = Phase.LOOP_START;
          return new FsMarkOp(FsMarkOp.Kind.STATFS, -1, baseDir, null, 0);
        }
        case LOOP_START -> {
          phase = Phase.FILE_MKDIR;
          return new FsMarkOp(FsMarkOp.Kind.LOOP_START, -1, baseDir, null, 0);
        }
        case FILE_MKDIR -> {
          makeName();
          phase = Phase.FILE_CREATE;
          return new FsMarkOp(FsMarkOp.Kind.MKDIR, file, curDir, null, 0);
        }
        case FILE_CREATE -> {
          bytesLeft = o.fileSizeBytes();
          phase = Phase.FILE_WRITE;
          return new FsMarkOp(FsMarkOp.Kind.CREATE, file, curDir, curName, 0);
        }
        case FILE_WRITE -> {
          // write_file(): a do-while, so an empty file still gets one write of 0 bytes.
          long chunk = Math.min(o.writeSizeBytes(), bytesLeft);
          bytesLeft -= chunk;
          if (bytesLeft == 0) {
            phase = s.fsyncBeforeClose() ? Phase.FILE_FSYNC : Phase.FILE_CLOSE;
          }
          return new FsMarkOp(FsMarkOp.Kind.WRITE, file, curDir, curName, chunk);
        }
        case FILE_FSYNC -> {
          phase = Phase.FILE_CLOSE;
          return new FsMarkOp(FsMarkOp.Kind.FSYNC, file, curDir, curName, 0);
        }
        case FILE_CLOSE -> {
          FsMarkOp op = new FsMarkOp(FsMarkOp.Kind.CLOSE, file, curDir, curName, 0);
          file++;
          phase = file < n ? Phase.FILE_MKDIR : afterLoop();
          return op;
        }
        case SYNC -> {
          phase = startPost();
          return new FsMarkOp(FsMarkOp.Kind.SYNC, -1, baseDir, null, 0);
        }
        case POST_OPEN -> {
          phase = Phase.POST_FSYNC;
          return postOp(FsMarkOp.Kind.REOPEN);
        }
        case POST_FSYNC -> {
          phase = Phase.POST_CLOSE;
          return postOp(FsMarkOp.Kind.REOPEN_FSYNC);
        }
        case POST_CLOSE -> {
          FsMarkOp op = postOp(FsMarkOp.Kind.REOPEN_CLOSE);
          postIndex += postStep;
          postLeft--;
          phase = postLeft > 0 ? Phase.POST_OPEN : Phase.LOOP_END;
          return op;
        }
        case LOOP_END -> {
          file = 0;
          phase = o.keepFiles() ? Phase.DONE : Phase.UNLINK;
          return new FsMarkOp(FsMarkOp.Kind.LOOP_END, -1, baseDir, null, 0);
        }
        case UNLINK -> {
          FsMarkOp op = new FsMarkOp(FsMarkOp.Kind.UNLINK, file, dirs[file], names[file], 0);
          file++;
          if (file == n) {
            phase = Phase.DONE;
          }
          return op;
        }
        default -> throw new NoSuchElementException("fs_mark process plan is complete");
      }
    }

    /** After the write loop: {@code sync()} first, then the post-loop fsync pass, if any. */
    private Phase afterLoop() {
      return o.syncMethod().syncSyscall() ? Phase.SYNC : startPost();
    }

    /**
     * Sets up the one post-loop pass a sync method has (in-order, reverse, or the first file),
     * in {@code do_run()}'s order of the three blocks.
     */
    private Phase startPost() {
      FsMarkSyncMethod s = o.syncMethod();
      if (s.postInOrder()) {
        postIndex = 0;
        postStep = 1;
        postLeft = n;
      } else if (s.postReverse()) {
        postIndex = n - 1;
        postStep = -1;
        postLeft = n;
      } else if (s.firstFile()) {
        postIndex = 0;
        postStep = 1;
        postLeft = 1;
      } else {
        return Phase.LOOP_END;
      }
      return Phase.POST_OPEN;
    }

    private FsMarkOp postOp(FsMarkOp.Kind kind) {
      return new FsMarkOp(kind, postIndex, dirs[postIndex], names[postIndex], 0);
    }

    /** {@code setup_file_name()}: picks the subdirectory and builds the name. */
    private void makeName() {
      long sec = clock.getAsLong() / USEC_PER_SEC;
      if (startSecTime == 0) {
        startSecTime = sec;
      }
      FsMarkOptions.Subdirs sd = o.subdirs();
      switch (sd.policy()) {
        case NO_SUBDIRS -> curDir = baseDir;
        case ROUND_ROBIN -> {
          if (sd.filesPerSubdir() != 0) {
            if (filesInSubdir >= sd.filesPerSubdir()) {
              currentSubdir++;
              filesInSubdir = 0;
            }
            currentSubdir = currentSubdir % sd.count();
            filesInSubdir++;
          }
          curDir = subdir(currentSubdir);
        }
        case TIME_HASH -> {
          if (sec - startSecTime > FsMarkOptions.SECS_PER_DIRECTORY) {
            currentSubdir = (currentSubdir + 1) % sd.count();
            startSecTime = sec;
          }
          curDir = subdir(currentSubdir);
        }
        default -> throw new IllegalStateException("unknown policy " + sd.policy());
      }
      curName = fileName(sec, o.names(), random);
      if (names != null) {
        names[file] = curName;
        dirs[file] = curDir;
      }
    }

    private String subdir(int index) {
      String p = subdirPaths[index];
      if (p == null) {
        p = (baseDir.equals("/") ? "" : baseDir) + "/" + subdirName(index);
        subdirPaths[index] = p;
      }
      return p;
    }
  }
}
