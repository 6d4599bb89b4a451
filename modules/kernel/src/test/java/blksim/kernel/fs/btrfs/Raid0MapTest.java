package blksim.kernel.fs.btrfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The RAID0 data layout ({@code btrfs_map_block()}) and mkfs's profile rules. */
class Raid0MapTest {
  private static final long MIB = 1 << 20;
  private static final int S = Raid0Map.STRIPE_LEN;

  @Test
  void stripeElementsRotateOverTheDevices_andStackOnEachDevice() {
    Raid0Map m = new Raid0Map(6, 1024 * MIB);
    assertEquals(64 << 10, S, "BTRFS_STRIPE_LEN");
    for (int k = 0; k < 20; k++) {
      long logical = (long) k * S;
      assertEquals(k % 6, m.device(logical), "element " + k);
      assertEquals(Raid0Map.DEVICE_RANGE_RESERVED + (long) (k / 6) * S, m.physical(logical),
          "element " + k + " is element " + (k / 6) + " of its device");
    }
    // Inside an element the offset carries over.
    long at = 7L * S + 4096;
    assertEquals(1, m.device(at));
    assertEquals(Raid0Map.DEVICE_RANGE_RESERVED + S + 4096, m.physical(at));
    assertEquals(S - 4096, m.bytesToElementEnd(at));
    assertEquals(S, m.bytesToElementEnd(7L * S));
  }

  @Test
  void capacityIsTheSmallestDeviceTimesTheCount_lessTheReservedMiB() {
    Raid0Map m = new Raid0Map(3, 100 * MIB + 1000);
    assertEquals(3 * 99 * MIB, m.capacity());
    assertEquals(99 * MIB, new Raid0Map(1, 100 * MIB).capacity(), "single");
  }

  @Test
  void everyPhysicalAddressIsUsedOnce() {
    Raid0Map m = new Raid0Map(4, 2 * MIB);
    java.util.Set<String> seen = new java.util.TreeSet<>();
    for (long l = 0; l < m.capacity(); l += S) {
      assertTrue(seen.add(m.device(l) + "@" + m.physical(l)), "element at " + l);
      assertTrue(m.physical(l) + S <= 2 * MIB, "inside the device");
    }
    assertEquals(m.capacity() / S, seen.size());
  }

  @Test
  void mkfsRefusesRaid0OverOneDevice_andSingleOverSeveral() {
    IllegalArgumentException one = assertThrows(IllegalArgumentException.class,
        () -> BtrfsFilesystem.mkfs(List.of("sda"), List.of(MIB * 64),
            BtrfsParams.defaults("raid0", 0)));
    assertTrue(one.getMessage().contains("raid0 over one device (sda)"), one.getMessage());
    IllegalArgumentException several = assertThrows(IllegalArgumentException.class,
        () -> BtrfsFilesystem.mkfs(List.of("sda", "sdb"), List.of(MIB * 64, MIB * 64),
            BtrfsParams.defaults("single", 0)));
    assertTrue(several.getMessage().contains("single"), several.getMessage());
    assertThrows(IllegalArgumentException.class, () -> BtrfsParams.defaults("raid1", 0));
    assertThrows(IllegalArgumentException.class, () -> BtrfsParams.defaults("raid0", -1));
  }

  @Test
  void threadPoolSizeIsMinCpusPlusTwoAndEight_orTheMountOption() {
    BtrfsParams p = BtrfsParams.defaults("raid0", 0);
    assertEquals(3, p.threadPoolSize(1));
    assertEquals(8, p.threadPoolSize(6));
    assertEquals(8, p.threadPoolSize(96));
    assertEquals(768, BtrfsParams.defaults("raid0", 768).threadPoolSize(96));
  }

  @Test
  void cowAllocationTakesNewSpaceForEveryWrite_andChargesOnlyGrowth() {
    BtrfsFilesystem fs = BtrfsFilesystem.mkfs(List.of("sda", "sdb"),
        List.of(MIB * 64, MIB * 64), BtrfsParams.defaults("raid0", 0));
    fs.mount(false);
    long ino = fs.create(fs.rootIno(), "f");
    BtrfsFilesystem.Inode in = fs.inode(ino);
    long free = fs.freeBlocks();
    long a = fs.reserveExtent(in, 0, S);
    long b = fs.reserveExtent(in, 0, S);
    assertTrue(b != a, "an overwrite gets a new extent (copy on write)");
    assertEquals(a + S, b, "adjacent on the logical space");
    assertEquals(free - S / 4096, fs.freeBlocks(), "the overwrite frees the old copy");
    assertEquals(-BtrfsFilesystem.ENOSPC, fs.reserveExtent(in, S, (int) (200 * MIB)),
        "more than the 126 MiB the two devices hold");
    assertEquals(free - S / 4096, fs.freeBlocks(), "nothing charged for the refused write");
  }
}
