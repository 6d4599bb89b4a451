package blksim.workload.fio;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.kernel.device.ZonedDisk;
import blksim.kernel.device.ZonedLayout;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** fio's zonemode=zbd choices ({@code zbd.c}) against a zoned disk's zone state. */
class FioZbdTest {
  static final long MIB = 1L << 20;
  static final long ZONE = 4 * MIB;

  /** 64 zones of 4 MiB, 2 conventional, at most 6 open. */
  static ZonedDisk disk() {
    return new ZonedDisk(new ZonedLayout(64 * ZONE, ZONE, 2, 6));
  }

  static FioJob job(String opts) {
    return FioJobFileTest.only("[j]\nzonemode=zbd\ndirect=1\n" + opts);
  }

  @Test
  void writesGoToTheWritePointerOfAtMostMaxOpenZones() {
    ZonedDisk dev = disk();
    FioJob j = job("rw=randwrite\nbs=64k\nmax_open_zones=3\n");
    FioZbd z = FioZbd.open(j, dev, 2 * ZONE, 62 * ZONE);
    TreeSet<Long> zones = new TreeSet<>();
    long[] wp = new long[64];
    for (int i = 0; i < 64; i++) {
      wp[i] = i * ZONE;
    }
    for (int i = 0; i < 200; i++) {
      long off = 2 * ZONE + (i * 7919L * 65536) % (62 * ZONE);
      assertEquals(FioZbd.Action.ACCEPT, z.adjust(1, off, 65536, 0));
      int zi = (int) (z.offset() / ZONE);
      assertEquals(wp[zi], z.offset(), "at fio's write pointer of zone " + zi);
      assertEquals(0, dev.write(z.offset() >>> 9, z.length() >>> 9), "the drive takes it");
      wp[zi] += z.length();
      z.queued(1, z.offset(), z.length());
      z.completed(1, z.offset(), z.length());
      zones.add((long) zi);
      assertTrue(z.writeZones() <= 3, "write zones " + z.writeZones());
      int partial = 0;
      for (int k = 0; k < 64; k++) {
        partial += wp[k] % ZONE != 0 ? 1 : 0;
      }
      assertTrue(partial <= 3, "at most max_open_zones zones partly written: " + partial);
    }
    // 200 x 64 KiB = 12.5 MiB: zones fill and leave the write zones, others take their place.
    assertTrue(zones.size() > 3, "zones " + zones);
  }

  @Test
  void theDevicesLimitIsTheDefaultAndCannotBeExceeded() {
    FioZbd z = FioZbd.open(job("rw=randwrite\nbs=64k\n"), disk(), 2 * ZONE, 62 * ZONE);
    for (int i = 0; i < 100; i++) {
      long off = 2 * ZONE + (i * 104729L * 65536) % (62 * ZONE);
      z.adjust(1, off, 65536, 0);
      z.queued(1, z.offset(), z.length());
    }
    assertEquals(6, z.writeZones(), "max_open_zones defaults to the device's 6");
    assertThrows(IllegalArgumentException.class,
        () -> FioZbd.open(job("rw=randwrite\nmax_open_zones=7\n"), disk(), 2 * ZONE, 8 * ZONE));
  }

  @Test
  void aFullZoneChosenAgainIsResetFirst() {
    ZonedDisk dev = disk();
    FioZbd z = FioZbd.open(job("rw=randwrite\nbs=1M\n"), dev, 4 * ZONE, ZONE);
    for (int i = 0; i < 4; i++) {
      assertEquals(FioZbd.Action.ACCEPT, z.adjust(1, 4 * ZONE, MIB, 0));
      z.queued(1, z.offset(), z.length());
      z.completed(1, z.offset(), z.length());
    }
    assertEquals(5 * ZONE, z.writePointer(4));
    assertEquals(FioZbd.Action.QUIESCE, z.adjust(1, 4 * ZONE, MIB, 2),
        "the reset waits for the I/Os in flight");
    assertEquals(FioZbd.Action.RESET_THEN_ACCEPT, z.adjust(1, 4 * ZONE, MIB, 0));
    assertEquals(4, z.resetZone());
    assertEquals(4 * ZONE, z.offset());
    assertEquals(1, z.resets());
  }

  @Test
  void readsStayInWrittenDataAndEndWhenThereIsNone() {
    ZonedDisk dev = disk();
    dev.write(10 * ZONE >>> 9, (MIB + MIB / 2) >>> 9);
    FioZbd z = FioZbd.open(job("rw=randread\nbs=1M\n"), dev, 8 * ZONE, 8 * ZONE);
    assertEquals(FioZbd.Action.ACCEPT, z.adjust(0, 12 * ZONE + MIB, MIB, 0));
    assertEquals(10 * ZONE, z.offset(), "the nearest zone with data");
    assertEquals(MIB, z.length());
    FioZbd empty = FioZbd.open(job("rw=read\nbs=1M\n"), disk(), 8 * ZONE, 8 * ZONE);
    assertEquals(FioZbd.Action.EOF, empty.adjust(0, 8 * ZONE, MIB, 0));
    FioZbd beyond = FioZbd.open(job("rw=read\nbs=1M\nread_beyond_wp=1\n"), disk(), 8 * ZONE,
        8 * ZONE);
    assertEquals(FioZbd.Action.ACCEPT, beyond.adjust(0, 8 * ZONE, MIB, 0));
  }

  @Test
  void writersAreAlignedToWholeZones() {
    ZonedDisk dev = disk();
    assertArrayEquals(new long[] {3 * ZONE, 2 * ZONE},
        FioZbd.alignRange(job("rw=write\n"), dev, 2 * ZONE + MIB, 3 * ZONE));
    assertArrayEquals(new long[] {2 * ZONE + MIB, 3 * ZONE - MIB},
        FioZbd.alignRange(job("rw=read\n"), dev, 2 * ZONE + MIB, 3 * ZONE));
    assertNull(FioZbd.alignRange(job("rw=write\n"), dev, 2 * ZONE + MIB, ZONE));
  }

  @Test
  void zoneResetThresholdAndFrequency() {
    ZonedDisk dev = disk();
    // Two zones; after half of them hold data, every second write resets its zone.
    FioZbd z = FioZbd.open(job("rw=randwrite\nbs=1M\nzone_reset_threshold=0.5\n"
        + "zone_reset_frequency=0.5\n"), dev, 4 * ZONE, 2 * ZONE);
    int resets = 0;
    for (int i = 0; i < 12; i++) {
      FioZbd.Action a = z.adjust(1, 4 * ZONE + (i % 2) * ZONE, MIB, 0);
      if (a == FioZbd.Action.RESET_THEN_ACCEPT) {
        resets++;
      }
      z.queued(1, z.offset(), z.length());
      z.completed(1, z.offset(), z.length());
    }
    assertTrue(resets >= 3, "resets " + resets);
    assertEquals(resets, z.resets());
  }
}
