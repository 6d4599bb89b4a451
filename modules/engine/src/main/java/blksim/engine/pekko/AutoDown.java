package blksim.engine.pekko;

import java.time.Duration;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Down;
import org.apache.pekko.cluster.typed.Subscribe;

/**
 * Auto-down for blksim's simple clusters: a member unreachable for {@code after}
 * ({@code blksim.engine.auto-down-after}) is downed by whichever member sees it so, which lets
 * the survivors of a crash take new members and runs again.
 *
 * <p>Chosen over Pekko's split brain resolver, whose strategies all down a lone survivor in
 * some of blksim's set-ups: {@code keep-oldest} with {@code down-if-alone} makes an oldest node
 * that is alone with a crashed member down itself, {@code static-quorum} of 1 downs every node
 * once the cluster has more than one member, {@code keep-majority} keeps the lowest address of
 * two. The price: a real network partition leaves two clusters that never merge back (restart
 * the nodes of one side); failures here are expected to be crashes of a JVM on a machine.
 */
final class AutoDown {
  private AutoDown() {}

  private record Unreachable(Address address) {}

  private record Reachable(Address address) {}

  private record Expired(Address address) {}

  static Behavior<Object> create(Duration after) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
      ActorRef<ClusterEvent.ReachabilityEvent> events = ctx.messageAdapter(
          ClusterEvent.ReachabilityEvent.class, e -> e instanceof ClusterEvent.UnreachableMember
              ? new Unreachable(e.member().address()) : new Reachable(e.member().address()));
      Cluster cluster = Cluster.get(ctx.getSystem());
      cluster.subscriptions().tell(Subscribe.create(events,
          ClusterEvent.ReachabilityEvent.class));
      return Behaviors.receive(Object.class)
          .onMessage(Unreachable.class, m -> {
            timers.startSingleTimer(m.address(), new Expired(m.address()), after);
            return Behaviors.same();
          })
          .onMessage(Reachable.class, m -> {
            timers.cancel(m.address());
            return Behaviors.same();
          })
          .onMessage(Expired.class, m -> {
            ctx.getLog().warn("downing {}: unreachable for {} ms (blksim.engine.auto-down-after)",
                m.address(), after.toMillis());
            cluster.manager().tell(new Down(m.address()));
            return Behaviors.same();
          })
          .build();
    }));
  }
}
