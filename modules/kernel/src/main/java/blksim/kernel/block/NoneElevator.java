package blksim.kernel.block;

import java.util.ArrayList;
import java.util.List;

/**
 * No I/O scheduler ({@code none}): requests wait in insertion order in the software queue and are
 * dispatched first in, first out. A bio may merge into one of the newest eight waiting requests,
 * back or front ({@code blk_bio_list_merge()}, which stops after 8, called from
 * {@code blk_mq_attempt_bio_merge()}, block/blk-mq-sched.c). No merge on insertion.
 */
final class NoneElevator implements Elevator {
  /** How many of the newest requests a bio is tried against. */
  static final int MERGE_SCAN = 8;

  private final RequestQueue queue;
  private final List<Request> fifo = new ArrayList<>();
  private int head;

  NoneElevator(RequestQueue queue) {
    this.queue = queue;
  }

  @Override
  public String name() {
    return "none";
  }

  @Override
  public boolean bioMerge(Bio bio, BioEndIo endIo) {
    int checked = 0;
    for (int i = fifo.size() - 1; i >= head && checked < MERGE_SCAN; i--, checked++) {
      if (queue.tryBioMerge(fifo.get(i), bio, endIo)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public boolean insert(Request rq, long now) {
    fifo.add(rq);
    return false;
  }

  @Override
  public Request dispatch(long now) {
    if (head == fifo.size()) {
      return null;
    }
    Request r = fifo.get(head);
    fifo.set(head++, null);
    if (head == fifo.size()) {
      fifo.clear();
      head = 0;
    } else if (head > 1024 && head * 2 > fifo.size()) {
      fifo.subList(0, head).clear();
      head = 0;
    }
    return r;
  }

  @Override
  public int queued() {
    return fifo.size() - head;
  }
}
