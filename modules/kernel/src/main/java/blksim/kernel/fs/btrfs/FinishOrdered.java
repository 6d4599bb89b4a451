package blksim.kernel.fs.btrfs;

import blksim.kernel.workqueue.WorkFn;
import blksim.kernel.workqueue.WorkRun;
import blksim.kernel.workqueue.WorkerCpu;

/**
 * {@code finish_ordered_fn()} → {@code btrfs_finish_one_ordered()} ({@code fs/btrfs/inode.c})
 * for one ordered extent of a copy-on-write direct write, on {@code btrfs-endio-write}; the
 * minimal contention model of kernel-model.md §15.3.4:
 * <ol>
 * <li>c_f of CPU ({@link BtrfsParams#finishNs}): locking the range in the extent-io tree,
 *     {@code btrfs_join_transaction()}, {@code insert_reserved_file_extent()}'s search and
 *     overlap drop, the delayed data reference, {@code unpin_extent_cache()};
 * <li>the tree lock exclusive for h_w ({@link BtrfsParams#finishTreeHoldNs}): the file extent
 *     item and {@code btrfs_csum_file_blocks()} inserting into the one global csum tree, where
 *     the hot nodes are; a finisher that finds it taken spins on a running owner or sleeps in D
 *     state (FIFO, hand-off); the hold grows by the hot nodes' cache-line transfer from the
 *     previous holder's core ({@link BtrfsFilesystem#treeTransferNs});
 * <li>c_f2 ({@link BtrfsParams#finishTailNs}) with the release's wakeup cost:
 *     {@code btrfs_update_inode_fallback()}, {@code clear_extent_bit()},
 *     {@code btrfs_end_transaction()};
 * <li>{@code btrfs_remove_ordered_extent()}: the ordered extent is gone and fsync waiters wake.
 * </ol>
 * A lambda-free object, but not a record: it runs in the filesystem's one partition only.
 */
final class FinishOrdered implements WorkFn {
  private final BtrfsFilesystem fs;
  private final OrderedExtent oe;

  FinishOrdered(BtrfsFilesystem fs, OrderedExtent oe) {
    this.fs = fs;
    this.oe = oe;
  }

  @Override
  public WorkRun begin() {
    return new WorkRun() {
      private int phase;
      private blksim.kernel.locking.RwSemaphore leaf;

      @Override
      public void step(WorkerCpu w) {
        switch (phase) {
          case 0:
            phase = 1;
            w.runFor(fs.params().finishNs());
            return;
          case 1:
            if (!w.acquire(fs.treeWrite)) {
              return;
            }
            if (fs.coupling()) {
              leaf = fs.leafLock(fs.inode(oe.ino()));
              phase = 11;
              // btrfs_search_slot(): the leaf's lock is taken with the upper nodes held.
              if (!w.acquire(leaf::downWrite)) {
                return;
              }
            }
            phase = 2;
            w.runFor(fs.params().finishTreeHoldNs() + fs.treeTransferNs(w.cpu()));
            return;
          case 11:
            if (!w.acquire(leaf::downWrite)) {
              return;
            }
            phase = 2;
            w.runFor(fs.params().finishTreeHoldNs() + fs.treeTransferNs(w.cpu()));
            return;
          case 2: {
            long wake = fs.treeLock().upWrite(w.worker(), w.cpu());
            if (leaf != null) {
              // unlock_up(): the upper nodes go, the leaf is held for the insert.
              phase = 12;
              w.runFor(fs.params().finishLeafHoldNs() + wake);
              return;
            }
            phase = 3;
            w.runFor(fs.params().finishTailNs() + wake);
            return;
          }
          case 12: {
            long wake = leaf.upWrite(w.worker(), w.cpu());
            phase = 3;
            w.runFor(fs.params().finishTailNs() + wake);
            return;
          }
          default:
            fs.orderedFinished(oe, w.cpu(), w.now());
            w.finish();
        }
      }
    };
  }
}
