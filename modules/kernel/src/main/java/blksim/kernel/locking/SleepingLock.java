package blksim.kernel.locking;

import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.LockWaitStat;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;

/**
 * The common base of {@link RwSemaphore} and {@link Mutex}: a lock word (an exclusive owner or a
 * count of readers, and the hand-off flag), the FIFO wait list of sleepers, the optimistic
 * spinners, and the wait accounting (kernel/locking/rwsem.c and mutex.c, 6.5-6.8).
 *
 * <p>Simplified model, what it keeps:
 * <ul>
 *   <li>Fast path: a writer takes a free lock with nobody queued ({@code rwsem_write_trylock()},
 *       {@code __mutex_trylock_fast()}: the waiters flag lives in the lock word, so any sleeper
 *       makes the fast path fail); a reader joins a lock that no writer holds when nobody is
 *       queued ({@code rwsem_read_trylock()}).
 *   <li>Optimistic spinning ({@code rwsem_optimistic_spin()}, {@code mutex_optimistic_spin()}):
 *       a writer whose lock a running writer holds spins, burning its CPU, until the lock is
 *       released (it takes it), the owner leaves its CPU or the spinner's need-resched is set
 *       (it gives up and sleeps). Spinners queue in order ({@code osq_lock()}): the first takes
 *       the lock. A lock held by readers is spun on for at most {@code (20 + readers) / 2} µs
 *       ({@code rwsem_rspin_threshold()}); a spin that passes that bound sets
 *       {@code RWSEM_NONSPINNABLE}, and no writer spins until a writer takes the lock. A writer
 *       spins once per acquisition ({@code rwsem_down_write_slowpath()} calls
 *       {@code rwsem_optimistic_spin()} once): when the spin fails it queues and sleeps. A writer
 *       steals a free lock even when sleepers are queued
 *       ({@code rwsem_try_write_lock_unqueued()}) unless the hand-off flag is set. The spin is
 *       one event at its start and one at its end.
 *   <li>Sleepers ({@code TASK_UNINTERRUPTIBLE}, D state) queue FIFO. A release wakes the first:
 *       a writer is only woken and takes the lock when it runs, unless a spinner stole it first
 *       (it then sleeps again); readers at the front are granted the lock at once, every
 *       reader in the queue up to {@code MAX_READERS_WAKEUP} (writers between them are skipped,
 *       {@code rwsem_mark_wake()}).
 *   <li>Anti-starvation hand-off: the first waiter sets the hand-off flag once it has waited
 *       {@code RWSEM_WAIT_TIMEOUT} (a writer in {@code rwsem_try_write_lock()}, a reader in
 *       {@code rwsem_mark_wake()}); for a mutex, the first waiter that wakes and still finds the
 *       lock taken sets it ({@code __mutex_trylock_or_handoff()}). With the flag set nobody
 *       steals the lock: the release gives it to the first waiter, and a writer holding the flag
 *       spins on a running owner instead of sleeping.
 * </ul>
 * Left out: real-time waiters, killable and interruptible
 * waits, lock debugging. The hand-off time t_wake of kernel-model.md §15.3.4 is the releaser's
 * {@link LockParams#wakeCostNs} plus the scheduler's wakeup latency and context switch.
 *
 * <p>Sharing: a lock is kernel state that every CPU taking it touches directly, so a model using
 * one runs in one partition (as the page cache does; see DEVELOPERS.md "Shared kernel state needs
 * one partition"). A spin end is a message to the spinner's CPU after
 * {@link LockParams#spinNoticeNs}, shorter than any lookahead: a run that split a lock's users
 * over partitions fails loudly at the first spin.
 *
 * <p>Protocol: an acquisition is driven from the task's step, like a system call:
 * {@code if (!lock.downWrite(this, cpu)) return;} takes an action (spin or sleep) and returns
 * false until the task holds the lock, then returns true without an action. The release is
 * called in a step and returns the CPU time the releaser owes for the tasks it woke.
 */
public abstract class SleepingLock {
  /** Where an acquisition in progress stands. */
  enum Phase { SPINNING, QUEUED, GRANTED }

