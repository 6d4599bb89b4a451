package blksim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class EventQueueTest {

  private static Event ev(long time, int sender, long seq) {
    return new Event(time, 0, sender, seq, new TestModels.Tick());
  }

  @Test
  void ties_pollInTimeThenSenderThenSeqOrder() {
    EventQueue q = new EventQueue();
    q.add(ev(10, 2, 0));
    q.add(ev(10, 1, 5));
    q.add(ev(5, 9, 9));
    q.add(ev(10, 1, 3));
    q.add(ev(20, 0, 0));
    q.add(ev(10, 2, 1));
    assertEquals(5, q.peekTime());
    List<String> order = new ArrayList<>();
    while (!q.isEmpty()) {
      Event e = q.poll();
      order.add(e.time() + "/" + e.sender() + "/" + e.seq());
    }
    assertEquals(List.of("5/9/9", "10/1/3", "10/1/5", "10/2/0", "10/2/1", "20/0/0"), order);
    assertEquals(Long.MAX_VALUE, q.peekTime());
  }

  @Test
  void randomEvents_pollInTotalOrder_whateverTheInsertionOrder() {
    SplittableRandom r = new SplittableRandom(42);
    List<Event> events = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      events.add(ev(r.nextLong(50), r.nextInt(8), i));
    }
    EventQueue q = new EventQueue();
    for (Event e : events) {
      q.add(e);
    }
    events.sort(Comparator.comparingLong(Event::time).thenComparingInt(Event::sender)
        .thenComparingLong(Event::seq));
    assertEquals(events.size(), q.size());
    for (Event e : events) {
      assertEquals(e, q.poll());
    }
    assertTrue(q.isEmpty());
  }

  /**
   * Adds interleaved with polls, as a partition does: adds at the time just polled (with smaller
   * and larger ties), near it, far ahead, and now and then below it (the rebuild path); the queue
   * must give the same sequence as a priority queue on (time, sender, seq).
   */
  @Test
  void interleavedAddsAndPolls_matchAPriorityQueue() {
    SplittableRandom r = new SplittableRandom(7);
    java.util.PriorityQueue<Event> ref = new java.util.PriorityQueue<>(
        Comparator.comparingLong(Event::time).thenComparingInt(Event::sender)
            .thenComparingLong(Event::seq));
    EventQueue q = new EventQueue();
    long seq = 0;
    long now = 0;
    for (int i = 0; i < 200; i++) {
      Event e = ev(r.nextLong(1 << 20), r.nextInt(50), seq++);
      ref.add(e);
      q.add(e);
    }
    for (int step = 0; step < 100_000; step++) {
      assertEquals(ref.peek().time(), q.peekTime());
      Event want = ref.poll();
      assertEquals(want, q.poll());
      now = want.time();
      int adds = r.nextInt(3);
      for (int k = 0; k < adds; k++) {
        int kind = r.nextInt(10);
        long t = kind < 3 ? now : kind < 7 ? now + r.nextLong(100) : kind < 9
            ? now + r.nextLong(1L << 30) : Math.max(0, now - r.nextLong(1000));
        Event e = ev(t, r.nextInt(50), seq++);
        ref.add(e);
        q.add(e);
      }
      if (ref.isEmpty()) {
        break;
      }
      assertEquals(ref.size(), q.size());
    }
  }

  /**
   * The calendar's edges: sparse events far apart (only the far heap), bursts at one nanosecond,
   * delays around the ring's span (2^14 ns) and its wrap-around, and an add at the time just
   * polled after a peek has looked ahead (it must still come out first).
   */
  @Test
  void ringSpanWrapAndAddsAtTheBaseAfterAPeek_matchAPriorityQueue() {
    SplittableRandom r = new SplittableRandom(11);
    java.util.PriorityQueue<Event> ref = new java.util.PriorityQueue<>(
        Comparator.comparingLong(Event::time).thenComparingInt(Event::sender)
            .thenComparingLong(Event::seq));
    EventQueue q = new EventQueue();
    long seq = 0;
    for (int i = 0; i < 50; i++) {
      Event e = ev(r.nextLong(1L << 40), r.nextInt(50), seq++);
      ref.add(e);
      q.add(e);
    }
    long span = 1 << 14;
    for (int step = 0; step < 200_000 && !ref.isEmpty(); step++) {
      assertEquals(ref.peek().time(), q.peekTime());
      Event want = ref.poll();
      assertEquals(want, q.poll());
      long now = want.time();
      q.peekTime();
      int adds = ref.size() < 30 ? 2 : r.nextInt(3);
      for (int k = 0; k < adds; k++) {
        int kind = r.nextInt(8);
        long t = switch (kind) {
          case 0 -> now;
          case 1 -> now + span - 1 + r.nextInt(3);
          case 2 -> now + span * (1 + r.nextInt(3)) + r.nextInt(5);
          case 3 -> now + r.nextLong(1L << 24);
          default -> now + 1 + r.nextInt(40);
        };
        Event e = ev(t, r.nextInt(50), seq++);
        ref.add(e);
        q.add(e);
      }
      assertEquals(ref.size(), q.size());
    }
  }

  /**
   * Only far events and events at the base, then one below the base, before any event has gone
   * into the ring (which is made at its first event): the rebuild and the order hold.
   */
  @Test
  void farAndBaseEventsAndARebuildBeforeTheRingIsMade_pollInTotalOrder() {
    EventQueue q = new EventQueue();
    List<Event> want = new ArrayList<>();
    want.add(ev(1_000_000, 3, 0));
    want.add(ev(1_000_000, 1, 1));
    want.add(ev(5_000_000, 2, 2));
    for (Event e : want) {
      q.add(e);
    }
    Event first = q.poll(); // the base is now 1,000,000
    assertEquals(want.get(1), first);
    Event below = ev(100, 4, 3); // below the base, far from the rest: rebuilt, ring not used
    q.add(below);
    assertEquals(below, q.poll());
    Event near = ev(200, 5, 4); // within the ring's span of the new base: the ring is made
    q.add(near);
    assertEquals(near, q.poll());
    assertEquals(want.get(0), q.poll());
    assertEquals(want.get(2), q.poll());
    assertTrue(q.isEmpty());
  }

  @Test
  void senderOrSequenceBeyondThePackedKey_isRefused() {
    EventQueue q = new EventQueue();
    org.junit.jupiter.api.Assertions.assertThrows(SimulationException.class,
        () -> q.add(ev(1, 1 << 23, 0)));
    org.junit.jupiter.api.Assertions.assertThrows(SimulationException.class,
        () -> q.add(ev(1, 0, 1L << 40)));
  }
}
