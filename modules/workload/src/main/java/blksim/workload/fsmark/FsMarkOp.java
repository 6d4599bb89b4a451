package blksim.workload.fsmark;

/**
 * One step of an fs_mark process, as {@link FsMarkPlan} hands them out: a system call, or a marker
 * where fs_mark reads the clock for its loop time.
 *
 * @param kind what to do
 * @param fileIndex the file's index in this iteration ({@code file_index}), or -1
 * @param directory the directory, without a trailing slash ({@code /mnt/a} or {@code /mnt/a/0a})
 * @param name the file's leaf name, or {@code null} for directory-level steps
 * @param bytes the byte count of a {@link Kind#WRITE}, else 0
 */
public record FsMarkOp(Kind kind, int fileIndex, String directory, String name, long bytes) {

  /** The steps of {@code setup()} and {@code do_run()} in fs_mark 3.3. */
  public enum Kind {
    /** {@code mkdir(test_dir, 0777)} in {@code setup()}; EEXIST is fine. */
    SETUP_MKDIR,
    /** {@code statfs()} of {@code check_space()}: the caller checks the free bytes. */
    STATFS,
    /** {@code start(&loop_start_tv)}: the loop timer starts (no system call besides gettimeofday). */
    LOOP_START,
    /** {@code mkdir(target_dir, 0777)} in {@code setup_file_name()}, each file; EEXIST is fine. */
    MKDIR,
    /** {@code open(name, O_CREAT|O_RDWR|O_TRUNC, 0666)}, timed as creat. */
    CREATE,
    /** {@code write(fd, buf, bytes)}, timed as write. */
    WRITE,
    /** {@code fsync(fd)} before close in the loop ({@code -S 1}), timed as fsync. */
    FSYNC,
    /** {@code close(fd)} in the loop, timed as close. */
    CLOSE,
    /** {@code sync()} after the loop, timed as sync. */
    SYNC,
    /** {@code open(name, O_RDONLY)} after the loop; with the next two timed as one fsync. */
    REOPEN,
    /** {@code fsync(fd)} of a reopened file. */
    REOPEN_FSYNC,
    /** {@code close(fd)} of a reopened file. */
    REOPEN_CLOSE,
    /** {@code stop(&loop_start_tv, ...)}: the loop timer stops; unlinks are outside it. */
    LOOP_END,
    /** {@code unlink(name)}, timed as unlink, unless files are kept. */
    UNLINK
  }

  /** The path with one slash between directory and name (or the directory). */
  public String path() {
    return name == null ? directory : directory + "/" + name;
  }
}
