package blksim.workload.umount;

/**
 * The scenario's {@code dirty-files} section: a volume of files left dirty in the page cache at
 * the start of the run, for a {@code umount} (or {@code sync}) in {@code commands} to write back
 * (kernel-model.md §15.1.5).
 *
 * @param directory where the files go (in a filesystem of the scenario)
 * @param files how many files
 * @param fileSizeBytes each file's size ({@code i_size}), a multiple of 4 KiB
 * @param directories subdirectories {@code d0 .. d(N-1)} of {@code directory} the files are
 *     spread over, round robin (1: all in {@code d0}); XFS puts each new directory in the next
 *     allocation group, so this spreads the data over the disk
 * @param extentBytes the dirty piece at the start of each stride (0: the whole file is dirty)
 * @param strideBytes the distance between dirty pieces (0 with extent 0)
 * @param overwrite the share of the files an earlier run left on the disk (0..1): their blocks
 *     are allocated, and on dm-zoned their chunks mapped, before anything is dirtied, so the
 *     writeback overwrites them in place ({@link #overwritten})
 * @param overwriteRandom the share of the chunks of those files dm-zoned maps to random
 *     (conventional) zones, the rest to sequential zones (0..1)
 */
public record DirtyFiles(String directory, long files, long fileSizeBytes, int directories,
    long extentBytes, long strideBytes, double overwrite, double overwriteRandom) {
  /** Without files left by an earlier run. */
  public DirtyFiles(String directory, long files, long fileSizeBytes, int directories,
      long extentBytes, long strideBytes) {
    this(directory, files, fileSizeBytes, directories, extentBytes, strideBytes, 0, 0);
  }

  /**
   * Whether file {@code i} was left on the disk by an earlier run: {@code floor((i + 1) s) >
   * floor(i s)} for the share {@code s}, which spreads those files evenly over the others (no
   * draw).
   */
  public boolean overwritten(long i) {
    return Math.floor((i + 1) * overwrite) > Math.floor(i * overwrite);
  }

  /** Dirty bytes of one file. */
  public long dirtyBytesPerFile() {
    if (extentBytes == 0) {
      return fileSizeBytes;
    }
    long full = fileSizeBytes / strideBytes;
    long rest = fileSizeBytes - full * strideBytes;
    return full * extentBytes + Math.min(rest, extentBytes);
  }

  /** Dirty bytes in all. */
  public long totalDirtyBytes() {
    return files * dirtyBytesPerFile();
  }

  /** The path of file {@code i}. */
  public String path(long i) {
    String d = directory.endsWith("/") ? directory : directory + "/";
    return d + "d" + (i % directories) + "/f" + i;
  }
}
