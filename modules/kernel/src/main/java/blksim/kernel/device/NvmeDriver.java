package blksim.kernel.device;

import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.DriverCpu;
import blksim.kernel.block.HwCtx;
import blksim.kernel.block.Kblockd;
import blksim.kernel.block.MqDriver;
import blksim.kernel.block.ReqOp;
import blksim.kernel.block.Request;
import blksim.kernel.block.RequestQueueParams;
import blksim.kernel.topology.Cpu;
import java.util.List;

/**
 * nvme-pci ({@code nvme_mq_ops}) below the shared request layer: one {@link HwCtx} per I/O
 * queue, min(CPUs, the controller's queues) of them, each a {@link
 * blksim.kernel.block.RequestQueue} with {@code io_queue_depth - 1} driver tags, its scheduler
 * tags and scheduler; CPUs mapped onto them as {@code blk_mq_map_queues()} spreads them
 * ({@link NullBlkDriver#mapQueues}, the same grouping; the PCI IRQ affinity spread,
 * {@code blk_mq_pci_map_queues()}, follows the same {@code group_cpus_evenly()}). A request that
 * gets a driver tag reaches {@link #queueRq} ({@code nvme_queue_rq()}): the command goes to the
 * one {@link Ssd} media model of the drive, which books its service at once; at its completion
 * time the queue's completion interrupt ends it on the submitting CPU ({@code nvme_irq()} on the
 * queue's MSI-X vector; with a queue per CPU, the vector's CPU).
 *
 * <p>The media model is one object shared by all hardware queues, called directly from every
 * CPU, so the scenario loader keeps all CPUs in one partition when an nvme device exists (as for
 * {@code ssd}). Simplified: no doorbell or SQE/CQE costs apart from {@code costs.nvme.submit}
 * and {@code costs.nvme.complete}, no interrupt coalescing, no poll queues, no admin queue,
 * no BLK_STS_RESOURCE requeues; the drive's arbitration between submission queues is the media
 * model's booking order (commands in the order they are submitted).
 */
public final class NvmeDriver implements MqDriver {
  private final NvmeParams params;
  private final Ssd ssd;
  private final HwCtx[] hctxs;
  private final int[] cpuToHctx;

  /** The device on a machine of {@code cpus}, its I/O queues mapped to them. */
  public NvmeDriver(NvmeParams params, List<Cpu> cpus, Kblockd kblockd) {
    this(params, NullBlkDriver.mapQueues(cpus, params.hwQueues(cpus.size())),
        params.hwQueues(cpus.size()), kblockd);
  }

  /**
   * The device with {@code nrHctx} hardware contexts, CPU {@code c} mapped to context
   * {@code cpuToHctx[c]}; queue runs through {@code kblockd}.
   */
  public NvmeDriver(NvmeParams params, int[] cpuToHctx, int nrHctx, Kblockd kblockd) {
    this.params = params;
    this.cpuToHctx = cpuToHctx.clone();
    this.ssd = new Ssd(params.driveFor(nrHctx));
    RequestQueueParams qp = params.queueParams(nrHctx);
    this.hctxs = new HwCtx[nrHctx];
    int[] n = new int[nrHctx];
    for (int m : cpuToHctx) {
      n[m]++;
    }
    int[][] mine = new int[nrHctx][];
    for (int h = 0; h < nrHctx; h++) {
      mine[h] = new int[n[h]];
      n[h] = 0;
    }
    for (int c = 0; c < cpuToHctx.length; c++) {
      int h = cpuToHctx[c];
      mine[h][n[h]++] = c;
    }
    for (int h = 0; h < nrHctx; h++) {
      hctxs[h] = new HwCtx(h, mine[h], new blksim.kernel.block.RequestQueue(qp, this, kblockd,
          true));
    }
  }

  /** The parameters. */
  public NvmeParams params() {
    return params;
  }

  /** The media model. */
  public Ssd ssd() {
    return ssd;
  }

  /** The hardware contexts. */
  public List<HwCtx> hctxs() {
    return List.of(hctxs);
  }

  /** The hardware context CPU {@code cpuId} submits to ({@code blk_mq_map_queue()}). */
  public HwCtx hctx(int cpuId) {
    return hctxs[cpuToHctx[cpuId]];
  }

  /** Maps {@code cpu}'s software queue to its hardware context; returns the CPU's view. */
  public BlockQueue attach(DriverCpu cpu) {
    return hctx(cpu.cpuId()).queue().attach(cpu);
  }

  /**
   * {@code nvme_queue_rq()}: the command is booked on the media model now; its completion
   * interrupt runs on the submitting CPU when the model says it is done.
   */
  @Override
  public void queueRq(Request rq, DriverCpu cpu) {
    long now = cpu.now();
    long done = ssd.submit(now, rq.sector(), rq.bytes(), rq.op() != ReqOp.READ);
    rq.submitCpu().callAfter(done - now, () -> rq.queue().hardwareDone(rq));
  }
}
