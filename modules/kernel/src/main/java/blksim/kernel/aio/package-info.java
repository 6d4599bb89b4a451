/**
 * Linux native AIO ({@code fs/aio.c}), the kernel side of fio's {@code libaio} engine:
 * {@link blksim.kernel.aio.KioCtx} ({@code struct kioctx}) with {@code io_submit()} and
 * {@code io_getevents()}.
 */
package blksim.kernel.aio;
