/**
 * Timers, HZ and jiffies (kernel-model.md §3): the jiffies clock and its conversions, the timer
 * wheel's expiry rounding, {@code timer_list} timers whose callbacks run in softirq context on a
 * CPU, and timed sleeps of tasks (hrtimer-based {@code usleep_range}/{@code fsleep}, wheel-based
 * {@code msleep}).
 *
 * <h2>How a component uses a timer</h2>
 *
 * <pre>{@code
 * TimerBase base = TimerBase.onCpu(cpu, timerParams);        // per CPU, stateless
 * TimerList timer = new TimerList(base, () -> queueWork(...)); // timer_setup()
 * long expires = base.jiffies() + base.clock().msecsToJiffies(delayMs);
 * timer.timerReduce(expires);   // dm-delay's queue_timeout(): arm, or move earlier
 * }</pre>
 *
 * The callback runs at tick {@link blksim.kernel.timer.TimerWheel#expiryTick} (E+1 for a level-0
 * timer) plus {@link blksim.kernel.timer.TimerParams#timerSoftirqLatencyNs}, as an interrupt of the
 * CPU ({@code CpuComponent.callAfter} to the tick, then {@code CpuComponent.interrupt} for the
 * softirq cost). It must not block; it may wake tasks or queue work.
 *
 * <h2>Ownership</h2>
 * A {@link blksim.kernel.timer.TimerList} and a {@link blksim.kernel.timer.HrtimerSleep} belong to
 * the component whose clock their base reads (a CPU): they are touched only while that component
 * handles a message. {@link blksim.kernel.timer.Jiffies}, {@link blksim.kernel.timer.TimerWheel}
 * and {@link blksim.kernel.timer.TimerParams} are immutable.
 *
 * <h2>Glossary (kernel identifier ↔ Java)</h2>
 * <ul>
 *   <li>{@code CONFIG_HZ}, {@code TICK_NSEC}, {@code jiffies} ↔
 *       {@link blksim.kernel.timer.Jiffies#hz}, {@link blksim.kernel.timer.Jiffies#tickNs()},
 *       {@link blksim.kernel.timer.Jiffies#at}
 *   <li>{@code msecs_to_jiffies()}, {@code usecs_to_jiffies()} ↔
 *       {@link blksim.kernel.timer.Jiffies#msecsToJiffies},
 *       {@link blksim.kernel.timer.Jiffies#usecsToJiffies}
 *   <li>{@code calc_wheel_index()}, {@code calc_index()}, {@code LVL_START}, {@code LVL_GRAN} ↔
 *       {@link blksim.kernel.timer.TimerWheel}
 *   <li>{@code struct timer_base} ↔ {@link blksim.kernel.timer.TimerBase}
 *   <li>{@code struct timer_list}, {@code timer_setup()}, {@code mod_timer()},
 *       {@code timer_reduce()}, {@code del_timer()}, {@code timer_pending()} ↔
 *       {@link blksim.kernel.timer.TimerList}
 *   <li>{@code usleep_range()}, {@code fsleep()}, {@code msleep()}, {@code schedule_timeout()},
 *       {@code schedule_hrtimeout()} ↔ {@link blksim.kernel.timer.HrtimerSleep}
 * </ul>
 */
package blksim.kernel.timer;
