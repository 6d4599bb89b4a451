package blksim.kernel.block;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Bio splitting at the queue limits ({@code bio_split_to_limits()}) in {@link RequestQueue}. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BioSplitTest {
  static final int MIB = 1 << 20;

  final FakeCpus loop = new FakeCpus();
  final DriverCpu cpu = loop.cpu(0);
  final RequestQueueTest.HoldingDriver driver = new RequestQueueTest.HoldingDriver();
  final RequestQueueTest.RecordingKblockd kblockd = new RequestQueueTest.RecordingKblockd();
  final List<Integer> parentErrors = new ArrayList<>();
  final BioEndIo parentEnd = (b, e) -> parentErrors.add(e);

  /** Runs the events of the next millisecond (runAll would move the clock out of reach). */
  void settle() {
    loop.runUntil(loop.now() + 1_000_000);
  }

  RequestQueue queue(int depth, int nr, long maxBytes, int maxSegments, int lbs) {
    RequestQueue q = new RequestQueue(new RequestQueueParams("nullb0", 1L << 34, lbs, depth, nr,
        RequestQueueParams.Scheduler.NONE, maxBytes, maxSegments, MqDeadlineParams.DEFAULTS,
        BlkMqRules.V6, 1000, 100), driver, kblockd);
    q.attach(cpu);
    return q;
  }

  /** The pieces get_max_io_size() gives, computed independently: max_sectors blocks. */
  static List<Integer> expectedPieces(long bytes, long maxSectors, int lbs) {
    long lbsSectors = lbs / 512;
    long maxIo = maxSectors - maxSectors % lbsSectors; // sector 0: start = 0
    List<Integer> l = new ArrayList<>();
    while (bytes > 0) {
      long p = Math.min(bytes, maxIo * 512);
      l.add((int) p);
      bytes -= p;
    }
    return l;
  }

  @Test
  void oneMibReadOnNullBlkBecomesTheKernelsNineRequests() {
    // null_blk's default max_sectors: 255 (BLK_SAFE_MAX_SECTORS), 512-byte blocks.
    RequestQueue q = queue(64, 64, 255 * 512, 128, 512);
    Bio bio = new Bio(ReqOp.READ, 0, MIB, 0);
    List<Integer> want = expectedPieces(MIB, 255, 512);
    assertEquals(9, want.size()); // 8 x 255 sectors + 8 sectors
    assertEquals(9, q.pieces(bio));
    assertTrue(q.submitBio(cpu, null, bio, parentEnd, null));
    assertEquals(want, driver.got.stream().map(r -> (int) r.bytes()).toList());
    // In order, contiguous, every piece but the last REQ_NOMERGE.
    long at = 0;
    for (int i = 0; i < driver.got.size(); i++) {
      Request r = driver.got.get(i);
      assertEquals(at, r.sector());
      at = r.endSector();
      assertEquals(i < 8, r.bios().get(0).hasFlag(Bio.REQ_NOMERGE));
    }
    assertEquals(MIB / 512, at);
    assertEquals(8, q.splits());
    // The submit cost's fixed part once per piece.
    assertEquals(9 * 1000, q.attach(loop.cpu(1)).submitCostNs(bio));
    assertEquals(1000, queue(64, 64, 255 * 512, 128, 512).attach(loop.cpu(2))
        .submitCostNs(new Bio(ReqOp.READ, 0, 4096, 0)));
  }

  @Test
  void alignmentToA4KiBBlockAndSegmentsBoundThePieces() {
    // 4 KiB blocks: max_sectors 255 rounds down to 248 sectors (124 KiB).
    RequestQueue q = queue(64, 64, 255 * 512, 128, 4096);
    assertEquals(124 * 1024, q.splitBytes(0, MIB, ReqOp.READ));
    assertEquals(expectedPieces(MIB, 255, 4096).size(), q.pieces(new Bio(ReqOp.READ, 0, MIB, 0)));
    // max_segments 4 pages: a 64 KiB bio at a page boundary splits at 16 KiB.
    RequestQueue s = queue(64, 64, 512 * 1024, 4, 512);
    assertEquals(16 * 1024, s.splitBytes(8, 64 * 1024, ReqOp.READ));
    // Starting 1 KiB into a page: the first segment is 3 KiB, so 15 KiB.
    assertEquals(15 * 1024, s.splitBytes(2, 64 * 1024, ReqOp.READ));
    // Within the limits: not split.
    assertEquals(16 * 1024, s.splitBytes(8, 16 * 1024, ReqOp.READ));
  }

  @Test
  void parentEndsOnceAfterTheLastPieceWithTheFirstError() {
    RequestQueue q = queue(64, 64, 256 * 1024, 128, 512);
    assertTrue(q.submitBio(cpu, null, new Bio(ReqOp.WRITE, 0, MIB, 0), parentEnd, null));
    assertEquals(4, driver.got.size());
    q.hardwareDone(driver.got.get(2), -Errno.EIO);
    q.hardwareDone(driver.got.get(0), 0);
    q.hardwareDone(driver.got.get(3), -Errno.EAGAIN);
    settle();
    assertEquals(List.of(), parentErrors, "a piece is still in flight");
    q.hardwareDone(driver.got.get(1), 0);
    settle();
    assertEquals(List.of(-Errno.EIO), parentErrors);
    assertEquals(0, q.requestsInUse());
    assertEquals(4, q.counters().snapshot(loop.now()).writeIos());
  }

  @Test
  void tagWaitMidSplitResumesWithoutLosingOrRepeatingAPiece() {
    // nr_requests 2 and a bio of 5 pieces: the submitter sleeps twice.
    RequestQueue q = queue(2, 2, 64 * 1024, 128, 512);
    Bio bio = new Bio(ReqOp.READ, 1000, 5 * 64 * 1024, 0);
    int[] woken = {0};
    assertFalse(q.submitBio(cpu, null, bio, parentEnd, () -> woken[0]++));
    assertEquals(2, driver.got.size());
    assertEquals(1, q.pendingSplits());
    assertEquals(1, q.tagWaiters());
    int rounds = 0;
    boolean taken = false;
    while (!taken) {
      assertTrue(rounds++ < 10);
      // Complete everything at the driver; the waiter is woken and retries the same bio.
      for (Request r : new ArrayList<>(driver.got)) {
        if (r.dispatchNs() >= 0 && !completed.contains(r)) {
          completed.add(r);
          q.hardwareDone(r);
        }
      }
      settle();
      assertTrue(woken[0] > 0);
      // A retry with another, equal bio would be a new submission: the caller passes its own.
      taken = q.submitBio(cpu, null, bio, (b, e) -> parentErrors.add(100 + e), () -> woken[0]++);
    }
    for (Request r : new ArrayList<>(driver.got)) {
      if (!completed.contains(r)) {
        completed.add(r);
        q.hardwareDone(r);
      }
    }
    settle();
    assertEquals(5, driver.got.size(), "five pieces, none twice");
    long at = 1000;
    for (Request r : driver.got) {
      assertEquals(at, r.sector());
      assertEquals(64 * 1024, r.bytes());
      at = r.endSector();
    }
    assertEquals(List.of(0), parentErrors, "the first call's end_io, once");
    assertEquals(0, q.pendingSplits());
    assertEquals(0, q.requestsInUse());
    assertEquals(0, q.tagWaiters());
  }

  final List<Request> completed = new ArrayList<>();

  @Test
  void nowaitBioThatNeedsASplitEndsWithEagainAndSubmitsNothing() {
    RequestQueue q = queue(64, 64, 255 * 512, 128, 512);
    Bio big = new Bio(ReqOp.READ, 0, MIB, Bio.REQ_NOWAIT);
    assertTrue(q.submitBio(cpu, null, big, parentEnd, null));
    assertEquals(List.of(-Errno.EAGAIN), parentErrors);
    assertEquals(0, driver.got.size());
    assertEquals(0, q.requestsInUse());
    assertEquals(1, q.splitNowaitFailures());
    assertEquals(1000, q.attach(loop.cpu(1)).submitCostNs(big));
    // One that fits goes through.
    assertTrue(q.submitBio(cpu, null, new Bio(ReqOp.READ, 0, 64 * 1024, Bio.REQ_NOWAIT),
        parentEnd, null));
    assertEquals(1, driver.got.size());
  }

  @Test
  void splitOffPiecesDoNotMergeButTheLastOneDoes() {
    RequestQueue q = queue(64, 64, 64 * 1024, 128, 512);
    Plug plug = new Plug(BlkMqRules.V6);
    plug.start();
    // 96 KiB at 0: a 64 KiB front piece (REQ_NOMERGE) and a 32 KiB rest.
    assertTrue(q.submitBio(cpu, plug, new Bio(ReqOp.READ, 0, 96 * 1024, 0), parentEnd, null));
    assertEquals(2, plug.count());
    // A 4 KiB bio right after the rest back-merges into it.
    assertTrue(q.submitBio(cpu, plug, new Bio(ReqOp.READ, 192, 4096, 0), parentEnd, null));
    assertEquals(2, plug.count());
    assertEquals(36 * 1024, plug.requests().get(1).bytes());
    // One ending where the front piece starts would front-merge, but it is REQ_NOMERGE.
    RequestQueue q2 = queue(64, 64, 64 * 1024, 128, 512);
    Plug p2 = new Plug(BlkMqRules.V6);
    p2.start();
    q2.submitBio(cpu, p2, new Bio(ReqOp.READ, 8, 96 * 1024, 0), parentEnd, null);
    q2.submitBio(cpu, p2, new Bio(ReqOp.READ, 0, 4096, 0), parentEnd, null);
    assertEquals(3, p2.count());
  }

  @Test
  void zonedQueueSplitsAtTheZoneBoundary() {
    ZoneGeometry zones = new ZoneGeometry() {
      @Override
      public long zoneSectors() {
        return 2048; // 1 MiB zones
      }

      @Override
      public long zones() {
        return 16;
      }

      @Override
      public long writePointer(long zone) {
        return zone * 2048;
      }

      @Override
      public boolean sequential(long sector) {
        return true;
      }

      @Override
      public int maxOpenZones() {
        return 0;
      }
    };
    RequestQueue q = new RequestQueue(new RequestQueueParams("sdz", 16L << 20, 512, 64, 64,
        RequestQueueParams.Scheduler.NONE, 512 * 1024, 128, MqDeadlineParams.DEFAULTS,
        BlkMqRules.V6, 0, 100), driver, kblockd, false, zones);
    q.attach(cpu);
    // 1 MiB from 256 KiB into zone 0: 512 KiB, 256 KiB (to the boundary), 256 KiB in zone 1.
    assertTrue(q.submitBio(cpu, null, new Bio(ReqOp.WRITE, 512, MIB, 0), parentEnd, null));
    assertEquals(List.of(512L * 1024, 256L * 1024, 256L * 1024),
        driver.got.stream().map(Request::bytes).toList());
    for (Request r : driver.got) {
      assertEquals(zones.zoneNo(r.sector()), zones.zoneNo(r.endSector() - 1));
    }
  }

  @Test
  void offKeepsOneRequestPerBio() {
    RequestQueue q = queue(64, 64, 255 * 512, 128, 512);
    q.bioSplit(false);
    assertTrue(q.submitBio(cpu, null, new Bio(ReqOp.READ, 0, MIB, 0), parentEnd, null));
    assertEquals(1, driver.got.size());
    assertEquals(1000, q.attach(loop.cpu(1)).submitCostNs(new Bio(ReqOp.READ, 0, MIB, 0)));
  }
}
