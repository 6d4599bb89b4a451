package blksim.kernel.workqueue;

import java.util.ArrayDeque;

/**
 * A {@code struct worker_pool} (kernel-model.md §4.1): kworkers and a shared FIFO
 * {@code worklist}. {@link PerCpuPool} lives inside its CPU and is concurrency-managed;
 * {@link UnboundPool} lives in an {@link UnboundPoolHost} and serves a pod of CPUs.
 */
public abstract class WorkerPool {
  final int id;
  final int cpu;
  final int nice;
  final int node;
  final int[] podCpus;
  final boolean strict;
  final ArrayDeque<QueuedWork> worklist = new ArrayDeque<>();
  /** Pwqs using the pool ({@code pool->refcnt}, wq_dump's {@code ref}). */
  int refcnt;

  WorkerPool(int id, int cpu, int nice, int node, int[] podCpus, boolean strict) {
    this.id = id;
    this.cpu = cpu;
    this.nice = nice;
    this.node = node;
    this.podCpus = podCpus;
    this.strict = strict;
  }

  /** {@code pool->id}. */
  public int id() {
    return id;
  }

  /** The pool's CPU, -1 for an unbound pool. */
  public int cpu() {
    return cpu;
  }

  /** Nice value of its workers. */
  public int nice() {
    return nice;
  }

  /** {@code pool->node}: its NUMA node, {@code NUMA_NO_NODE} (-1) if not tied to one. */
  public int node() {
    return node;
  }

  /** Number of items on the worklist. */
  public int worklistLength() {
    return worklist.size();
  }

  /** {@code pool->nr_workers}. */
  public abstract int nrWorkers();

  /** {@code pool->nr_idle}. */
  public abstract int nrIdle();

  /** {@code kick_pool()}: gets a worker going if the pool needs one; returns whether it did. */
  abstract boolean kick();
}
