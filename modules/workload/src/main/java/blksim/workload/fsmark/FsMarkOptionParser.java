package blksim.workload.fsmark;

import blksim.engine.InputException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Reads an fs_mark command line the way glibc {@code getopt()} and fs_mark 3.3's
 * {@code process_args()} do (see {@link FsMarkOptions} for the rules and where blksim is stricter).
 * One instance per command line; not thread-safe.
 */
final class FsMarkOptionParser {
  private final String file;
  private final int line;
  private final Set<Character> unsupported;

  private final List<String> directories = new ArrayList<>();
  private int threads = 1;
  private int numFiles = FsMarkOptions.DEFAULT_NUM_FILES;
  private long fileSize = FsMarkOptions.DEFAULT_FILE_SIZE;
  private int ioSize = FsMarkOptions.DEFAULT_IO_SIZE;
  private FsMarkSyncMethod sync = FsMarkSyncMethod.PER_FILE;
  private int loopCount;
  private boolean keepFiles;
  private boolean fill;
  private int numSubdirs;
  private int numPerSubdir;
  private FsMarkDirPolicy policy = FsMarkDirPolicy.NO_SUBDIRS;
  private int nameLen = FsMarkOptions.DEFAULT_NAME_LEN;
  private int randLen = FsMarkOptions.DEFAULT_RAND_NAME;
  private boolean verbose;
  private String logFile = FsMarkOptions.DEFAULT_LOG_FILE;

  FsMarkOptionParser(String file, int line, Set<Character> unsupported) {
    this.file = file;
    this.line = line;
    this.unsupported = Set.copyOf(unsupported);
  }

  private InputException error(String option, String rule) {
    return new InputException(file, line, option, rule);
  }

  FsMarkOptions parse(String commandLine) {
    List<String> argv = split(commandLine);
    if (argv.isEmpty() || !isProgramName(argv.get(0))) {
      argv.add(0, "fs_mark");
    }
    // getopt(): walk the words after argv[0]; a cluster "-kn10" is -k then -n with "10".
    int i = 1;
    while (i < argv.size()) {
      String word = argv.get(i);
      if (word.equals("--")) {
        i++;
        break;
      }
      if (!word.startsWith("-") || word.length() == 1) {
        break;
      }
      int j = 1;
      while (j < word.length()) {
        char c = word.charAt(j);
        int at = FsMarkOptions.OPTSTRING.indexOf(c);
        if (c == ':' || at < 0) {
          throw error("-" + c, "unknown option (fs_mark 3.3 takes -" + letters() + ")");
        }
        boolean takesArg = at + 1 < FsMarkOptions.OPTSTRING.length()
            && FsMarkOptions.OPTSTRING.charAt(at + 1) == ':';
        if (!takesArg) {
          option(c, null);
          j++;
          continue;
        }
        String arg;
        if (j + 1 < word.length()) {
          arg = word.substring(j + 1);
        } else if (i + 1 < argv.size()) {
          i++;
          arg = argv.get(i);
        } else {
          throw error("-" + c, "option requires an argument");
        }
        option(c, arg);
        break;
      }
      i++;
    }
    if (i < argv.size()) {
      throw error(null, "fs_mark takes no operands (it would ignore them), found '"
          + argv.get(i) + "'");
    }
    return finish(argv);
  }

  /** The option letters of the getopt string, for the unknown-option message. */
  private static String letters() {
    return FsMarkOptions.OPTSTRING.replace(":", "");
  }

  private static boolean isProgramName(String word) {
    return word.equals("fs_mark") || word.endsWith("/fs_mark");
  }

