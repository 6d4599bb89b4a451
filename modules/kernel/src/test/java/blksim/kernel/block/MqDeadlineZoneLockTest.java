package blksim.kernel.block;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** mq-deadline's zone write locking and the chunk_sectors merge limit on a zoned queue. */
class MqDeadlineZoneLockTest {
  /** 1 MiB zones of 2048 sectors; zone 0 conventional. */
  static final long Z = 2048;

  static final ZoneGeometry ZONES = new ZoneGeometry() {
    @Override
    public long zoneSectors() {
      return Z;
    }

    @Override
    public boolean sequential(long sector) {
      return sector >= Z;
    }

    @Override
    public long zones() {
      return 16;
    }

    @Override
    public int maxOpenZones() {
      return 0;
    }

    @Override
    public long writePointer(long zone) {
      return zone * Z;
    }
  };

  final FakeCpus loop = new FakeCpus();
  final DriverCpu cpu = loop.cpu(0);
  final RequestQueueTest.HoldingDriver driver = new RequestQueueTest.HoldingDriver();
  final List<Bio> ended = new ArrayList<>();

  RequestQueue queue(RequestQueueParams.Scheduler s) {
    RequestQueue q = new RequestQueue(new RequestQueueParams("sdb", 16 * Z * 512, 512, 32,
        s == RequestQueueParams.Scheduler.NONE ? 32 : 64, s,
        512 * 1024, 128, MqDeadlineParams.DEFAULTS, BlkMqRules.V6, 0, 0), driver, Kblockd.INLINE,
        false, ZONES);
    q.attach(cpu);
    return q;
  }

  void write(RequestQueue q, long sector) {
    assertTrue(q.submitBio(cpu, null, new Bio(ReqOp.WRITE, sector, 4096, 0),
        (b, e) -> ended.add(b), () -> { }));
  }

  @Test
  void oneWriteInFlightPerSequentialZone() {
    RequestQueue q = queue(RequestQueueParams.Scheduler.MQ_DEADLINE);
    // Three writes to zone 1, not contiguous (no merge), and one to zone 2.
    write(q, Z);
    write(q, Z + 64);
    write(q, Z + 128);
    write(q, 2 * Z);
    loop.runAll();
    List<Long> sectors = driver.got.stream().map(Request::sector).toList();
    assertEquals(List.of(Z, 2 * Z), sectors, "one write per zone at the driver");
    assertEquals(2, q.queuedInScheduler());
    Request first = driver.got.get(0);
    q.hardwareDone(first, 0);
    loop.runAll();
    assertEquals(Z + 64, driver.got.get(2).sector(), "the zone's next write after completion");
    assertEquals(3, driver.got.size());
  }

  @Test
  void conventionalZonesAndReadsAreNotLocked() {
    RequestQueue q = queue(RequestQueueParams.Scheduler.MQ_DEADLINE);
    write(q, 0);
    write(q, 64);
    write(q, 128);
    assertTrue(q.submitBio(cpu, null, new Bio(ReqOp.READ, Z, 4096, 0), (b, e) -> { }, () -> { }));
    assertTrue(q.submitBio(cpu, null, new Bio(ReqOp.READ, Z + 64, 4096, 0), (b, e) -> { },
        () -> { }));
    loop.runAll();
    assertEquals(5, driver.got.size());
  }

  @Test
  void withoutASchedulerNothingIsLocked() {
    RequestQueue q = queue(RequestQueueParams.Scheduler.NONE);
    write(q, Z);
    write(q, Z + 64);
    loop.runAll();
    assertEquals(2, driver.got.size());
  }

  @Test
  void mergesStopAtAZoneBoundary() {
    RequestQueue q = queue(RequestQueueParams.Scheduler.MQ_DEADLINE);
    // Zone 1 locked by a write in flight, then contiguous writes across the 1|2 boundary queue.
    write(q, Z);
    write(q, 2 * Z - 8);
    write(q, 2 * Z);
    loop.runAll();
    // Zone 2's write continues zone 1's queued one: deadline_skip_seq_writes() keeps the stream
    // whole on a rotational disk, so it waits too.
    assertEquals(1, driver.got.size());
    assertEquals(2, q.queuedInScheduler(), "not merged across the boundary");
    q.hardwareDone(driver.got.get(0), 0);
    loop.runAll();
    assertEquals(List.of(Z, 2 * Z - 8, 2 * Z),
        driver.got.stream().map(Request::sector).toList());
    for (Request r : driver.got) {
      assertEquals(r.sector() / Z, (r.endSector() - 1) / Z, "inside one zone: " + r);
    }
    assertFalse(driver.got.stream().anyMatch(r -> r.bytes() > 4096));
  }

  @Test
  void anErrorReachesTheBios() {
    RequestQueue q = queue(RequestQueueParams.Scheduler.MQ_DEADLINE);
    List<Integer> errors = new ArrayList<>();
    q.submitBio(cpu, null, new Bio(ReqOp.WRITE, Z + 8, 4096, 0), (b, e) -> errors.add(e),
        () -> { });
    loop.runAll();
    q.hardwareDone(driver.got.get(0), -Errno.EIO);
    loop.runAll();
    assertEquals(List.of(-Errno.EIO), errors);
  }
}
