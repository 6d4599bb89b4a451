package blksim.kernel.mm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The page cache's state changes and accounting, and its inode lists, without a machine. */
class PageCacheTest {
  /** Records the flusher wakeups a wb asks for. */
  static final class Sched implements WbScheduler {
    final List<String> calls = new ArrayList<>();

    @Override
    public void modDelayedWork(BdiWriteback wb, long delayJiffies) {
      calls.add("mod " + delayJiffies);
    }

    @Override
    public void queueDelayedWork(BdiWriteback wb, long delayJiffies) {
      calls.add("queue " + delayJiffies);
    }
  }

  static final AddressSpace.Host BDEV = new AddressSpace.Host() {
    @Override
    public long prepareWriteback(AddressSpace as) {
      return 0;
    }

    @Override
    public long sectorOf(AddressSpace as, long index) {
      return index * 8;
    }
  };

  @Test
  void dirtyingAndWritebackMoveTheCounters() {
    PageCache pc = new PageCache(1000, DirtyParams.DEFAULTS, 250, 2);
    Sched sched = new Sched();
    BdiWriteback wb = pc.newWb("sdb", sched);
    AddressSpace as = pc.newAddressSpace(BDEV, wb);
    assertTrue(pc.setPageDirty(as, 3, 1_000, 0));
    assertFalse(pc.setPageDirty(as, 3, 2_000, 0), "a dirty page is not dirtied twice");
    assertTrue(pc.setPageDirty(as, 70, 3_000, 1));
    assertEquals(2, pc.nrDirty());
    assertEquals(2, pc.nrDirtied());
    assertEquals(2, wb.reclaimablePages());
    // The first dirty page put the inode on b_dirty with its time, and armed the kupdate flush:
    // dirty_writeback_centisecs 500 = 5 s = 1250 jiffies at HZ 250.
    assertSame(as, wb.bDirty.oldest());
    assertEquals(1_000, as.dirtiedWhenNs);
    assertEquals(List.of("queue 1250"), sched.calls);
    assertEquals(3, as.nextDirty(0));
    assertEquals(70, as.nextDirty(4));
    assertEquals(-1, as.nextDirty(71));
    pc.startWriteback(as, 3);
    assertEquals(1, pc.nrDirty());
    assertEquals(1, pc.nrWriteback());
    assertTrue(as.underWriteback(3));
    Runnable[] woke = {null};
    as.writebackWaiter = () -> woke[0] = () -> { };
    pc.endWriteback(as, 3);
    assertEquals(0, pc.nrWriteback());
    assertEquals(1, pc.nrWritten());
    assertTrue(woke[0] != null, "the end of the inode's writeback wakes its waiter");
    assertTrue(as.cached(3), "a written page stays cached, clean");
    assertEquals(2, pc.nrFilePages());
  }

  @Test
  void reclaimDropsOnlyCleanPages_leastRecentlyUsedFirst() {
    // 128 pages of memory; reclaim starts above 128 and stops at 128 - 128/64 = 126.
    PageCache pc = new PageCache(128, DirtyParams.DEFAULTS, 250, 1);
    BdiWriteback wb = pc.newWb("sdb", new Sched());
    AddressSpace old = pc.newAddressSpace(BDEV, wb);
    AddressSpace dirty = pc.newAddressSpace(BDEV, wb);
    for (int i = 0; i < 64; i++) {
      pc.addCached(old, i);
    }
    for (int i = 0; i < 64; i++) {
      pc.setPageDirty(dirty, i, 0, 0);
    }
    assertEquals(128, pc.nrFilePages());
    pc.addCached(dirty, 64);
    // 129 > 128: the oldest inode's clean pages go, all 64 of them (reclaim works per inode);
    // the dirty inode keeps everything.
    assertEquals(65, pc.nrFilePages());
    assertEquals(64, pc.reclaimedPages());
    assertEquals(0, old.nrPages());
    assertEquals(65, dirty.nrPages());
    assertEquals(64, pc.nrDirty());
  }

  @Test
  void truncateDropsDirtyPagesAndTheInodeLeavesItsList() {
    PageCache pc = new PageCache(1000, DirtyParams.DEFAULTS, 250, 1);
    BdiWriteback wb = pc.newWb("sdb", new Sched());
    AddressSpace as = pc.newAddressSpace(BDEV, wb);
    pc.setPageDirty(as, 0, 0, 0);
    pc.setPageDirty(as, 1, 0, 0);
    pc.startWriteback(as, 1);
    pc.truncate(as);
    assertEquals(0, pc.nrDirty());
    assertEquals(1, pc.nrWriteback(), "a page under writeback finishes its I/O");
    assertEquals(1, pc.nrFilePages());
    assertFalse(wb.hasDirtyIo());
  }

  @Test
  void chunkSize_isHalfTheBandwidthRoundedTo4MiB() {
    PageCache pc = new PageCache(1 << 20, DirtyParams.DEFAULTS, 250, 1);
    BdiWriteback wb = pc.newWb("sdb", new Sched());
    WbWork bg = new WbWork(Long.MAX_VALUE, false, true, false, WbWork.Reason.BACKGROUND);
    // avg_write_bandwidth starts at INIT_BW = 25600 pages/s: min(12800, dirty_limit / 8 =
    // 209715 / 8 = 26214) = 12800; (12800 + 1024) / 1024 * 1024 = 13312 pages.
    assertEquals(13312, wb.chunkSize(bg));
    WbWork sync = new WbWork(Long.MAX_VALUE, true, false, false, WbWork.Reason.SYNC);
    assertEquals(Long.MAX_VALUE, wb.chunkSize(sync));
    WbWork small = new WbWork(10, false, false, true, WbWork.Reason.PERIODIC);
    assertEquals(1024, wb.chunkSize(small), "a small budget still writes one 4 MiB chunk");
    // writeback_inodes_sb()'s WB_SYNC_NONE work is tagged: each inode in one go.
    WbWork tagged = new WbWork(1000, false, false, false, WbWork.Reason.SYNC);
    assertEquals(1024, wb.chunkSize(tagged));
    tagged.taggedWritepages = true;
    assertEquals(Long.MAX_VALUE, wb.chunkSize(tagged));
  }
}
