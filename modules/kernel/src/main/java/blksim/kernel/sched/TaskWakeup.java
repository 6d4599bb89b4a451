package blksim.kernel.sched;

import blksim.engine.Message;

/**
 * A cross-CPU wakeup: "wake your task {@code taskId}", sent by {@link CpuComponent#wakeRemote}
 * with the wakeup (IPI) latency as delay. Mirrors the remote half of {@code try_to_wake_up()}
 * ({@code ttwu_queue_wakelist()} and the reschedule IPI).
 *
 * @param taskId the per-CPU id of the task on the receiving CPU ({@link Task#taskId()})
 */
public record TaskWakeup(int taskId) implements Message {}
