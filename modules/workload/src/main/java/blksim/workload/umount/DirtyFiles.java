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
 */
public record DirtyFiles(String directory, long files, long fileSizeBytes, int directories,
    long extentBytes, long strideBytes) {
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
