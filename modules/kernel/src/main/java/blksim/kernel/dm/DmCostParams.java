package blksim.kernel.dm;

/**
 * CPU costs of the device-mapper model: the DM core and the linear, zero and delay targets. Each
 * is CPU time in system mode (or softirq time for {@link #delayTimerNs}) of the context named
 * below; none is measured by a public source, so all are [A] calibration values for the machine
 * profile (kernel-model.md §8, §12.3 "per-I/O CPU cost").
 *
 * <table>
 * <caption>Defaults and their sources</caption>
 * <tr><th>field</th><th>default</th><th>source</th></tr>
 * <tr><td>{@code coreNs}</td><td>600 ns</td><td>[A] per clone, in the submitter's context:
 *     {@code dm_submit_bio()}, {@code dm_split_and_process_bio()}, {@code alloc_io()} /
 *     {@code alloc_tio()} from the bioset, {@code __map_bio()}, and the completion side
 *     ({@code clone_endio()}, {@code dm_io_dec_pending()}, {@code bio_endio()} of the original,
 *     io accounting); a few hundred instructions and cache misses on x86.</td></tr>
 * <tr><td>{@code linearMapNs}</td><td>50 ns</td><td>[A] {@code linear_map()}: one addition and
 *     {@code bio_set_dev()}.</td></tr>
 * <tr><td>{@code zeroMapNs}</td><td>50 ns</td><td>[A] {@code zero_map()} without the fill, and
 *     the inline {@code bio_endio()}.</td></tr>
 * <tr><td>{@code zeroFillPerPageNs}</td><td>200 ns</td><td>[A] {@code zero_fill_bio()}: a
 *     4 KiB {@code memset} per page of a read.</td></tr>
 * <tr><td>{@code delayMapNs}</td><td>150 ns</td><td>[A] {@code delay_map()} and
 *     {@code delay_bio()} for a delayed bio: {@code msecs_to_jiffies()}, {@code list_add_tail()}
 *     under the list lock, then {@code wake_up_process()} or {@code queue_timeout()}.</td></tr>
 * <tr><td>{@code delayPollNs}</td><td>300 ns</td><td>[A] one pass of
 *     {@code flush_worker_fn()} with nothing due, in the kthread: the locks,
 *     {@code list_replace_init()} / {@code list_splice()}, {@code list_empty()},
 *     {@code cond_resched()}; the walk over the list is {@code delayScanPerBioNs} more per
 *     bio.</td></tr>
 * <tr><td>{@code delayScanPerBioNs}</td><td>20 ns</td><td>[A] per list entry visited by
 *     {@code flush_delayed_bios()}: {@code cond_resched()} and {@code time_after_eq()} on a
 *     {@code dm_delay_info} that is likely a cache miss.</td></tr>
 * <tr><td>{@code delayTimerNs}</td><td>500 ns</td><td>[A] {@code handle_delayed_timer()} in
 *     the timer softirq: {@code queue_work()} on kdelayd and the wakeup of its worker (the tick
 *     and the softirq entry are {@code TimerParams.timerSoftirqLatencyNs}).</td></tr>
 * <tr><td>{@code delayWorkNs}</td><td>1,000 ns</td><td>[A] one run of
 *     {@code flush_expired_bios()} in a kworker, besides the walk and the resubmissions:
 *     {@code process_one_work()}'s bookkeeping, the locks and {@code queue_timeout()}.</td></tr>
 * </table>
 *
 * @param coreNs DM core CPU time per clone, submission and completion together
 * @param linearMapNs dm-linear's {@code map()}
 * @param zeroMapNs dm-zero's {@code map()}, fill excluded
 * @param zeroFillPerPageNs zero-filling one 4 KiB page of a dm-zero read
 * @param delayMapNs dm-delay's {@code map()} of a bio it delays
 * @param delayPollNs one pass of the dm-delay kthread's loop while bios are pending, walk
 *     excluded; positive
 * @param delayScanPerBioNs visiting one delayed bio in {@code flush_delayed_bios()}
 * @param delayTimerNs the dm-delay timer's callback in softirq: {@code queue_work()}, wakeup
 * @param delayWorkNs one run of the kdelayd work item, walk and resubmissions excluded
 */
public record DmCostParams(long coreNs, long linearMapNs, long zeroMapNs, long zeroFillPerPageNs,
    long delayMapNs, long delayPollNs, long delayScanPerBioNs, long delayTimerNs,
    long delayWorkNs) {

  /** Default of {@link #coreNs}, [A]. */
  public static final long DEFAULT_CORE_NS = 600;
  /** Default of {@link #linearMapNs}, [A]. */
  public static final long DEFAULT_LINEAR_MAP_NS = 50;
  /** Default of {@link #zeroMapNs}, [A]. */
  public static final long DEFAULT_ZERO_MAP_NS = 50;
  /** Default of {@link #zeroFillPerPageNs}, [A]. */
  public static final long DEFAULT_ZERO_FILL_PER_PAGE_NS = 200;
  /** Default of {@link #delayMapNs}, [A]. */
  public static final long DEFAULT_DELAY_MAP_NS = 150;
  /** Default of {@link #delayPollNs}, [A]. */
  public static final long DEFAULT_DELAY_POLL_NS = 300;
  /** Default of {@link #delayScanPerBioNs}, [A]. */
  public static final long DEFAULT_DELAY_SCAN_PER_BIO_NS = 20;
  /** Default of {@link #delayTimerNs}, [A]. */
  public static final long DEFAULT_DELAY_TIMER_NS = 500;
  /** Default of {@link #delayWorkNs}, [A]. */
  public static final long DEFAULT_DELAY_WORK_NS = 1_000;
  /** Largest accepted cost, one second: a guard against unit mistakes. */
  public static final long MAX_COST_NS = 1_000_000_000L;

  /** The defaults above. */
  public static final DmCostParams DEFAULTS = new DmCostParams(DEFAULT_CORE_NS,
      DEFAULT_LINEAR_MAP_NS, DEFAULT_ZERO_MAP_NS, DEFAULT_ZERO_FILL_PER_PAGE_NS,
      DEFAULT_DELAY_MAP_NS, DEFAULT_DELAY_POLL_NS, DEFAULT_DELAY_SCAN_PER_BIO_NS,
      DEFAULT_DELAY_TIMER_NS, DEFAULT_DELAY_WORK_NS);

  public DmCostParams {
    cost("coreNs", coreNs);
    cost("linearMapNs", linearMapNs);
    cost("zeroMapNs", zeroMapNs);
    cost("zeroFillPerPageNs", zeroFillPerPageNs);
    cost("delayMapNs", delayMapNs);
    cost("delayPollNs", delayPollNs);
    if (delayPollNs == 0) {
      throw new IllegalArgumentException("delayPollNs must be > 0 (the kthread's busy poll must"
          + " take time, or it would never let virtual time advance), was 0");
    }
    cost("delayScanPerBioNs", delayScanPerBioNs);
    cost("delayTimerNs", delayTimerNs);
    cost("delayWorkNs", delayWorkNs);
  }

  private static void cost(String field, long ns) {
    if (ns < 0 || ns > MAX_COST_NS) {
      throw new IllegalArgumentException(field + " must be in [0, " + MAX_COST_NS + "] ns, was "
          + ns);
    }
  }
}