  /** One acquisition in progress ({@code struct rwsem_waiter}, {@code mutex_waiter}). */
  static final class Waiter {
    final Task task;
    final boolean write;
    final long startNs;
    Phase phase;
    long phaseStartNs;
    long spinNs;
    boolean queued;
    /** It has been through {@code rwsem_optimistic_spin()} once: a failed spin queues it. */
    boolean spun;
    /** Its current spin is on a reader-owned lock (bounded by {@code rwsem_rspin_threshold()}). */
    boolean readerSpin;
    boolean slept;
    boolean woken;
    boolean handoffSet;
    boolean handedOff;
    /** Granted while it spun: its spin lasted until its step saw the lock. */
    boolean grantedSpinning;
    long timeoutJiffies;

    Waiter(Task task, boolean write, long startNs) {
      this.task = task;
      this.write = write;
      this.startNs = startNs;
    }
  }

  private static final int MAX_READERS_WAKEUP = 0x100;

  final String name;
  /** The lock class its waits are accounted under ({@code /proc/lock_stat} is per class). */
  final String lockClass;
  final LockParams params;
  /** The exclusive owner, or null ({@code RWSEM_WRITER_LOCKED} / the mutex owner). */
  Task writer;
  /** Readers holding it. */
  int readers;
  /** {@code RWSEM_FLAG_HANDOFF} / {@code MUTEX_FLAG_HANDOFF}. */
  boolean handoff;
  /**
   * {@code RWSEM_NONSPINNABLE} in {@code sem->owner}: set when a writer's spin on a reader-owned
   * lock ran past {@code rwsem_rspin_threshold()} ({@code rwsem_set_nonspinnable()}); no writer
   * spins until a writer takes the lock ({@code rwsem_set_owner()} rewrites the owner word) or a
   * queueing task finds it free ({@code clear_nonspinnable()} in
   * {@code rwsem_cond_wake_waiter()}). Readers taking the lock keep it.
   */
  boolean nonSpinnable;
  private long nonSpinnableSet;
  /** Sleepers, FIFO ({@code sem->wait_list}). */
  final ArrayDeque<Waiter> waitList = new ArrayDeque<>();
  /** Spinners in {@code osq} order. */
  final ArrayDeque<Waiter> spinners = new ArrayDeque<>();
  /** Acquisitions in progress, by task (looked up, never iterated). */
  private final IdentityHashMap<Task, Waiter> inProgress = new IdentityHashMap<>();
  /** {@code sem->wait_lock}, or null when {@link LockParams#waitLock()} is not modelled. */
  private final SpinLock waitLock;
  /** The wakeups of the {@code wait_lock} section in progress ({@code wake_q}), or null. */
  private List<Task> wakeQ;
  /** Wait-list entries {@code rwsem_mark_wake()} visited in that section. */
  private int walked;
  private long maxSleepers;
  private long handoffs;
  private long acquisitions;
  private long contended;

  SleepingLock(String name, String lockClass, LockParams params) {
    this.name = name;
    this.lockClass = lockClass;
    this.params = params;
    this.waitLock = params.waitLock() == null ? null
        : new SpinLock(name + "/wait_lock", params.waitLock().handoff());
  }

  /** {@code sem->wait_lock}, or null when not modelled. */
  public SpinLock waitLock() {
    return waitLock;
  }

  /** The lock class: tasks account their waits per class, as {@code /proc/lock_stat} does. */
  public String lockClass() {
    return lockClass;
  }

  /** Nobody holds, waits for or spins on it: a user may forget it (an evicted inode's). */
  public boolean idle() {
    return writer == null && readers == 0 && waitList.isEmpty() && spinners.isEmpty()
        && inProgress.isEmpty();
  }

  /** The lock's name, as {@code wchan} and the reports show it. */
  public String name() {
    return name;
  }

  /** The most sleepers queued at once. */
  public long maxSleepers() {
    return maxSleepers;
  }

  /** Sleepers queued now. */
  public int sleepers() {
    return waitList.size();
  }

