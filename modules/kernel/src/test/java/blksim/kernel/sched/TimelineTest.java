package blksim.kernel.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import blksim.kernel.sched.CfsPolicyTest.Idle;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The run queue's timeline keeps a TreeSet's order, first and membership through 0, 1 and more. */
class TimelineTest {
  private static final Comparator<Task> ORDER =
      Comparator.comparingLong((Task t) -> t.se.vruntime).thenComparingLong(Task::orderKey);

  @Test
  void randomAddsAndRemoves_matchATreeSetAtEveryStep() {
    SplittableRandom r = new SplittableRandom(7);
    List<Task> tasks = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      Idle t = new Idle("t" + i, 0, i);
      t.se.vruntime = r.nextInt(4); // ties: the order key decides
      tasks.add(t);
    }
    Timeline timeline = new Timeline(ORDER);
    TreeSet<Task> tree = new TreeSet<>(ORDER);
    int singles = 0;
    for (int step = 0; step < 20_000; step++) {
      Task t = tasks.get(r.nextInt(tasks.size()));
      // Mostly 0 to 2 queued, as on a CPU with one busy task and an occasional second.
      if (r.nextInt(3) == 0 && !tree.contains(t)) {
        timeline.add(t);
        tree.add(t);
      } else {
        assertEquals(tree.remove(t), timeline.remove(t), "remove at step " + step);
      }
      if (!tree.contains(t)) {
        t.se.vruntime = r.nextInt(4); // keys change only while not queued
      }
      assertEquals(tree.isEmpty(), timeline.isEmpty());
      assertSame(tree.isEmpty() ? null : tree.first(), timeline.first());
      assertEquals(new ArrayList<>(tree), timeline.toList());
      List<Task> iterated = new ArrayList<>();
      timeline.forEach(iterated::add);
      assertEquals(new ArrayList<>(tree), iterated);
      if (tree.size() == 1) {
        singles++;
        assertSame(tree.first(), timeline.single());
      } else {
        assertNull(timeline.single());
      }
      for (Task x : tasks) {
        assertEquals(tree.contains(x), timeline.contains(x));
      }
    }
    assertEquals(true, singles > 1000, "the one-task case was exercised: " + singles);
  }
}
