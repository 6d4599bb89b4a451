/**
 * The VFS and filesystems as the block I/O paths need them. Today: a block device opened by a
 * task, {@link blksim.kernel.fs.BlockDeviceFile} ({@code def_blk_fops}), with its O_DIRECT and
 * buffered read paths. Filesystems (an XFS-like model first) come next.
 */
package blksim.kernel.fs;