  /** Hand-offs made (the flag set and the lock given to the first waiter). */
  public long handoffs() {
    return handoffs;
  }

  /** Times a writer's spin on a reader-owned lock timed out and made it non-spinnable. */
  public long nonSpinnableSet() {
    return nonSpinnableSet;
  }

  /** Acquisitions so far. */
  public long acquisitions() {
    return acquisitions;
  }

  /** Acquisitions that found it unavailable. */
  public long contended() {
    return contended;
  }

  /** Whether anybody holds it. */
  public boolean locked() {
    return writer != null || readers > 0;
  }

  /** The exclusive owner, or null. */
  public Task owner() {
    return writer;
  }

  @Override
  public String toString() {
    return name;
  }

  // ---- acquisition ---------------------------------------------------------------------------

  /** Drives an acquisition; see the class comment. */
  final boolean acquire(Task t, TaskCpu cpu, boolean write) {
    long now = cpu.now();
    Waiter w = inProgress.get(t);
    if (w == null) {
      if (write ? writeFastPath() : readFastPath()) {
        take(t, write);
        t.lockAccount(lockClass).acquisitions++;
        acquisitions++;
        return true;
      }
      w = new Waiter(t, write, now);
      inProgress.put(t, w);
      contended++;
      return write ? writeSlowPath(w, cpu, now) : readSlowPath(w, cpu, now);
    }
    switch (w.phase) {
      case GRANTED:
        if (w.grantedSpinning) {
          w.spinNs += now - w.phaseStartNs;
        }
        return finish(w, now);
      case SPINNING:
        // The spin ended without the lock: the owner left its CPU, need-resched, or the bound
        // on a reader-owned lock.
        w.spinNs += now - w.phaseStartNs;
        spinners.remove(w);
        if (w.readerSpin && writer == null && readers > 0 && !w.queued) {
          // rwsem_optimistic_spin(): the reader-owned spin passed its threshold.
          if (!nonSpinnable) {
            nonSpinnable = true;
            nonSpinnableSet++;
          }
        }
        w.readerSpin = false;
        if (w.queued) {
          return sleep(w, cpu, now);
        }
        return write ? writeSlowPath(w, cpu, now) : readSlowPath(w, cpu, now);
      case QUEUED:
      default:
        w.woken = false;
        if (!write) {
          // Readers are granted the lock by the waker; woken otherwise (spuriously): sleep on.
          return sleep(w, cpu, now);
        }
        // Woken: raw_spin_lock_irq(&sem->wait_lock) and rwsem_try_write_lock() again.
        return writeTryQueued(w, cpu, now, waitLockSection(cpu.cpu().cpu(), now, 1));
    }
  }

  private boolean writeFastPath() {
    return writer == null && readers == 0 && !handoff && waitList.isEmpty();
  }

  private boolean readFastPath() {
    return writer == null && !handoff && waitList.isEmpty();
  }

  /** {@code rwsem_down_write_slowpath()} / {@code __mutex_lock_common()} before queueing. */
  private boolean writeSlowPath(Waiter w, TaskCpu cpu, long now) {
    if (writer == null && readers == 0 && !handoff) {
      // rwsem_try_write_lock_unqueued(): the lock is free (a woken waiter has not run yet).
      take(w.task, true);
      return finish(w, now);
    }
    if (!w.queued && !w.spun && canSpin(cpu)) {
      // rwsem_down_write_slowpath(): one optimistic spin; once it fails, the writer queues.
      w.spun = true;
      return spin(w, cpu, now);
    }
    if (writer == null && readers == 0) {
      // rwsem_cond_wake_waiter() → clear_nonspinnable(): the lock is free as it queues.
      nonSpinnable = false;
    }
    // raw_spin_lock_irq(&sem->wait_lock): list_add_tail() and the first rwsem_try_write_lock().
    long section = waitLockSection(cpu.cpu().cpu(), now, 1);
    queue(w, now);
    return writeTryQueued(w, cpu, now, section);
  }

