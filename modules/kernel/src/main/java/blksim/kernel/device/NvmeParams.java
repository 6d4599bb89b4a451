package blksim.kernel.device;

import blksim.kernel.block.BlkMqRules;
import blksim.kernel.block.BlockLayerParams;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.DriverCpu;
import blksim.kernel.block.MqDeadlineParams;
import blksim.kernel.block.RequestQueueParams;
import blksim.kernel.block.RequestQueueParams.Scheduler;
import java.util.SplittableRandom;

/**
 * A PCIe NVMe SSD as the kernel's nvme-pci driver presents it ({@code type = nvme} in a
 * scenario): several blk-mq hardware queues over one {@link Ssd} media model, through
 * {@link NvmeDriver}.
 *
 * <table>
 * <caption>Defaults and their sources</caption>
 * <tr><th>field</th><th>default</th><th>source</th></tr>
 * <tr><td>{@code maxIoQueues}</td><td>128</td><td>[A] I/O queue pairs the controller grants
 *     (Set Features, Number of Queues); datacenter controllers grant 64-128, a client Samsung
 *     PM981 reports 32 (ssdmeter.github.io). The driver asks for one per possible CPU
 *     ({@code nvme_max_io_queues()}), so the hardware queues are min(CPUs, this).</td></tr>
 * <tr><td>{@code ioQueueDepth}</td><td>1024</td><td>[S] drivers/nvme/host/pci.c module parameter
 *     {@code io_queue_depth} (default 1024); {@code q_depth = min(MQES + 1, io_queue_depth)},
 *     the tag set's {@code queue_depth} one less, 1023 ({@code nvme_alloc_io_tag_set()}: sqsize
 *     = q_depth - 1; before 6.2 {@code min(q_depth, BLK_MQ_MAX_DEPTH) - 1} in pci.c): one
 *     submission-queue slot stays empty so that a full queue differs from an empty
 *     one</td></tr>
 * <tr><td>scheduler</td><td>auto: none with several hardware queues</td><td>[S] block/elevator.c
 *     {@code elevator_get_default()}: mq-deadline only for a single hardware queue (or shared
 *     tags), none otherwise</td></tr>
 * <tr><td>{@code maxBytes}</td><td>512 KiB</td><td>[D] min(MDTS, max_sectors_kb, segments): the
 *     request is bounded by max_segments 128 x 4 KiB pages of a fio buffer = 512 KiB, below a
 *     Samsung drive's MDTS (PM981: 2048 KiB, ssdmeter.github.io; [A] for the PM9A3) and the
 *     block layer's 1280 KiB default max_sectors_kb</td></tr>
 * <tr><td>{@code maxSegments}</td><td>128</td><td>[S] pci.c {@code NVME_MAX_SEGS} (128 in 6.x
 *     trees; 127 in older ones)</td></tr>
 * </table>
 * The media defaults ({@link #DEFAULT_DRIVE}) are derived from the Samsung PM9A3 (U.2, PCIe 4.0
 * x4, 7.68 TB) datasheet figures: 6,500 MB/s sequential read, 3,500 MB/s sequential write,
 * 900K IOPS 4 KiB random read, 200K IOPS 4 KiB random write (Samsung, as reported by
 * computerbase.de and heise.de, May 2020). See {@link #DEFAULT_DRIVE} for the derivation.
 *
 * <p>Poll queues ({@link #pollQueues}, pci.c's {@code poll_queues}, default 0 [S]): the driver
 * asks the controller for one I/O queue per CPU plus the poll queues ({@code
 * nvme_max_io_queues()}), keeps at least one of those it gets for the default map
 * ({@code nvme_setup_irqs()}: {@code poll_queues = min(nr_poll_queues, nr_io_queues - 1)}) and
 * gives the poll queues no interrupt vector; so the default map has min(CPUs, io-queues -
 * poll-queues) queues ({@link #hwQueues}). A REQ_POLLED request (io_uring hipri) then completes
 * only when its submitter polls ({@link NvmeDriver#poll}); without poll queues hipri behaves as
 * on any device without them (refused on 6.11+, unpolled before). No separate read/write maps
 * ({@code write_queues} = 0). The completion interrupt
 * runs on the submitting CPU: with a queue per CPU that is the queue's own MSI-X vector's CPU;
 * with fewer queues the vector's effective CPU is not modelled.
 *
 * @param name the disk's name ({@code nvme0n1})
 * @param sizeBytes capacity
 * @param blockSize logical block size, 512 or 4096
 * @param maxIoQueues I/O queues the controller grants
 * @param ioQueueDepth {@code io_queue_depth}: submission queue entries, one more than the tags
 * @param scheduler the I/O scheduler, or null for the kernel's choice
 * @param nrRequests {@code nr_requests}, or 0 for the kernel's default
 * @param maxBytes largest request
 * @param maxSegments most segments per request
 * @param rules the kernel version's plugging and run rules
 * @param submitCostNs CPU time per bio through blk-mq to the driver ({@code costs.nvme.submit})
 * @param completionCostNs interrupt time per request ({@code costs.nvme.complete})
 * @param drive the media model's parameters (its queue depth is ignored: the tags bound it)
 * @param pollQueues {@code poll_queues}: queues with no interrupt that REQ_POLLED requests
 *     complete on when polled; 0 for none; below {@code maxIoQueues}
 */
