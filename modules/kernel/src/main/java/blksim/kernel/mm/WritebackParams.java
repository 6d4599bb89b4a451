package blksim.kernel.mm;

/**
 * CPU costs of writeback and of buffered writes, system time, from the machine profile
 * ({@code costs.writeback.*}, {@code costs.page-cache.write}).
 *
 * @param perPageNs the flusher, per page written back: {@code clear_page_dirty_for_io()},
 *     {@code set_page_writeback()}, adding the page to a bio ({@code write_cache_pages()} and
 *     the filesystem's {@code ->writepage}), before the block layer's own submission cost
 * @param perInodeNs the flusher, per inode: {@code __writeback_single_inode()} around the pages
 *     (a filesystem adds its allocation cost, see {@link AddressSpace.Host#prepareWriteback})
 * @param writePerPageNs a buffered {@code write()}, per page: {@code write_begin} (page lookup or
 *     allocation), the copy from the user buffer, {@code write_end} and dirtying
 * @param inodeDoneNs the flusher, per inode, after its pages: the rest of
 *     {@code __writeback_single_inode()}, {@code wbc_detach_inode()}, {@code requeue_inode()},
 *     {@code inode_sync_complete()}; it runs between the scheduling point after the last pagevec
 *     (a) and the one between inodes (b), so a wakeup in it is what (b) can see
 */
public record WritebackParams(long perPageNs, long perInodeNs, long writePerPageNs,
    long inodeDoneNs) {

  public WritebackParams {
    if (perPageNs < 0 || perInodeNs < 0 || writePerPageNs < 0 || inodeDoneNs < 0) {
      throw new IllegalArgumentException("writeback costs must be >= 0, were " + perPageNs + ", "
          + perInodeNs + ", " + writePerPageNs);
    }
  }
}
