package blksim.kernel.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.kernel.block.Errno;
import java.util.List;
import org.junit.jupiter.api.Test;

class ZonedDiskTest {
  static final long MIB = 1L << 20;
  /** 1 MiB zones = 2048 sectors; 8 zones, 2 conventional, at most 2 open. */
  static final ZonedLayout SMALL = new ZonedLayout(8 * MIB, MIB, 2, 2);
  static final long Z = 2048;

  final ZonedDisk d = new ZonedDisk(SMALL);

  @Test
  void writesAdvanceTheWritePointerAndFillTheZone() {
    assertEquals(ZoneCondition.EMPTY, d.condition(2));
    assertEquals(0, d.write(2 * Z, 8));
    assertEquals(ZoneCondition.IMP_OPEN, d.condition(2));
    assertEquals(2 * Z + 8, d.writePointer(2));
    assertEquals(0, d.write(2 * Z + 8, Z - 8));
    assertEquals(ZoneCondition.FULL, d.condition(2));
    assertEquals(3 * Z, d.writePointer(2));
    assertEquals(0, d.openZones(), "a full zone holds no open resource");
    assertEquals(-Errno.EIO, d.write(2 * Z, 8), "a full zone takes no write");
  }

  @Test
  void unalignedWritesAreRejectedWithEio() {
    assertEquals(-Errno.EIO, d.write(2 * Z + 8, 8), "not at the write pointer");
    assertEquals(ZoneCondition.EMPTY, d.condition(2), "a rejected write changes nothing");
    assertEquals(0, d.write(2 * Z, 8));
    assertEquals(-Errno.EIO, d.write(2 * Z, 8), "behind the write pointer");
    assertEquals(-Errno.EIO, d.write(2 * Z + 16, 8), "ahead of the write pointer");
    assertEquals(2 * Z + 8, d.writePointer(2));
    // A write crossing the zone's end is a boundary violation.
    assertEquals(0, d.write(2 * Z + 8, Z - 16));
    assertEquals(-Errno.EIO, d.write(3 * Z - 8, 16));
  }

  @Test
  void conventionalZonesTakeRandomWritesAndNoZoneCommands() {
    assertEquals(0, d.write(100, 8));
    assertEquals(0, d.write(8, 8));
    assertEquals(0, d.write(Z - 8, 16), "into the next conventional zone");
    assertEquals(-Errno.EIO, d.write(2 * Z - 8, 16), "into a sequential zone");
    assertEquals(ZoneCondition.NOT_WP, d.condition(0));
    assertEquals(-Errno.EIO, d.reset(0));
    assertEquals(-Errno.EIO, d.finish(Z));
    assertEquals(-Errno.EIO, d.open(0));
    assertEquals(-Errno.EIO, d.close(0));
  }

  @Test
  void resetFinishOpenClose() {
    d.write(3 * Z, 16);
    assertEquals(0, d.close(3 * Z));
    assertEquals(ZoneCondition.CLOSED, d.condition(3));
    assertEquals(0, d.openZones());
    assertEquals(0, d.write(3 * Z + 16, 8), "a closed zone reopens implicitly at its wp");
    assertEquals(ZoneCondition.IMP_OPEN, d.condition(3));
    assertEquals(0, d.open(3 * Z));
    assertEquals(ZoneCondition.EXP_OPEN, d.condition(3));
    assertEquals(0, d.finish(3 * Z));
    assertEquals(ZoneCondition.FULL, d.condition(3));
    assertEquals(4 * Z, d.writePointer(3));
    assertEquals(-Errno.EIO, d.open(3 * Z), "a full zone cannot be opened");
    assertEquals(-Errno.EIO, d.close(3 * Z), "nor closed");
    assertEquals(0, d.reset(3 * Z));
    assertEquals(ZoneCondition.EMPTY, d.condition(3));
    assertEquals(3 * Z, d.writePointer(3));
    assertEquals(0, d.open(4 * Z));
    assertEquals(0, d.close(4 * Z));
    assertEquals(ZoneCondition.EMPTY, d.condition(4), "closing an unwritten zone empties it");
    assertEquals(0, d.openZones());
  }

