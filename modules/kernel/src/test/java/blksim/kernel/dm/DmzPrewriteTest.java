package blksim.kernel.dm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.kernel.block.BlkMqRules;
import blksim.kernel.block.Kblockd;
import blksim.kernel.block.MqDeadlineParams;
import blksim.kernel.block.RequestQueue;
import blksim.kernel.block.RequestQueueParams;
import blksim.kernel.device.RotationalDisk;
import blksim.kernel.device.RotationalDiskParams;
import blksim.kernel.device.ZoneCondition;
import blksim.kernel.device.ZonedDisk;
import blksim.kernel.device.ZonedDiskDriver;
import blksim.kernel.device.ZonedLayout;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.topology.Topology;
import blksim.kernel.topology.TopologyParams;
import blksim.kernel.workqueue.KernelMode;
import blksim.kernel.workqueue.Workqueue;
import blksim.kernel.workqueue.WorkqueueParams;
import blksim.kernel.workqueue.WorkqueueSystem;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Data an earlier run left on dm-zoned ({@link DmzDevice#prewrite}, {@code dirty-files.overwrite}):
 * the chunk mapping, the bitmaps and the disk's write pointers agree at t = 0, nothing is dirty,
 * and later writes take the kernel's paths (in place, at the write pointer, or into a buffer
 * zone).
 */
@Timeout(30)
class DmzPrewriteTest {
  static final long MIB = 1L << 20;
  static final long CAP = 1L << 30;
  /** 64 zones of 16 MiB (4,096 blocks, 32,768 sectors), 8 conventional. */
  static final ZonedLayout LAYOUT = new ZonedLayout(CAP, 16 * MIB, 8, 16);
  static final long ZS = 32_768;

  ZonedDisk zones;

  DmzDevice device() {
    zones = new ZonedDisk(LAYOUT);
    RequestQueue q = new RequestQueue(new RequestQueueParams("sdb", CAP, 512, 32, 64,
        RequestQueueParams.Scheduler.MQ_DEADLINE, 1280 * 1024, 128, MqDeadlineParams.DEFAULTS,
        BlkMqRules.V6, 0, 0), new ZonedDiskDriver(new RotationalDisk(
            RotationalDiskParams.DEFAULTS.withCapacityBytes(CAP)), zones),
        Kblockd.INLINE, false, zones);
    Topology topo = Topology.of(new TopologyParams(1, 1, 1, 1, 1));
    WorkqueueSystem.Builder b = WorkqueueSystem.builder(topo, DelayTargetTest.SCHED,
        DelayTargetTest.TIMERS, WorkqueueParams.defaults(KernelMode.V6_9));
    DmzFormat f = DmzFormat.of(LAYOUT, 4, "t");
    b.allocWorkqueue(DmzDevice.cwqName("t"), DmzDevice.CWQ_FLAGS, DmzDevice.CWQ_MAX_ACTIVE);
    b.allocOrderedWorkqueue(DmzDevice.fwqName("t"), Workqueue.WQ_MEM_RECLAIM);
    b.allocOrderedWorkqueue(DmzDevice.rwqName("t"), Workqueue.WQ_MEM_RECLAIM);
    WorkqueueSystem sys = b.build();
    CpuComponent cpu = new CpuComponent(topo.cpu(0), DelayTargetTest.SCHED);
    DmzDevice d = new DmzDevice("dmz", f, sys, 1000, 1);
    d.attach(cpu, q.attach(cpu));
    return d;
  }

  /** Chunk {@code c}, blocks [b, b + n), in target sectors. */
  static long[] piece(int c, int b, int n) {
    return new long[] {c * ZS + b * 8L, n * 8L};
  }

  @Test
  void mappingBitmapsAndWritePointersAgreeAtTimeZero() {
    DmzDevice d = device();
    DmzMetadata md = d.md;
    int rndFree = md.nrUnmapRndZones();
    int seqFree = md.unmapSeq.size();
    // Chunk 0 whole, 1 half, 2 blocks [100, 200) then [300, 310), 3 whole (over two calls).
    List<long[]> pieces = List.of(piece(0, 0, 4096), piece(1, 0, 2048), piece(2, 100, 100),
        piece(2, 300, 10), piece(3, 0, 1000), piece(3, 1000, 3096));
    for (long[] p : pieces) {
      d.prewrite(p[0], p[1], 0.5);
    }
    // A share of 0.5: the k-th newly mapped chunk is random when floor((k+1)/2) > floor(k/2).
    assertTrue(md.zones[md.dzoneOf[0]].seq());
    assertTrue(md.zones[md.dzoneOf[1]].rnd);
    assertTrue(md.zones[md.dzoneOf[2]].seq());
    assertTrue(md.zones[md.dzoneOf[3]].rnd);
    assertEquals(2, rndFree - md.nrUnmapRndZones());
    assertEquals(2, seqFree - md.unmapSeq.size());
    assertEquals(4, d.prewrittenChunks()[0]);
    assertEquals(2, d.prewrittenChunks()[1]);
    // Bitmaps and weights.
    DmzZone z2 = md.zones[md.dzoneOf[2]];
    assertEquals(100, z2.valid.validAt(100));
    assertEquals(0, z2.valid.validAt(200), "the gap was written but is not valid");
    assertEquals(10, z2.valid.validAt(300));
    assertEquals(110, z2.weight);
    assertEquals(4096, md.zones[md.dzoneOf[0]].weight);
    assertEquals(2048, md.zones[md.dzoneOf[1]].weight);
    assertEquals(4096, md.zones[md.dzoneOf[3]].weight);
    // Sequential zones: the disk's write pointer at the data's end, the zone closed or full,
    // as REPORT ZONES shows them; every other sequential zone empty; none open.
    for (ZonedDisk.Zone rz : zones.reportZones(0, 64)) {
      DmzZone z = md.zones[(int) (rz.start() / ZS)];
      if (z.rnd) {
        assertEquals(ZoneCondition.NOT_WP, rz.cond());
        continue;
      }
      assertEquals(rz.start() + z.wpBlock * 8L, rz.wp(), "wp of " + z);
      ZoneCondition want = z.wpBlock == 0 ? ZoneCondition.EMPTY
          : z.wpBlock == 4096 ? ZoneCondition.FULL : ZoneCondition.CLOSED;
      assertEquals(want, rz.cond(), z.toString());
    }
    assertEquals(ZoneCondition.FULL, zones.condition(md.dzoneOf[0]));
    assertEquals(ZoneCondition.CLOSED, zones.condition(md.dzoneOf[2]));
    assertEquals(310, z2.wpBlock);
    assertEquals(0, zones.openZones());
    // Nothing to write back: no dirty metadata block, no cache access.
    assertTrue(md.dirty.isEmpty());
    assertEquals(0, md.cache.hits + md.cache.missCount);
  }

  @Test
  void laterWritesTakeTheKernelsPaths() {
    DmzDevice d = device();
    DmzMetadata md = d.md;
    d.prewrite(piece(0, 0, 310)[0], piece(0, 0, 310)[1], 0);
    d.prewrite(piece(1, 0, 64)[0], piece(1, 0, 64)[1], 1);
    DmzZone seq = md.zones[md.dzoneOf[0]];
    DmzZone rnd = md.zones[md.dzoneOf[1]];
    assertTrue(seq.seq() && rnd.rnd);
    // An overwrite of a random zone's data goes in place.
    assertSame(rnd, md.handleWrite(rnd, 0, 64));
    assertEquals(64, rnd.weight);
    // A write at the sequential zone's write pointer goes direct, and the disk takes it there.
    assertSame(seq, md.handleWrite(seq, 310, 8));
    assertEquals(0, zones.write(seq.id * ZS + 310 * 8L, 64));
    // An overwrite below the write pointer goes to a buffer zone (a free random one), and the
    // data zone's copy is invalidated.
    DmzZone bz = md.handleWrite(seq, 0, 100);
    assertNotSame(seq, bz);
    assertTrue(bz.rnd && bz.buf);
    assertEquals(100, bz.weight);
    assertEquals(218, seq.weight);
  }

  @Test
  void randomZonesRunOutThenSequentialOnes() {
    DmzDevice d = device();
    DmzMetadata md = d.md;
    int rnd = md.nrUnmapRndZones();
    for (int c = 0; c < rnd + 3; c++) {
      d.prewrite(piece(c, 0, 8)[0], piece(c, 0, 8)[1], 1);
    }
    assertEquals(0, md.nrUnmapRndZones());
    assertEquals(rnd, d.prewrittenChunks()[1]);
    assertEquals(rnd + 3, d.prewrittenChunks()[0]);
    assertTrue(md.zones[md.dzoneOf[rnd + 2]].seq());
  }
}
