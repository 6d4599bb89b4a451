package blksim.kernel.block;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class DiskCountersTest {

  @Test
  void doneInline_countsTheServiceTimeAsTicksAndBusyTime() {
    DiskCounters c = new DiskCounters("ram0");
    c.doneInline(ReqOp.READ, 4096, 5_500, 10_000);
    c.doneInline(ReqOp.WRITE, 65536, 64_500, 80_000);
    DiskCounters.Snapshot s = c.snapshot(100_000);
    assertEquals(1, s.readIos());
    assertEquals(8, s.readSectors());
    assertEquals(5_500, s.readTicksNs());
    assertEquals(1, s.writeIos());
    assertEquals(128, s.writeSectors());
    assertEquals(64_500, s.writeTicksNs());
    assertEquals(70_000, s.ioTicksNs(), "busy only while the driver ran");
    assertEquals(70_000, s.timeInQueueNs());
  }
}
