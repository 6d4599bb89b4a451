package blksim.engine.pekko;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import java.net.ServerSocket;
import java.util.List;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.typed.Cluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A join that fails says why: nothing listening, not a blksim node, another system name. */
@Timeout(60)
class JoinFailureTest {

  @Test
  void whyNotJoined_namesTheCause() throws Exception {
    ActorSystem<Void> self = ClusterRunner.startEmbeddedNode();
    ServerSocket notPekko = new ServerSocket(0);
    ActorSystem<Void> other = ActorSystem.create(Behaviors.empty(), "other",
        ClusterRunner.embeddedConfig());
    try {
      int closed;
      try (ServerSocket s = new ServerSocket(0)) {
        closed = s.getLocalPort();
      }
      String why = ClusterRunner.whyNotJoined(self, List.of("127.0.0.1:" + closed));
      assertTrue(why.startsWith("nothing is listening at 127.0.0.1:" + closed
          + " (connection refused)"), why);

      why = ClusterRunner.whyNotJoined(self, List.of("127.0.0.1:" + notPekko.getLocalPort()));
      assertTrue(why.startsWith("something is listening at 127.0.0.1:"
          + notPekko.getLocalPort() + " but it does not answer as pekko://blksim@"), why);

      int otherPort = Cluster.get(other).selfMember().address().getPort().get();
      why = ClusterRunner.whyNotJoined(self, List.of("127.0.0.1:" + otherPort));
      assertTrue(why.contains("another actor-system name"), why);

      // A blksim node that answers: the cause is its cluster, not the connection.
      ActorSystem<Void> blksim = ClusterRunner.startEmbeddedNode();
      try {
        int port = Cluster.get(blksim).selfMember().address().getPort().get();
        why = ClusterRunner.whyNotJoined(self, List.of("127.0.0.1:" + port));
        assertTrue(why.startsWith("127.0.0.1:" + port + " is a blksim node but its cluster did"
            + " not take this node in"), why);
      } finally {
        ClusterRunner.shutdown(blksim);
      }
    } finally {
      notPekko.close();
      ClusterRunner.shutdown(other);
      ClusterRunner.shutdown(self);
    }
  }

  @Test
  void joiningAPortWhereNothingListens_failsWithinSeconds_notAfterTheStartTimeout()
      throws Exception {
    int closed;
    try (ServerSocket s = new ServerSocket(0)) {
      closed = s.getLocalPort();
    }
    long t0 = System.nanoTime();
    String msg = "";
    try {
      ClusterRunner.startClusterNode("127.0.0.1", 0, List.of("127.0.0.1:" + closed));
    } catch (blksim.engine.SimulationException e) {
      msg = e.getMessage();
    }
    long ms = (System.nanoTime() - t0) / 1_000_000;
    assertTrue(msg.contains("nothing is listening at 127.0.0.1:" + closed), msg);
    // The start timeout is 30 s; a seed that refuses every connection for a few seconds is
    // not starting up, and the user should hear so at once.
    assertTrue(ms < 15_000, "took " + ms + " ms: " + msg);
  }
}
