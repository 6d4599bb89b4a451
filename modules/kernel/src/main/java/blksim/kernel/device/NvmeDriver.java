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
 * and {@code costs.nvme.complete}, no interrupt coalescing, no admin queue,
 * no BLK_STS_RESOURCE requeues; the drive's arbitration between submission queues is the media
 * model's booking order (commands in the order they are submitted).
 *
 * <p>Poll queues ({@code poll_queues} &gt; 0, {@link #poll}): a REQ_POLLED request (io_uring
 * hipri) is a command on a queue with no interrupt vector: when the media model finishes it its
 * CQE waits on the queue ({@code nvme_poll()} finds it by its phase bit) and the polling task,
 * woken from its spin ({@link #pollWaker}), completes it in its own context
 * ({@code nvme_poll_cq()} → {@code blk_mq_end_request()}) at no interrupt cost; that work is
 * inside the poll pass ({@code costs.io-uring.iopoll}), as null_blk's is. The same simplification
 * as {@link NullBlkDriver}'s: the poll queues are not hardware contexts of their own (a polled
 * request takes its tags from the submitting CPU's default context and waits on that
 * context's list); their number only shrinks the default map ({@link NvmeParams#hwQueues}).
 */
public final class NvmeDriver implements MqDriver {
  private final NvmeParams params;
  private final Ssd ssd;
  private final HwCtx[] hctxs;
  private final int[] cpuToHctx;
  /**
   * Each context's polled completions and the tasks polling it, by its request queue, with poll
   * queues; null without. Looked up, never iterated.
   */
  private final java.util.IdentityHashMap<blksim.kernel.block.RequestQueue, PollCq> pollCqs;

  /** A context's finished REQ_POLLED requests (its CQ) and the wakers of the tasks polling it. */
  private static final class PollCq {
    final java.util.ArrayDeque<Request> done = new java.util.ArrayDeque<>();
    final java.util.ArrayList<Runnable> wakers = new java.util.ArrayList<>();
  }

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
    if (params.pollQueues() > 0) {
      pollCqs = new java.util.IdentityHashMap<>();
      for (HwCtx h : hctxs) {
        pollCqs.put(h.queue(), new PollCq());
      }
    } else {
      pollCqs = null;
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
    if (pollCqs != null && rq.bios().get(0).hasFlag(blksim.kernel.block.Bio.REQ_POLLED)) {
      PollCq cq = pollCqs.get(rq.queue());
      rq.submitCpu().callAfter(done - now, () -> {
        cq.done.add(rq);
        for (int i = 0; i < cq.wakers.size(); i++) {
          cq.wakers.get(i).run();
        }
      });
      return;
    }
    rq.submitCpu().callAfter(done - now, () -> rq.queue().hardwareDone(rq));
  }

  /** Whether the device has poll queues ({@code poll_queues} &gt; 0). */
  @Override
  public boolean polled() {
    return pollCqs != null;
  }

  /**
   * {@code nvme_poll()}: every polled request of {@code q} the drive has finished ends now, in
   * the polling task's context on {@code cpu}, without an interrupt; returns how many.
   */
  @Override
  public int poll(blksim.kernel.block.RequestQueue q, DriverCpu cpu) {
    PollCq cq = pollCqs == null ? null : pollCqs.get(q);
    if (cq == null) {
      return 0;
    }
    int n = 0;
    Request rq;
    while ((rq = cq.done.poll()) != null) {
      q.endRequestInline(rq, cpu);
      n++;
    }
    return n;
  }

  /** A task polls {@code q}: {@code waker} ends its spin when a polled request finishes. */
  @Override
  public void pollWaker(blksim.kernel.block.RequestQueue q, Runnable waker) {
    PollCq cq = pollCqs == null ? null : pollCqs.get(q);
    if (cq != null) {
      cq.wakers.add(waker);
    }
  }
}
