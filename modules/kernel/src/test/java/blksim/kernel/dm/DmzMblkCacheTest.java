package blksim.kernel.dm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.kernel.block.Bio;
import blksim.kernel.block.ReqOp;
import blksim.kernel.device.ZonedLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * dm-zoned's bounded metadata block cache ({@code dmz_get_mblock()}, {@code dmz_alloc_mblock()},
 * {@code dmz_release_mblock()}, {@code dmz_flush_metadata()}): its bounds, its misses and their
 * reads, and dirty blocks kept until written.
 */
class DmzMblkCacheTest {
  /** 2,048 zones of 1 MiB, 64 conventional. */
  static final DmzFormat FMT = DmzFormat.of(new ZonedLayout(2048L << 20, 1L << 20, 64, 8), 16,
      "t");
  final TreeSet<Long> dirty = new TreeSet<>();
  final DmzMblkCache c = new DmzMblkCache(FMT, dirty, true);
  final long first = 1 + FMT.nrMapBlocks();

  /** One access of block {@code no}, its miss read completed at once. */
  void accessRead(long no, boolean dirtying) {
    c.access(no, dirtying);
    if (dirtying) {
      dirty.add(no);
    }
    for (long m : c.takeMisses()) {
      c.readDone(m);
    }
  }

  @Test
  void bounds_areTheKernelsAndCleanReleasesShrinkToTheMinimum() {
    long held = 2 + FMT.nrMapBlocks();
    assertEquals(held + FMT.zoneNrBitmapBlocks() * 16, c.minNr, "min_nr_mblks");
    assertEquals(c.minNr + 512, c.maxNr, "max_nr_mblks");
    assertEquals(held, c.nrMblks(), "super blocks and the mapping table are held");
    for (long no = first; no < first + 600; no++) {
      accessRead(no, false);
      assertTrue(c.nrMblks() <= c.minNr, "a clean release shrinks the cache to min_nr_mblks");
    }
    assertEquals(600, c.missCount, "every block read once");
    assertEquals(c.minNr - held, c.lruSize());
    assertTrue(c.cached(first + 599) && !c.cached(first), "the LRU's head went first");
    accessRead(first + 599, false);
    assertEquals(1, c.hits);
  }

  @Test
  void dirtyBlocks_areNeverEvicted_andJoinTheLruWhenWritten() {
    List<Long> d = new ArrayList<>();
    for (long no = first; no < first + 1000; no++) {
      accessRead(no, true);
      d.add(no);
    }
    long nr = c.nrMblks();
    assertTrue(nr > c.maxNr, "with every block dirty the cache grows past max_nr_mblks: " + nr);
    for (long no = first + 1000; no < first + 1100; no++) {
      accessRead(no, false);
    }
    for (long no : d) {
      assertTrue(c.cached(no), "dirty block " + no + " evicted");
    }
    // dmz_flush_metadata(): written, clean, on the LRU, no shrink.
    dirty.clear();
    c.writing(d);
    c.cleaned(d);
    assertEquals(nr, c.nrMblks(), "the flush frees nothing");
    // Above max_nr_mblks a miss reuses the LRU's head, the oldest written block.
    accessRead(first + 5000, true);
    assertEquals(nr, c.nrMblks());
    assertFalse(c.cached(first), "the LRU's head was reused");
    assertTrue(c.cached(first + 1));
  }

  @Test
  void miss_isOne4KiBMetadataReadOfThePrimarySet_andASecondAccessWaitsForIt() {
    long no = first + 7;
    c.access(no, false);
    DmzMblkWait w = new DmzMblkWait(c, FMT, 0, cpu -> null, c.takeMisses(), c.takeWaits());
    assertEquals(1, w.bios().size());
    Bio b = w.bios().get(0);
    assertEquals(ReqOp.READ, b.op());
    assertEquals(DmzFormat.BLOCK_SIZE, b.sizeBytes());
    assertEquals(Bio.REQ_META | Bio.REQ_PRIO, b.flags() & (Bio.REQ_META | Bio.REQ_PRIO));
    assertEquals((FMT.sbBlock() + no) * DmzFormat.BLOCK_SECTORS, b.sector());
    assertTrue(b.sector() < FMT.nrMetaZones() * FMT.zoneNrSectors(), "in the metadata zones");
    // Another context needing the block while it is read waits for the same read.
    c.access(no, false);
    assertEquals(List.of(), c.takeMisses(), "no second read");
    assertEquals(List.of(no), c.takeWaits());
    boolean[] woken = {false};
    assertTrue(c.waitFor(no, () -> woken[0] = true));
    c.readDone(no);
    assertTrue(woken[0], "the read's completion wakes the waiter");
    assertFalse(c.waitFor(no, () -> { }), "read done");
    c.access(no, false);
    assertEquals(List.of(), c.takeMisses(), "cached now");
  }

  @Test
  void unbounded_neverMisses() {
    DmzMblkCache u = new DmzMblkCache(FMT, dirty, false);
    for (long no = first; no < first + 5000; no++) {
      u.access(no, false);
    }
    assertEquals(List.of(), u.takeMisses());
    assertEquals(0, u.missCount);
  }
}
