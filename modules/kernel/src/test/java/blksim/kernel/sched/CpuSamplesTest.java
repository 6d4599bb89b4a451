package blksim.kernel.sched;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link CpuSamples}: charges split over intervals, completions counted, carried in a report. */
class CpuSamplesTest {
  @Test
  void busyTimeIsSplitOverTheIntervalsItSpans() {
    CpuSamples s = new CpuSamples(100);
    s.busy(250, 200); // 50..250: 50 in [0,100), 100 in [100,200), 50 in [200,300)
    s.busy(390, 30);
    assertArrayEquals(new long[] {50, 100, 50, 30}, s.busyNs(400));
    assertArrayEquals(new long[] {50, 100}, s.busyNs(299), "a trailing partial interval is dropped");
  }

  @Test
  void completionsPerDeviceShare() {
    CpuSamples s = new CpuSamples(1000);
    int a = s.disk("nullb0");
    int b = s.disk("nullb1");
    s.io(a, 10);
    s.io(a, 999);
    s.io(b, 1000);
    s.io(a, 5_000_000); // far beyond: the array grows
    assertArrayEquals(new long[] {2, 0}, s.ios(a, 2000));
    assertArrayEquals(new long[] {0, 1}, s.ios(b, 2000));
    assertEquals(1, s.ios(a, 6_000_000)[5000]);
    assertEquals(List.of("nullb0", "nullb1"), s.disks());
    assertThrows(IllegalArgumentException.class, () -> new CpuSamples(0));
  }

  @Test
  void reportRoundTripKeepsTheSamples() {
    CpuSamples s = new CpuSamples(50);
    s.busy(120, 100);
    s.io(s.disk("ram0"), 70);
    CpuReport r = new CpuReport(1, 2, 3, 4, 5, 6, 7, 150, List.of(), List.of(), List.of(),
        List.of(), 0, s.series(150), new long[] {5, 6});
    CpuSamples.Series back = CpuReport.decode(r.encode()).samples();
    assertEquals(50, back.intervalNs());
    assertArrayEquals(new long[] {30, 50, 20}, back.busyNs());
    assertEquals(List.of("ram0"), back.disks());
    assertArrayEquals(new long[] {0, 1, 0}, back.ios().get(0));
    assertArrayEquals(new long[] {5, 6}, CpuReport.decode(r.encode()).irqs());
    CpuReport none = new CpuReport(1, 2, 3, 4, 5, 6, 7, 150, List.of(), List.of(), List.of());
    assertNull(CpuReport.decode(none.encode()).samples());
  }
}
