package blksim.workload.fsmark;

/**
 * How fs_mark spreads a process's files over subdirectories of its {@code -d} directory: the
 * {@code DIR_*} policies of {@code fs_mark.h} (fs_mark 3.3) with their header text
 * ({@code dir_policy_string[]}).
 *
 * <p>{@code -D n} alone selects {@link #TIME_HASH}; {@code -N} selects {@link #ROUND_ROBIN} whatever
 * the order of the two options ({@code process_args()}).
 */
public enum FsMarkDirPolicy {
  /** {@code DIR_NO_SUBDIRS}: every file directly in the process's directory. */
  NO_SUBDIRS("No subdirectories"),
  /** {@code DIR_ROUND_ROBIN}: {@code -N} files into one subdirectory, then the next. */
  ROUND_ROBIN("Round Robin between directories"),
  /** {@code DIR_TIME_HASH}: move to the next subdirectory every 180 s ({@code DEFAULT_SECS_PER_DIR}). */
  TIME_HASH("Time based hash between directories");

  private final String description;

  FsMarkDirPolicy(String description) {
    this.description = description;
  }

  /** The header's text for this policy. */
  public String description() {
    return description;
  }
}
