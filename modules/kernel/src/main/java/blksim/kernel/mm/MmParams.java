package blksim.kernel.mm;

/**
 * The memory-management settings of a scenario.
 *
 * @param dirty the vm.dirty_* sysctls
 * @param plugPolicy the flusher's plug policy ({@code kernel.writeback-plug})
 * @param reservedBytes memory the page cache cannot use (kernel, anonymous memory): dirtyable
 *     memory is the machine's memory less this ({@code machine.reserved-memory})
 * @param vmstatIntervalNs how often /proc/meminfo and /proc/vmstat are sampled into the JSON
 *     (0: never)
 * @param costs writeback and buffered-write CPU costs
 * @param readAheadKb {@code read_ahead_kb} of every device's bdi ({@code kernel.read-ahead-kb})
 * @param faults page-fault and mmap costs ({@code costs.mm.*})
 */
public record MmParams(DirtyParams dirty, WbPlugPolicy plugPolicy, long reservedBytes,
    long vmstatIntervalNs, WritebackParams costs, long readAheadKb, FaultCosts faults) {

  /** The settings with the default fault costs. */
  public MmParams(DirtyParams dirty, WbPlugPolicy plugPolicy, long reservedBytes,
      long vmstatIntervalNs, WritebackParams costs, long readAheadKb) {
    this(dirty, plugPolicy, reservedBytes, vmstatIntervalNs, costs, readAheadKb,
        FaultCosts.DEFAULT);
  }

  /** These settings with the fault costs {@code f}. */
  public MmParams withFaults(FaultCosts f) {
    return new MmParams(dirty, plugPolicy, reservedBytes, vmstatIntervalNs, costs, readAheadKb,
        f);
  }

  /** The settings with the default {@code read_ahead_kb}, 128. */
  public MmParams(DirtyParams dirty, WbPlugPolicy plugPolicy, long reservedBytes,
      long vmstatIntervalNs, WritebackParams costs) {
    this(dirty, plugPolicy, reservedBytes, vmstatIntervalNs, costs,
        BdiWriteback.DEFAULT_READ_AHEAD_KB);
  }

  /** These settings with {@code read_ahead_kb} = {@code kb}. */
  public MmParams withReadAheadKb(long kb) {
    return new MmParams(dirty, plugPolicy, reservedBytes, vmstatIntervalNs, costs, kb, faults);
  }

  public MmParams {
    if (dirty == null || plugPolicy == null || costs == null || faults == null) {
      throw new IllegalArgumentException("dirty, plugPolicy and costs must be given");
    }
    if (readAheadKb < 0) {
      throw new IllegalArgumentException("readAheadKb must be >= 0, was " + readAheadKb);
    }
    if (reservedBytes < 0 || vmstatIntervalNs < 0) {
      throw new IllegalArgumentException("reservedBytes and vmstatIntervalNs must be >= 0, were "
          + reservedBytes + " and " + vmstatIntervalNs);
    }
  }
}
