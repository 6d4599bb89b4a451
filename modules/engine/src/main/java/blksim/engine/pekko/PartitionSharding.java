package blksim.engine.pekko;

import java.util.function.UnaryOperator;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.cluster.sharding.typed.ClusterShardingSettings;
import org.apache.pekko.cluster.sharding.typed.ShardingEnvelope;
import org.apache.pekko.cluster.sharding.typed.ShardingMessageExtractor;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.Entity;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;

/**
 * The Cluster Sharding set-up of partition entities, which every node of a cluster must run once
 * (through {@link #init(ActorSystem)}) before it can host partitions.
 *
 * <p>Entities are pinned: one shard per partition of a run (shard id = entity id =
 * {@code <runId>-<partition>}), allocated by {@link PinnedAllocationStrategy} (never rebalanced),
 * with remember-entities off and no passivation. They run on {@code blksim-dispatcher}.
 */
public final class PartitionSharding {

  /** Entity type name of partitions. */
  public static final String TYPE_NAME = "blksim-partition";

  /** The entity type key of partitions. */
  public static final EntityTypeKey<PartitionEntity.Command> TYPE_KEY = typeKey(TYPE_NAME);

  /** The dispatcher partitions and the run coordinator run on (see reference.conf). */
  public static final String DISPATCHER = "blksim-dispatcher";

  private PartitionSharding() {}

  /** Starts (or returns) this node's shard region for partitions. Idempotent. */
  public static ActorRef<ShardingEnvelope<PartitionEntity.Command>> init(ActorSystem<?> system) {
    return init(system, TYPE_NAME, UnaryOperator.identity());
  }

  /**
   * Starts the shard region of entity type {@code typeName}, whose entity behavior is
   * {@code wrap} applied to {@link PartitionEntity#create}. Tests use it to inject faults.
   */
  static ActorRef<ShardingEnvelope<PartitionEntity.Command>> init(ActorSystem<?> system,
      String typeName, UnaryOperator<Behavior<PartitionEntity.Command>> wrap) {
    int maxPerChunk = ClusterRunSettings.from(system.settings().config()).maxEventsPerChunk();
    ClusterShardingSettings settings = ClusterShardingSettings.create(system)
        .withNoPassivationStrategy()
        .withRememberEntities(false);
    Entity<PartitionEntity.Command, ShardingEnvelope<PartitionEntity.Command>> entity =
        Entity.of(typeKey(typeName), ctx -> wrap.apply(PartitionEntity.create(maxPerChunk)))
            .withMessageExtractor(new Extractor())
            .withAllocationStrategy(new PinnedAllocationStrategy(system))
            .withSettings(settings)
            .withStopMessage(new PartitionEntity.Stop())
            .withEntityProps(DispatcherSelector.fromConfig(DISPATCHER));
    return ClusterSharding.get(system).init(entity);
  }

  static EntityTypeKey<PartitionEntity.Command> typeKey(String typeName) {
    return EntityTypeKey.create(PartitionEntity.Command.class, typeName);
  }

  /** The entity id (and shard id) of partition {@code partition} of run {@code runId}. */
  public static String entityId(String runId, int partition) {
    return runId + "-" + partition;
  }

  /** The partition number in an entity or shard id, or -1 if it has none. */
  public static int partitionOf(String entityId) {
    int dash = entityId.lastIndexOf('-');
    try {
      return dash < 0 ? -1 : Integer.parseInt(entityId.substring(dash + 1));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** Shard id = entity id: every partition is a shard of its own, placed on its own. */
  private static final class Extractor extends ShardingMessageExtractor<
      ShardingEnvelope<PartitionEntity.Command>, PartitionEntity.Command> {

    @Override
    public String entityId(ShardingEnvelope<PartitionEntity.Command> envelope) {
      return envelope.entityId();
    }

    @Override
    public String shardId(String entityId) {
      return entityId;
    }

    @Override
    public PartitionEntity.Command unwrapMessage(ShardingEnvelope<PartitionEntity.Command> e) {
      return e.message();
    }
  }
}
