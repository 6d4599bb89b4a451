package blksim.kernel.block;

/**
 * The tunables of mq-deadline ({@code /sys/block/DEV/queue/iosched/}, block/mq-deadline.c).
 *
 * <table>
 * <caption>Defaults and their sources</caption>
 * <tr><th>field</th><th>default</th><th>source</th></tr>
 * <tr><td>{@code readExpireNs}</td><td>500 ms</td><td>[S] {@code read_expire = HZ / 2}</td></tr>
 * <tr><td>{@code writeExpireNs}</td><td>5 s</td><td>[S] {@code write_expire = 5 * HZ}</td></tr>
 * <tr><td>{@code fifoBatch}</td><td>16</td><td>[S] {@code fifo_batch}</td></tr>
 * <tr><td>{@code writesStarved}</td><td>2</td><td>[S] {@code writes_starved}</td></tr>
 * <tr><td>{@code frontMerges}</td><td>true</td><td>[S] {@code front_merges = 1}</td></tr>
 * <tr><td>{@code prioAgingExpireNs}</td><td>10 s</td><td>[S] {@code prio_aging_expire = 10 * HZ}
 *     (Linux 5.17+)</td></tr>
 * </table>
 *
 * @param readExpireNs a read waits at most this long before it is served out of sector order
 * @param writeExpireNs likewise for a write
 * @param fifoBatch requests dispatched in sector order before the deadlines are checked again
 * @param writesStarved read batches that may pass waiting writes before a write batch
 * @param frontMerges whether bios may merge at the front of a queued request
 * @param prioAgingExpireNs a BE or IDLE request waiting this long goes before higher classes
 */
public record MqDeadlineParams(long readExpireNs, long writeExpireNs, int fifoBatch,
    int writesStarved, boolean frontMerges, long prioAgingExpireNs) {

  /** {@code prio_aging_expire}'s default, ns. */
  public static final long PRIO_AGING_EXPIRE_NS = 10_000_000_000L;

  /** The defaults above. */
  public static final MqDeadlineParams DEFAULTS =
      new MqDeadlineParams(500_000_000L, 5_000_000_000L, 16, 2, true);

  /** With the default {@code prio_aging_expire}. */
  public MqDeadlineParams(long readExpireNs, long writeExpireNs, int fifoBatch,
      int writesStarved, boolean frontMerges) {
    this(readExpireNs, writeExpireNs, fifoBatch, writesStarved, frontMerges,
        PRIO_AGING_EXPIRE_NS);
  }

  public MqDeadlineParams {
    if (readExpireNs < 0 || writeExpireNs < 0) {
      throw new IllegalArgumentException("read_expire and write_expire must be >= 0");
    }
    if (fifoBatch < 1) {
      throw new IllegalArgumentException("fifo_batch must be >= 1, was " + fifoBatch);
    }
    if (prioAgingExpireNs < 0) {
      throw new IllegalArgumentException("prio_aging_expire must be >= 0");
    }
    if (writesStarved < 0) {
      throw new IllegalArgumentException("writes_starved must be >= 0, was " + writesStarved);
    }
  }
}
