package blksim.workload.fsmark;

import blksim.engine.InputException;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One fs_mark command line after option processing: mirrors the globals that
 * {@code process_args()} of fs_mark 3.3 ({@code fs_mark.c}, {@code fs_mark.h}) leaves set, with the
 * values each later step reads.
 *
 * <p>{@link #parse(String, String)} follows glibc {@code getopt()} with fs_mark's option string
 * {@value #OPTSTRING}: flags may be clustered ({@code -kv}), an option's argument may follow in the
 * same word or the next ({@code -n10}, {@code -n 10}; the next word is taken even if it starts with
 * {@code -}), {@code --} ends the options. fs_mark's rules are kept with their meaning: at most
 * {@value #MAX_THREADS} processes ({@code MAX_THREADS}) and directories, processes a multiple of the
 * directories (fewer processes than directories means one per directory), at most
 * {@value #MAX_FILES} files per iteration ({@code MAX_FILES}), writes of at most
 * {@value #MAX_IO_BUFFER_SIZE} bytes, names of at most {@value #FILENAME_SIZE} characters, {@code -S}
 * in 0..6, {@code -D} above 1, {@code -N} only with {@code -D}, at least one {@code -d}, a directory
 * name shorter than {@value #MAX_NAME_PATH} bytes (3.3's {@code MAX_NAME_PATH}). {@code -L} and
 * {@code -F} also set keep-files, as in the source.
 *
 * <p>Stricter than fs_mark, which reads numbers with {@code atoi()} and so takes {@code "4k"} as 4
 * and {@code "abc"} as 0: a value must be a decimal integer, and values that make fs_mark divide by
 * zero, loop forever or overrun a buffer are refused ({@code -n 0}, {@code -w 0}, negative values,
 * more random than total name characters). Operands (words that are not options) are refused; fs_mark
 * ignores them. {@code -h} is refused because fs_mark then prints its usage and exits without a test;
 * {@code -F} and {@code -l} are refused by default ({@link #UNSUPPORTED_BY_DEFAULT}) because blksim
 * neither fills a filesystem to the end nor writes fs_mark's log files yet.
 *
 * @param argv the words of the command line as fs_mark's header echoes them, the program name first
 *     ({@code fs_mark} when the command line does not start with it)
 * @param directories the {@code -d} directories in command-line order
 * @param threads the number of processes per iteration ({@code num_threads} after the
 *     directory adjustment)
 * @param filesPerIteration {@code -n}: files each process creates per iteration
 * @param fileSizeBytes {@code -s}: bytes written to each file
 * @param writeSizeBytes {@code -w}: bytes per {@code write()} call ({@code io_buffer_size})
 * @param syncMethod {@code -S}
 * @param loopCount {@code -L} as given ({@code loop_count}; 0 and 1 both run one iteration)
 * @param keepFiles whether files stay after an iteration ({@code -k}, {@code -L} or {@code -F})
 * @param fillFilesystem {@code -F}: iterate until the filesystem has no room for another iteration
 * @param subdirs the {@code -D}/{@code -N} subdirectory layout
 * @param names the {@code -p}/{@code -r} file-name layout
 * @param verbose {@code -v}: per-system-call columns in the table
 * @param logFileName {@code -l} ({@code fs_log.txt} by default)
 */
public record FsMarkOptions(
    List<String> argv,
    List<String> directories,
    int threads,
    int filesPerIteration,
    long fileSizeBytes,
    int writeSizeBytes,
    FsMarkSyncMethod syncMethod,
    int loopCount,
    boolean keepFiles,
    boolean fillFilesystem,
    Subdirs subdirs,
    Names names,
    boolean verbose,
    String logFileName) {

  /** fs_mark's {@code getopt()} option string. */
  public static final String OPTSTRING = "vhkFr:S:N:D:d:l:L:n:p:s:t:w:";
  /** {@code MAX_THREADS}: processes, and directories, at most. */
  public static final int MAX_THREADS = 64;
  /** {@code MAX_FILES}: files per process and iteration, at most. */
  public static final int MAX_FILES = 1_000_000;
  /** {@code MAX_IO_BUFFER_SIZE}: bytes per write() at most. */
  public static final int MAX_IO_BUFFER_SIZE = 1024 * 1024;
  /** {@code FILENAME_SIZE}: characters of a file name at most. */
  public static final int FILENAME_SIZE = 128;
  /** {@code MAX_NAME_PATH} in fs_mark 3.3 (later raised to 1000): a -d name is shorter. */
  public static final int MAX_NAME_PATH = 40;
  /** {@code DEFAULT_FILE_SIZE}, bytes. */
  public static final int DEFAULT_FILE_SIZE = 50 * 1024;
  /** {@code DEFAULT_IO_SIZE}, bytes. */
  public static final int DEFAULT_IO_SIZE = 16 * 1024;
  /** {@code DEFAULT_NUM_FILES}. */
  public static final int DEFAULT_NUM_FILES = 1000;
  /** {@code DEFAULT_NAME_LEN}. */
  public static final int DEFAULT_NAME_LEN = 40;
  /** {@code DEFAULT_RAND_NAME}. */
  public static final int DEFAULT_RAND_NAME = 24;
  /** {@code DEFAULT_SECS_PER_DIR}: seconds per subdirectory under {@link FsMarkDirPolicy#TIME_HASH}. */
  public static final int SECS_PER_DIRECTORY = 180;
  /** The default log file name. */
  public static final String DEFAULT_LOG_FILE = "fs_log.txt";
  /** Options fs_mark knows that blksim refuses unless the caller allows them. */
  public static final Set<Character> UNSUPPORTED_BY_DEFAULT = Set.of('F', 'l');

  /**
   * The subdirectory layout ({@code dir_policy}, {@code num_subdirs}, {@code num_per_subdir}).
   *
   * @param policy how files are spread
   * @param count {@code -D}, 0 when not given
   * @param filesPerSubdir {@code -N}, 0 when not given
   */
  public record Subdirs(FsMarkDirPolicy policy, int count, int filesPerSubdir) {
    /** Checks the ranges. */
    public Subdirs {
      Objects.requireNonNull(policy, "policy");
      if (count != 0 && count < 2) {
        throw new IllegalArgumentException("count must be 0 or at least 2, was " + count);
      }
      if (filesPerSubdir < 0) {
        throw new IllegalArgumentException("filesPerSubdir must be >= 0, was " + filesPerSubdir);
      }
      if (policy == FsMarkDirPolicy.NO_SUBDIRS && count != 0) {
        throw new IllegalArgumentException("policy NO_SUBDIRS needs count 0, was " + count);
      }
      if (policy == FsMarkDirPolicy.TIME_HASH && count == 0) {
        throw new IllegalArgumentException("policy TIME_HASH needs a count of at least 2, was 0");
      }
      if (count == 0 && filesPerSubdir > 0) {
        throw new IllegalArgumentException(
            "filesPerSubdir needs a count of at least 2, was " + filesPerSubdir + " with count 0");
      }
    }
  }

  /**
   * The file-name layout ({@code name_len}, {@code rand_len}).
   *
   * @param lengthChars {@code -p}: characters per name
   * @param randomChars {@code -r}: random characters at the end of the name
   */
  public record Names(int lengthChars, int randomChars) {
    /** Checks the ranges. */
    public Names {
      if (lengthChars < 0 || lengthChars > FILENAME_SIZE) {
        throw new IllegalArgumentException(
            "lengthChars must be in [0, " + FILENAME_SIZE + "], was " + lengthChars);
      }
      if (randomChars < 0 || randomChars > lengthChars) {
        throw new IllegalArgumentException(
            "randomChars must be in [0, lengthChars=" + lengthChars + "], was " + randomChars);
      }
    }

    /** The time-stamp characters at the start of a name ({@code seq_len}). */
    public int timeStampChars() {
      return lengthChars - randomChars;
    }
  }

  /** Checks the invariants {@link #parse} guarantees, for records built in code. */
  public FsMarkOptions {
    argv = List.copyOf(argv);
    directories = List.copyOf(directories);
    Objects.requireNonNull(syncMethod, "syncMethod");
    Objects.requireNonNull(subdirs, "subdirs");
    Objects.requireNonNull(names, "names");
    Objects.requireNonNull(logFileName, "logFileName");
    if (argv.isEmpty()) {
      throw new IllegalArgumentException("argv must hold at least the program name");
    }
    if (directories.isEmpty() || directories.size() > MAX_THREADS) {
      throw new IllegalArgumentException(
          "directories must number 1 to " + MAX_THREADS + ", was " + directories.size());
    }
    if (threads < 1 || threads > MAX_THREADS || threads % directories.size() != 0) {
      throw new IllegalArgumentException("threads must be a multiple of directories ("
          + directories.size() + ") in [1, " + MAX_THREADS + "], was " + threads);
    }
    if (filesPerIteration < 1 || filesPerIteration > MAX_FILES) {
      throw new IllegalArgumentException(
          "filesPerIteration must be in [1, " + MAX_FILES + "], was " + filesPerIteration);
    }
    if (fileSizeBytes < 0 || fileSizeBytes > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "fileSizeBytes must be in [0, " + Integer.MAX_VALUE + "], was " + fileSizeBytes);
    }
    if (writeSizeBytes < 1 || writeSizeBytes > MAX_IO_BUFFER_SIZE) {
      throw new IllegalArgumentException(
          "writeSizeBytes must be in [1, " + MAX_IO_BUFFER_SIZE + "], was " + writeSizeBytes);
    }
    if (loopCount < 0) {
      throw new IllegalArgumentException("loopCount must be >= 0, was " + loopCount);
    }
  }

  /**
   * Parses a command line; {@code origin} names where it came from, as {@code file:line},
   * {@code file} or {@code null}, and is split into the {@link InputException}'s file and line.
   *
   * @throws InputException naming the option and the rule it breaks
   */
  public static FsMarkOptions parse(String commandLine, String origin) {
    String file = origin;
    int line = 0;
    if (origin != null) {
      int colon = origin.lastIndexOf(':');
      if (colon > 0 && colon < origin.length() - 1
          && origin.substring(colon + 1).chars().allMatch(Character::isDigit)
          && origin.length() - colon - 1 <= 9) {
        file = origin.substring(0, colon);
        line = Integer.parseInt(origin.substring(colon + 1));
      }
    }
    return parse(commandLine, file, line, UNSUPPORTED_BY_DEFAULT);
  }

  /**
   * Parses a command line from {@code file} at {@code line}, refusing the options in
   * {@code unsupported} (letters of {@link #OPTSTRING}) with "not supported by blksim yet".
   *
   * @throws InputException naming the option and the rule it breaks
   */
  public static FsMarkOptions parse(String commandLine, String file, int line,
      Set<Character> unsupported) {
    return new FsMarkOptionParser(file, line, unsupported).parse(commandLine);
  }

  /** The directory process {@code processIndex} works in ({@code child_tasks[i].test_dir}). */
  public String directoryOf(int processIndex) {
    if (processIndex < 0 || processIndex >= threads) {
      throw new IllegalArgumentException(
          "processIndex must be in [0, " + threads + "), was " + processIndex);
    }
    return directories.get(processIndex % directories.size());
  }

  /**
   * Whether {@code main()} forks another iteration after {@code loopsDone} ones:
   * {@code do_fill_fs || loop_count > loops_done} (its loop is a do-while, so one always runs).
   */
  public boolean anotherIteration(int loopsDone) {
    return loopsDone == 0 || fillFilesystem || loopCount > loopsDone;
  }

  /** Iterations the run makes, or -1 with {@code -F} (until the filesystem is full). */
  public int iterations() {
    return fillFilesystem ? -1 : Math.max(1, loopCount);
  }

  /**
   * Bytes a process needs free before an iteration ({@code check_space()}: file size times files
   * per iteration); with less, fs_mark prints "Insufficient free space in DIR to create N new files,
   * exiting" and the process exits.
   */
  public long bytesNeededPerProcess() {
    return fileSizeBytes * filesPerIteration;
  }

  /** The {@code write()} calls per file ({@code write_file()}: at least one, even for size 0). */
  public long writesPerFile() {
    return fileSizeBytes == 0 ? 1 : (fileSizeBytes + writeSizeBytes - 1) / writeSizeBytes;
  }

  /** The command line as fs_mark's header echoes it: each word as {@code " %s "}. */
  public String echo() {
    StringBuilder sb = new StringBuilder();
    for (String a : argv) {
      sb.append(' ').append(a).append(' ');
    }
    return sb.toString();
  }
}
