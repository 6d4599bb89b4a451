/**
 * Memory management as the block I/O paths see it: the page cache of a block device or file
 * (kernel-model.md §5.6, §9), and, to come, writeback and dirty throttling.
 *
 * <p>Today: the costs of the buffered-read miss path ({@link blksim.kernel.mm.PageCacheParams});
 * the path itself, {@code filemap_read()} on a block device, runs in
 * {@link blksim.kernel.fs.BlockDeviceFile}. Simplified: no page is kept, so every buffered read
 * misses, and readahead is limited to the requested page.
 */
package blksim.kernel.mm;
