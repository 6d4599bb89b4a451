package blksim.kernel.fs;

/**
 * A run of file pages mapped to consecutive disk blocks: what {@link Filesystem#allocate} hands
 * the writeback code, one bio range per extent ({@code struct iomap} / {@code xfs_bmbt_irec}
 * reduced to what a bio needs).
 *
 * @param sector the first 512-byte sector on the filesystem's device, >= 0
 * @param pages the number of 4 KiB pages, >= 1
 */
public record Extent(long sector, int pages) {
  public Extent {
    if (sector < 0) {
      throw new IllegalArgumentException("sector must be >= 0, was " + sector);
    }
    if (pages < 1) {
      throw new IllegalArgumentException("pages must be >= 1, was " + pages);
    }
  }

  /** The sector just after the extent: the next extent back-merges when it starts here. */
  public long endSector() {
    return sector + (long) pages * Filesystem.SECTORS_PER_PAGE;
  }
}
