package blksim.kernel.mm;

/**
 * The block layer's plug as the flusher uses it ({@code blk_start_plug()},
 * {@code blk_finish_plug()}, {@code blk_flush_plug()}), with the kernel's nesting: a start inside
 * a plug does nothing and only the outermost finish flushes. Provided by the wiring, so that mm
 * does not depend on the request layer's types; bios submitted while it is held collect in it.
 */
public interface FlusherPlug {

  /**
   * {@code blk_start_plug()} by {@code owner} (the kworker running the flusher): returns whether
   * this is the outermost start, which makes it {@code current->plug}.
   */
  boolean start(blksim.kernel.sched.Task owner);

  /**
   * {@code blk_finish_plug()} of a plug started with {@code outermost}: flushes if so. The
   * dispatch's CPU time is part of each bio's submission cost, paid when it was built.
   */
  void finish(blksim.kernel.sched.Task owner, boolean outermost);

  /** {@code blk_flush_plug(current, false)}: dispatches what the plug holds, synchronously. */
  void flush(blksim.kernel.block.DriverCpu cpu);

  /**
   * {@code submit_bio()} by the flusher: into the plug while one is held, else straight to the
   * queue; the protocol of {@link blksim.kernel.block.BlockQueue#issue}.
   */
  boolean submit(blksim.kernel.block.BlockQueue q, blksim.kernel.block.Bio bio,
      blksim.kernel.block.BioEndIo endIo, Runnable onTagFree);
}
