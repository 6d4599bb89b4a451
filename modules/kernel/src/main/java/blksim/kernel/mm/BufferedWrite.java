package blksim.kernel.mm;

import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.syscall.SystemCall;

/**
 * A buffered {@code write()} into the page cache: {@code generic_perform_write()} with
 * {@code balance_dirty_pages_ratelimited()} after each page (kernel-model.md §9.2, §15.4.2).
 *
 * <p>Per page: {@code write_begin} (lookup or allocation), the copy, {@code write_end}, which
 * dirties the page and, for a clean inode, the inode ({@link PageCache#setPageDirty}); the task's
 * {@code nr_dirtied} grows. When the task's own check interval ({@code nr_dirtied_pause}) or the
 * CPU's ({@code ratelimit_pages}, 8 pages while {@code dirty_exceeded}) is reached,
 * {@code balance_dirty_pages()} runs ({@link BalanceDirtyPages#balanceDirtyPagesIteration}): in
 * freerun nothing happens; above it, background writeback is kicked if none runs and the task
 * sleeps for the computed pause ({@code io_schedule_timeout()}, TASK_KILLABLE), looping only when
 * the rate was 0. The throttled task never writes pages itself.
 *
 * <p>Costs: the call's entry, then {@link WritebackParams#writePerPageNs} per page, charged as
 * one burst per run of pages between throttling checks. Simplified: the pages of a burst are
 * dirtied at its start; the pause sleeps exactly its jiffies (the timer wheel's rounding of
 * {@code schedule_timeout()} is not applied).
 */
public final class BufferedWrite extends SystemCall {
  private static final int ENTER = 0;
  private static final int COPY = 1;
  private static final int BALANCE = 2;
  private static final int WOKEN = 3;
  private static final int RETURN = 4;

  private final Task task;
  private final PageCache pc;
  private AddressSpace as;
  private final WritebackParams costs;
  private final long entryNs;
  private int phase;
  private long next;
  private long end;
  private int len;
  private long pagesDirtied;
  private long bdpStartJiffies;
  private BdpDecision last;

  /**
   * @param entryNs the system call's entry cost
   */
  public BufferedWrite(Task task, PageCache pc, AddressSpace as, WritebackParams costs,
      long entryNs) {
    this.task = task;
    this.pc = pc;
    this.as = as;
    this.costs = costs;
    this.entryNs = entryNs;
  }

  /** Arms the call for {@code len} bytes at {@code offsetBytes} of {@code mapping}. */
  public SystemCall arm(AddressSpace mapping, long offsetBytes, int len) {
    this.as = mapping;
    return arm(offsetBytes, len);
  }

  /** Arms the call for {@code len} bytes at {@code offsetBytes}; returns it. */
  public SystemCall arm(long offsetBytes, int len) {
    this.next = offsetBytes >>> 12;
    this.end = (offsetBytes + len + 4095) >>> 12;
    this.len = len;
    this.phase = ENTER;
    return this;
  }

  private TaskDirtyState state() {
    Object s = task.mmState();
    return s == null ? TaskDirtyState.FORK : (TaskDirtyState) s;
  }

  @Override
  public boolean step(TaskCpu cpu) {
    while (true) {
      switch (phase) {
        case ENTER:
          phase = COPY;
          cpu.runFor(CpuMode.SYSTEM, entryNs);
          return false;
        case COPY:
          if (next >= end) {
            return returned(len);
          }
          copy(cpu);
          return false;
        case BALANCE:
          if (balance(cpu)) {
            return false;
          }
          continue;
        case WOKEN:
          phase = last != null && last.loopAgain() ? BALANCE : COPY;
          continue;
        default:
          return returned(len);
      }
    }
  }

  /** Dirties pages up to the next throttling check and pays for them. */
  private void copy(TaskCpu cpu) {
    long now = cpu.now();
    int cpuId = cpu.cpu().cpu().id();
    long pages = 0;
    TaskDirtyState t = state();
    boolean check = false;
    while (next < end && !check) {
      if (pc.setPageDirty(as, next, now, cpuId)) {
        t = t.dirtied(1);
      }
      next++;
      pages++;
      check = pc.ratelimited(t, as.wb, cpuId);
    }
    task.setMmState(t);
    if (check) {
      pagesDirtied = t.nrDirtied();
      bdpStartJiffies = -1;
      phase = BALANCE;
    }
    cpu.runFor(CpuMode.SYSTEM, pages * costs.writePerPageNs());
  }

  /** One {@code balance_dirty_pages()} iteration; true when the task went to sleep. */
  private boolean balance(TaskCpu cpu) {
    if (bdpStartJiffies < 0) {
      bdpStartJiffies = pc.jiffies(cpu.now());
    }
    last = pc.balanceDirtyPages(task, as.wb, pagesDirtied, bdpStartJiffies, cpu);
    phase = last.sleep() ? WOKEN : COPY;
    return last.sleep();
  }
}