  /** One option, as the matching {@code case} of {@code process_args()}. */
  private void option(char c, String arg) {
    String opt = "-" + c;
    if (unsupported.contains(c)) {
      throw error(opt, "not supported by blksim yet");
    }
    switch (c) {
      case 'v' -> verbose = true;
      case 'h' -> throw error(opt, "prints fs_mark's usage and exits without running a test");
      case 'k' -> keepFiles = true;
      case 'F' -> {
        keepFiles = true;
        fill = true;
      }
      case 'D' -> {
        numSubdirs = number(opt, arg);
        if (numSubdirs < 2) {
          throw error(opt, "the number of subdirectories must be greater than 1, was " + arg);
        }
        if (policy == FsMarkDirPolicy.NO_SUBDIRS) {
          policy = FsMarkDirPolicy.TIME_HASH;
        }
      }
      case 'd' -> {
        if (directories.size() >= FsMarkOptions.MAX_THREADS) {
          throw error(opt, "at most " + FsMarkOptions.MAX_THREADS
              + " directories (MAX_THREADS), this is number " + (directories.size() + 1));
        }
        if (arg.isEmpty()) {
          throw error(opt, "the directory name must not be empty");
        }
        if (arg.getBytes(java.nio.charset.StandardCharsets.UTF_8).length
            >= FsMarkOptions.MAX_NAME_PATH) {
          throw error(opt, "the directory pathname must be shorter than "
              + FsMarkOptions.MAX_NAME_PATH + " bytes (MAX_NAME_PATH), was '" + arg + "'");
        }
        directories.add(arg);
      }
      case 'l' -> logFile = arg;
      case 'L' -> {
        loopCount = nonNegative(opt, arg, "the number of iterations");
        keepFiles = true;
      }
      case 'n' -> {
        numFiles = number(opt, arg);
        if (numFiles > FsMarkOptions.MAX_FILES) {
          throw error(opt, "at most " + FsMarkOptions.MAX_FILES
              + " files per iteration (MAX_FILES), was " + arg);
        }
        if (numFiles < 1) {
          throw error(opt, "files per iteration must be at least 1, was " + arg);
        }
      }
      case 'N' -> {
        policy = FsMarkDirPolicy.ROUND_ROBIN;
        numPerSubdir = nonNegative(opt, arg, "files per subdirectory");
      }
      case 'p' -> {
        nameLen = nonNegative(opt, arg, "the file name length");
        if (nameLen > FsMarkOptions.FILENAME_SIZE) {
          throw error(opt, "file names are at most " + FsMarkOptions.FILENAME_SIZE
              + " characters (FILENAME_SIZE), was " + arg);
        }
      }
      case 's' -> fileSize = nonNegative(opt, arg, "the file size");
      case 'r' -> randLen = nonNegative(opt, arg, "the number of random name characters");
      case 'S' -> {
        int m = number(opt, arg);
        if (m < 0 || m > 6) {
          throw error(opt, "the sync method must be 0 to 6, was " + arg);
        }
        sync = FsMarkSyncMethod.of(m);
      }
      case 't' -> {
        threads = nonNegative(opt, arg, "the number of threads");
        if (threads > FsMarkOptions.MAX_THREADS) {
          throw error(opt, "at most " + FsMarkOptions.MAX_THREADS
              + " threads (MAX_THREADS), was " + arg);
        }
      }
      case 'w' -> {
        ioSize = number(opt, arg);
        if (ioSize > FsMarkOptions.MAX_IO_BUFFER_SIZE) {
          throw error(opt, "at most " + FsMarkOptions.MAX_IO_BUFFER_SIZE
              + " bytes per write (MAX_IO_BUFFER_SIZE), was " + arg);
        }
        if (ioSize < 1) {
          throw error(opt, "bytes per write must be at least 1, was " + arg);
        }
      }
      default -> throw new IllegalStateException("option -" + c + " in OPTSTRING but not handled");
    }
  }

  /** The checks after the getopt loop of {@code process_args()}, in its order. */
  private FsMarkOptions finish(List<String> argv) {
    if (directories.isEmpty()) {
      throw error("-d", "must specify at least one directory with -d");
    }
    if (numSubdirs == 0 && numPerSubdir > 0) {
      throw error("-N", "-N (files per subdirectory) needs -D with more than 1 subdirectory");
    }
    if (randLen > nameLen) {
      throw error("-r", "random name characters (" + randLen
          + ") must not exceed the name length -p (" + nameLen + ")");
    }
    int dirs = directories.size();
    if (dirs > threads) {
      // fs_mark raises the thread count to one per directory.
      threads = dirs;
    } else if (threads % dirs != 0) {
      throw error("-t", "threads (" + threads + ") must be a multiple of the number of"
          + " directories (" + dirs + ") and at most " + FsMarkOptions.MAX_THREADS);
    }
    return new FsMarkOptions(argv, directories, threads, numFiles, fileSize, ioSize, sync,
        loopCount, keepFiles, fill,
        new FsMarkOptions.Subdirs(policy, numSubdirs, numPerSubdir),
        new FsMarkOptions.Names(nameLen, randLen), verbose, logFile);
  }

  private int nonNegative(String opt, String arg, String what) {
    int v = number(opt, arg);
    if (v < 0) {
      throw error(opt, what + " must be >= 0, was " + arg);
    }
    return v;
  }

  /** A decimal int; fs_mark's {@code atoi()} would silently read a prefix or 0. */
  private int number(String opt, String arg) {
    if (!arg.matches("[+-]?[0-9]+")) {
      throw error(opt, "must be a decimal integer, was '" + arg + "'");
    }
    try {
      return Integer.parseInt(arg.startsWith("+") ? arg.substring(1) : arg);
    } catch (NumberFormatException e) {
      throw error(opt, "must fit in a C int, was '" + arg + "'");
    }
  }

  /**
   * Splits a command line into words on blanks; single or double quotes group a word with blanks
   * (no other shell syntax).
   */
  private List<String> split(String s) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    boolean inWord = false;
    char quote = 0;
    for (int k = 0; k < s.length(); k++) {
      char c = s.charAt(k);
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else {
          cur.append(c);
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
        inWord = true;
      } else if (Character.isWhitespace(c)) {
        if (inWord) {
          out.add(cur.toString());
          cur.setLength(0);
          inWord = false;
        }
      } else {
        cur.append(c);
        inWord = true;
      }
    }
    if (quote != 0) {
      throw error(null, "unterminated " + quote + " quote in the fs_mark command line");
    }
    if (inWord) {
      out.add(cur.toString());
    }
    return out;
  }
}
