package blksim.kernel.block;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.kernel.device.CachedDiskDriver;
import blksim.kernel.device.RotationalDisk;
import blksim.kernel.device.RotationalDiskParams;
import blksim.kernel.device.WriteCacheParams;
import blksim.kernel.device.ZonedDisk;
import blksim.kernel.device.ZonedLayout;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The drive's write cache (kernel-model.md §15.2, {@link CachedDiskDriver}) below a request
 * queue: writes complete from the cache at the link's pace while it has room, then at the
 * destage's; a FLUSH completes only once the cache is destaged; zone rules hold at acceptance.
 */
@Timeout(30)
class CachedDiskDriverTest {
  static final long MIB = 1L << 20;
  /** 1 GiB, 64 zones of 16 MiB, 8 conventional; one surface. */
  static final long CAP = 1L << 30;

  final FakeCpus loop = new FakeCpus();
  final DriverCpu cpu = loop.cpu(0);
  final Map<Bio, Long> ended = new LinkedHashMap<>();
  CachedDiskDriver driver;

  RequestQueue queue(long cacheBytes) {
    ZonedLayout layout = new ZonedLayout(CAP, 16 * MIB, 8, 16);
    ZonedDisk zones = new ZonedDisk(layout);
    RotationalDiskParams drive = RotationalDiskParams.DEFAULTS.withCapacityBytes(CAP);
    driver = new CachedDiskDriver(new RotationalDisk(drive), zones,
        new WriteCacheParams(cacheBytes, 100_000, 600_000_000L));
    RequestQueue q = new RequestQueue(new RequestQueueParams("sdb", CAP, 512, 32, 64,
        RequestQueueParams.Scheduler.MQ_DEADLINE, 1280 * 1024, 128, MqDeadlineParams.DEFAULTS,
        BlkMqRules.V6, 0, 0), driver, Kblockd.INLINE, false, zones);
    q.enableWriteCache();
    q.attach(cpu);
    return q;
  }

  void submit(RequestQueue q, Bio b) {
    assertTrue(q.submitBio(cpu, null, b, (x, e) -> ended.put(x, loop.now()), () -> { }));
  }

  long last() {
    return ended.values().stream().mapToLong(Long::longValue).max().orElseThrow();
  }

  /** 16 random 64 KiB writes over the conventional zones, far apart. */
  Bio[] scattered() {
    Bio[] b = new Bio[16];
    for (int i = 0; i < 16; i++) {
      b[i] = new Bio(ReqOp.WRITE, (i * 7919L % 256) * 1024, 64 * 1024, 0);
    }
    return b;
  }

  @Test
  void writesCompleteFromTheCacheAtTheLinksPace() {
    RequestQueue q = queue(256 * MIB);
    Bio[] b = scattered();
    for (Bio x : b) {
      submit(q, x);
    }
    loop.runUntil(0);
    assertTrue(q.writeCache(), "QUEUE_FLAG_WC");
    loop.runAll();
    long hold = 100_000 + Math.round(64 * 1024 * 1e9 / 600_000_000L);
    // One after another on the link: the last completes at 16 holds, with no seek at all.
    assertEquals(16 * hold, last(), 1_000);
    assertEquals(16, driver.cachedWrites());
    assertEquals(16, driver.destages(), "the drive destaged them in the background");
    assertEquals(0, driver.cachedBytes());
    assertTrue(driver.disk().busyUntilNs() > 16 * 1_000_000L,
        "16 scattered destages take positioning: " + driver.disk().busyUntilNs());
  }

  @Test
  void aFullCacheMakesWritesWaitForTheDestage() {
    RequestQueue q = queue(128 * 1024);
    Bio[] b = scattered();
    for (Bio x : b) {
      submit(q, x);
    }
    loop.runAll();
    // Two writes fit; each later one waits for a destage (a seek and rotation, ms each).
    assertTrue(last() > 14 * 2_000_000L, "last write at " + last());
    assertEquals(16, driver.cachedWrites());
  }

  @Test
  void aFlushWaitsForTheDestageOfWhatTheCacheHolds() {
    RequestQueue q = queue(256 * MIB);
    Bio[] b = scattered();
    for (Bio x : b) {
      submit(q, x);
    }
    loop.runUntil(4_000_000L);
    long lastWrite = last();
    assertEquals(16, ended.size(), "all held by 4 ms");
    Bio flush = new Bio(ReqOp.FLUSH, 0, 0, Bio.REQ_PREFLUSH);
    submit(q, flush);
    loop.runAll();
    assertTrue(lastWrite < 4_000_000L, "writes held at " + lastWrite);
    assertTrue(ended.get(flush) >= driver.disk().busyUntilNs(),
        "flush at " + ended.get(flush) + " before the destage ended at "
            + driver.disk().busyUntilNs());
    assertTrue(ended.get(flush) > 16 * 1_000_000L, "flush at " + ended.get(flush));
    assertEquals(1, driver.flushes());
  }

  @Test
  void zoneRulesHoldWhenTheDriveTakesTheWrite() {
    RequestQueue q = queue(256 * MIB);
    long seq = 8 * 16 * MIB / 512;
    Bio ok = new Bio(ReqOp.WRITE, seq, 64 * 1024, 0);
    Bio off = new Bio(ReqOp.WRITE, seq + 8 * 1024, 64 * 1024, 0);
    Map<Bio, Integer> errors = new LinkedHashMap<>();
    assertTrue(q.submitBio(cpu, null, ok, (x, e) -> errors.put(x, e), () -> { }));
    loop.runUntil(1_000_000_000L);
    assertTrue(q.submitBio(cpu, null, off, (x, e) -> errors.put(x, e), () -> { }));
    loop.runAll();
    assertEquals(0, errors.get(ok));
    assertEquals(2, driver.commands(), "both reached the drive");
    assertEquals(-Errno.EIO, errors.get(off), "off the write pointer: " + errors);
    assertEquals(1, driver.rejected());
  }
}
