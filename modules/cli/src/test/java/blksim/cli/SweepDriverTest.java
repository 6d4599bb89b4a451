package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import blksim.engine.pekko.ClusterRunner;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The driver's bookkeeping for a run this JVM started before the driver existed (the sweep's
 * first run, started while the JVM joins) and for a worker handed to it directly: every other run
 * goes to a worker exactly once, the early run never, and the figures come out in run order
 * whether the early run's reply arrives before or after its worker is known.
 */
@Timeout(60)
class SweepDriverTest {

  /** A worker that answers each run at once with its index as the figure, logging the index. */
  private static Behavior<SweepWork.WorkerCommand> fake(List<Integer> got) {
    return Behaviors.setup(ctx -> Behaviors.receive(SweepWork.WorkerCommand.class)
        .onMessage(SweepWork.RunRequest.class, r -> {
          got.add(r.index());
          r.replyTo().tell(new SweepWork.RunReply(r.sweepId(), r.index(),
              new double[] {r.index()}, new String[1], null, "fake", ctx.getSelf()));
          return Behaviors.same();
        }).build());
  }

  private static void check(ActorSystem<Void> sys, String id, boolean earlyReplyFirst)
      throws Exception {
    List<SweepDriver.Job> jobs = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      jobs.add(new SweepDriver.Job(i, "spec " + i, "run " + i));
    }
    List<Integer> got = Collections.synchronizedList(new ArrayList<>());
    CompletableFuture<SweepDriver.Outcome> done = new CompletableFuture<>();
    ActorRef<SweepWork.DriverCommand> d = sys.systemActorOf(SweepDriver.create(id, jobs,
        "cluster", List.of("m"), 1, 0, new PrintWriter(new StringWriter()), done), "d-" + id,
        Props.empty());
    ActorRef<SweepWork.WorkerCommand> w = sys.systemActorOf(fake(got), "w-" + id,
        Props.empty());
    SweepWork.RunReply early = new SweepWork.RunReply(id, 0, new double[] {0}, new String[1],
        null, "this JVM", null);
    if (earlyReplyFirst) {
      d.tell(early);
      d.tell(SweepDriver.found(w));
    } else {
      d.tell(SweepDriver.found(w));
      Thread.sleep(300); // the worker, busy with the early run, gets nothing meanwhile
      assertEquals(List.of(), List.copyOf(got));
      d.tell(early);
    }
    SweepDriver.Outcome o = done.get(30, TimeUnit.SECONDS);
    assertEquals(List.of(1, 2, 3, 4), List.copyOf(got));
    for (int i = 0; i < 5; i++) {
      assertEquals(i, o.values().get(i).values()[0], 0.0);
    }
    assertEquals(List.of(), o.reruns());
  }

  @Test
  void earlyRun_isNeverHandedOut_andTheFiguresComeInRunOrder() throws Exception {
    ActorSystem<Void> sys = ClusterRunner.startEmbeddedNode();
    try {
      check(sys, "a", false);
      check(sys, "b", true);
    } finally {
      ClusterRunner.shutdown(sys);
    }
  }
}
