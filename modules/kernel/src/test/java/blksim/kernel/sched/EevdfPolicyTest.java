package blksim.kernel.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.kernel.sched.CfsPolicyTest.Idle;
import blksim.kernel.sched.SchedParams.SchedClass;
import org.junit.jupiter.api.Test;

/**
 * The EEVDF policy on its own: the weighted average V, eligibility, deadlines, lag kept across a
 * sleep and scaled at placement, the lag clamp, and RUN_TO_PARITY. Base slice 0.75 ms, HZ 1000.
 */
class EevdfPolicyTest {
  static final long US = 1_000;
  static final SchedParams P = new SchedParams(0, 0, 1).withHz(1000)
      .withScheduler(SchedClass.EEVDF);
  static final long SLICE = P.baseSliceNs();

  @Test
  void newTasks_startAtV_withHalfASliceAsTheirFirstRequest() {
    EevdfPolicy q = new EevdfPolicy(P);
    Idle a = new Idle("a", 0, 0);
    Idle b = new Idle("b", 0, 1);
    q.enqueueInitial(a);
    q.enqueueInitial(b);
    assertEquals(0, a.se.vruntime);
    assertEquals(SLICE / 2, a.se.deadline, "PLACE_DEADLINE_INITIAL");
    assertSame(a, q.pickNextTask(0), "equal deadlines: the first in vruntime order");
    q.updateCurr(400 * US);
    assertEquals(400 * US, q.avgVruntime() * 2, "V = (400 us + 0) / 2");
    assertFalse(q.eligible(a), "a ran past V");
    assertTrue(q.eligible(b));
  }

  @Test
  void requestEnd_givesANewDeadline_andAsksForAReschedOnlyWithCompany() {
    EevdfPolicy q = new EevdfPolicy(P);
    Idle a = new Idle("a", 0, 0);
    q.enqueueInitial(a);
    q.pickNextTask(0);
    assertFalse(q.taskTick(SLICE), "alone: a new request, no resched");
    assertTrue(a.se.deadline > SLICE);
    Idle b = new Idle("b", 0, 1);
    q.enqueueNew(b, a, SLICE);
    assertTrue(q.taskTick(3 * SLICE), "a's request ended with b waiting");
  }

  @Test
  void lag_isKeptAcrossASleep_clamped_andScaledAtPlacement() {
    EevdfPolicy q = new EevdfPolicy(P);
    Idle a = new Idle("a", 0, 0);
    Idle b = new Idle("b", 0, 1);
    q.enqueueInitial(a);
    q.enqueueInitial(b);
    q.pickNextTask(0);
    // a runs 10 slices' worth, then sleeps: V = 5 slices, a's lag -5 slices, clamped to the
    // virtual time of max(2 * slice, tick) = 1.5 ms.
    q.dequeueCurr(10 * SLICE);
    assertEquals(-Math.max(2 * SLICE, P.tickNs()), a.se.vlag);
    // b runs 1 ms alone, then a wakes: V is b's vruntime; a is placed lag * (W + w) / W behind.
    assertSame(b, q.pickNextTask(10 * SLICE));
    q.enqueueWakeup(a, 10 * SLICE + 1_000 * US);
    long v = b.se.vruntime;
    assertEquals(v + 2 * Math.max(2 * SLICE, P.tickNs()), a.se.vruntime,
        "a negative lag places it after V, doubled by the weights of b and a over b's");
    assertEquals(a.se.vruntime + SLICE, a.se.deadline);
    assertFalse(q.checkPreemptWakeup(a, 10 * SLICE + 1_000 * US), "a is not eligible");
  }

  @Test
  void runToParity_keepsCurrentUntilItsRequestEnds_evenAgainstAnEarlierDeadline() {
    EevdfPolicy q = new EevdfPolicy(P);
    Idle z = new Idle("z", 0, 0);
    Idle a = new Idle("a", 0, 1);
    Idle c = new Idle("c", 0, 2);
    q.enqueueInitial(z);
    // a wakes owed 1.5 ms (positive lag): placed 3 ms (lag * (W + w) / W) before V.
    a.se.vlag = 1_500 * US;
    q.enqueueWakeup(a, 0);
    assertEquals(-3_000 * US, a.se.vruntime);
    assertSame(a, q.pickNextTask(0), "eligible, earliest deadline");
    q.updateCurr(100 * US);
    // c wakes owed even more: eligible, with an earlier deadline than a's request.
    c.se.vlag = 1_500 * US;
    q.enqueueWakeup(c, 100 * US);
    assertTrue(q.eligible(c) && c.se.deadline < a.se.deadline, "c would win a fresh pick");
    assertTrue(q.eligible(a));
    assertFalse(q.checkPreemptWakeup(c, 100 * US), "a keeps the CPU: same request, eligible");
    // a's request ends 650 us later (its deadline was 750 us of vruntime after its placement).
    assertFalse(q.taskTick(700 * US));
    assertTrue(q.taskTick(800 * US), "a new request, with others waiting: resched");
    q.putPrevTask(800 * US);
    assertSame(c, q.pickNextTask(800 * US), "now the earliest eligible deadline wins");
    assertEquals(3 * 1024, q.loadWeight());
  }
}
