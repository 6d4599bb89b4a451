package blksim.engine.pekko;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.cluster.Cluster;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.sharding.ShardCoordinator;
import scala.collection.immutable.IndexedSeq;
import scala.concurrent.Future;

/**
 * Shard allocation that pins partition i of a run on member i mod m, members in address order,
 * and never rebalances, so a partition entity stays where it was started for the whole run (a
 * rebalance would restart it without its state).
 *
 * <p>"Members" are the shard regions registered with the sharding coordinator, one per cluster
 * member; {@link ClusterRunner} waits until every Up member's region has registered before it
 * starts a run, so the placement is a function of the membership alone. Shard ids are entity ids
 * ({@link PartitionSharding#entityId}), which end with the partition number.
 *
 * <p>Only the instance on the node hosting the sharding coordinator (the oldest member) is
 * consulted; it holds no mutable state.
 */
public final class PinnedAllocationStrategy
    extends ShardCoordinator.AbstractShardAllocationStrategy {
  private final Cluster cluster;

  /** A strategy for the sharding coordinator that may run on {@code system}. */
  public PinnedAllocationStrategy(ActorSystem<?> system) {
    this.cluster = Cluster.get(Adapter.toClassic(system));
  }

  @Override
  public Future<ActorRef> allocateShard(ActorRef requester, String shardId,
      Map<ActorRef, IndexedSeq<String>> currentShardAllocations) {
    int partition = PartitionSharding.partitionOf(shardId);
    if (partition < 0 || currentShardAllocations.isEmpty()) {
      return Future.successful(requester);
    }
    List<ActorRef> regions = new ArrayList<>(currentShardAllocations.keySet());
    regions.sort((a, b) -> Member.addressOrdering().compare(addressOf(a), addressOf(b)));
    return Future.successful(regions.get(partition % regions.size()));
  }

  @Override
  public Future<Set<String>> rebalance(Map<ActorRef, IndexedSeq<String>> currentShardAllocations,
      Set<String> rebalanceInProgress) {
    return Future.successful(Collections.emptySet());
  }

  /** The region's node address; local refs carry no host, so they get this node's address. */
  private Address addressOf(ActorRef region) {
    Address a = region.path().address();
    return a.hasGlobalScope() ? a : cluster.selfAddress();
  }
}
