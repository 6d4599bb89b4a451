package blksim.kernel.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class RotationalDiskTest {
  /**
   * A disk with round numbers: 6000 rpm (10 ms a revolution), one surface, 307.2 MB/s outside
   * (3,072,000 B = 6000 sectors a track) to 153.6 MB/s inside (3000 sectors), 3001 tracks of
   * 2,304,000 B on average: 3001 × 2,304,000 = 6,914,304,000 B = 13,504,500 sectors.
   */
  static RotationalDiskParams zbr(NcqPolicy policy, int ncqDepth) {
    return new RotationalDiskParams(6_914_304_000L, 6000, 1, 300_000, 8_200_000, 15_000_000,
        307_200_000, 153_600_000, ncqDepth, 0, policy);
  }

  /** The same outer zone everywhere: 6000 sectors a track, 1000 tracks, 3,072,000,000 B. */
  static RotationalDiskParams flat() {
    return new RotationalDiskParams(3_072_000_000L, 6000, 1, 300_000, 8_200_000, 15_000_000,
        307_200_000, 307_200_000, 32, 0, NcqPolicy.SPTF);
  }

  @Test
  void geometry_tracksFromCapacityRatesAndRpm() {
    // 6,914,304,000 B × 6000 rpm / (30 × (307.2e6 + 153.6e6)) = 3001
    assertEquals(3001, new RotationalDisk(zbr(NcqPolicy.SPTF, 32)).cylinders());
    assertEquals(1000, new RotationalDisk(flat()).cylinders());
    // defaults: 15,000,540,528,640 B × 7200 / (30 × 367 MiB/s) / 16 surfaces ≈ 584,650
    long c = new RotationalDisk(RotationalDiskParams.DEFAULTS).cylinders();
    assertTrue(c > 584_000 && c < 585_300, "cylinders " + c);
  }

  @Test
  void seekCurve_passesThroughTrackAverageAndFullStrokePoints() {
    RotationalDisk d = new RotationalDisk(zbr(NcqPolicy.SPTF, 32));
    // full stroke 3000 cylinders, a third of it 1000
    assertEquals(0, d.seekNs(0));
    assertEquals(300_000, d.seekNs(1));
    assertEquals(8_200_000, d.seekNs(1000));
    assertEquals(15_000_000, d.seekNs(3000));
    // linear piece: 8.2 ms + (15 − 8.2) ms × (2000 − 1000) / 2000 = 11.6 ms
    assertEquals(11_600_000, d.seekNs(2000));
    // sqrt piece: b = (8.2 − 0.3) ms / (sqrt(1000) − 1) = 7,900,000 / 30.6227766 = 257,977.9 ns,
    // t(100) = 0.3 ms + b × (sqrt(100) − 1) = 300,000 + 9 × 257,977.9 = 2,621,801 ns
    assertEquals(2_621_801, d.seekNs(100), 1);
    assertThrows(IllegalArgumentException.class, () -> d.seekNs(3001));
  }

  @Test
  void rotationalLatency_fromTheSpindlePhaseOfVirtualTime() {
    RotationalDisk d = new RotationalDisk(flat());
    // sector 1500 of 6000 on track 0: angle 0.25; at t = 0 the phase is 0: wait 2.5 ms
    assertEquals(2_500_000, d.positioningNs(0, 1500));
    // at t = 3 ms the phase is 0.3: wait (0.25 − 0.3 + 1) × 10 ms = 9.5 ms
    assertEquals(9_500_000, d.positioningNs(3_000_000, 1500));
    // one revolution later the same: (13 ms mod 10 ms) = 3 ms
    assertEquals(9_500_000, d.positioningNs(13_000_000, 1500));
    // sector 9000 = track 1, angle 0.5: seek 0.3 ms, phase then 0.03, wait 0.47 × 10 ms
    assertEquals(300_000 + 4_700_000, d.positioningNs(0, 9000));
  }

  @Test
  void mediaRate_outerInnerAndMiddleCylinder() {
    RotationalDisk d = new RotationalDisk(zbr(NcqPolicy.SPTF, 32));
    assertEquals(307_200_000.0, d.mediaBytesPerSecAt(0), 1e-6);
    // Rate linear in the radius: at c = 0.5 it is (307.2 + 153.6) / 2 = 230.4 MB/s. Bytes before
    // c are ∝ c − (1 − 1/2)·c²/2, = 0.5 − 0.0625 = 0.4375 of 0.75 at c = 1: 7/12 of the disk,
    // sector 13,504,500 × 7/12 = 7,877,625.
    assertEquals(230_400_000.0, d.mediaBytesPerSecAt(7_877_625), 1e-3);
    assertEquals(0.5, d.cylinderFraction(7_877_625), 1e-12);
    assertEquals(1500, d.cylinderOf(7_877_625));
    // the last sector: 153.6 MB/s, less 1/13,504,500 of the way (rate slope there 230.4e6 per
    // unit of LBA fraction: 17 B/s)
    assertEquals(153_600_000.0, d.mediaBytesPerSecAt(13_504_499), 20);
    // at the LBA middle the square of the rate is the mean of the squares:
    // sqrt((307.2² + 153.6²) / 2) = 307.2 × sqrt(0.625) = 307.2 × 0.7905694 = 242.86292 MB/s
    // (not their mean, 230.4)
    assertEquals(242_862_924.0, d.mediaBytesPerSecAt(13_504_500 / 2), 1.0);
  }

  @Test
  void transfer_oneTrackTakesOneRevolution() {
    RotationalDisk d = new RotationalDisk(flat());
    assertEquals(10_000_000, d.transferNs(0, 6000 * 512));
    // 4 KiB at 307.2 MB/s: 4096 / 307.2e6 s = 13,333 ns
    assertEquals(13_333, d.transferNs(12_345, 4096));
  }

  @Test
  void serve_seekRotationAndTransferThenHeadMoves() {
    RotationalDisk d = new RotationalDisk(zbr(NcqPolicy.SPTF, 32));
    // sector 7,877,625: cylinder 1500, angle frac(0.5 × 3001) = 0.5. Seek 1500 cylinders on the
    // linear piece: 8.2 + 6.8 × 500 / 2000 = 9.9 ms; phase then 0.99, wait 0.51 × 10 ms = 5.1 ms.
    // 4 KiB at 230.4 MB/s: 17,778 ns.
    long done = d.serve(0, 7_877_625, 4096, false);
    assertEquals(9_900_000 + 5_100_000 + 17_778, done, 1);
    assertEquals(1500, d.headCylinder());
    assertThrows(IllegalStateException.class, () -> d.serve(done - 1, 0, 4096, false));
  }

  @Test
  void sequentialStream_runsAtTheMediaRate() {
    RotationalDisk d = new RotationalDisk(RotationalDiskParams.DEFAULTS);
    int bytes = 256 << 10;
    long t = d.serve(0, 0, bytes, true);
    long first = t;
    int n = 200;
    for (int i = 1; i < n; i++) {
      t = d.serve(t, (long) i * bytes / 512, bytes, true);
    }
    // 199 × 256 KiB at 237 MiB/s = 248,512,512 B/s; 52 MB into 15 TB the rate has not dropped
    double rate = (n - 1) * (double) bytes * 1e9 / (t - first);
    assertEquals(248_512_512.0, rate, 248_512_512.0 * 1e-4);
    // a sequential command that arrives 20 µs late still pays no overhead, seek or rotation
    long sector = (long) n * bytes / 512;
    long late = t + 20_000;
    assertEquals(0, d.accessNs(late, sector));
    assertEquals(late + d.transferNs(sector, bytes), d.serve(late, sector, bytes, true));
  }

  @Test
  void firstCommand_paysTheOverhead() {
    RotationalDisk d = new RotationalDisk(flat().withPerCommandOverheadNs(50_000));
    // sector 1500 (angle 0.25) from t = 0: 50 µs, phase 0.005, wait 0.245 × 10 ms = 2.45 ms
    assertEquals(50_000 + 2_450_000, d.accessNs(0, 1500));
  }

  @Test
  void sptf_picksTheNearerCylinder() {
    RotationalDisk d = new RotationalDisk(zbr(NcqPolicy.SPTF, 32));
    // Far, sector 7,877,625: 9.9 ms seek + 5.1 ms rotation = 15 ms (serve_... above).
    // Near, sector 20,000: f = 20,000 / 13,504,500 = 0.00148, c ≈ 0.75 f = 0.00111, cylinder
    // floor(3001 c) = 3; seek 300,000 + 257,977.9 × (sqrt(3) − 1) = 488,853 ns; with at most
    // one revolution (10 ms) of rotation it is under 10.5 ms.
    assertEquals(1, d.pickNext(0, List.of(7_877_625L, 20_000L)));
  }

  @Test
  void sptf_picksTheSectorThatComesRoundFirst() {
    RotationalDisk d = new RotationalDisk(flat());
    // same track: sector 5400 has angle 0.9 (9 ms away at t = 0), sector 600 angle 0.1 (1 ms)
    assertEquals(1, d.pickNext(0, List.of(5400L, 600L)));
    // at t = 1.5 ms the phase is 0.15: 600 is 9.5 ms away, 5400 7.5 ms
    assertEquals(0, d.pickNext(1_500_000, List.of(5400L, 600L)));
    // ties go to the earlier arrival
    assertEquals(0, d.pickNext(0, List.of(600L, 600L)));
  }

  @Test
  void sptf_prefersTheSequentialContinuation() {
    RotationalDisk d = new RotationalDisk(flat());
    long done = d.serve(0, 0, 4096, false);
    // done = 4096 / 307.2e6 s = 13,333 ns. Sector 8 continues the stream: 0. Sector 9 (angle
    // 9 / 6000 = 0.0015, phase now 0.0013333) is (0.0015 − 0.0013333) × 10 ms = 1,667 ns away.
    assertEquals(1_667, d.positioningNs(done, 9));
    assertEquals(1, d.pickNext(done, List.of(9L, 8L)));
  }

  @Test
  void ncqDepth_limitsWhatTheDriveSees() {
    RotationalDisk d = new RotationalDisk(flat().withNcq(2, NcqPolicy.SPTF));
    // 5400 (9 ms), 3000 (5 ms) are tagged; 600 (1 ms) waits in the host queue
    assertEquals(1, d.pickNext(0, List.of(5400L, 3000L, 600L)));
  }

  @Test
  void aging_servesACommandThatWaitedTheLimit_beforeTheNearestOne() {
    RotationalDisk d = new RotationalDisk(flat().withNcqAgingNs(200_000_000));
    // Sector 5400 (9 ms away) was queued at t = 0, sector 600 (1 ms) at t = 150 ms.
    List<long[]> q = List.of(new long[] {5400, 0}, new long[] {600, 150_000_000});
    // At 199.99 ms nothing has aged: SPTF takes 600.
    assertEquals(1, d.pickNext(199_990_000, q, c -> c[0], c -> c[1]));
    // At 200 ms the command at 5400 has waited the limit: it goes first.
    assertEquals(0, d.pickNext(200_000_000, q, c -> c[0], c -> c[1]));
    assertEquals(1, d.agedPicks());
    // Without aging the far command waits however long.
    RotationalDisk none = new RotationalDisk(flat());
    assertEquals(1, none.pickNext(10_000_000_000L, q, c -> c[0], c -> c[1]));
    // Of two aged commands the one queued longer goes first, not the nearer one.
    List<long[]> q3 = List.of(new long[] {600, 100_000_000}, new long[] {5400, 50_000_000},
        new long[] {3000, 0});
    assertEquals(2, d.pickNext(400_000_000, q3, c -> c[0], c -> c[1]));
    assertEquals(2, d.agedPicks());
  }

  @Test
  void fifo_takesTheOldest() {
    RotationalDisk d = new RotationalDisk(flat().withNcq(32, NcqPolicy.FIFO));
    assertEquals(0, d.pickNext(0, List.of(5400L, 600L)));
  }

  @Test
  void params_rejectInconsistentValuesNamingTheField() {
    RotationalDiskParams p = RotationalDiskParams.DEFAULTS;
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new RotationalDiskParams(p.capacityBytes(), p.rpm(), p.surfaces(), 9_000_000,
            8_200_000, 15_000_000, p.outerMediaBytesPerSec(), p.innerMediaBytesPerSec(), 32, 0,
            NcqPolicy.SPTF));
    assertTrue(e.getMessage().startsWith("seek times must satisfy trackSeekNs <= averageSeekNs"),
        e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> new RotationalDiskParams(p.capacityBytes(), p.rpm(), p.surfaces(), 300_000,
            8_200_000, 15_000_000, 100, 200, 32, 0, NcqPolicy.SPTF));
    assertTrue(e.getMessage().startsWith("outerMediaBytesPerSec must be >="), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> p.withCapacityBytes(1000));
    assertEquals("capacityBytes must be a positive multiple of 512, was 1000", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> p.withCapacityBytes(512 * 1024));
    assertTrue(e.getMessage().startsWith("capacityBytes must fill at least 8 cylinders"),
        e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> p.withNcq(0, NcqPolicy.SPTF));
    assertEquals("ncqDepth must be in [1, 256], was 0", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> p.withNcqAgingNs(-1));
    assertTrue(e.getMessage().startsWith("ncqAgingNs must be in [0, "), e.getMessage());
  }
}
