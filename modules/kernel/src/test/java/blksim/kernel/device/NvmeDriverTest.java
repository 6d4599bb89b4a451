package blksim.kernel.device;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.LocalRunner;
import blksim.engine.Model;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.kernel.block.BlkMqRules;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.Kblockd;
import blksim.kernel.block.RequestQueueParams.Scheduler;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.topology.Cpu;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** nvme-pci's queues over the shared media model: queue map, tags, scheduler, completion CPU. */
class NvmeDriverTest {
  static NvmeParams params(int ioQueues, Scheduler sched) {
    return new NvmeParams("nvme0n1", 1L << 30, 512, ioQueues, 1024, sched, 0, 512 * 1024, 128,
        BlkMqRules.V6, 900, 1000, NvmeParams.DEFAULT_DRIVE.withCapacity(1L << 30));
  }

  /** {@code n} CPUs: 2 threads per core, {@code n / 2} cores on one node. */
  static List<Cpu> cpus(int n) {
    List<Cpu> l = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      l.add(new Cpu(i, 0, 0, 0, i % (n / 2)));
    }
    return l;
  }

  @Test
  void queues_onePerCpuUpToTheControllers_tagsOneBelowIoQueueDepth() {
    NvmeDriver d = new NvmeDriver(params(128, null), cpus(8), Kblockd.INLINE);
    assertEquals(8, d.hctxs().size(), "min(8 CPUs, 128 queues)");
    for (int c = 0; c < 8; c++) {
      assertArrayEquals(new int[] {c}, d.hctx(c).cpus(), "CPU " + c + " has its own queue");
      assertTrue(d.hctx(c).cpuLocal());
    }
    assertEquals(1023, d.hctx(0).queue().params().queueDepth(), "io_queue_depth - 1");
    assertEquals(Scheduler.NONE, d.hctx(0).queue().params().scheduler(),
        "elevator_get_default(): none with several hardware queues");

    NvmeDriver four = new NvmeDriver(params(4, null), cpus(8), Kblockd.INLINE);
    assertEquals(4, four.hctxs().size(), "capped at the controller's 4 queues");
    // blk_mq_map_queues()-like groups: the two threads of a core share a queue.
    for (int c = 0; c < 8; c++) {
      assertSame(four.hctx(c), four.hctx(c + 4 < 8 ? c + 4 : c - 4),
          "CPU " + c + " and its SMT sibling share a queue");
      assertEquals(2, four.hctx(c).cpus().length);
    }
    assertNotSame(four.hctx(0), four.hctx(1));

    NvmeDriver one = new NvmeDriver(params(1, null), cpus(8), Kblockd.INLINE);
    assertEquals(Scheduler.MQ_DEADLINE, one.hctx(0).queue().params().scheduler(),
        "one hardware queue: mq-deadline");
    assertEquals(Scheduler.MQ_DEADLINE, new NvmeDriver(params(128, Scheduler.MQ_DEADLINE),
        cpus(8), Kblockd.INLINE).hctx(3).queue().params().scheduler(), "scheduler key");
  }

  @Test
  void badParams_areRefused() {
    assertThrows(IllegalArgumentException.class, () -> new NvmeParams("n", 1L << 30, 512, 0,
        1024, null, 0, 512 * 1024, 128, BlkMqRules.V6, 0, 0,
        NvmeParams.DEFAULT_DRIVE.withCapacity(1L << 30)));
    assertThrows(IllegalArgumentException.class, () -> new NvmeParams("n", 1L << 30, 512, 4,
        1, null, 0, 512 * 1024, 128, BlkMqRules.V6, 0, 0,
        NvmeParams.DEFAULT_DRIVE.withCapacity(1L << 30)));
  }

  /**
   * A task on CPU 1 reads 4 KiB three times; the completions are interrupts on CPU 1 (its own
   * queue's vector), none on CPU 0, and each read takes the media's 75 us plus the link's 4 KiB.
   */
  @Test
  @Timeout(30)
  void completion_interruptsTheSubmittingCpu_afterTheMediaLatency() {
    List<Cpu> topo = List.of(new Cpu(0, 0, 0, 0, 0), new Cpu(1, 0, 0, 0, 1));
    CpuComponent cpu0 = new CpuComponent(topo.get(0), NullBlkDriverTest.SCHED);
    CpuComponent cpu1 = new CpuComponent(topo.get(1), NullBlkDriverTest.SCHED);
    NvmeDriver d = new NvmeDriver(params(128, null), topo, Kblockd.INLINE);
    BlockQueue q0 = d.attach(cpu0);
    BlockQueue q1 = d.attach(cpu1);
    cpu0.attach(q0);
    cpu1.attach(q1);
    NullBlkDriverTest.Submitter s = new NullBlkDriverTest.Submitter(q1, 1);
    cpu1.addTask(s);
    LocalRunner.run(new Model(List.of(cpu0, cpu1), 1_000, Long.MAX_VALUE, 0, 1),
        Partitioning.ONE, 1, ProgressListener.NONE);
    assertEquals(1, s.completions.size());
    long link = Math.round(4096 * 1e9 / 6_500_000_000L);
    // The command reaches the media at the issue (the submit cost is the task's CPU time), then
    // 75 us of flash and the link's 4 KiB, then 1000 ns of completion interrupt.
    assertEquals(75_000 + link + 1000, s.completions.get(0), 50.0);
    assertEquals(1000, cpu1.irqNs(), "the completion interrupt ran on the submitting CPU");
    assertEquals(0, cpu0.irqNs(), "and not on another CPU's queue");
  }
}
