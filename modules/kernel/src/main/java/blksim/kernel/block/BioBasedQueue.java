package blksim.kernel.block;


/**
 * A synchronous bio-based driver as one CPU sees it: the path {@code submit_bio()} →
 * {@code submit_bio_noacct()} → {@code __submit_bio()} → {@code disk->fops->submit_bio()}, where
 * the driver does all the work (copy, compression, decompression) in the submitter's context and
 * calls {@code bio_endio()} before returning (brd, zram; kernel-model.md §5.2 step 4).
 *
 * <p>The driver's CPU time is {@link #serviceNs}; the submitter pays it, as system time, through
 * {@link #submitCostNs}, and {@link #issue} then completes the bio inline. A REQ_NOWAIT bio on a
 * device whose nowait switch is off is rejected by {@link BlockLayer#checkSubmit} at the cost of
 * {@link BlockLayerParams#nowaitRejectNs}, completes with -EOPNOTSUPP, and is not counted.
 *
 * <p>Accounting: each completed bio is counted with {@link DiskCounters#doneInline}, its ticks
 * being the driver's CPU time ({@code bio_start_io_acct()} at driver entry to
 * {@code bio_end_io_acct()} at exit, as zram does). Simplified: if the submitter is preempted in
 * the middle of the copy, the kernel's ticks would include the time off the CPU; these do not.
 *
 * <p>Owned by its {@link DriverCpu}; no state is shared between CPUs, so anything a real
 * driver keeps per device (brd's page tree, zram's slot table) is a parameter here, not state.
 */
public abstract class BioBasedQueue implements BlockQueue {
  private final String diskName;
  private final long capacityBytes;
  private final int logicalBlockSize;
  private final boolean nowait;
  private final BlockLayerParams blockLayer;
  private final DriverCpu cpu;
  private final DiskCounters counters;
  /** {@code q->blk_trace}: null unless the run is traced. */
  private blksim.kernel.blktrace.BlkTrace blkTrace;

  /**
   * @param diskName the disk's name ({@code ram0}, {@code zram0})
   * @param capacityBytes its capacity
   * @param logicalBlockSize its logical block size
   * @param nowait whether the driver declares QUEUE_FLAG_NOWAIT
   * @param blockLayer generic block-layer costs
   * @param cpu the CPU this queue belongs to
   */
  protected BioBasedQueue(String diskName, long capacityBytes, int logicalBlockSize,
      boolean nowait, BlockLayerParams blockLayer, DriverCpu cpu) {
    this.diskName = diskName;
    this.capacityBytes = capacityBytes;
    this.logicalBlockSize = logicalBlockSize;
    this.nowait = nowait;
    this.blockLayer = blockLayer;
    this.cpu = cpu;
    this.counters = new DiskCounters(diskName);
  }

  /**
   * CPU time of the driver's {@code ->submit_bio} for {@code bio}, including the generic
   * submission path to it and {@code bio_endio()} (but not the bio's own end_io callback). Must
   * be a pure function of the bio and the parameters.
   */
  protected abstract long serviceNs(Bio bio);

  @Override
  public final String diskName() {
    return diskName;
  }

  @Override
  public final long capacityBytes() {
    return capacityBytes;
  }

  @Override
  public final int logicalBlockSize() {
    return logicalBlockSize;
  }

  /** The driver's nowait switch: bio-based drivers opt in. */
  @Override
  public final boolean supportsNowait() {
    return nowait;
  }

  @Override
  public final long submitCostNs(Bio bio) {
    if (BlockLayer.checkSubmit(this, bio) != 0) {
      return blockLayer.nowaitRejectNs();
    }
    return serviceNs(bio);
  }

  /** Completes {@code bio} before returning; never waits, so always returns true. */
  @Override
  public final boolean issue(Bio bio, BioEndIo endIo, Runnable onTagFree) {
    int error = BlockLayer.checkSubmit(this, bio);
    if (error != 0) {
      endIo.endIo(bio, error);
      return true;
    }
    if (blkTrace != null) {
      blkTrace.queue(cpu, bio);
    }
    counters.doneInline(bio.op(), bio.sizeBytes(), serviceNs(bio), cpu.now());
    if (blkTrace != null) {
      blkTrace.bioComplete(cpu, bio, 0);
    }
    endIo.endIo(bio, 0);
    return true;
  }

  @Override
  public final DiskCounters counters() {
    return counters;
  }

  /** Traces this device's events into {@code t}. */
  public final void setBlkTrace(blksim.kernel.blktrace.BlkTrace t) {
    blkTrace = t;
  }

  @Override
  public final blksim.kernel.blktrace.BlkTrace blkTrace() {
    return blkTrace;
  }

  @Override
  public final DriverCpu cpu() {
    return cpu;
  }
}
