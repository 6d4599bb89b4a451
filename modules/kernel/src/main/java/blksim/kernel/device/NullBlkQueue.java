package blksim.kernel.device;

import blksim.kernel.block.Bio;
import blksim.kernel.block.BioEndIo;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.DiskCounters;
import blksim.kernel.block.Errno;
import blksim.kernel.block.DriverCpu;
import java.util.ArrayDeque;

/**
 * One hardware context of a null_blk device, mapped to one CPU: its driver tags and its
 * completion path ({@code null_queue_rq()}, {@code null_handle_cmd()}, {@code end_cmd()}).
 *
 * <p>Completion follows {@code irqmode}: NONE completes inside {@code queue_rq}; SOFTIRQ raises a
 * softirq on the submitting CPU; TIMER arms an hrtimer of {@code completion_nsec} on the
 * submitting CPU. Each completion costs {@code completionCostNs} of interrupt time there.
 *
 * <p>Tags: a request takes a driver tag in {@code queue_rq}; with none free, a blocking
 * submitter waits for one (its {@code onTagFree} runs when a tag comes back, in FIFO order), and a
 * REQ_NOWAIT submitter gets the bio back at once with -EAGAIN and is not queued (mirrors
 * {@code blk_mq_get_new_requests()} failing with BLK_MQ_REQ_NOWAIT, then
 * {@code bio_wouldblock_error()}). A blk-mq queue supports nowait (QUEUE_FLAG_NOWAIT is part of
 * its default flags), so {@code submit_bio_noacct()} never rejects a REQ_NOWAIT bio here.
 *
 * <p>Simplified: every CPU has its own hardware context with {@code hw_queue_depth} tags
 * (null_blk with {@code submit_queues} = nr_cpus); tags shared between CPUs are not modelled.
 * Owned by its {@link DriverCpu}.
 */
public final class NullBlkQueue implements BlockQueue {
  private final NullBlkParams params;
  private final DriverCpu cpu;
  private final DiskCounters counters;
  private final ArrayDeque<Runnable> tagWaiters = new ArrayDeque<>();
  private int tagsInUse;

  public NullBlkQueue(NullBlkParams params, DriverCpu cpu) {
    this.params = params;
    this.cpu = cpu;
    this.counters = new DiskCounters(params.name());
  }

  @Override
  public String diskName() {
    return params.name();
  }

  @Override
  public long capacityBytes() {
    return params.sizeBytes();
  }

  @Override
  public int logicalBlockSize() {
    return params.blockSize();
  }

  @Override
  public long submitCostNs(Bio bio) {
    return params.submitCostNs();
  }

  /** blk-mq: QUEUE_FLAG_NOWAIT is set by default. */
  @Override
  public boolean supportsNowait() {
    return true;
  }

  @Override
  public boolean issue(Bio bio, BioEndIo endIo, Runnable onTagFree) {
    if (tagsInUse == params.hwQueueDepth()) {
      if (bio.nowait()) {
        endIo.endIo(bio, -Errno.EAGAIN);
        return true;
      }
      tagWaiters.add(onTagFree);
      return false;
    }
    tagsInUse++;
    long start = cpu.now();
    counters.start(start);
    Runnable complete = () -> complete(bio, endIo, start);
    switch (params.irqmode()) {
      case NONE:
        complete.run();
        break;
      case SOFTIRQ:
        cpu.interrupt(params.completionCostNs(), complete);
        break;
      case TIMER:
        cpu.callAfter(params.completionNs(),
            () -> cpu.interrupt(params.completionCostNs(), complete));
        break;
      default:
        throw new IllegalStateException("irqmode " + params.irqmode());
    }
    return true;
  }

  private void complete(Bio bio, BioEndIo endIo, long start) {
    counters.done(bio.op(), bio.sizeBytes(), start, cpu.now());
    tagsInUse--;
    endIo.endIo(bio, 0);
    Runnable waiter = tagWaiters.poll();
    if (waiter != null) {
      waiter.run();
    }
  }

  @Override
  public DiskCounters counters() {
    return counters;
  }

  /** Submitters now waiting for a tag. */
  public int tagWaiters() {
    return tagWaiters.size();
  }

  /** Tags in use now. */
  public int tagsInUse() {
    return tagsInUse;
  }
}
