package blksim.kernel.dm;

import blksim.kernel.block.BlockLayerParams;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.DriverCpu;
import blksim.kernel.device.DeviceParams;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.timer.TimerParams;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * A device-mapper device, {@code /dev/mapper/<name>}: what {@code dmsetup create <name>} is given
 * (its table), the dm-delay version of the simulated kernel, and the CPU costs of the DM model
 * (kernel-model.md §8.1-8.4).
 *
 * <p>Build it with {@link #of}, which parses the table and checks it against the devices declared
 * before it, and build its queue on each CPU with
 * {@link #newQueue(CpuComponent, BlockLayerParams, TimerParams, Function)}, giving the queues of
 * those devices on the same CPU. The generic
 * {@link #newQueue(DriverCpu, BlockLayerParams, SplittableRandom)} cannot resolve them and
 * refuses.
 *
 * <table>
 * <caption>Defaults and their sources</caption>
 * <tr><th>field</th><th>default</th><th>source</th></tr>
 * <tr><td>{@code delayVersion}</td><td>{@link DelayVersion#V6_7}</td><td>[S] the merged
 *     version measured in thread 3 (§12.3).</td></tr>
 * <tr><td>{@code pollBatchNs}</td><td>0</td><td>[A] one burst per pass of the kthread's busy
 *     poll: exact.</td></tr>
 * </table>
 *
 * @param name the mapped device's name ({@code dm-delay-1ms}); fio names it
 *     {@code /dev/mapper/<name>}
 * @param table its table
 * @param blockSize its logical block size: the largest of its underlying devices' (the stacking
 *     limits), at least 512
 * @param delayVersion the dm-delay of the simulated kernel (mode rule and kthread loop)
 * @param pollBatchNs at most this much CPU time of the dm-delay kthread's busy poll is modelled as
 *     one burst between two {@code cond_resched()} calls; 0 models every pass of the loop
 *     (exact). A larger value saves events; a reschedule the kthread owes is then honoured up to
 *     this much later, and the moment each bio is found due is unchanged (a burst ends at the
 *     first pass after the bio's jiffy)
 * @param costs CPU costs of the DM core and the targets
 */
public record DmParams(String name, DmTable table, int blockSize, DelayVersion delayVersion,
    long pollBatchNs, DmCostParams costs) implements DeviceParams.Stacked {

  /** Default of {@link #delayVersion}, [S] thread 3's kernel. */
  public static final DelayVersion DEFAULT_DELAY_VERSION = DelayVersion.V6_7;
  /** Default of {@link #pollBatchNs}: exact, [A]. */
  public static final long DEFAULT_POLL_BATCH_NS = 0;
  /** Largest {@link #pollBatchNs} accepted: one second. */
  public static final long MAX_POLL_BATCH_NS = 1_000_000_000L;

  public DmParams {
    if (name == null || !name.matches("[A-Za-z0-9_.-]+")) {
      throw new IllegalArgumentException("name must be letters, digits, '_', '.', '-', was "
          + (name == null ? "null" : "'" + name + "'"));
    }
    if (table == null || delayVersion == null || costs == null) {
      throw new IllegalArgumentException("table, delayVersion and costs must be set");
    }
    if (blockSize < DmTable.SECTOR_SIZE || Integer.bitCount(blockSize) != 1) {
      throw new IllegalArgumentException("blockSize must be a power of 2 >= 512, was "
          + blockSize);
    }
    if (pollBatchNs < 0 || pollBatchNs > MAX_POLL_BATCH_NS) {
      throw new IllegalArgumentException("pollBatchNs must be in [0, " + MAX_POLL_BATCH_NS
          + "] ns, was " + pollBatchNs);
    }
    if (table.underlyingDevices().contains(name)) {
      throw new IllegalArgumentException("dm device " + name + " cannot map to itself");
    }
  }

  /**
   * Parses {@code tableText} and checks it against {@code declared} (device name → parameters of
   * a device declared before this one, or {@code null}): the devices exist and are large enough.
   * The logical block size is the largest of theirs. Table errors are
   * {@link DmTableException}s naming the table line and the field.
   */
  public static DmParams of(String name, String tableText, DelayVersion delayVersion,
      long pollBatchNs, DmCostParams costs, Function<String, DeviceParams> declared) {
    DmTable table = DmTable.parse(tableText);
    table.checkDevices(n -> n.equals(name) ? null : declared.apply(n));
    DmzTarget.checkTable(table, declared);
    int bs = DmTable.SECTOR_SIZE;
    for (String n : table.underlyingDevices()) {
      bs = Math.max(bs, declared.apply(n).blockSize());
    }
    return new DmParams(name, table, bs, delayVersion, pollBatchNs, costs);
  }

  /** The mapped device's size: where its table ends. */
  @Override
  public long sizeBytes() {
    return table.sizeBytes();
  }

  /**
   * Refuses: a mapped device needs its underlying devices' queues on the same CPU; use
   * {@link #newQueue(CpuComponent, BlockLayerParams, TimerParams, Function)}.
   */
  @Override
  public BlockQueue newQueue(DriverCpu cpu, BlockLayerParams blockLayer,
      SplittableRandom random) {
    throw new IllegalStateException("dm device " + name + " maps " + table.underlyingDevices()
        + "; build it with newQueue(cpu, blockLayer, timers, devices) and their queues on "
        + (cpu == null ? "its CPU" : "cpu/" + cpu.cpuId()));
  }

  /**
   * Builds the mapped device's queue on {@code cpu}: its targets (one instance each on this CPU)
   * mapping to {@code devices} (device name → that device's queue on {@code cpu}, or
   * {@code null}). Each dm-delay target adds its task to {@code cpu} (the
   * {@code dm-delay-flush-worker} kthread, or its kdelayd worker in timer mode); call before the
   * run starts.
   *
   * @param timers the machine's timer parameters; their HZ must be the scheduler's
   * @param kdelayd where timer-mode dm-delay targets run their work item: {@link Kdelayd#on} a
   *     workqueue system, or {@link Kdelayd#STANDALONE}
   */
  public DmQueue newQueue(CpuComponent cpu, BlockLayerParams blockLayer, TimerParams timers,
      Kdelayd kdelayd, Function<String, BlockQueue> devices) {
    return new DmQueue(this, cpu, blockLayer, timers, kdelayd, null, devices);
  }

  /**
   * {@link #newQueue(CpuComponent, BlockLayerParams, TimerParams, Kdelayd, Function)} with the
   * machine's dm-zoned targets ({@code dmz}, needed by a {@code zoned} line).
   */
  public DmQueue newQueue(CpuComponent cpu, BlockLayerParams blockLayer, TimerParams timers,
      Kdelayd kdelayd, DmzContext dmz, Function<String, BlockQueue> devices) {
    return new DmQueue(this, cpu, blockLayer, timers, kdelayd, dmz, devices);
  }

  /**
   * {@link #newQueue(CpuComponent, BlockLayerParams, TimerParams, Kdelayd, Function)} with
   * {@link Kdelayd#STANDALONE}: for models without a workqueue system.
   */
  public DmQueue newQueue(CpuComponent cpu, BlockLayerParams blockLayer, TimerParams timers,
      Function<String, BlockQueue> devices) {
    return newQueue(cpu, blockLayer, timers, Kdelayd.STANDALONE, devices);
  }
}