public record NvmeParams(String name, long sizeBytes, int blockSize, int maxIoQueues,
    int ioQueueDepth, Scheduler scheduler, int nrRequests, long maxBytes, int maxSegments,
    BlkMqRules rules, long submitCostNs, long completionCostNs, SsdParams drive,
    int pollQueues) implements DeviceParams {

  /** The device without poll queues ({@code poll_queues} = 0, the module's default). */
  public NvmeParams(String name, long sizeBytes, int blockSize, int maxIoQueues,
      int ioQueueDepth, Scheduler scheduler, int nrRequests, long maxBytes, int maxSegments,
      BlkMqRules rules, long submitCostNs, long completionCostNs, SsdParams drive) {
    this(name, sizeBytes, blockSize, maxIoQueues, ioQueueDepth, scheduler, nrRequests, maxBytes,
        maxSegments, rules, submitCostNs, completionCostNs, drive, 0);
  }

  /** These parameters with {@code poll_queues} of {@code n}. */
  public NvmeParams withPollQueues(int n) {
    return new NvmeParams(name, sizeBytes, blockSize, maxIoQueues, ioQueueDepth, scheduler,
        nrRequests, maxBytes, maxSegments, rules, submitCostNs, completionCostNs, drive, n);
  }

  /** Default of {@link #maxIoQueues} [A]. */
  public static final int DEFAULT_MAX_IO_QUEUES = 128;
  /** Default of {@link #ioQueueDepth}: pci.c's {@code io_queue_depth} [S]. */
  public static final int DEFAULT_IO_QUEUE_DEPTH = 1024;
  /** Default of {@link #maxBytes} [D]. */
  public static final long DEFAULT_MAX_BYTES = 512 * 1024;
  /** Default of {@link #maxSegments}: {@code NVME_MAX_SEGS} [S]. */
  public static final int DEFAULT_MAX_SEGMENTS = 128;

  /**
   * The media defaults, from the PM9A3 U.2 7.68 TB datasheet figures (6,500 MB/s sequential
   * read, 3,500 MB/s sequential write, 900K 4 KiB random read IOPS):
   * <ul>
   *   <li>{@code readLatencyNs} 75 us [A]: a TLC page read with the controller's overhead, so
   *       that a 4 KiB read at QD1 takes ~76 us at the device (typical of Gen4 TLC drives,
   *       70-90 us; the datasheet gives no latency).</li>
   *   <li>{@code channels} 120 [D]: the model's "channel" here stands for an independent flash
   *       unit (die/plane), not a controller channel. Sequential read needs channels x 4 KiB /
   *       75 us >= 6,500 MB/s, so channels >= 119; 120 gives 6.55 GB/s, so the link (below)
   *       binds. Random 4 KiB reads at N outstanding over C LBA-striped units each busy L:
   *       about C / L x N / (N + C - 1) = 1.6M x 128 / 247 = 829K IOPS at N = 128 (4 jobs x
   *       QD32, [A] the datasheet's test point), 8% below 900K; the simulation gives the
   *       figure: 899K IOPS with 4 io_uring jobs x iodepth 32 (NvmeTest).</li>
   *   <li>{@code bandwidthBytesPerSec} 6,500 MB/s [S]: the sequential read figure (PCIe 4.0 x4
   *       carries ~7.9 GB/s raw).</li>
   *   <li>{@code writeLatencyNs} 140 us [D]: 120 x 4 KiB / 140 us = 3.51 GB/s, the sequential
   *       write figure. The model has no garbage collection and no difference between
   *       sequential and random access, so 4 KiB random writes reach ~850K IOPS, not the
   *       datasheet's 200K (a preconditioned steady state); and a QD1 write takes 140 us,
   *       where a drive acknowledges from its cache in ~20 us.</li>
   *   <li>{@code pageBytes} 4 KiB [A]: the FTL's mapping unit.</li>
   * </ul>
   */
  public static final SsdParams DEFAULT_DRIVE = new SsdParams(7_680_000_000_000L, 120,
      6_500_000_000L, 75_000, 140_000, 65536, 4096);

  public NvmeParams {
    if (sizeBytes <= 0 || sizeBytes % 4096 != 0) {
      throw new IllegalArgumentException("size must be a positive multiple of 4 KiB, was "
          + sizeBytes);
    }
    if (blockSize != 512 && blockSize != 4096) {
      throw new IllegalArgumentException("bs must be 512 or 4096, was " + blockSize);
    }
    if (maxIoQueues < 1 || maxIoQueues > 65535) {
      throw new IllegalArgumentException("io-queues must be in [1, 65535], was " + maxIoQueues);
    }
    if (ioQueueDepth < 2 || ioQueueDepth > 65536) {
      throw new IllegalArgumentException("io-queue-depth must be in [2, 65536], was "
          + ioQueueDepth);
    }
    if (nrRequests < 0 || nrRequests > 65536) {
      throw new IllegalArgumentException("nr-requests must be in [1, 65536], was " + nrRequests);
    }
    if (maxBytes < blockSize || maxBytes % 512 != 0) {
      throw new IllegalArgumentException("max-sectors must be a multiple of 512 bytes of at"
          + " least bs, was " + maxBytes);
    }
    if (drive.capacityBytes() != sizeBytes) {
      throw new IllegalArgumentException("the drive's capacity " + drive.capacityBytes()
          + " differs from size " + sizeBytes);
    }
    if (pollQueues < 0 || pollQueues >= maxIoQueues) {
      throw new IllegalArgumentException("poll-queues must be in [0, io-queues - 1 = "
          + (maxIoQueues - 1) + "], was " + pollQueues);
    }
    java.util.Objects.requireNonNull(rules, "rules");
  }

  /** Driver tags per hardware queue: {@code io_queue_depth - 1}. */
  public int tagsPerQueue() {
    return ioQueueDepth - 1;
  }

  /**
   * Default-map hardware queues on a machine of {@code nCpus} CPUs: of the min(CPUs +
   * poll-queues, the controller's) I/O queues, those that are not poll queues, i.e.
   * min(CPUs, the controller's - poll-queues).
   */
  public int hwQueues(int nCpus) {
    return Math.min(nCpus, maxIoQueues - pollQueues);
  }

  /** The scheduler with {@code hwQueues} hardware queues: the given one, else the kernel's. */
  public Scheduler schedulerFor(int hwQueues) {
    return RequestQueueParams.schedulerFor(scheduler, hwQueues);
  }

  /** {@code nr_requests} with {@code hwQueues} hardware queues. */
  public int nrRequestsFor(int hwQueues) {
    return nrRequests != 0 ? nrRequests
        : RequestQueueParams.defaultNrRequests(tagsPerQueue(), schedulerFor(hwQueues));
  }

  /** The request-queue parameters of each of {@code hwQueues} hardware contexts. */
  public RequestQueueParams queueParams(int hwQueues) {
    return new RequestQueueParams(name, sizeBytes, blockSize, tagsPerQueue(),
        nrRequestsFor(hwQueues), schedulerFor(hwQueues), maxBytes, maxSegments,
        MqDeadlineParams.DEFAULTS, rules, submitCostNs, completionCostNs);
  }

  /**
   * The media model's parameters on {@code nCpus} CPUs: its queue depth is every hardware
   * queue's tags, which the queues already bound.
   */
  public SsdParams driveFor(int nCpus) {
    return drive.withQueueDepth((int) Math.min(Integer.MAX_VALUE,
        (long) (hwQueues(nCpus) + pollQueues) * tagsPerQueue()));
  }

  /**
   * A stand-alone view on {@code cpu} alone (for tests): an {@link NvmeDriver} with one hardware
   * queue. Scenarios build one driver per device and attach every CPU.
   */
  @Override
  public BlockQueue newQueue(DriverCpu cpu, BlockLayerParams blockLayer,
      SplittableRandom random) {
    int[] map = new int[cpu.cpuId() + 1];
    return new NvmeDriver(this, map, 1, blksim.kernel.block.Kblockd.INLINE).attach(cpu);
  }
}
