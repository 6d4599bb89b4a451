package blksim.kernel.block;

import java.util.Arrays;

/**
 * One hardware context of a blk-mq device ({@code struct blk_mq_hw_ctx}): its index, the CPUs
 * whose software queues map to it ({@code hctx->cpumask}, from the queue map), and its
 * {@link RequestQueue} holding the driver tags ({@code hctx->tags}, the device's queue depth), the
 * scheduler tags ({@code hctx->sched_tags}, {@code nr_requests}) and the scheduler's queued
 * requests.
 *
 * <p>Simplified: the scheduler's state lives in the hardware context's queue, so with several
 * hardware contexts and mq-deadline each context schedules alone; the kernel has one
 * {@code deadline_data} per {@code request_queue} that every context dispatches from. With the
 * kernel's default elevator choice this never arises (several hardware queues get {@code none},
 * {@code elevator_get_default()}).
 */
public final class HwCtx {
  private final int index;
  private final int[] cpus;
  private final RequestQueue queue;

  /**
   * @param index {@code hctx->queue_num}
   * @param cpus the CPU ids mapped to it, ascending
   * @param queue its queue
   */
  public HwCtx(int index, int[] cpus, RequestQueue queue) {
    if (cpus.length == 0) {
      throw new IllegalArgumentException("hardware context " + index + " has no CPU");
    }
    this.index = index;
    this.cpus = cpus.clone();
    this.queue = queue;
  }

  /** {@code hctx->queue_num}. */
  public int index() {
    return index;
  }

  /** The CPU ids mapped to this context, ascending. */
  public int[] cpus() {
    return cpus.clone();
  }

  /** Whether exactly one CPU submits here: its state is then touched only by that CPU. */
  public boolean cpuLocal() {
    return cpus.length == 1;
  }

  /** Its queue: tags, scheduler tags, scheduler. */
  public RequestQueue queue() {
    return queue;
  }

  @Override
  public String toString() {
    return "hctx" + index + Arrays.toString(cpus);
  }
}
