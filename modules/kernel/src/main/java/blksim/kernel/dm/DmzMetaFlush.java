package blksim.kernel.dm;

import blksim.kernel.block.Bio;
import blksim.kernel.block.ReqOp;
import blksim.kernel.workqueue.WorkerCpu;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code dmz_flush_metadata()} (drivers/md/dm-zoned-metadata.c, kernel-model.md §15.1.3), driven
 * by the work item that calls it (the flush work, or reclaim after each zone): {@code mblk_sem}
 * exclusively (every chunk work stops at its next bio); with no dirty block, one cache flush;
 * otherwise the dirty blocks written to the secondary set ({@code dmz_log_dirty_mblocks()}:
 * plugged writes, wait, REQ_PREFLUSH, then that set's super block and another flush), then the
 * same in place in the primary set, then {@code sb_gen++}. Cost with D dirty blocks: 2·D 4 KiB
 * writes, 2 super block writes and 4 cache flushes, each step waited for. Owned by its run.
 */
final class DmzMetaFlush {
  private final DmzDevice dev;
  private int phase;
  private final List<DmzIoBatch> batches = new ArrayList<>();
  private int error;
  private List<Long> written = List.of();

  DmzMetaFlush(DmzDevice dev) {
    this.dev = dev;
  }

  /** The first error of the flush's I/O, 0 if none. */
  int error() {
    return error;
  }

  /** One action, or false when the flush is done and {@code mblk_sem} released. */
  boolean step(WorkerCpu cpu) {
    DmzMetadata md = dev.md;
    if (phase == 0) {
      phase = 1;
      if (!md.mblkSem.downWrite(cpu.waker())) {
        cpu.sleep();
        return true;
      }
    }
    if (phase == 1) {
      phase = 2;
      List<Long> dirty = new ArrayList<>(md.dirty);
      md.dirty.clear();
      md.cache.writing(dirty);
      written = dirty;
      if (dirty.isEmpty()) {
        batches.add(flush());
      } else {
        dev.stats().flushedBlocks += dirty.size();
        int log = md.mblkPrimary ^ 1;
        batches.add(writes(dirty, log));
        batches.add(flush());
        batches.add(sb(log));
        batches.add(flush());
        batches.add(writes(dirty, md.mblkPrimary));
        batches.add(flush());
        batches.add(sb(md.mblkPrimary));
        batches.add(flush());
        md.sbGen++;
      }
      cpu.runFor(DmzDevice.FLUSH_PER_BLOCK_NS * Math.max(1, dirty.size()));
      return true;
    }
    while (!batches.isEmpty()) {
      DmzIoBatch b = batches.get(0);
      if (b.step(cpu)) {
        return true;
      }
      if (b.error() != 0 && error == 0) {
        error = b.error();
      }
      batches.remove(0);
    }
    if (phase == 2) {
      phase = 3;
      // The written blocks are clean: to the cache's LRU (dmz_flush_metadata()'s last loop).
      md.cache.cleaned(written);
      md.mblkSem.upWrite();
    }
    return false;
  }

  private DmzIoBatch batch() {
    return new DmzIoBatch(dev::queue);
  }

  /** {@code blkdev_issue_flush()}. */
  private DmzIoBatch flush() {
    return batch().add(new Bio(ReqOp.FLUSH, 0, 0, Bio.REQ_PREFLUSH));
  }

  private long setBase(int set) {
    return setBase(dev.fmt, set);
  }

  /** The first block (the super block) of metadata set {@code set}. */
  static long setBase(DmzFormat fmt, int set) {
    return set == 0 ? fmt.sbBlock() : fmt.sbBlock() + fmt.nrMetaZones() * fmt.zoneNrBlocks();
  }

  /** {@code dmz_write_dirty_mblocks()}: one 4 KiB write per block of the set. */
  private DmzIoBatch writes(List<Long> blocks, int set) {
    DmzIoBatch b = batch();
    long base = setBase(set);
    for (long no : blocks) {
      b.add(new Bio(ReqOp.WRITE, (base + no) * DmzFormat.BLOCK_SECTORS, DmzFormat.BLOCK_SIZE,
          Bio.REQ_SYNC));
    }
    return b;
  }

  /** {@code dmz_write_sb()}: the set's super block, a synchronous write. */
  private DmzIoBatch sb(int set) {
    return batch().add(new Bio(ReqOp.WRITE, setBase(set) * DmzFormat.BLOCK_SECTORS,
        DmzFormat.BLOCK_SIZE, Bio.REQ_SYNC));
  }
}