  /**
   * One critical section under {@code wait_lock} by a CPU reaching it at {@code now} that visits
   * {@code entries} wait-list entries: returns its spin plus hold (0 when not modelled).
   */
  private long waitLockSection(blksim.kernel.topology.Cpu cpu, long now, int entries) {
    if (waitLock == null) {
      return 0;
    }
    long hold = params.waitLock().holdNs() + entries * params.waitLock().entryNs();
    return waitLock.acquire(cpu, now, hold) + hold;
  }

  /** Whether a writer may spin now ({@code rwsem_can_spin_on_owner()}). */
  private boolean canSpin(TaskCpu cpu) {
    if (!params.spinOnOwner() || handoff || nonSpinnable || cpu.needResched()) {
      return false;
    }
    return writer != null ? writer.onCpu() : readers > 0;
  }

  private boolean spin(Waiter w, TaskCpu cpu, long now) {
    w.phase = Phase.SPINNING;
    w.phaseStartNs = now;
    spinners.addLast(w);
    cpu.spin();
    if (writer == null && readers > 0) {
      w.readerSpin = true;
      // rwsem_rspin_threshold(): (20 + readers) / 2 µs on a reader-owned lock.
      long bound = (20 + Math.min(readers, 30)) * 1_000L / 2;
      cpu.cpu().stopSpin(w.task, bound);
    }
    return false;
  }

  /**
   * {@code rwsem_try_write_lock()} / the mutex's wait loop, for a queued writer, in a
   * {@code wait_lock} section of {@code section} ns (its spin and hold: charged before the lock
   * is used when it succeeds; simplified, not charged when the writer sleeps again).
   */
  private boolean writeTryQueued(Waiter w, TaskCpu cpu, long now, long section) {
    Waiter first = waitList.peekFirst();
    boolean free = writer == null && readers == 0;
    if (free && (!handoff || first == w)) {
      waitList.remove(w);
      if (first == w) {
        handoff = false;
      }
      take(w.task, true);
      return finishWithCost(w, now, section, cpu);
    }
    if (first == w && !handoff && handoffDue(w, now)) {
      handoff = true;
      w.handoffSet = true;
      handoffs++;
    }
    if (w.handoffSet && writer != null && writer.onCpu() && !cpu.needResched()) {
      // The hand-off holder spins on a running owner rather than sleep (rwsem_spin_on_owner()
      // in the wait loop; the mutex's first waiter spins too).
      return spin(w, cpu, now);
    }
    return sleep(w, cpu, now);
  }

  /** Whether the first waiter {@code w} may now claim the hand-off. */
  abstract boolean handoffDue(Waiter w, long now);

  /** Whether {@code w}'s {@code RWSEM_WAIT_TIMEOUT} has passed ({@code time_after(jiffies, ...)}). */
  final boolean timedOut(Waiter w, long now) {
    return now / params.jiffyNs() > w.timeoutJiffies;
  }

  /** {@code rwsem_down_read_slowpath()}. */
  private boolean readSlowPath(Waiter w, TaskCpu cpu, long now) {
    boolean stealable = writer == null && !handoff
        && (readers == 0 || !params.readersQueueBehindWriters());
    if (stealable) {
      // Reader lock stealing; readers at the front of the queue come along
      // (RWSEM_WAKE_READ_OWNED).
      take(w.task, false);
      long cost = 0;
      if (!waitList.isEmpty() && !waitList.peekFirst().write) {
        // rwsem_mark_wake(RWSEM_WAKE_READ_OWNED) under wait_lock, then wake_up_q().
        beginWaitLockSection();
        cost = grantReaders(cpu.cpu());
        cost = endWaitLockSection(cpu.cpu(), cost);
      }
      return finishWithCost(w, now, cost, cpu);
    }
    // raw_spin_lock_irq(&sem->wait_lock) and list_add_tail() (simplified: the section occupies
    // wait_lock but is not charged to the reader, which sleeps right after).
    waitLockSection(cpu.cpu().cpu(), now, 0);
    queue(w, now);
    return sleep(w, cpu, now);
  }

