package blksim.kernel.dm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.kernel.device.ZonedLayout;
import org.junit.jupiter.api.Test;

/** {@code dmzadm --format}'s layout ({@code dmz_locate_metadata()}), worked by hand. */
class DmzFormatTest {

  @Test
  void fifteenTerabyteDisk_asDmzadmComputesIt() {
    DmzFormat f = DmzFormat.of(ZonedLayout.DEFAULTS, 16, "dmz-sdb");
    // 256 MiB zones: 65,536 blocks, whose bitmap is 8 KiB = 2 blocks; 55,880 zones.
    assertEquals(65_536, f.zoneNrBlocks());
    assertEquals(2, f.zoneNrBitmapBlocks());
    assertEquals(2 * 55_880, f.nrBitmapBlocks());
    // The bitmaps fill 2 zones; first estimate 55,880 - (2 + 16) chunks → 110 map blocks →
    // 1 + 110 + 111,760 = 111,871 blocks = 2 zones per set, 4 in all.
    assertEquals(2, f.nrMetaZones());
    assertEquals(55_880 - 4 - 16, f.nrChunks());
    assertEquals((f.nrChunks() + 511) / 512, f.nrMapBlocks());
    assertEquals(1 + f.nrMapBlocks() + f.nrBitmapBlocks(), f.nrMetaBlocks());
    assertEquals(524 - 4, f.nrRndZones());
    assertEquals(f.nrChunks() * (256L << 11), f.targetSectors());
    String s = f.summary();
    assertTrue(s.contains("55860 data chunks capacity"), s);
    assertTrue(s.contains("Super block at block 0 and 131072"), s);
    assertTrue(s.contains("16 sequential zones reserved for reclaim"), s);
  }

  @Test
  void fewConventionalZones_capTheReservedOnes() {
    // 128 zones of 8 MiB, 12 conventional: --seq 16 is more than the random zones, so
    // dmz_locate_metadata() keeps 11; one zone per metadata set.
    DmzFormat f = DmzFormat.of(new ZonedLayout(1L << 30, 8L << 20, 12, 16), 16, "x");
    assertEquals(11, f.nrReservedSeq());
    assertEquals(1, f.nrMetaZones());
    assertEquals(128 - 2 - 11, f.nrChunks());
    assertEquals(10, f.nrRndZones());
  }

  @Test
  void tooFewConventionalZones_areRefusedWithDmzadmsReason() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DmzFormat.of(new ZonedLayout(1L << 30, 8L << 20, 2, 16), 16, "x"));
    assertTrue(e.getMessage().contains("Not enough random zones"), e.getMessage());
  }
}
