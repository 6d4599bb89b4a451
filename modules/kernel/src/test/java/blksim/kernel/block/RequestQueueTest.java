package blksim.kernel.block;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RequestQueueTest {
  static final long KIB = 1024;

  /** A driver that holds what it gets until the test completes it. */
  static final class HoldingDriver implements MqDriver {
    final List<Request> got = new ArrayList<>();

    @Override
    public void queueRq(Request rq, DriverCpu cpu) {
      got.add(rq);
    }
  }

  /** A kblockd that only records the runs queued, for the test to execute. */
  static final class RecordingKblockd implements Kblockd {
    final List<Runnable> queued = new ArrayList<>();

    @Override
    public Runnable bind(String queueName, DriverCpu cpu, Runnable run) {
      return () -> queued.add(run);
    }

    void runAll() {
      List<Runnable> l = new ArrayList<>(queued);
      queued.clear();
      l.forEach(Runnable::run);
    }
  }

  static RequestQueueParams params(RequestQueueParams.Scheduler s, int depth, int nr,
      long maxBytes, BlkMqRules rules) {
    return new RequestQueueParams("sdb", 1L << 30, 512, depth, nr, s, maxBytes, 128,
        MqDeadlineParams.DEFAULTS, rules, 0, 100);
  }

  final FakeCpus loop = new FakeCpus();
  final DriverCpu cpu = loop.cpu(0);
  final HoldingDriver driver = new HoldingDriver();
  final RecordingKblockd kblockd = new RecordingKblockd();
  final List<Bio> ended = new ArrayList<>();
  final BioEndIo endIo = (b, e) -> ended.add(b);

  RequestQueue queue(RequestQueueParams p) {
    RequestQueue q = new RequestQueue(p, driver, kblockd);
    q.attach(cpu);
    return q;
  }

  static Bio read(long sector, int bytes) {
    return new Bio(ReqOp.READ, sector, bytes, 0);
  }

  static Bio write(long sector, int bytes) {
    return new Bio(ReqOp.WRITE, sector, bytes, 0);
  }

  @Test
  void contiguousBiosBackAndFrontMergeInThePlug() {
    RequestQueue q = queue(params(RequestQueueParams.Scheduler.NONE, 32, 32, 512 * KIB,
        BlkMqRules.V4_3));
    Plug plug = new Plug(BlkMqRules.V4_3);
    plug.start();
    assertTrue(q.submitBio(cpu, plug, read(8, 4096), endIo, null));
    // Back merge: starts at 8 + 8 = 16, where the request ends.
    assertTrue(q.submitBio(cpu, plug, read(16, 4096), endIo, null));
    // Front merge: ends at 0 + 8 = 8, where the request starts.
    assertTrue(q.submitBio(cpu, plug, read(0, 4096), endIo, null));
    assertEquals(1, plug.count());
    Request r = plug.requests().get(0);
    assertEquals(0, r.sector());
    assertEquals(3 * 4096, r.bytes());
    assertEquals(List.of(0L, 8L, 16L), r.bios().stream().map(Bio::sector).toList());
    assertEquals(2, q.counters().snapshot(0).readMerges());
    assertEquals(1, q.requestsInUse());
  }

  @Test
  void mergingStopsAtMaxSectorsAndNeverMixesOperations() {
    // max_sectors 8 KiB: two 4 KiB bios fill a request; the third starts another.
    RequestQueue q = queue(params(RequestQueueParams.Scheduler.NONE, 32, 32, 8 * KIB,
        BlkMqRules.V4_3));
    Plug plug = new Plug(BlkMqRules.V4_3);
    plug.start();
    q.submitBio(cpu, plug, read(0, 4096), endIo, null);
    q.submitBio(cpu, plug, read(8, 4096), endIo, null);
    q.submitBio(cpu, plug, read(16, 4096), endIo, null);
    assertEquals(2, plug.count());
    assertEquals(List.of(8192L, 4096L), plug.requests().stream().map(Request::bytes).toList());
    // A write contiguous with the read request is refused (different op).
    q.submitBio(cpu, plug, write(24, 4096), endIo, null);
    assertEquals(3, plug.count());
    assertEquals(ReqOp.WRITE, plug.requests().get(2).op());
  }

  @Test
  void plugFlushesWhenItHoldsMaxRequestCount() {
    RequestQueue q = queue(params(RequestQueueParams.Scheduler.NONE, 64, 64, 512 * KIB,
        BlkMqRules.V4_3));
    Plug plug = new Plug(BlkMqRules.V4_3);
    plug.start();
    // 16 separate requests (gaps between them): all stay in the plug.
    for (int i = 0; i < 16; i++) {
      q.submitBio(cpu, plug, read(i * 100L, 4096), endIo, null);
    }
    assertEquals(16, plug.count());
    assertEquals(0, driver.got.size());
    // The 17th flushes the 16 (explicitly, at once), then waits in the plug itself.
    q.submitBio(cpu, plug, read(5000, 4096), endIo, null);
    assertEquals(16, driver.got.size());
    assertEquals(1, plug.count());
    assertEquals(1, plug.flushesAtLimit());
    assertTrue(kblockd.queued.isEmpty());
  }

  @Test
  void sixXFlushesAfterARequestOf128KiB() {
    RequestQueue q = queue(params(RequestQueueParams.Scheduler.NONE, 64, 64, 512 * KIB,
        BlkMqRules.V6));
    Plug plug = new Plug(BlkMqRules.V6);
    plug.start();
    // 32 contiguous 4 KiB bios merge into one 128 KiB request (BLK_PLUG_FLUSH_SIZE).
    for (int i = 0; i < 32; i++) {
      q.submitBio(cpu, plug, read(i * 8L, 4096), endIo, null);
    }
    assertEquals(1, plug.count());
    assertEquals(128 * KIB, plug.requests().get(0).bytes());
    // A new, non-contiguous request finds a last request of 128 KiB: flush first.
    q.submitBio(cpu, plug, read(100_000, 4096), endIo, null);
    assertEquals(1, driver.got.size());
    assertEquals(1, plug.count());
  }

  @Test
  void nestedPlugsFlushOnlyAtTheOutermostFinish() {
    RequestQueue q = queue(params(RequestQueueParams.Scheduler.NONE, 32, 32, 512 * KIB,
        BlkMqRules.V4_3));
    Plug plug = new Plug(BlkMqRules.V4_3);
    assertTrue(plug.start());
    q.submitBio(cpu, plug, read(0, 4096), endIo, null);
    assertFalse(plug.start(), "an inner blk_start_plug() does nothing");
    q.submitBio(cpu, plug, read(1000, 4096), endIo, null);
    plug.finish();
    assertEquals(0, driver.got.size(), "the inner blk_finish_plug() does not flush");
    assertTrue(plug.active());
    plug.finish();
    assertEquals(2, driver.got.size());
    assertFalse(plug.active());
    // Without a held plug, a bio goes straight to the queue (none: direct dispatch).
    q.submitBio(cpu, plug, read(3000, 4096), endIo, null);
    assertEquals(3, driver.got.size());
  }

  @Test
  void flushFromScheduleDefersTheRunToKblockdButAnExplicitFlushDispatches() {
    RequestQueue q = queue(params(RequestQueueParams.Scheduler.MQ_DEADLINE, 32, 64, 512 * KIB,
        BlkMqRules.V4_3));
    Plug plug = new Plug(BlkMqRules.V4_3);
    plug.start();
    q.submitBio(cpu, plug, read(0, 4096), endIo, null);
    q.submitBio(cpu, plug, read(1000, 4096), endIo, null);
    plug.flush(true);
    assertEquals(0, plug.count());
    assertEquals(0, driver.got.size(), "from schedule: inserted, not run");
    assertEquals(2, q.queuedInScheduler());
    assertEquals(1, kblockd.queued.size());
    assertTrue(q.runPending());
    kblockd.runAll();
    assertEquals(2, driver.got.size());
    assertEquals(1, q.kblockdRuns());

    q.submitBio(cpu, plug, read(2000, 4096), endIo, null);
    plug.flush(false);
    assertEquals(3, driver.got.size(), "explicit flush runs the queue in the caller's context");
    assertTrue(kblockd.queued.isEmpty());
  }

  @Test
  void submitterSleepsWhenNoRequestIsFreeAndWakesWhenOneCompletes() {
    RequestQueue q = queue(params(RequestQueueParams.Scheduler.NONE, 2, 2, 512 * KIB,
        BlkMqRules.V6));
    int[] woken = {0};
    assertTrue(q.submitBio(cpu, null, read(0, 4096), endIo, () -> woken[0]++));
    assertTrue(q.submitBio(cpu, null, read(100, 4096), endIo, () -> woken[0]++));
    assertFalse(q.submitBio(cpu, null, read(200, 4096), endIo, () -> woken[0]++));
    assertEquals(1, q.tagWaiters());
    // REQ_NOWAIT: -EAGAIN at once, not queued.
    List<Integer> errs = new ArrayList<>();
    assertTrue(q.submitBio(cpu, null, new Bio(ReqOp.READ, 300, 4096, Bio.REQ_NOWAIT),
        (b, e) -> errs.add(e), null));
    assertEquals(List.of(-Errno.EAGAIN), errs);
    assertEquals(1, q.tagWaiters());
    // The hardware finishes the first request: the interrupt (100 ns) ends it, frees its tags
    // and wakes the waiter.
    q.hardwareDone(driver.got.get(0));
    loop.runAll();
    assertEquals(1, ended.size());
    assertEquals(1, woken[0]);
    assertEquals(0, q.tagWaiters());
    assertEquals(1, q.requestsInUse());
    // The retry now gets a request.
    assertTrue(q.submitBio(cpu, null, read(200, 4096), endIo, null));
    assertEquals(3, driver.got.size());
  }

  @Test
  void queuedBiosMergeInTheSchedulerWhileTheDriverIsBusy() {
    // queue_depth 1: the first request goes to the driver, the next bios wait and merge.
    RequestQueue q = queue(params(RequestQueueParams.Scheduler.MQ_DEADLINE, 1, 2, 512 * KIB,
        BlkMqRules.V4_3));
    q.submitBio(cpu, null, write(0, 4096), endIo, null);
    q.submitBio(cpu, null, write(1000, 4096), endIo, null);
    q.submitBio(cpu, null, write(1008, 4096), endIo, null);
    q.submitBio(cpu, null, write(992, 4096), endIo, null);
    assertEquals(1, driver.got.size());
    assertEquals(1, q.queuedInScheduler());
    assertEquals(2, q.counters().snapshot(0).writeMerges());
    q.hardwareDone(driver.got.get(0));
    loop.runAll();
    assertEquals(2, driver.got.size());
    Request r = driver.got.get(1);
    assertEquals(992, r.sector());
    assertEquals(3 * 4096, r.bytes());
  }

  @Test
  void completionInterruptsTheSubmittingCpuAndRestartsByTheVersionsRule() {
    for (BlkMqRules rules : List.of(BlkMqRules.V4_3, BlkMqRules.V6)) {
      FakeCpus l = new FakeCpus();
      int[] irqs = new int[2];
      List<DriverCpu> cpus = new ArrayList<>();
      for (int id = 0; id < 2; id++) {
        DriverCpu base = l.cpu(id);
        int me = id;
        cpus.add(new DriverCpu() {
          @Override
          public int cpuId() {
            return me;
          }

          @Override
          public long now() {
            return base.now();
          }

          @Override
          public void interrupt(long costNs, Runnable handler) {
            irqs[me]++;
            base.interrupt(costNs, handler);
          }

          @Override
          public void callAfter(long delayNs, Runnable callback) {
            base.callAfter(delayNs, callback);
          }
        });
      }
      HoldingDriver d = new HoldingDriver();
      RecordingKblockd kb = new RecordingKblockd();
      // queue_depth 1 under mq-deadline: the second request waits in the scheduler.
      RequestQueue q = new RequestQueue(params(RequestQueueParams.Scheduler.MQ_DEADLINE, 1, 4,
          512 * KIB, rules), d, kb);
      q.attach(cpus.get(0));
      q.attach(cpus.get(1));
      q.submitBio(cpus.get(1), null, read(0, 4096), endIo, null);
      q.submitBio(cpus.get(0), null, read(1000, 4096), endIo, null);
      kb.runAll(); // 6.x inserted with an async run
      assertEquals(1, d.got.size());
      assertEquals(1, d.got.get(0).submitCpu().cpuId());
      q.hardwareDone(d.got.get(0));
      l.runAll();
      assertEquals(1, irqs[1], "the interrupt is taken on the submitting CPU 1");
      assertEquals(0, irqs[0]);
      if (rules == BlkMqRules.V4_3) {
        assertEquals(2, d.got.size(), "4.3: the completion runs the queue at once");
      } else {
        assertEquals(1, d.got.size(), "6.x: the restart goes through kblockd");
        assertEquals(1, kb.queued.size());
        kb.runAll();
        assertEquals(2, d.got.size());
      }
    }
  }
}
