/**
 * Block device drivers (kernel-model.md §7), each as a per-CPU queue plus a parameter record.
 *
 * <p>Glossary (kernel identifier → Java):
 * <ul>
 *   <li>{@code drivers/block/null_blk} → {@link blksim.kernel.device.NullBlkDriver},
 *       {@link blksim.kernel.device.NullBlkParams}, {@code irqmode} →
 *       {@link blksim.kernel.device.IrqMode}</li>
 *   <li>{@code drivers/block/brd.c} ({@code brd_submit_bio()}, {@code brd_do_bvec()}) →
 *       {@link blksim.kernel.device.BrdQueue}, {@link blksim.kernel.device.BrdParams}</li>
 *   <li>{@code drivers/block/zram/zram_drv.c} ({@code zram_submit_bio()},
 *       {@code zram_bvec_read()}, {@code zram_read_from_zspool()}, {@code zram_write_page()}),
 *       ZRAM_SAME / ZRAM_HUGE → {@link blksim.kernel.device.ZramQueue},
 *       {@link blksim.kernel.device.ZramQueue.PageKind}, {@link blksim.kernel.device.ZramParams}</li>
 *   <li>any device's parameters → {@link blksim.kernel.device.DeviceParams}</li>
 * </ul>
 */
package blksim.kernel.device;
