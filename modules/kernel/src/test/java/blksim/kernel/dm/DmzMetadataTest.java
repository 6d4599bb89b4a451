package blksim.kernel.dm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.kernel.device.ZonedLayout;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Chunk mapping and the choice of zone for a write ({@code dmz_get_chunk_mapping()},
 * {@code dmz_handle_write()}, {@code dmz_get_chunk_buffer()}), and reclaim's victim choice.
 */
class DmzMetadataTest {
  /** 32 zones of 1 MiB (256 blocks), 8 conventional: 2 metadata zones, 6 random, 7 reserved. */
  static DmzMetadata md() {
    DmzMetadata md = new DmzMetadata(DmzFormat.of(new ZonedLayout(32L << 20, 1L << 20, 8, 8),
        16, "t"));
    List<DmzZone> resets = new ArrayList<>();
    md.resetZone = resets::add;
    return md;
  }

  @Test
  void layout_metadataThenRandomThenReservedSequential() {
    DmzMetadata md = md();
    assertTrue(md.zones[0].meta && md.zones[1].meta);
    assertEquals(6, md.nrRndZones());
    assertEquals(7, md.reservedSeq.size());
    assertEquals(32 - 8 - 7, md.unmapSeq.size());
  }

  @Test
  void firstWriteMapsARandomZone_readOfUnmappedChunkNeedsNone() {
    DmzMetadata md = md();
    int[] kicks = {0};
    md.scheduleReclaim = () -> kicks[0]++;
    assertNull(md.getChunkMapping(3, false), "a read of an unmapped chunk reads zeroes");
    DmzZone z = md.getChunkMapping(3, true);
    assertNotNull(z);
    assertTrue(z.rnd, "the first write maps a random zone, never a sequential one");
    assertEquals(1, kicks[0], "allocation schedules reclaim");
    assertEquals(z.id, md.dzoneOf[3]);
    assertTrue(md.dirty.contains(1L), "the mapping block is dirty");
    // Random zones take writes anywhere, in place.
    assertSame(z, md.handleWrite(z, 100, 8));
    assertSame(z, md.handleWrite(z, 4, 8));
    assertEquals(16, z.weight);
    md.putChunkMapping(z);
    assertEquals(0, z.active);
  }

  @Test
  void sequentialDataZone_alignedWritesGoDirect_othersToTheBufferZone() {
    DmzMetadata md = md();
    DmzZone seq = md.allocZone(true);
    md.mapZone(seq, 5);
    DmzZone z = md.getChunkMapping(5, true);
    assertSame(seq, z);
    assertSame(z, md.handleWrite(z, 0, 16), "at the write pointer: direct");
    assertEquals(16, z.wpBlock);
    int freeBefore = md.nrUnmapRndZones();
    DmzZone bz = md.handleWrite(z, 4, 2);
    assertNotNull(bz);
    assertTrue(bz.rnd && bz.buf, "an overwrite below the write pointer goes to a buffer zone");
    assertEquals(freeBefore - 1, md.nrUnmapRndZones());
    assertEquals(14, z.weight, "the overwritten blocks are invalid in the data zone");
    assertEquals(2, bz.weight);
    assertSame(bz, md.handleWrite(z, 100, 2), "past the write pointer: buffered too");
    assertEquals(16, z.wpBlock, "a buffered write leaves the write pointer");
    assertSame(z, md.handleWrite(z, 16, 4), "at the write pointer again: direct");
    assertEquals(bz.id, md.bzoneOf[5]);
    md.putChunkMapping(z);
  }

  @Test
  void noFreeRandomZone_theWriteWaits() {
    DmzMetadata md = md();
    for (int c = 0; c < 6; c++) {
      DmzZone z = md.getChunkMapping(c, true);
      md.handleWrite(z, 0, 1);
      md.putChunkMapping(z);
    }
    assertEquals(0, md.nrUnmapRndZones());
    assertNull(md.getChunkMapping(6, true));
    assertEquals(DmzMetadata.Wait.FREE_ZONE, md.wait);
  }

  @Test
  void emptiedZone_isFreedWithoutReclaim() {
    DmzMetadata md = md();
    DmzZone z = md.getChunkMapping(2, true);
    md.handleWrite(z, 0, 4);
    md.invalidate(z, 0, 4);
    int free = md.nrUnmapRndZones();
    md.putChunkMapping(z);
    assertEquals(free + 1, md.nrUnmapRndZones());
    assertEquals(DmzZone.UNMAPPED, md.dzoneOf[2]);
  }

  @Test
  void reclaimVictim_isTheLeastRecentlyUsedInactiveRandomDataZone() {
    DmzMetadata md = md();
    DmzZone a = md.getChunkMapping(0, true);
    md.handleWrite(a, 0, 1);
    DmzZone b = md.getChunkMapping(1, true);
    md.handleWrite(b, 0, 1);
    md.putChunkMapping(b);
    assertSame(b, md.getZoneForReclaim(), "a is active: it cannot be reclaimed");
    assertFalse(md.lockZoneReclaim(b), "locked once");
    md.unlockZoneReclaim(b);
    md.putChunkMapping(a);
    assertSame(b, md.getZoneForReclaim(), "releasing a moved it to the LRU tail: b is older");
    md.unlockZoneReclaim(b);
    DmzZone again = md.getChunkMapping(1, false);
    md.putChunkMapping(again);
    assertSame(a, md.getZoneForReclaim(), "now b was used last");
  }

  @Test
  void noReservedZoneFree_reclaimTakesABufferedSequentialZone() {
    DmzMetadata md = md();
    DmzZone seq = md.allocZone(true);
    md.mapZone(seq, 9);
    DmzZone z = md.getChunkMapping(9, true);
    md.handleWrite(z, 0, 8);
    md.handleWrite(z, 2, 2);
    md.putChunkMapping(z);
    DmzZone r = md.getChunkMapping(1, true);
    md.handleWrite(r, 0, 1);
    md.putChunkMapping(r);
    md.reservedSeq.clear();
    assertSame(seq, md.getZoneForReclaim());
  }
}
