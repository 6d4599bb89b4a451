package blksim.kernel.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** calc_default_ag_geometry() for a single device, and -d agcount=N, worked by hand. */
class XfsGeometryTest {
  private static final long GIB = 1L << 30;
  private static final long TIB = 1L << 40;

  @Test
  void between128MiBAnd4TiB_mkfsMakesFourAgs() {
    // 250 GiB = 250 * 2^18 = 65,536,000 blocks >= 128 MiB -> shift 2: 65,536,000 / 4 =
    // 16,384,000 blocks per AG, no remainder, 4 AGs.
    XfsGeometry g = XfsGeometry.mkfsDefault(250 * GIB);
    assertEquals(65_536_000L, g.dataBlocks());
    assertEquals(16_384_000L, g.agBlocks());
    assertEquals(4, g.agCount());
  }

  @Test
  void unevenSize_roundsTheAgSizeUp_andKeepsALastAgAbove16MiB() {
    // 1 GiB + 4 KiB = 262,145 blocks: 262,145 >> 2 = 65,536, remainder -> 65,537 per AG;
    // ceil(262,145 / 65,537) = 4; last AG = 262,145 - 3 * 65,537 = 65,534 >= 4,096: kept.
    XfsGeometry g = XfsGeometry.mkfsDefault(GIB + 4096);
    assertEquals(65_537L, g.agBlocks());
    assertEquals(4, g.agCount());
    assertEquals(65_534L, g.agEnd(3) - g.agStart(3));
  }

  @Test
  void fourTiB_usesMaximumAgs_andDropsATinyLastAg() {
    // 4 TiB = 2^30 blocks >= TERABYTES(4): agsize = XFS_AG_MAX_BLOCKS = 2^28 - 1 = 268,435,455;
    // 2^30 / (2^28 - 1) leaves 4 blocks in a fifth AG, < 4,096: dropped -> 4 AGs and
    // dblocks = 4 * 268,435,455 = 1,073,741,820.
    XfsGeometry g = XfsGeometry.mkfsDefault(4 * TIB);
    assertEquals(268_435_455L, g.agBlocks());
    assertEquals(4, g.agCount());
    assertEquals(1_073_741_820L, g.dataBlocks());
    // 10 TiB: ceil(10 * 2^28 / (2^28 - 1)) = 11 with 10 blocks left in the 11th: dropped -> 10.
    assertEquals(10, XfsGeometry.mkfsDefault(10 * TIB).agCount());
  }

  @Test
  void smallDevices_followTheMultidiskShifts() {
    // 100 MiB = 25,600 blocks: shift 5, -1 (<= 512 GiB), -1 (<= 8 GiB), -1 (< 128 MiB), not
    // < 64 MiB -> 2: 6,400 blocks (25 MiB) x 4.
    XfsGeometry g = XfsGeometry.mkfsDefault(100L << 20);
    assertEquals(6_400L, g.agBlocks());
    assertEquals(4, g.agCount());
    // 20 MiB: also < 64 MiB and < 32 MiB -> shift 0: one AG of 5,120 blocks.
    XfsGeometry one = XfsGeometry.mkfsDefault(20L << 20);
    assertEquals(1, one.agCount());
    assertEquals(5_120L, one.agBlocks());
  }

  @Test
  void explicitAgCount_sizesAgsByCeilingDivision_andRefusesImpossibleOnes() {
    // 1 GiB = 262,144 blocks / 16 = 16,384 blocks (64 MiB) per AG.
    XfsGeometry g = XfsGeometry.withAgCount(GIB, 16);
    assertEquals(16, g.agCount());
    assertEquals(16_384L, g.agBlocks());
    // 64 AGs of 4,096 blocks = exactly 16 MiB each: allowed; 65 -> ceil = 4,033 < 4,096.
    assertEquals(64, XfsGeometry.withAgCount(GIB, 64).agCount());
    IllegalArgumentException small = assertThrows(IllegalArgumentException.class,
        () -> XfsGeometry.withAgCount(GIB, 65));
    assertTrue(small.getMessage().contains("16 MiB to 1 TiB"), small.getMessage());
    // 63: ceil(262,144 / 63) = ceil(4,161.02) = 4,162; ceil(262,144 / 4,162) = 63 AGs, the
    // last 262,144 - 62 * 4,162 = 4,100 blocks >= 4,096: allowed.
    XfsGeometry g63 = XfsGeometry.withAgCount(GIB, 63);
    assertEquals(4_162L, g63.agBlocks());
    assertEquals(4_100L, g63.agEnd(62) - g63.agStart(62));
    // 409,601 blocks in 100 AGs: ceil(4,096.01) = 4,097 per AG; 100 AGs, the last
    // 409,601 - 99 * 4,097 = 3,998 blocks < 4,096: refused (validate_ag_geometry()).
    IllegalArgumentException last = assertThrows(IllegalArgumentException.class,
        () -> XfsGeometry.withAgCount(409_601L * 4096, 100));
    assertTrue(last.getMessage().contains("last allocation group of 3998 blocks"),
        last.getMessage());
  }
}
