package blksim.kernel.dm;

import blksim.kernel.block.Bio;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.ReqOp;
import blksim.kernel.workqueue.WorkerCpu;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * A work's synchronous wait for metadata cache misses ({@code dmz_get_mblock_slow()} and
 * {@code wait_on_bit_io(&mblk->state, DMZ_META_READING, TASK_UNINTERRUPTIBLE)},
 * drivers/md/dm-zoned-metadata.c): the work submits one 4 KiB {@code REQ_OP_READ | REQ_META |
 * REQ_PRIO} bio per block it missed, at the block's place in the primary metadata set, waits for
 * them, and waits for the reads other works started of blocks it also needs. The work keeps
 * whatever it holds meanwhile (its {@code dmz_cwq} slot, {@code mblk_sem} shared). Owned by the
 * work item running it.
 */
final class DmzMblkWait {
  private final DmzMblkCache cache;
  private final List<Long> own;
  private final List<Long> others;
  private final DmzIoBatch reads;
  private boolean registered;
  private boolean ownDone;
  private int pending;
  private Runnable waiter;
  private long startNs = -1;

  /** The read bios, in submission order. */
  private final List<Bio> bios = new ArrayList<>();

  DmzMblkWait(DmzMblkCache cache, DmzFormat fmt, int primary, IntFunction<BlockQueue> queues,
      List<Long> own, List<Long> others) {
    this.cache = cache;
    this.own = own;
    this.others = others;
    this.reads = new DmzIoBatch(queues);
    long base = DmzMetaFlush.setBase(fmt, primary);
    for (long no : own) {
      Bio b = new Bio(ReqOp.READ, (base + no) * DmzFormat.BLOCK_SECTORS, DmzFormat.BLOCK_SIZE,
          Bio.REQ_META | Bio.REQ_PRIO);
      bios.add(b);
      reads.add(b);
    }
  }

  /** The reads this wait submits. */
  List<Bio> bios() {
    return bios;
  }

  /** The wait for the misses of the caller's last metadata accesses, or null if none. */
  static DmzMblkWait take(DmzDevice dev) {
    DmzMblkCache c = dev.md.cache;
    List<Long> own = c.takeMisses();
    List<Long> others = c.takeWaits();
    if (own.isEmpty() && others.isEmpty()) {
      return null;
    }
    return new DmzMblkWait(c, dev.fmt, dev.md.mblkPrimary, dev::queue, own, others);
  }

  /** One action of the worker, or false when every block it needs is in memory. */
  boolean step(WorkerCpu cpu) {
    if (!registered) {
      registered = true;
      startNs = cpu.cpu().now();
      for (long no : others) {
        if (cache.waitFor(no, this::otherDone)) {
          pending++;
        }
      }
    }
    if (reads.step(cpu)) {
      return true;
    }
    if (!ownDone) {
      ownDone = true;
      for (long no : own) {
        cache.readDone(no);
      }
    }
    if (pending > 0) {
      waiter = cpu.waker();
      cpu.sleep();
      return true;
    }
    long w = cpu.cpu().now() - startNs;
    cache.waitNs += w;
    cache.maxWaitNs = Math.max(cache.maxWaitNs, w);
    return false;
  }

  private void otherDone() {
    pending--;
    if (pending == 0 && waiter != null) {
      Runnable w = waiter;
      waiter = null;
      w.run();
    }
  }
}
