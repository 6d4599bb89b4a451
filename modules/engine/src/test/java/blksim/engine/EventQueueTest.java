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
}