  private void queue(Waiter w, long now) {
    if (!w.queued) {
      w.queued = true;
      w.timeoutJiffies = now / params.jiffyNs() + params.waitTimeoutJiffies();
      waitList.addLast(w);
      maxSleepers = Math.max(maxSleepers, waitList.size());
    }
  }

  private boolean sleep(Waiter w, TaskCpu cpu, long now) {
    w.phase = Phase.QUEUED;
    w.phaseStartNs = now;
    w.slept = true;
    w.task.setWchan(name);
    cpu.sleep();
    return false;
  }

  private void take(Task t, boolean write) {
    if (write) {
      writer = t;
      nonSpinnable = false;
      OwnerWatch.of(t).held.add(this);
    } else {
      readers++;
    }
  }

  private boolean finish(Waiter w, long now) {
    inProgress.remove(w.task);
    w.task.setWchan(null);
    long wait = now - w.startNs;
    LockWaitStat.Account a = w.task.lockAccount(lockClass);
    a.acquisitions++;
    a.contended++;
    if (w.slept) {
      a.slept++;
    } else {
      a.spun++;
    }
    a.spinNs += w.spinNs;
    a.sleepNs += wait - w.spinNs;
    a.maxWaitNs = Math.max(a.maxWaitNs, wait);
    if (w.handedOff || w.handoffSet) {
      a.handoffs++;
    }
    acquisitions++;
    return true;
  }

  /** A reader that stole the lock and woke readers owes the wakeups: it spends them first. */
  private boolean finishWithCost(Waiter w, long now, long cost, TaskCpu cpu) {
    if (cost == 0) {
      return finish(w, now);
    }
    w.phase = Phase.GRANTED;
    cpu.runFor(blksim.kernel.sched.CpuMode.SYSTEM, cost);
    return false;
  }

  // ---- release -------------------------------------------------------------------------------

  /** The exclusive owner releases; returns the CPU time owed for wakeups. */
  final long releaseWrite(Task t, CpuComponent on) {
    if (writer != t) {
      throw new IllegalStateException(name + ": released by " + t.comm() + ", held by "
          + (writer == null ? "nobody" : writer.comm()));
    }
    writer = null;
    OwnerWatch.of(t).held.remove(this);
    return wakeSection(on);
  }

  /** A reader releases; returns the CPU time owed for wakeups. */
  final long releaseRead(Task t, CpuComponent on) {
    if (readers <= 0) {
      throw new IllegalStateException(name + ": read-released by " + t.comm()
          + " but no reader holds it");
    }
    readers--;
    return readers == 0 ? wakeSection(on) : 0;
  }

  /** {@code rwsem_wake()}: {@link #wake} under {@code wait_lock} when sleepers are queued. */
  private long wakeSection(CpuComponent on) {
    if (waitLock == null || waitList.isEmpty()) {
      return wake(on);
    }
    beginWaitLockSection();
    return endWaitLockSection(on, wake(on));
  }

  private void beginWaitLockSection() {
    if (waitLock != null) {
      wakeQ = new ArrayList<>();
      walked = 1;
    }
  }

  /**
   * Ends a {@code wait_lock} section begun on {@code on} now: reserves {@code wait_lock} for the
   * walk, then issues the collected wakeups one {@link LockParams#wakeCostNs} apart after it
   * ({@code wake_up_q()}). Returns the CPU time the releaser owes: the spin, the hold and the
   * wakeups ({@code cost}, already summed by the grants).
   */
  private long endWaitLockSection(CpuComponent on, long cost) {
    if (waitLock == null) {
      return cost;
    }
    List<Task> q = wakeQ;
    wakeQ = null;
    long section = waitLockSection(on.cpu(), on.now(), walked);
    long at = section;
    for (Task t : q) {
      at += params.wakeCostNs();
      if (at == 0) {
        on.wakeUp(t);
      } else {
        on.callAfter(at, () -> on.wakeUp(t));
      }
    }
    return section + cost;
  }

