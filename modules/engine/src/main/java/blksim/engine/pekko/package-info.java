/**
 * Hosting of a run on Apache Pekko: partitions as Cluster Sharding entities, a run coordinator,
 * and the entry point {@link blksim.engine.pekko.ClusterRunner}.
 *
 * <p>The window protocol is that of {@link blksim.engine.LocalRunner}; only its transport
 * differs. Who owns what:
 *
 * <table>
 *   <caption>Actors and their state</caption>
 *   <tr><th>actor</th><th>where</th><th>owns</th></tr>
 *   <tr><td>{@link blksim.engine.pekko.RunCoordinator}</td><td>the launching node, one per
 *       run</td><td>the {@link blksim.engine.WindowPlanner}, per-window bookkeeping (who reported,
 *       how many events each partition must receive), partition refs and addresses, the
 *       watchdog, the run's result</td></tr>
 *   <tr><td>{@link blksim.engine.pekko.PartitionEntity}</td><td>member i mod m (members in
 *       address order), pinned</td><td>one {@link blksim.engine.Partition}: its components,
 *       event queue and random streams; peer refs; received counts</td></tr>
 * </table>
 *
 * <p>Messages per window: coordinator to each partition one {@code RunWindow}; each partition
 * to each destination its outgoing events in {@code Chunk}s of at most
 * {@code blksim.engine.max-events-per-chunk} events, straight to the destination entity; each
 * partition to the coordinator one {@code WindowDone} with its counts. A chunk may overtake the
 * {@code RunWindow} it feeds; events order themselves by their own key, and the counts detect
 * a lost message.
 *
 * <p>Pekko facts respected here (design.md section 8): ordering is per sender-receiver pair only
 * (the engine never relies on arrival order); delivery is at most once (counts balance or the run
 * fails); frames above 256 KiB are refused (chunking); sharding passivates and rebalances by
 * default (both off, see {@link blksim.engine.pekko.PartitionSharding}); the default fork-join
 * dispatcher froze on 2 cores (partitions and coordinators run on {@code blksim-dispatcher}, a
 * thread-pool executor).
 */
package blksim.engine.pekko;
