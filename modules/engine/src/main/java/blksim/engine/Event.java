package blksim.engine;

/**
 * A message in flight, with its delivery time and its place in the total event order.
 *
 * <p>Events are totally ordered by (time, sender index, sender sequence). The sender's sequence
 * counts every send the sender ever made, so two events never compare equal and the order does
 * not depend on which partition hosts which component, nor on arrival order.
 *
 * @param time delivery time in virtual nanoseconds
 * @param target index of the receiving component
 * @param sender index of the sending component
 * @param seq the sender's send counter at the time of sending
 * @param message the immutable payload
 */
public record Event(long time, int target, int sender, long seq, Message message) {

  /** Whether this event runs before {@code o} in the total event order. */
  public boolean before(Event o) {
    if (time != o.time) {
      return time < o.time;
    }
    if (sender != o.sender) {
      return sender < o.sender;
    }
    return seq < o.seq;
  }
}