  /** The lock became free: hand-off, a spinner, or {@code rwsem_mark_wake(RWSEM_WAKE_ANY)}. */
  private long wake(CpuComponent on) {
    if (handoff && !waitList.isEmpty()) {
      Waiter first = waitList.peekFirst();
      handoff = false;
      first.handedOff = true;
      if (first.write) {
        waitList.removeFirst();
        take(first.task, true);
        return grant(first, on);
      }
      return grantReaders(on);
    }
    if (!spinners.isEmpty()) {
      // The first spinner's cmpxchg wins ({@code osq} order); it was spinning, no wakeup.
      Waiter s = spinners.pollFirst();
      if (s.queued) {
        waitList.remove(s);
      }
      take(s.task, true);
      grant(s, on);
    }
    return markWake(on);
  }

  /** {@code rwsem_mark_wake(RWSEM_WAKE_ANY)}, the lock possibly stolen by a spinner. */
  private long markWake(CpuComponent on) {
    Waiter first = waitList.peekFirst();
    if (first == null) {
      return 0;
    }
    if (first.write) {
      if (first.phase == Phase.QUEUED && !first.woken) {
        first.woken = true;
        wakeUpProcess(first.task, on);
        return params.wakeCostNs();
      }
      return 0;
    }
    if (writer != null) {
      if (!handoff && timedOut(first, on.now())) {
        handoff = true;
        first.handoffSet = true;
        handoffs++;
      }
      return 0;
    }
    return grantReaders(on);
  }

  /** Grants the lock to the queued readers (up to {@code MAX_READERS_WAKEUP}), writers skipped. */
  private long grantReaders(CpuComponent on) {
    long cost = 0;
    int n = 0;
    List<Waiter> granted = new ArrayList<>();
    // rwsem_mark_wake(): list_for_each_entry_safe() over the whole list, writers skipped.
    walked = Math.max(walked, waitList.size());
    for (Iterator<Waiter> it = waitList.iterator(); it.hasNext() && n < MAX_READERS_WAKEUP; ) {
      Waiter w = it.next();
      if (w.write) {
        continue;
      }
      it.remove();
      granted.add(w);
      n++;
    }
    for (Waiter w : granted) {
      take(w.task, false);
      cost += grant(w, on);
    }
    return cost;
  }

  /** {@code w} holds the lock now: a spinner's spin ends, a sleeper is woken. */
  private long grant(Waiter w, CpuComponent on) {
    Phase was = w.phase;
    w.phase = Phase.GRANTED;
    if (was == Phase.SPINNING) {
      w.grantedSpinning = true;
      spinners.remove(w);
      on.stopSpin(w.task, params.spinNoticeNs());
      return 0;
    }
    if (was == Phase.QUEUED && !w.woken) {
      w.woken = true;
      wakeUpProcess(w.task, on);
      return params.wakeCostNs();
    }
    return 0;
  }

  /** Wakes {@code t} now, or queues it on the {@code wake_q} of the section in progress. */
  private void wakeUpProcess(Task t, CpuComponent on) {
    if (wakeQ != null) {
      wakeQ.add(t);
    } else {
      on.wakeUp(t);
    }
  }

  /** The owner {@code t} left its CPU: spinners give up ({@code !owner_on_cpu()}). */
  void ownerOffCpu(Task t, CpuComponent on) {
    if (writer != t) {
      return;
    }
    for (Waiter s : spinners) {
      if (s.phase == Phase.SPINNING) {
        on.stopSpin(s.task, params.spinNoticeNs());
      }
    }
  }

  /** The locks a task holds exclusively, told when it leaves its CPU. */
  static final class OwnerWatch implements Task.OffCpuListener {
    final List<SleepingLock> held = new ArrayList<>(2);

    static OwnerWatch of(Task t) {
      if (t.offCpuListener() instanceof OwnerWatch w) {
        return w;
      }
      OwnerWatch w = new OwnerWatch();
      t.setOffCpuListener(w);
      return w;
    }

    @Override
    public void offCpu(Task t, CpuComponent on) {
      for (int i = 0; i < held.size(); i++) {
        held.get(i).ownerOffCpu(t, on);
      }
    }
  }
}
