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
  /** This CPU's cache footprint when cache-cold first touches are modelled, else null. */
  private CacheFootprint footprint;
  private int footprintDevice;
  private blksim.engine.CostDistribution coldPage;
  private blksim.engine.CostDistribution coldPath;
  private java.util.SplittableRandom coldRandom;
  /** Whether this CPU has run the driver's submission path for this device yet. */
  private boolean pathWarm;

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
   * submission path to it and {@code bio_endio()} (but not the bio's own end_io callback). A
   * pure function of the bio and the parameters, unless a cost is a distribution (then drawn
   * once per bio: {@link #issue} reuses what {@link #submitCostNs} returned for the same bio).
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
    long ns = footprint == null ? serviceNs(bio) : serviceNs(bio) + coldNs(bio);
    costBio = bio;
    costNs = ns;
    return ns;
  }

  /** The bio {@link #submitCostNs} was last asked about and its answer (issue reuses it). */
  private Bio costBio;
  private long costNs;

  /**
   * Models cache-cold first touches on this queue (issue 10 item 9, {@code kernel.cache-cold}):
   * a read or write pays {@code coldPage} (drawn per cold page) for each page of the device that
   * is not in {@code footprint}, this CPU's, and the first bio this CPU submits to the device
   * pays {@code coldPath} once (the driver's code and the device's structures, cold on this CPU).
   * {@code random} is this queue's own stream, drawn from only for a cost that is not a constant
   * (it may be null when both are). Before the first bio.
   *
   * <p>Charged in {@link #submitCostNs}, where the pages are touched; the disk counters' ticks
   * ({@link #issue}) include it when the issued bio is the one costed (not for a dm clone
   * costed on a copy: simplified).
   */
  public final void coldTouches(CacheFootprint footprint, int device,
      blksim.engine.CostDistribution coldPage, blksim.engine.CostDistribution coldPath,
      java.util.SplittableRandom random) {
    if ((!coldPage.isConstant() || !coldPath.isConstant()) && random == null) {
      throw new IllegalArgumentException("a cold-touch distribution needs a stream");
    }
    if (device < 0 || device >= 1 << 15) {
      throw new IllegalArgumentException("device index out of range: " + device);
    }
    this.footprint = footprint;
    this.footprintDevice = device;
    this.coldPage = coldPage;
    this.coldPath = coldPath;
    this.coldRandom = random;
  }

  /** The cold-touch cost of {@code bio}, touching its pages; see {@link #coldTouches}. */
  private long coldNs(Bio bio) {
    long ns = 0;
    if (!pathWarm) {
      pathWarm = true;
      ns += coldPath.sampleNs(coldRandom);
    }
    if (bio.op() != ReqOp.READ && bio.op() != ReqOp.WRITE) {
      return ns;
    }
    long cold = footprint.touch(footprintDevice, bio.firstPage(), bio.pageCount());
    if (cold == 0) {
      return ns;
    }
    if (coldPage.isConstant()) {
      return ns + cold * coldPage.sampleNs(null);
    }
    for (long i = 0; i < cold; i++) {
      ns += coldPage.sampleNs(coldRandom);
    }
    return ns;
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
    // The time charged for this bio, when it was (a distribution is drawn once per bio, and a
    // cold touch counted once); else, e.g. for a dm clone costed on a copy, the driver's time.
    long ns = bio == costBio ? costNs : serviceNs(bio);
    costBio = null;
    counters.doneInline(bio.op(), bio.sizeBytes(), ns, cpu.now());
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
