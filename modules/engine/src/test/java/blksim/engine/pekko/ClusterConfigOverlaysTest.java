package blksim.engine.pekko;

import static blksim.engine.TestModels.PING_SPEC;
import static blksim.engine.TestModels.assertSameOutcome;
import static blksim.engine.TestModels.ping;
import static org.junit.jupiter.api.Assertions.assertEquals;

import blksim.engine.LocalRunner;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.engine.synthetic.PingModelFactory;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.io.File;
import java.util.List;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The user-facing overlays in cluster-config/ parse, resolve and host a run. */
class ClusterConfigOverlaysTest {
  private static final File DIR = new File("../../cluster-config");

  private static Config overlay(String name) {
    return ConfigFactory.parseFile(new File(DIR, name))
        .withFallback(ConfigFactory.load()).resolve();
  }

  @Test
  void localMultiNode_listsBothSeedNodesOnLoopback() {
    Config c = overlay("local-multi-node.conf");
    assertEquals(List.of("pekko://blksim@127.0.0.1:25520", "pekko://blksim@127.0.0.1:25521"),
        c.getStringList("pekko.cluster.seed-nodes"));
    assertEquals("127.0.0.1", c.getString("pekko.remote.artery.canonical.hostname"));
    assertEquals("cluster", c.getString("pekko.actor.provider"));
    assertEquals("off", c.getString("pekko.actor.allow-java-serialization"));
    ClusterRunSettings.from(c);
  }

  @Test
  @Timeout(60)
  void singleNode_hostsARun() throws InterruptedException {
    Config c = overlay("single-node.conf");
    assertEquals(0, c.getInt("pekko.remote.artery.canonical.port"));
    ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "blksim", c);
    try {
      Cluster cluster = Cluster.get(system);
      cluster.manager().tell(Join.create(cluster.selfMember().address()));
      while (cluster.selfMember().status() != MemberStatus.up()) {
        Thread.sleep(10);
      }
      RunOutcome local = LocalRunner.run(ping(PING_SPEC), Partitioning.parse("llc"), 1,
          ProgressListener.NONE);
      RunOutcome hosted = ClusterRunner.run(List.of(system), PingModelFactory.class.getName(),
          PING_SPEC, Partitioning.parse("llc"), ProgressListener.NONE);
      assertSameOutcome(local, hosted, true);
    } finally {
      ClusterRunner.shutdown(system);
    }
  }
}
