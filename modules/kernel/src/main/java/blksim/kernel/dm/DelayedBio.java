package blksim.kernel.dm;

/**
 * A bio dm-delay holds back: mirrors {@code struct dm_delay_info} (the per-bio data of the
 * clone): its class and the jiffy at which it is due, {@code expires = jiffies +
 * msecs_to_jiffies(delay)}.
 *
 * @param tio the clone, already remapped to its class's device
 * @param delayClass its class
 * @param expires the jiffy from which it may be resubmitted ({@code time_after_eq(jiffies,
 *     expires)})
 */
record DelayedBio(DmTargetIo tio, DelayClass delayClass, long expires) {}
