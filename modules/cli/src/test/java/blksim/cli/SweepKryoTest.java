package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import blksim.engine.kryo.KryoRoundTrip;
import blksim.engine.pekko.PartitionError;
import blksim.engine.pekko.ClusterRunner;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The sweep protocol's messages cross JVMs through Kryo unchanged. */
@Timeout(60)
class SweepKryoTest {

  @Test
  void requestAndReply_roundTrip() {
    ActorSystem<Void> sys = ClusterRunner.startEmbeddedNode();
    try {
      ActorRef<SweepWork.DriverCommand> driver = sys.systemActorOf(Behaviors.empty(), "d",
          Props.empty());
      ActorRef<SweepWork.WorkerCommand> worker = sys.systemActorOf(Behaviors.empty(), "w",
          Props.empty());
      SweepWork.RunRequest req = new SweepWork.RunRequest("s1", 3, "blksim { seed = 1 }",
          "cluster", java.util.List.of("jobs.0.read.iops", "a / b"), driver);
      assertEquals(req, KryoRoundTrip.viaPekko(sys, req));
      SweepWork.RunReply reply = new SweepWork.RunReply("s1", 3, new double[] {1.5, Double.NaN},
          new String[] {null, "'a / b' does not name a value"}, null, "pekko://blksim@h:1",
          worker);
      SweepWork.RunReply back = KryoRoundTrip.viaPekko(sys, reply);
      assertArrayEquals(reply.values(), back.values());
      assertArrayEquals(reply.errors(), back.errors());
      assertEquals(reply.worker(), back.worker());
      assertEquals(reply.node(), back.node());
      SweepWork.RunReply failed = new SweepWork.RunReply("s1", 4, new double[0], new String[0],
          new PartitionError(PartitionError.Type.INPUT, "m", "f", 2, "k", "r"), "n",
          worker);
      assertEquals(failed.failure(), KryoRoundTrip.viaPekko(sys, failed).failure());
    } finally {
      ClusterRunner.shutdown(sys);
    }
  }
}
