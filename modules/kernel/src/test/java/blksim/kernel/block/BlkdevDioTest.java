package blksim.kernel.block;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.kernel.fs.BlkdevDio;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * O_DIRECT bios of a block device ({@link BlkdevDio}, {@code blkdev_direct_IO()}): at most
 * {@code BIO_MAX_VECS} (256) pages per bio, each bio then split at null_blk's limits
 * (max_sectors 255, max_segments 128) by the request queue. Here in the block package for its
 * queue test doubles.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BlkdevDioTest {
  static final int MIB = 1 << 20;

  final FakeCpus loop = new FakeCpus();
  final DriverCpu cpu = loop.cpu(0);
  final RequestQueueTest.HoldingDriver driver = new RequestQueueTest.HoldingDriver();
  final RequestQueueTest.RecordingKblockd kblockd = new RequestQueueTest.RecordingKblockd();
  final Task task = new Task("fio", 100, 0) {
    @Override
    protected void step(TaskCpu c) {
      throw new AssertionError("not run");
    }
  };
  final BlkdevDio dio = new BlkdevDio(task);
  final List<Bio> endedBios = new ArrayList<>();
  final List<Integer> errors = new ArrayList<>();
  final List<Long> endedAt = new ArrayList<>();
  final BioEndIo endIo = (b, e) -> {
    endedBios.add(b);
    errors.add(e);
    endedAt.add(loop.now());
  };

  /** null_blk's request queue with {@code nr} tags, and the bios issued to it. */
  RequestQueue q;
  final List<Bio> issued = new ArrayList<>();

  BlockQueue nullBlk(int nr) {
    q = new RequestQueue(new RequestQueueParams("nullb0", 1L << 34, 512, nr, nr,
        RequestQueueParams.Scheduler.NONE, 255 * 512, 128, MqDeadlineParams.DEFAULTS,
        BlkMqRules.V6, 1000, 100), driver, kblockd);
    BlockQueue view = q.attach(cpu);
    return new BlockQueue() {
      @Override
      public String diskName() {
        return view.diskName();
      }

      @Override
      public long capacityBytes() {
        return view.capacityBytes();
      }

      @Override
      public int logicalBlockSize() {
        return view.logicalBlockSize();
      }

      @Override
      public long submitCostNs(Bio bio) {
        return view.submitCostNs(bio);
      }

      @Override
      public boolean issue(Bio bio, BioEndIo e, Runnable onTagFree) {
        return issue(bio, e, onTagFree, null);
      }

      @Override
      public boolean issue(Bio bio, BioEndIo e, Runnable onTagFree, Plug plug) {
        if (issued.isEmpty() || issued.get(issued.size() - 1) != bio) {
          issued.add(bio); // a retry of the same bio is not a new one
        }
        return view.issue(bio, e, onTagFree, plug);
      }

      @Override
      public DiskCounters counters() {
        return view.counters();
      }
    };
  }

  void completeAll() {
    kblockd.runAll(); // a plug flushed from schedule runs the queue through kblockd
    for (Request r : new ArrayList<>(driver.got)) {
      if (!done.contains(r)) {
        done.add(r);
        q.hardwareDone(r);
      }
    }
    loop.runUntil(loop.now() + 1_000_000);
  }

  final List<Request> done = new ArrayList<>();

  @Test
  void fourMibReadIsFourBiosOfOneMibEachSplitAtTheLimits() {
    BlockQueue bq = nullBlk(64);
    Bio io = new Bio(ReqOp.READ, 2048, 4 * MIB, Bio.REQ_SYNC);
    assertEquals(4, BlkdevDio.bios(io));
    // 9 requests per 1 MiB bio (8 x 255 + 8 sectors): 36 fixed submit costs, not 33.
    assertEquals(33, q.pieces(io), "one 4 MiB bio would be 33 requests");
    assertEquals(36 * 1000, BlkdevDio.submitCostNs(bq, io));
    assertTrue(dio.issue(bq, io, endIo, null, null));
    assertEquals(4, issued.size());
    long at = 2048;
    for (Bio b : issued) {
      assertEquals(at, b.sector());
      assertEquals(MIB, b.sizeBytes());
      assertEquals(Bio.REQ_SYNC, b.flags());
      at += b.sectors();
    }
    assertEquals(36, driver.got.size(), "requests");
    assertEquals(32, q.splits());
    // Under the dio's plug, flushed at its end; the task's plug is gone again.
    assertNull(task.plug());
    long sector = 2048;
    for (Request r : driver.got) {
      assertEquals(sector, r.sector());
      sector = r.endSector();
    }
    assertEquals(2048 + 4 * MIB / 512, sector);
    // Completion: once, for the 4 MiB I/O, when the last request completed.
    loop.runUntil(50_000);
    for (int i = 0; i < 35; i++) {
      done.add(driver.got.get(i));
      q.hardwareDone(driver.got.get(i));
    }
    loop.runUntil(120_000);
    assertEquals(List.of(), endedBios, "a request is still in flight");
    done.add(driver.got.get(35));
    q.hardwareDone(driver.got.get(35));
    long last = loop.now();
    loop.runUntil(last + 1_000_000);
    assertEquals(1, endedBios.size());
    assertSame(io, endedBios.get(0));
    assertEquals(List.of(0), errors);
    assertTrue(endedAt.get(0) >= last && endedAt.get(0) < last + 1_000,
        "ended at the last request's completion interrupt: " + endedAt + " last " + last);
    assertEquals(36, q.counters().snapshot(loop.now()).readIos());
    assertEquals(0, q.requestsInUse());
  }

  @Test
  void exactlyOneMibIsOneBioTheIoItself() {
    BlockQueue bq = nullBlk(64);
    Bio io = new Bio(ReqOp.WRITE, 0, MIB, Bio.REQ_SYNC);
    assertEquals(1, BlkdevDio.bios(io));
    assertEquals(bq.submitCostNs(io), BlkdevDio.submitCostNs(bq, io));
    assertTrue(dio.issue(bq, io, endIo, null, null));
    assertEquals(1, issued.size());
    assertSame(io, issued.get(0));
    assertEquals(9, driver.got.size());
    completeAll();
    assertEquals(List.of(io), endedBios);
    // One page more is a second bio of one page.
    Bio more = new Bio(ReqOp.WRITE, 0, MIB + 4096, Bio.REQ_SYNC);
    assertEquals(2, BlkdevDio.bios(more));
    assertTrue(dio.issue(bq, more, endIo, null, null));
    assertEquals(List.of(MIB, MIB, 4096),
        issued.stream().map(Bio::sizeBytes).toList());
  }

  @Test
  void theFirstErrorOfABioIsTheIosAndItEndsOnce() {
    BlockQueue bq = nullBlk(64);
    Bio io = new Bio(ReqOp.READ, 0, 3 * MIB, Bio.REQ_SYNC);
    assertTrue(dio.issue(bq, io, endIo, null, null));
    assertEquals(27, driver.got.size());
    // The third bio (requests 18..26) ends first, with -EIO; then the first, with -EAGAIN.
    q.hardwareDone(driver.got.get(3), -Errno.EAGAIN);
    done.add(driver.got.get(3));
    for (int i = 18; i < 27; i++) {
      done.add(driver.got.get(i));
      q.hardwareDone(driver.got.get(i), i == 20 ? -Errno.EIO : 0);
    }
    loop.runUntil(loop.now() + 1_000_000);
    assertEquals(List.of(), endedBios);
    completeAll();
    assertEquals(List.of(io), endedBios);
    assertEquals(List.of(-Errno.EIO), errors);
  }

  @Test
  void nowaitIoOfMoreThan256PagesEndsWithEagainAndSubmitsNothing() {
    BlockQueue bq = nullBlk(64);
    Bio io = new Bio(ReqOp.READ, 0, 2 * MIB, Bio.REQ_SYNC | Bio.REQ_NOWAIT);
    assertEquals(0, BlkdevDio.submitCostNs(bq, io));
    assertEquals(MIB, BlkdevDio.pinnedBytes(io));
    assertTrue(dio.issue(bq, io, endIo, null, null));
    assertEquals(List.of(-Errno.EAGAIN), errors);
    assertTrue(issued.isEmpty());
    assertTrue(driver.got.isEmpty());
    assertEquals(0, q.splitNowaitFailures(), "refused before any bio");
    // 256 pages with REQ_NOWAIT are one bio (the queue then refuses its split, as before).
    Bio one = new Bio(ReqOp.READ, 0, MIB, Bio.REQ_SYNC | Bio.REQ_NOWAIT);
    assertTrue(dio.issue(bq, one, endIo, null, null));
    assertEquals(List.of(one), issued);
    assertEquals(1, q.splitNowaitFailures());
  }

  @Test
  void aTagWaitMidDioResumesWithTheWaitingBioUnderTheSamePlug() {
    BlockQueue bq = nullBlk(4);
    Bio io = new Bio(ReqOp.READ, 0, 4 * MIB, Bio.REQ_SYNC);
    int[] woken = {0};
    assertFalse(dio.issue(bq, io, endIo, () -> woken[0]++, null));
    assertTrue(task.plug() != null && task.plug().active(), "the dio's plug is current->plug");
    int rounds = 0;
    boolean taken = false;
    while (!taken) {
      assertTrue(rounds++ < 40);
      completeAll();
      assertTrue(woken[0] > 0);
      taken = dio.issue(bq, io, endIo, () -> woken[0]++, null);
    }
    assertNull(task.plug());
    completeAll();
    assertEquals(4, issued.size(), "four bios, none twice");
    assertEquals(36, driver.got.size(), "36 requests, none lost or repeated");
    assertEquals(List.of(io), endedBios);
    assertEquals(List.of(0), errors);
    assertEquals(0, q.requestsInUse());
    assertEquals(0, q.pendingSplits());
  }

  @Test
  void aPlugTheTaskHoldsIsUsedNestedAndNotFinished() {
    BlockQueue bq = nullBlk(64);
    Plug outer = new Plug(BlkMqRules.V6);
    outer.start();
    task.setPlug(outer);
    assertTrue(dio.issue(bq, new Bio(ReqOp.READ, 0, 2 * MIB, Bio.REQ_SYNC), endIo, null, outer));
    assertSame(outer, task.plug());
    assertTrue(outer.active());
    assertEquals(0, driver.got.size(), "still in the caller's plug");
    assertEquals(18, outer.count());
    outer.finish();
    assertEquals(18, driver.got.size());
  }
}
