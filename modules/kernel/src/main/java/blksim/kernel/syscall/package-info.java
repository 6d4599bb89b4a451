/**
 * The system-call boundary: what a user task (a fio job thread, later an fs_mark process or a
 * trace replayer) calls into, and what runs on its behalf in the kernel.
 *
 * <p>A workload is user space only: a loop that spends user time and makes calls. Each call is a
 * {@link blksim.kernel.syscall.SystemCall} made by the kernel object the call names: an open
 * block device ({@link blksim.kernel.fs.BlockDeviceFile}: {@code pread}, {@code pwrite},
 * {@code read}, {@code write}, {@code fsync}, {@code fdatasync}, {@code close}), an io_uring
 * instance ({@link blksim.kernel.iouring.IoRing}: {@code io_uring_enter}) or a libaio context
 * ({@link blksim.kernel.aio.KioCtx}: {@code io_submit}, {@code io_getevents}). A bio's path then
 * reads top to bottom: workload, system call, fs/mm, block, device, completion.
 *
 * <table>
 * <caption>Glossary</caption>
 * <tr><th>kernel</th><th>blksim</th></tr>
 * <tr><td>{@code SYSCALL_DEFINE*} entry to {@code syscall_exit_to_user_mode()}</td>
 *     <td>{@link blksim.kernel.syscall.SystemCall}</td></tr>
 * <tr><td>{@code struct file} on a block device, {@code def_blk_fops}</td>
 *     <td>{@link blksim.kernel.fs.BlockDeviceFile}</td></tr>
 * <tr><td>{@code struct io_ring_ctx}</td><td>{@link blksim.kernel.iouring.IoRing}</td></tr>
 * <tr><td>{@code struct kioctx}</td><td>{@link blksim.kernel.aio.KioCtx}</td></tr>
 * </table>
 */
package blksim.kernel.syscall;