  @Test
  void theOpenLimitClosesTheOldestImplicitlyOpenZone() {
    d.write(2 * Z, 8);
    d.write(3 * Z, 8);
    assertEquals(2, d.openZones());
    assertEquals(0, d.write(4 * Z, 8));
    assertEquals(2, d.openZones());
    assertEquals(ZoneCondition.CLOSED, d.condition(2), "opened first, closed first");
    assertEquals(ZoneCondition.IMP_OPEN, d.condition(3));
    assertEquals(1, d.implicitCloses());
  }

  @Test
  void explicitlyOpenZonesAreNeverClosedForAWrite() {
    assertEquals(0, d.open(2 * Z));
    assertEquals(0, d.open(3 * Z));
    assertEquals(-Errno.ETOOMANYREFS, d.write(4 * Z, 8));
    assertEquals(-Errno.ETOOMANYREFS, d.open(5 * Z));
    assertEquals(ZoneCondition.EMPTY, d.condition(4));
    assertEquals(0, d.write(2 * Z, 8), "an open zone still takes writes");
    assertEquals(0, d.close(3 * Z));
    assertEquals(0, d.write(4 * Z, 8));
  }

  @Test
  void reportZonesListsStartWritePointerAndCondition() {
    d.write(2 * Z, 64);
    List<ZonedDisk.Zone> r = d.reportZones(Z, 3);
    assertEquals(3, r.size());
    assertTrue(r.get(0).conventional());
    assertEquals(new ZonedDisk.Zone(2 * Z, Z, 2 * Z + 64, ZoneCondition.IMP_OPEN), r.get(1));
    assertEquals(new ZonedDisk.Zone(3 * Z, Z, 3 * Z, ZoneCondition.EMPTY), r.get(2));
    long[] counts = d.conditionCounts();
    assertEquals(2, counts[ZoneCondition.NOT_WP.ordinal()]);
    assertEquals(5, counts[ZoneCondition.EMPTY.ordinal()]);
    assertEquals(1, counts[ZoneCondition.IMP_OPEN.ordinal()]);
  }

  @Test
  void layoutRules() {
    assertThrows(IllegalArgumentException.class, () -> new ZonedLayout(3 * 3 * MIB, 3 * MIB, 0,
        8), "zone size not a power of two");
    assertThrows(IllegalArgumentException.class, () -> new ZonedLayout(8 * MIB, MIB, 9, 8),
        "more conventional zones than zones");
    assertThrows(IllegalArgumentException.class, () -> new ZonedLayout(8 * MIB + 4096, MIB, 0,
        8), "not a whole number of zones");
    assertThrows(IllegalArgumentException.class, () -> new ZonedLayout(8 * MIB, MIB, 0, 0));
    assertEquals(55_880, ZonedLayout.DEFAULTS.zones());
    assertEquals(55_356, ZonedLayout.DEFAULTS.sequentialZones());
  }

  @Test
  void setWritten_leavesAZoneClosedAtItsWritePointer_writesContinueThere() {
    d.setWritten(3, 100);
    assertEquals(ZoneCondition.CLOSED, d.condition(3));
    assertEquals(3 * Z + 100, d.writePointer(3));
    assertEquals(0, d.openZones(), "a closed zone holds no open resource");
    assertEquals(-Errno.EIO, d.write(3 * Z, 8), "behind the write pointer");
    assertEquals(0, d.write(3 * Z + 100, 8));
    assertEquals(ZoneCondition.IMP_OPEN, d.condition(3));
    assertThrows(IllegalArgumentException.class, () -> d.setWritten(3, 200), "open");
    d.setWritten(4, Z);
    assertEquals(ZoneCondition.FULL, d.condition(4));
    assertThrows(IllegalArgumentException.class, () -> d.setWritten(0, 8), "conventional");
    d.setWritten(5, 50);
    assertThrows(IllegalArgumentException.class, () -> d.setWritten(5, 40), "backwards");
    assertEquals(ZoneCondition.CLOSED, d.reportZones(5 * Z, 1).get(0).cond());
  }
}
