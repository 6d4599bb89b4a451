package blksim.kernel.workqueue;

import blksim.engine.Message;

/**
 * The workqueue model's messages between components (see the package comment for who owns
 * what). Every one is sent with a delay of at least the run's lookahead
 * ({@code SchedParams.wakeupLatencyNs()}, the IPI latency), whatever the partitioning, so results
 * never depend on placement. All are registered with Kryo (ids 1100-1139).
 */
public sealed interface WqMessage extends Message {

  /**
   * {@code __queue_work()} reaching the owner of the target pwq: a CPU (per-CPU wq) or an unbound
   * pool host. PENDING is already set at the item's home.
   *
   * @param wqId the workqueue
   * @param pwqKey the pwq: a CPU, a node (before 6.5) or {@link Workqueue#DFL_PWQ}
   * @param work the item
   */
  record QueueWork(int wqId, int pwqKey, WorkRef work) implements WqMessage {}

  /**
   * {@code queue_work()} of a built-in item from a CPU that is not its home: the home tests and
   * sets PENDING, then queues as if from {@code fromCpu}.
   *
   * @param itemKey the item ({@link WorkItem#key()})
   * @param wqId the workqueue
   * @param fromCpu the CPU the caller runs on
   * @param targetCpu {@code queue_work_on()}'s CPU, or -1
   */
  record QueueAtHome(long itemKey, int wqId, int fromCpu, int targetCpu) implements WqMessage {}

  /**
   * A host hands an item to one of its workers (or its rescuer) on the worker's CPU.
   *
   * @param workerKey the worker: {@code (pool << 32) | id}, or a rescuer key
   * @param poolId the pool the item was on
   * @param wqId its workqueue
   * @param pwqKey its pwq
   * @param work the item
   * @param seq its queueing order at the host (flush barriers)
   * @param rescue run by the rescuer
   */
  record RunWork(long workerKey, int poolId, int wqId, int pwqKey, WorkRef work, long seq,
      boolean rescue) implements WqMessage {}

  /** A worker's report to its host that an item finished (fields as in {@link RunWork}). */
  record WorkDone(long workerKey, int poolId, int wqId, int pwqKey, long itemKey, long seq,
      boolean rescue) implements WqMessage {}

  /**
   * To an item's home: its callback started ({@code set_work_pool_and_clear_pending()}): clear
   * PENDING and remember where it executes.
   *
   * @param itemKey the item
   * @param owner component index of the pool's owner
   * @param wqId the workqueue
   * @param pwqKey the pwq
   */
  record WorkStarted(long itemKey, int owner, int wqId, int pwqKey, long startNs)
      implements WqMessage {}

  /** To an item's home: its callback returned. */
  record WorkFinished(long itemKey) implements WqMessage {}

  /**
   * A host asks a CPU to create an unbound worker ({@code create_worker()}); the worker reports
   * {@link WorkerReady} when its kthread first runs.
   */
  record SpawnWorker(int poolId, int workerId, long creationDelayNs) implements WqMessage {}

  /** A new unbound worker is idle and ready. */
  record WorkerReady(int poolId, int workerId) implements WqMessage {}

  /**
   * A host culled an idle unbound worker ({@code idle_cull_fn()}, {@code set_worker_dying()}):
   * its kthread exits on its CPU.
   */
  record DestroyWorker(int poolId, int workerId) implements WqMessage {}

  /**
   * {@code flush_workqueue()} / {@code drain_workqueue()} asking one owner of the wq's pwqs to
   * answer when its items queued before the request (drain: all its items) have finished.
   */
  record Flush(long flushId, int requester, int wqId, boolean drain) implements WqMessage {}

  /** One owner's answer to {@link Flush}. */
  record FlushDone(long flushId) implements WqMessage {}

  /** A host's callback to itself (its timers). */
  record HostTimer(int slot) implements WqMessage {}

  /**
   * An owner's counters at a wq_monitor sample time, to the monitor collector.
   *
   * @param timeNs the sample time
   * @param counters {@code [wqId * PWQ_NR_STATS + stat]}
   */
  record Sample(long timeNs, long[] counters) implements WqMessage {}
}
