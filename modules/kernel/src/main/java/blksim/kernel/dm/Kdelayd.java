package blksim.kernel.dm;

import blksim.kernel.sched.CpuComponent;
import blksim.kernel.workqueue.WorkItem;
import blksim.kernel.workqueue.Workqueue;
import blksim.kernel.workqueue.WorkqueueSystem;

/**
 * Where a timer-mode dm-delay target's work item, {@code flush_expired_bios}, runs: the
 * {@code kdelayd} workqueue ({@code alloc_workqueue("kdelayd", WQ_MEM_RECLAIM, 0)}: per-CPU,
 * with a rescuer), reached from the timer softirq by {@code queue_work()} (kernel-model.md §8.4
 * step 2). {@link #bind} is called once per target and CPU while the model is built; it returns
 * the target's {@code queue_work()}.
 *
 * <p>Two bindings:
 * <ul>
 *   <li>{@link #on}: the workqueue model. The item is queued on the CPU's normal per-CPU pool and
 *       run by one of its {@code kworker/C:N}, with concurrency management and the rescuer.
 *       Allocate the workqueue with {@link #alloc} before {@code build()}, and put the system's
 *       components ({@code WorkqueueSystem.components(cpus)}) in the model in place of the
 *       CPUs.</li>
 *   <li>{@link #STANDALONE}: a {@link DelayKworker} of the target's own on the CPU, for models
 *       without a workqueue system (unit tests of other subsystems).</li>
 * </ul>
 * Simplified: 6.7 and later allocate one kdelayd workqueue per target, older kernels one for the
 * module; here every target shares the one named {@value #KDELAYD}, which changes nothing for a
 * per-CPU workqueue whose targets each queue one item.
 */
@FunctionalInterface
public interface Kdelayd {
  /** The workqueue's name. */
  String KDELAYD = "kdelayd";
  /** Its flags: {@code WQ_MEM_RECLAIM} (per-CPU). */
  int FLAGS = Workqueue.WQ_MEM_RECLAIM;
  /** Its max_active: 0, {@code WQ_DFL_ACTIVE}. */
  int MAX_ACTIVE = 0;
  /** The work item's name: its function. */
  String WORK_NAME = "flush_expired_bios";

  /** Sets up {@code target}'s work item on its CPU; returns its {@code queue_work()}. */
  Runnable bind(DelayTarget target);

  /** A worker task per target and CPU ({@link DelayKworker}), without a workqueue system. */
  Kdelayd STANDALONE = target -> {
    DelayKworker w = new DelayKworker(target);
    target.cpu().spawn(w);
    target.setStandaloneWorker(w);
    return w::queueWork;
  };

  /** {@code alloc_workqueue("kdelayd", WQ_MEM_RECLAIM, 0)} on a system being built. */
  static Workqueue alloc(WorkqueueSystem.Builder builder) {
    return builder.allocWorkqueue(KDELAYD, FLAGS, MAX_ACTIVE);
  }

  /**
   * The binding to workqueue {@code kdelayd} of {@code system}: each target gets a work item homed
   * on its CPU ({@code INIT_WORK()}), queued from that CPU's timer softirq.
   */
  static Kdelayd on(WorkqueueSystem system, Workqueue kdelayd) {
    return target -> {
      CpuComponent cpu = target.cpu();
      WorkItem item = system.newWorkItem(WORK_NAME, target.flushExpiredBios(), cpu.cpu().id());
      return () -> system.queueWork(cpu, kdelayd, item);
    };
  }
}
