package blksim.kernel.sched;

import blksim.engine.Message;

/**
 * A CPU's message to itself: "the callback in slot {@code slot} is due". Used for the end of a
 * task's CPU burst, hrtimers, device completions and interrupts on this CPU.
 *
 * @param slot index into the CPU's callback table
 */
public record CpuTimer(int slot) implements Message {}
