package blksim.kernel.sched;

import blksim.engine.Message;

/**
 * A CPU's message to itself: "the callback in slot {@code slot} is due". Used for the end of a
 * task's CPU burst, hrtimers, device completions and interrupts on this CPU.
 *
 * <p>Each of a CPU's slots has one timer, made once and reused while the slot is free; the timer
 * carries its armed callback itself (and links the CPU's free timers), so handling it touches the
 * timer and the callback only, not per-CPU tables of callbacks, free slots and messages besides
 * (fewer cache lines per event on many-CPU machines, issue 15 item 1). The callback and the link
 * are {@code transient}: a timer never leaves its CPU's partition, and equality is the slot's.
 */
public final class CpuTimer implements Message {
  private final int slot;
  /** The armed callback, {@code null} while the slot is free. */
  transient Runnable callback;
  /** The next free timer of the CPU while this one is free. */
  transient CpuTimer nextFree;

  /** The timer of slot {@code slot}. */
  public CpuTimer(int slot) {
    this.slot = slot;
  }

  /** Index of the slot among its CPU's timers. */
  public int slot() {
    return slot;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CpuTimer t && t.slot == slot;
  }

  @Override
  public int hashCode() {
    return Integer.hashCode(slot);
  }

  @Override
  public String toString() {
    return "CpuTimer[slot=" + slot + "]";
  }
}
