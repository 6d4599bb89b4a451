package blksim.kernel.sched;

/**
 * Costs and latencies of the scheduler, from the machine profile (kernel-model.md §1.5, §1.7).
 *
 * @param ctxSwitchNs CPU time of one context switch, charged as system time to the task switched
 *     in (direct cost plus cache refill)
 * @param idleExitNs time for an idle CPU to start handling an interrupt (idle-state exit)
 * @param wakeupLatencyNs time from a wakeup on one CPU to the wakeup arriving at another CPU (IPI);
 *     also the run's lookahead
 */
public record SchedParams(long ctxSwitchNs, long idleExitNs, long wakeupLatencyNs) {

  public SchedParams {
    if (ctxSwitchNs < 0) {
      throw new IllegalArgumentException("ctxSwitchNs must be >= 0, was " + ctxSwitchNs);
    }
    if (idleExitNs < 0) {
      throw new IllegalArgumentException("idleExitNs must be >= 0, was " + idleExitNs);
    }
    if (wakeupLatencyNs <= 0) {
      throw new IllegalArgumentException("wakeupLatencyNs must be > 0, was " + wakeupLatencyNs);
    }
  }
}
