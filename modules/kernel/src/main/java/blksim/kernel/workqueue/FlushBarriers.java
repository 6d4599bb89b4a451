package blksim.kernel.workqueue;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * One owner's side of {@code flush_workqueue()} and {@code drain_workqueue()} (kernel-model.md
 * §4.10): items are numbered as they are queued here, and a flush waits for the items in flight
 * when it arrived; a drain waits until none is left. The kernel's flush colours reduced to a
 * counter per owner and wq. Owned by a {@link WorkqueueCpu} or an {@link UnboundPoolHost}.
 */
final class FlushBarriers {
  private final long[] nextSeq;
  private final int[] inFlight;
  private final List<Barrier> barriers = new ArrayList<>();

  private static final class Barrier {
    final long flushId;
    final int requester;
    final int wqId;
    final long limit;
    final boolean drain;
    int remaining;

    Barrier(long flushId, int requester, int wqId, long limit, boolean drain, int remaining) {
      this.flushId = flushId;
      this.requester = requester;
      this.wqId = wqId;
      this.limit = limit;
      this.drain = drain;
      this.remaining = remaining;
    }
  }

  /** A flush that is done: answer {@code requester}. */
  record Done(long flushId, int requester) {}

  FlushBarriers(int nWq) {
    nextSeq = new long[nWq];
    inFlight = new int[nWq];
  }

  /** An item of {@code wqId} is queued here; returns its number. */
  long queued(int wqId) {
    inFlight[wqId]++;
    return nextSeq[wqId]++;
  }

  /** Items of {@code wqId} queued here and not finished. */
  int inFlight(int wqId) {
    return inFlight[wqId];
  }

  /** A flush request arrives; returns it done at once if nothing is in flight. */
  Done add(long flushId, int requester, int wqId, boolean drain) {
    if (inFlight[wqId] == 0) {
      return new Done(flushId, requester);
    }
    barriers.add(new Barrier(flushId, requester, wqId, nextSeq[wqId], drain, inFlight[wqId]));
    return null;
  }

  /** Item number {@code seq} of {@code wqId} finished; returns the flushes it completes. */
  List<Done> completed(int wqId, long seq) {
    inFlight[wqId]--;
    List<Done> out = null;
    for (Iterator<Barrier> it = barriers.iterator(); it.hasNext(); ) {
      Barrier b = it.next();
      if (b.wqId != wqId) {
        continue;
      }
      boolean done;
      if (b.drain) {
        done = inFlight[wqId] == 0;
      } else {
        if (seq < b.limit) {
          b.remaining--;
        }
        done = b.remaining == 0;
      }
      if (done) {
        it.remove();
        if (out == null) {
          out = new ArrayList<>();
        }
        out.add(new Done(b.flushId, b.requester));
      }
    }
    return out == null ? List.of() : out;
  }
}
