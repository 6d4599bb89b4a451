package blksim.workload.scenario;

import static blksim.workload.scenario.Param.Type.BOOLEAN;
import static blksim.workload.scenario.Param.Type.DURATION;
import static blksim.workload.scenario.Param.Type.INT;
import static blksim.workload.scenario.Param.Type.LONG;
import static blksim.workload.scenario.Param.Type.SIZE;
import static blksim.workload.scenario.Param.Type.STRING;
import static blksim.workload.scenario.Param.Type.STRING_LIST;

import blksim.kernel.block.BlockLayerParams;
import blksim.kernel.device.BrdParams;
import blksim.kernel.dm.DmCostParams;
import blksim.kernel.device.NullBlkParams;
import blksim.kernel.device.NvmeParams;
import blksim.kernel.device.ZonedLayout;
import blksim.kernel.device.ZramParams;
import blksim.kernel.fs.FilesystemParams;
import blksim.kernel.fs.XfsGeometry;
import blksim.kernel.fs.XfsParams;
import blksim.kernel.fs.btrfs.BtrfsParams;
import blksim.kernel.sched.SchedParams;
import blksim.kernel.workqueue.WorkqueueParams;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every key a scenario may set under {@code blksim}, with its default. Keys of a device (an
 * element of {@code blksim.devices}) are listed separately per device type.
 *
 * <p>This is the only place defaults live: the loader, {@code blksim describe} and the README's
 * tour all derive from it.
 */
public final class ScenarioSchema {
  /**
   * Default of {@code costs.timer.hrtimer-expiry}: rtla timerlat's IRQ latency (hrtimer expiry
   * to the timer IRQ handler) summed over the five CPUs of the example in
   * Documentation/tools/rtla/rtla-timerlat-hist.rst (10 minutes, 1 ms period), 1 us bins.
   */
  static final String HRTIMER_EXPIRY =
      "histogram(0us..1us:1635244, 1us..2us:1272115, 2us..3us:63411, 3us..4us:15791, "
      + "4us..5us:5596, 5us..6us:3224, 6us..7us:1719, 7us..8us:999, 8us..9us:658, "
      + "9us..10us:439, 10us..11us:276, 11us..12us:173, 12us..13us:123, 13us..14us:104, "
      + "14us..15us:59, 15us..16us:36, 16us..17us:17, 17us..18us:12, 18us..19us:8, "
      + "20us..21us:2, 21us..22us:2, 22us..23us:1, 24us..25us:1)";

  private ScenarioSchema() {}

  /** Allowed kernel modes (kernel-model.md §0). */
  public static final List<String> KERNEL_MODES =
      List.of("V4_3_RC1", "PRE_6_5", "V6_5_TO_6_8", "V6_9_RC", "V6_9", "V6_13");

  /** Keys under {@code blksim}, in display order. */
  public static final List<Param> KEYS = List.of(
      Param.num("seed", "run", LONG, "", "1", Long.MIN_VALUE, Long.MAX_VALUE,
          "run seed; every random stream derives from it and the component id"),
      Param.of("partitions", "run", STRING, "auto",
          "how components are split into partitions, run in parallel: auto|one|node|llc|cpu|N"
              + " (auto: 2 from 256 CPUs when the scenario may be split and the JVM has 2"
              + " processors, else one; results never depend on it)"),
      Param.of("locality-groups", "run", STRING, "auto",
          "a partition's CPUs in N groups run one after the other per lookahead, as N"
              + " partitions would be, so each group's state stays in the processor caches:"
              + " auto (one group per 64 CPUs from 1,024 CPUs, when the scenario may be split so)"
              + " or N (1: none; results never depend on it)"),
      Param.num("max-time", "run", DURATION, "ns", "0", 0, Long.MAX_VALUE,
          "stop the run at this virtual time even if jobs are still running (0: no limit)"),
      Param.of("profile", "run", STRING, "",
          "machine profile file with the cost values, relative to the scenario file (''"
              + " or absent: the built-in defaults shown here)"),
      Param.of("description", "run", STRING, "", "one line saying what the scenario is for"),
      Param.of("trace.timehist-cpus", "trace", STRING, "",
          "CPUs that record every context switch, as perf sched timehist shows them: a list"
              + " such as 0-3,8 ('': none; run --timehist sets it)"),
      Param.num("trace.timehist-from", "trace", DURATION, "ns", "0", 0, Long.MAX_VALUE,
          "first switch time recorded"),
      Param.num("trace.timehist-to", "trace", DURATION, "ns", "0", 0, Long.MAX_VALUE,
          "switches from this time on are not recorded (0: the end of the run)"),
      Param.num("trace.timehist-max-lines", "trace", INT, "", "10000", 1, 10_000_000,
          "most switches recorded per CPU; the rest are counted as dropped"),
      Param.of("trace.blktrace-dir", "trace", STRING, "",
          "directory that gets every device's blktrace, per-CPU files <dev>.blktrace.<cpu>"
              + " ('': none; run --blktrace DIR sets it and adds blkparse's text)"),
      Param.num("machine.sockets", "machine", INT, "", "1", 1, 64, "physical packages"),
      Param.num("machine.nodes-per-socket", "machine", INT, "", "1", 1, 64,
          "NUMA nodes per package"),
      Param.num("machine.llcs-per-node", "machine", INT, "", "1", 1, 256,
          "last-level caches per NUMA node"),
      Param.num("machine.cores-per-llc", "machine", INT, "", "4", 1, 4096,
          "physical cores per LLC"),
      Param.num("machine.threads-per-core", "machine", INT, "", "2", 1, 8,
          "SMT threads per core"),
      Param.num("machine.memory", "machine", SIZE, "bytes", "16G", 1L << 20, Long.MAX_VALUE,
          "memory size (fio's $mb_memory)"),
      Param.num("machine.reserved-memory", "machine", SIZE, "bytes", "0", 0, Long.MAX_VALUE,
          "memory the page cache cannot use (kernel, anonymous memory); dirtyable memory, from"
              + " which the vm.dirty_*_ratio thresholds are taken, is machine.memory less this"),
      Param.num("vm.dirty_background_ratio", "mm", INT, "%", "10", 0, 100,
          "vm.dirty_background_ratio: background writeback starts above this share of"
              + " dirtyable memory (ignored if vm.dirty_background_bytes is set)"),
      Param.num("vm.dirty_background_bytes", "mm", SIZE, "bytes", "0", 0, Long.MAX_VALUE,
          "vm.dirty_background_bytes: the background threshold in bytes (0: use the ratio)"),
      Param.num("vm.dirty_ratio", "mm", INT, "%", "20", 0, 100,
          "vm.dirty_ratio: writers are throttled toward this share of dirtyable memory"
              + " (ignored if vm.dirty_bytes is set)"),
      Param.num("vm.dirty_bytes", "mm", SIZE, "bytes", "0", 0, Long.MAX_VALUE,
          "vm.dirty_bytes: the throttling limit in bytes (0: use the ratio)"),
      Param.num("vm.dirty_writeback_centisecs", "mm", INT, "cs", "500", 0, 100_000_000,
          "vm.dirty_writeback_centisecs: period of the flusher's kupdate pass (0: off)"),
      Param.num("vm.dirty_expire_centisecs", "mm", INT, "cs", "3000", 0, 100_000_000,
          "vm.dirty_expire_centisecs: kupdate writes inodes dirtied longer ago than this"),
      Param.choice("kernel.writeback-plug", "mm", "auto",
          List.of("auto", "none", "plug", "plug-flush"),
          "the flusher's plug: none (no plug in wb_writeback), plug (4.3-rc1, 505a666ee3fc),"
              + " plug-flush (plus blk_flush_plug() before cond_resched(), 590dca3a7187);"
              + " auto: plug in V4_3_RC1, plug-flush in later kernels"),
      Param.num("kernel.read-ahead-kb", "mm", INT, "KiB", "128", 0, 1 << 20,
          "read_ahead_kb of every device's bdi (/sys/block/DEV/queue/read_ahead_kb): the largest"
              + " readahead window of a buffered file read, /4 pages; 0 reads only the page"
              + " missed [S: VM_READAHEAD_PAGES, 128 KiB, include/linux/mm.h]"),
      Param.num("kernel.vmstat-interval", "mm", DURATION, "ns", "1s", 0, 1_000_000_000_000L,
          "sample /proc/meminfo (Dirty, Writeback) and /proc/vmstat (nr_dirtied, nr_written)"
              + " into the JSON at this virtual interval when the page cache is used (0: off)"),
      Param.num("kernel.hz", "kernel", INT, "Hz", String.valueOf(SchedParams.DEFAULT_HZ), 100,
          1000,
          "CONFIG_HZ: 100, 250, 300 or 1000"),
      Param.num("kernel.timer-slack", "kernel", DURATION, "ns", "50us", 0, 1_000_000_000L,
          "timer_slack_ns of user tasks: a nanosleep() (fio's thinktime) wakes this much after"
              + " its request [S: include/linux/init_task.h, 50 us; prctl(PR_SET_TIMERSLACK)]"),
      Param.choice("kernel.preempt", "kernel",
          SchedParams.DEFAULT_PREEMPT.name().toLowerCase(java.util.Locale.ROOT),
          List.of("none", "voluntary", "full"),
          "preemption model (CONFIG_PREEMPT_*)"),
      Param.choice("kernel.mode", "kernel", "V6_9", KERNEL_MODES,
          "kernel version mode for behaviour that changed between releases"),
      Param.num("kernel.housekeeping-interval", "cpu", DURATION, "ns", "0", 0,
          1_000_000_000_000L, "period of each CPU's background kernel work (vmstat, RCU, ...):"
              + " one nice-0 kworker wakeup per CPU per period (0: none)"),
      Param.num("costs.sched.housekeeping-work", "cpu", DURATION, "ns", "5us", 0,
          1_000_000_000L, "system time of one background kworker wakeup"),
      Param.choice("kernel.scheduler", "cpu", "auto", List.of("auto", "cfs", "eevdf"),
          "the fair scheduler: cfs (Linux up to 6.5) or eevdf (6.6 on); auto picks eevdf for"
              + " kernel.mode V6_9_RC, V6_9 and V6_13, cfs for the others (V6_5_TO_6_8 spans both: set"
              + " eevdf for 6.6 to 6.8)"),
      Param.num("kernel.sched-latency", "cpu", DURATION, "ns", "auto", 1, 1_000_000_000L,
          "CFS sched_latency_ns (debugfs sched/latency_ns): the period in which each runnable"
              + " task runs once; auto: 6 ms x (1 + log2(min(CPUs, 8))), 24 ms on 8 or more CPUs"),
      Param.num("kernel.sched-min-granularity", "cpu", DURATION, "ns", "auto", 1,
          1_000_000_000L, "CFS sched_min_granularity_ns, EEVDF's base_slice_ns (debugfs"
              + " sched/min_granularity_ns, base_slice_ns): the shortest slice; auto: 0.75 ms"
              + " x (1 + log2(min(CPUs, 8))), 3 ms on 8 or more CPUs"),
      Param.num("kernel.sched-wakeup-granularity", "cpu", DURATION, "ns", "auto", 0,
          1_000_000_000L, "CFS sched_wakeup_granularity_ns (debugfs"
              + " sched/wakeup_granularity_ns): the vruntime lead a woken task needs to preempt;"
              + " auto: 1 ms x (1 + log2(min(CPUs, 8))), 4 ms on 8 or more CPUs (EEVDF ignores"
              + " it)"),
      Param.choice("kernel.wake-placement", "cpu", "none", List.of("none", "llc", "sis"),
          "where a woken user thread or io-wq worker runs: none keeps every task on the CPU it"
              + " was placed on (as if pinned); llc applies kernel-model.md §1.3 (previous CPU if"
              + " idle, else an idle CPU of its LLC, else the previous CPU); sis applies Linux"
              + " 6.4's select_task_rq_fair() (wake_affine, then select_idle_sibling: target,"
              + " prev, recent_used_cpu, SMT sibling, SIS_UTIL-bounded LLC scan), the waker paying"
              + " costs.sched.cacheline per CPU tested and costs.sched.wake-remote; llc and sis"
              + " need partitions one, node or llc"),
      Param.choice("kernel.load-balance", "cpu", "on", List.of("on", "off"),
          "CFS load balancing (kernel/sched/fair.c): scheduling domains SMT and MC (the LLC) from"
              + " the topology, periodic balancing of busy CPUs at their balance interval, nohz"
              + " idle balancing kicked by an overloaded CPU's tick, new-idle balancing; pulls"
              + " runnable tasks that are not cache hot (kernel.sched-migration-cost) and whose"
              + " affinity allows it, paying costs.sched.cacheline per run queue read and 6 lines"
              + " per migration; acts on tasks that may move (kernel.wake-placement llc or sis),"
              + " within their LLC, and on psync, cpuio and null jobs also across LLCs and nodes"
              + " (DIE and NUMA domains, by messages a lookahead apart); off: tasks move only at"
              + " wakeup"),
      Param.num("kernel.sched-migration-cost", "cpu", DURATION, "ns", "500us", 0,
          1_000_000_000L, "sysctl_sched_migration_cost (debugfs sched/migration_cost_ns): a task"
              + " that ran less than this long ago is cache hot and load balancing leaves it"),
      Param.num("kernel.io-wq-idle-timeout", "io_uring", DURATION, "ns", "5s", 0,
          1_000_000_000_000L, "an idle io-wq worker exits after sleeping this long, unless it"
              + " is the last of its class (WORKER_IDLE_TIMEOUT, 5 s; 0: never)"),
      Param.num("kernel.wq-monitor-interval", "workqueue", DURATION, "ns", "0", 0,
          1_000_000_000_000L, "sample wq_monitor statistics at this virtual interval (0: off;"
              + " run --wq-monitor sets it)"),
      Param.choice("kernel.dm-delay", "dm", "v6.7", List.of("pre-6.7", "v1", "v6.7", "fsleep"),
          "dm-delay version: pre-6.7 timer+workqueue only; v1 kthread for every delay; v6.7"
              + " kthread below 50 ms; fsleep the later revision that sleeps between polls"),
      Param.num("kernel.dm-delay-poll-batch", "dm", DURATION, "ns", "0", 0, 1_000_000_000L,
          "simulation shortcut: the dm-delay kthread's busy poll advances in steps of this"
              + " length (0: every pass; results of QD1 jobs are the same with 100us)"),
      Param.num("costs.sched.ctx-switch", "cpu", DURATION, "ns", "1500ns", 0, 1_000_000_000L,
          "CPU time of a context switch, charged as system time to the task switched in"),
      Param.num("costs.sched.idle-exit", "cpu", DURATION, "ns", "2us", 0, 1_000_000_000L,
          "time for an idle CPU to start handling an interrupt"),
      Param.num("costs.sched.wakeup-latency", "cpu", DURATION, "ns", "4us", 1, 1_000_000_000L,
          "cross-CPU wakeup (IPI) latency; also the run's lookahead"),
      Param.num("costs.sched.smt-slowdown", "cpu", Param.Type.DOUBLE, "x", "1", 1, 4,
          "work a CPU runs while its SMT sibling runs a task takes this much longer, rescaled"
              + " when the sibling starts or stops (1: no SMT effect; 2 / core throughput of two"
              + " threads); other than 1 on an SMT machine needs partitions one, node or llc"),
      Param.num("costs.sched.wakeup-cross-llc", "cpu", DURATION, "ns", "0", 0,
          1_000_000_000L, "added to wakeup-latency for a cross-CPU wakeup into another LLC of"
              + " the waker's NUMA node"),
      Param.num("costs.sched.wakeup-cross-node", "cpu", DURATION, "ns", "0", 0,
          1_000_000_000L, "added to wakeup-latency for a cross-CPU wakeup onto another NUMA"
              + " node"),
      Param.num("costs.sched.cacheline", "cpu", DURATION, "ns", "0", 0, 1_000_000L,
          "pulling one modified cache line from another core of the socket (wakeup placement's"
              + " remote run-queue reads, io_uring requests handed to io-wq workers; 0: free)"),
      Param.num("costs.sched.cacheline-remote", "cpu", DURATION, "ns", "0", 0, 1_000_000L,
          "the same from a core of another socket"),
      Param.num("costs.sched.wake-remote", "cpu", DURATION, "ns", "0", 0, 1_000_000L,
          "waker's CPU time for a wakeup placed on another CPU with kernel.wake-placement = sis"
              + " (ttwu_queue_wakelist IPI or remote rq lock)"),
      Param.num("costs.fio.user-per-io", "fio", DURATION, "ns", "400ns", 0, 1_000_000_000L,
          "fio's own user-space CPU time per I/O"),
      Param.num("costs.fio.syscall", "fio", DURATION, "ns", "500ns", 0, 1_000_000_000L,
          "system time of a read/write system call up to submit_bio()"),
      Param.num("costs.fio.syscall-return", "fio", DURATION, "ns", "300ns", 0, 1_000_000_000L,
          "system time from the completion wakeup to the return to user space"),
      Param.num("costs.fio.cpuio-qsort-round", "fio", DURATION, "ns", "100ms", 0,
          1_000_000_000_000L, "user time of one round of ioengine=cpuio's cpumode=qsort"
              + " (engines/cpu.c do_qsort(): four qsorts of 1 MiB)"),
      Param.num("costs.fio.random-map-per-io", "fio", DURATION, "ns", "0", 0, 1_000_000_000L,
          "the share of user-per-io that is fio's random map (lib/axmap.c lookup and mark):"
              + " saved by jobs without the map (sequential, norandommap, lfsr, zipf, pareto)"),
      Param.num("costs.fio.random-draw-per-io", "fio", DURATION, "ns", "0", 0, 1_000_000_000L,
          "the share of user-per-io that is the uniform random offset's draw (lib/rand.c"
              + " __rand() scaled to the blocks): saved by sequential jobs"),
      Param.num("costs.fio.zipf-draw-per-io", "fio", DURATION, "ns", "0", 0, 1_000_000_000L,
          "user time of one random_distribution=zipf draw (lib/zipf.c zipf_next()), paid"
              + " instead of random-draw-per-io; 0: the uniform draw's"),
      Param.num("costs.fio.pareto-draw-per-io", "fio", DURATION, "ns", "0", 0, 1_000_000_000L,
          "user time of one random_distribution=pareto draw (lib/zipf.c pareto_next()), paid"
              + " instead of random-draw-per-io; 0: the uniform draw's"),
      Param.num("costs.fio.posixaio-enqueue", "fio", DURATION, "ns", "50ns", 0, 1_000_000_000L,
          "ioengine=posixaio: glibc's user time in aio_read()/aio_write() to queue a request"
              + " for a helper thread (__aio_enqueue_request())"),
      Param.num("costs.fio.posixaio-helper", "fio", DURATION, "ns", "100ns", 0, 1_000_000_000L,
          "ioengine=posixaio: a glibc helper thread's user time per request besides its"
              + " pread()/pwrite() (handle_fildes_io())"),
      Param.num("costs.null-blk.submit", "null_blk", DURATION, "ns", "600ns", 0,
          1_000_000_000L, "CPU time from submit_bio() through blk-mq to null_queue_rq()"),
      Param.num("costs.null-blk.complete", "null_blk", DURATION, "ns", "500ns", 0,
          1_000_000_000L, "interrupt-context CPU time to complete one request and wake its"
              + " waiter"),
      cost("costs.chardev.zero-read-per-page", "chardev",
          blksim.kernel.device.MemCharDevice.DEFAULT_ZERO_READ_PER_PAGE_NS,
          "[D] a read of /dev/zero, per 4 KiB page of the buffer: read_iter_zero()'s"
              + " clear_user() (rep stosb) and its per-page checks"),
      cost("costs.null-blk.memory-read-page", "null_blk", BrdParams.DEFAULT_PER_PAGE_READ_NS,
          "memory-backed null_blk: copying one 4 KiB page of a read from the device's pages"
              + " (copy_to_nullb()) [D: the copy brd makes, costs.brd.per-page-read: a page"
              + " lookup in the device's tree and a 4 KiB memcpy either way]"),
      cost("costs.null-blk.memory-write-page", "null_blk", BrdParams.DEFAULT_PER_PAGE_WRITE_NS,
          "memory-backed null_blk: copying one 4 KiB page of a write to the device's pages"
              + " (copy_from_nullb()) [D: as costs.brd.per-page-write]"),
      cost("costs.block.nowait-reject", "block", BlockLayerParams.DEFAULT_NOWAIT_REJECT_NS,
          "submit_bio_noacct() failing a REQ_NOWAIT bio with -EOPNOTSUPP"),
      cost("costs.blk-mq.submit", "blk-mq", 2000,
          "[A] per bio on a disk or ssd: submit_bio() through blk_mq_submit_bio() (merge"
              + " attempts, request allocation, insertion) and a dispatch in the same context"
              + " (SCSI/ATA command set-up)"),
      cost("costs.blk-mq.complete", "blk-mq", 4000,
          "[A] per request on a disk or ssd: the completion interrupt (AHCI, scsi/ata"
              + " completion, blk_mq_end_request(), each bio's end_io and its wakeup)"),
      cost("costs.nvme.submit", "nvme", 900,
          "[A] per bio on an nvme device: submit_bio() through blk_mq_submit_bio() to"
              + " nvme_queue_rq() (null_blk's 600 ns path plus ~300 ns for nvme_setup_cmd(), the"
              + " PRP/DMA mapping and the SQ doorbell write); not measured"),
      cost("costs.nvme.complete", "nvme", 1000,
          "[A] per request on an nvme device: the MSI-X interrupt on the queue's CPU, nvme_irq()"
              + " reaping the CQE, DMA unmap, blk_mq_end_request() and the waiter's wakeup"
              + " (null_blk's 500 ns plus ~500 ns of interrupt entry and CQ handling); not"
              + " measured. A polled request (poll-queues, hipri) pays none of it: nvme_poll()"
              + " reaps it inside the poll pass, costs.io-uring.iopoll"),
      cost("costs.block.kblockd-run", "blk-mq", 2000,
          "[A] one kblockd run of a hardware queue (blk_mq_run_work_fn()), besides the"
              + " dispatches it makes"),
      cost("costs.brd.fixed", "brd", BrdParams.DEFAULT_FIXED_COST_NS,
          "per bio: brd_submit_bio() entry and bio_endio()"),
      cost("costs.brd.per-page-read", "brd", BrdParams.DEFAULT_PER_PAGE_READ_NS,
          "per 4 KiB page read: page lookup and memcpy; may be a distribution, drawn per page"),
      cost("costs.brd.per-page-write", "brd", BrdParams.DEFAULT_PER_PAGE_WRITE_NS,
          "per 4 KiB page written: page lookup and memcpy; may be a distribution"),
      cost("costs.brd.first-write-alloc", "brd", BrdParams.DEFAULT_FIRST_WRITE_ALLOC_NS,
          "allocating a backing page on its first write (prefilled = false)"),
      cost("costs.zram.fixed", "zram", ZramParams.DEFAULT_FIXED_COST_NS,
          "per bio: zram_submit_bio(), accounting, bio_endio()"),
      cost("costs.zram.slot", "zram", ZramParams.DEFAULT_SLOT_NS,
          "per page: slot lock and lookup"),
      cost("costs.zram.decompress", "zram", ZramParams.DEFAULT_DECOMPRESS_NS,
          "per compressed page read: map the object and decompress"),
      cost("costs.zram.compress", "zram", ZramParams.DEFAULT_COMPRESS_NS,
          "per page written: compress with the per-CPU stream, zs_malloc and store"),
      cost("costs.zram.copy", "zram", ZramParams.DEFAULT_COPY_NS,
          "per huge (incompressible) page: copy"),
      cost("costs.page-cache.miss", "page_cache", 1000,
          "a buffered read's page-cache miss: lookup, page allocation, readahead set-up"),
      cost("costs.page-cache.copy", "page_cache", 1000,
          "copying 4 KiB from the page cache to the user buffer"),
      cost("costs.page-cache.write", "page_cache", 1000,
          "a buffered write, per 4 KiB page: write_begin, copy from the user buffer, write_end"
              + " [A: as a copy]"),
      cost("costs.mm.fault", "mm", blksim.kernel.mm.FaultCosts.DEFAULT.faultNs(),
          "one page fault: the #PF exception's entry and exit, handle_mm_fault() and the PTE"
              + " set (ioengine=mmap and page_fault)"),
      cost("costs.mm.fault-around-page", "mm",
          blksim.kernel.mm.FaultCosts.DEFAULT.faultAroundPageNs(),
          "each extra page filemap_map_pages() maps around a read fault of a file mapping"),
      cost("costs.mm.anon-page", "mm", blksim.kernel.mm.FaultCosts.DEFAULT.anonPageNs(),
          "a new anonymous page on a write fault: allocation and clear_page() of 4 KiB"),
      cost("costs.mm.page-mkwrite", "mm", blksim.kernel.mm.FaultCosts.DEFAULT.pageMkwriteNs(),
          "->page_mkwrite() of a write fault on a shared file mapping (iomap_page_mkwrite():"
              + " file_update_time, block mapped or reserved, folio_mark_dirty)"),
      cost("costs.mm.mmap", "mm", blksim.kernel.mm.FaultCosts.DEFAULT.mmapNs(),
          "an mmap(), madvise() or munmap() system call besides its entry"),
      cost("costs.mm.unmap-per-page", "mm", blksim.kernel.mm.FaultCosts.DEFAULT.unmapPerPageNs(),
          "munmap() per mapped page: zap_pte_range(), rmap and reference drop, TLB flush share"),
      Param.num("costs.timer.hrtimer-expiry", "timer", DURATION, "ns", HRTIMER_EXPIRY, 0,
          1_000_000_000L, "from an hrtimer's expiry to its handler: the local APIC timer"
              + " interrupt and hrtimer_interrupt() (null_blk irqmode=timer completions, fio's"
              + " thinktime/rate/replay sleeps); drawn per timer [S: the IRQ latency histogram of 5 CPUs x 600,002 timers in"
              + " Documentation/tools/rtla/rtla-timerlat-hist.rst, mean 1.0 us; 0: off, the"
              + " exact expiry]"),
      Param.num("costs.irq.delivery", "irq", DURATION, "ns", "0", 0, 1_000_000_000L,
          "from a disk's or ssd's completion (MSI) to its interrupt handler starting on the"
              + " target CPU; drawn per completion; 0 (default): at once, as the validated"
              + " experiments were fitted; costs.timer.hrtimer-expiry's histogram is the local"
              + " APIC part"),
      cost("costs.mm.dio-pin-page", "mm",
          blksim.kernel.syscall.SyscallParams.DEFAULT_DIO_PIN_PAGE_NS,
          "O_DIRECT submission per user page after the first: pin_user_pages_fast() (gup_fast)"
              + " and bio_add_page()"),
      cost("costs.mm.dio-unpin-page", "mm",
          blksim.kernel.syscall.SyscallParams.DEFAULT_DIO_UNPIN_PAGE_NS,
          "O_DIRECT completion per user page after the first: bio_release_pages() ->"
              + " unpin_user_pages()"),
      cost("costs.writeback.per-page", "writeback", 300,
          "the flusher, per page: clear_page_dirty_for_io, set_page_writeback, add to a bio [A]"),
      cost("costs.writeback.per-inode", "writeback", 2000,
          "the flusher, per inode written: __writeback_single_inode() around its pages [A]"),
      cost("costs.writeback.inode-done", "writeback", 1000,
          "the flusher, per inode after its pages: requeue_inode(), wbc_detach_inode(),"
              + " inode_sync_complete(), between scheduling points (a) and (b) [A]"),
      cost("costs.dm.core", "dm", DmCostParams.DEFAULT_CORE_NS,
          "DM core per bio: dm_submit_bio(), clone allocation, __map_bio(), clone end_io"),
      cost("costs.dm.linear-map", "dm", DmCostParams.DEFAULT_LINEAR_MAP_NS,
          "linear_map(): remap the sector"),
      cost("costs.dm.zero-map", "dm", DmCostParams.DEFAULT_ZERO_MAP_NS, "zero_map()"),
      cost("costs.dm.zero-fill-per-page", "dm", DmCostParams.DEFAULT_ZERO_FILL_PER_PAGE_NS,
          "zero-filling one 4 KiB page of a dm-zero read"),
      cost("costs.dm.delay-map", "dm", DmCostParams.DEFAULT_DELAY_MAP_NS,
          "delay_map()/delay_bio(): stamp expires and queue the bio"),
      cost("costs.dm.delay-poll", "dm", DmCostParams.DEFAULT_DELAY_POLL_NS,
          "one pass of the dm-delay kthread's poll loop"),
      cost("costs.dm.delay-scan-per-bio", "dm", DmCostParams.DEFAULT_DELAY_SCAN_PER_BIO_NS,
          "flush_delayed_bios(): per bio on the list"),
      cost("costs.dm.delay-timer", "dm", DmCostParams.DEFAULT_DELAY_TIMER_NS,
          "handle_delayed_timer(): queue the kdelayd work"),
      cost("costs.dm.delay-work", "dm", DmCostParams.DEFAULT_DELAY_WORK_NS,
          "flush_expired_bios() work item in a kworker, besides its scan"),
      cost("costs.io-uring.enter", "io_uring", 300,
          "one io_uring_enter() (or io_submit()/io_getevents()) system call: entry and exit"),
      cost("costs.io-uring.sqe-issue", "io_uring", 1300,
          "per SQE: io_submit_sqe() through io_read() to submit_bio(); also io-wq's re-issue"),
      cost("costs.aio.iocb-submit", "io_uring", 1300,
          "per libaio iocb: io_submit_one() through aio_read()/aio_write() to submit_bio()"
              + " (1300 ns, io_uring's sqe-issue it shared until it had a key: [A], no"
              + " published figure isolates io_submit_one())"),
      cost("costs.io-uring.cqe-post", "io_uring", 200,
          "posting one completion to the CQ (or aio) ring"),
      cost("costs.io-uring.iopoll", "io_uring",
          blksim.kernel.iouring.IoUringParams.DEFAULT_IOPOLL_NS,
          "one pass of an IOPOLL ring's poll loop (fio hipri): io_do_iopoll() -> bio_poll() ->"
              + " blk_mq_poll() -> the driver's ->poll, CQEs not counted ([A] 100 ns: no"
              + " published figure isolates a pass; the spin between passes is charged as"
              + " system time whatever this is)"),
      cost("costs.io-uring.punt", "io_uring", 1000,
          "punting a refused request: io_queue_iowq() and io_wq_enqueue()"),
      cost("costs.io-uring.worker-create", "io_uring", 50_000,
          "creating an io-wq worker thread (create_io_worker)"),
      cost("costs.io-uring.worker-loop", "io_uring", 500,
          "per work item in an io-wq worker: dequeue and bookkeeping"),
      cost("costs.xfs.writeback-per-inode", "xfs", XfsParams.DEFAULT_WRITEBACK_PER_INODE_NS,
          "flusher CPU per inode written back, mapping and allocation transaction included"
              + " (kernel-model.md §15.4.4 c_wb)"),
      cost("costs.xfs.create", "xfs", XfsParams.DEFAULT_CREATE_NS,
          "one create or mkdir: xfs_create(), inode allocation and directory insert"),
      cost("costs.xfs.unlink", "xfs", XfsParams.DEFAULT_UNLINK_NS,
          "one unlink or rmdir: xfs_remove(), directory remove, inode and extents freed"),
      cost("costs.xfs.fallocate", "xfs", XfsParams.DEFAULT_FALLOCATE_NS,
          "one fallocate: xfs_alloc_file_space(), one allocation transaction [A]"),
      Param.of("devices", "run", Param.Type.STRING, "[]",
          "list of devices, each an object with a type and that type's keys (see the device"
              + " components)"),
      Param.of("filesystems", "run", Param.Type.STRING, "[]",
          "list of filesystems, each an object with a type, a device, a mount point and that"
              + " type's keys (see the filesystem components)"),
      Param.of("fio.job-files", "fio", STRING_LIST, "[]",
          "fio job files, relative to the scenario file; run as fio would run them together"),
      Param.of("fio.jobs", "fio", STRING_LIST, "[]",
          "inline fio job files, as text (the loader also stores job-files here)"),
      Param.of("fio.command-line", "fio", STRING_LIST, "[]",
          "fio's job options from the command line, as typed (\"--runtime=5s\"; run JOBFILE"
              + " --opt=value adds them): as fio takes them with its first job file, options"
              + " before the first --name are that file's defaults (its own [global] and jobs"
              + " override them), each --name=JOB a job run before the file's"),
      Param.of("fio.map", "fio", STRING_LIST, "[]",
          "paths of the job files mapped to the scenario's, as \"PATH=TARGET\": a device name"
              + " (\"/dev/sdb=nullb0\") or a path (\"/mnt/test=/data\", and what lies under"
              + " it); rewrites filename=, directory= and replay_redirect= (run --map adds"
              + " entries)"),
      Param.of("fio.sections", "fio", STRING_LIST, "[]",
          "run only these [sections] of the fio job files, as fio's --section; [global]"
              + " sections always apply; empty for all"),
      Param.of("replay.trace", "replay", STRING, "",
          "a trace to replay (any format read_iolog reads), relative to the scenario file; the"
              + " replay section becomes fio replay jobs run with the job files ('': none)"),
      Param.of("replay.format", "replay", STRING, "auto",
          "the trace's format (read_iolog_format's keys), or auto to detect it from the content"),
      Param.of("replay.redirect", "replay", STRING, "",
          "send every record, whatever its trace device, to this simulated device (a device"
              + " name: nullb0); else replay.devices maps each trace device"),
      Param.of("replay.devices", "replay", STRING_LIST, "[]",
          "trace device to simulated device, as \"TRACE=DEV\" (\"8,16=nullb0\" for blkparse's"
              + " major,minor; the replay summary lists a trace's device names); one replay job"
              + " per entry; a record of an unmapped device stops the run"),
      Param.choice("replay.timing", "replay", "recorded",
          List.of("recorded", "scaled", "afap", "closed-loop"),
          "recorded: open loop at the trace's times (up to replay.queue-depth in flight);"
              + " scaled: the same with the gaps times 100/replay.time-scale; afap: as fast as"
              + " possible keeping order, one I/O at a time; closed-loop: as fast as possible"
              + " with replay.queue-depth in flight (btreplay's way)"),
      Param.num("replay.time-scale", "replay", INT, "%", "100", 1, 1_000_000,
          "timing = scaled: replay at this percentage of the recorded speed (200: twice as fast;"
              + " fio's replay_time_scale)"),
      Param.num("replay.queue-depth", "replay", INT, "", "32", 1, 65_536,
          "I/Os in flight at most per replayed device (the io_uring ring's depth)"),
      Param.num("replay.start", "replay", DURATION, "ns", "0", 0, Long.MAX_VALUE,
          "replay from this trace time on (from the trace's first record)"),
      Param.num("replay.end", "replay", DURATION, "ns", "0", 0, Long.MAX_VALUE,
          "stop at this trace time (0: the trace's end)"),
      Param.of("replay.skip-malformed", "replay", BOOLEAN, "false",
          "skip a malformed record of a line format (MSR, SPC, Alibaba, Tencent, SYSTOR,"
              + " DiskSim, fio iolog) and count it, instead of stopping with exit 2; the first"
              + " three and the count are noted on stderr and in the JSON (fio job option"
              + " replay_skip_malformed=1)"),
      Param.of("fs_mark.command-lines", "fs_mark", STRING_LIST, "[]",
          "fs_mark 3.3 command lines, one per fs_mark instance run at the start"
              + " (\"-d /mnt/test -t 8 -n 10000 -s 4096 -S 0\"); every -d in a filesystem of"
              + " blksim.filesystems"),
      cost("costs.fs-mark.user-per-file", "fs_mark", 30_000,
          "fs_mark's own user time per file: name, gettimeofday, loop bookkeeping [A]"),
      cost("costs.fs-mark.fork", "fs_mark", 50_000,
          "fork() of an fs_mark child, before it can run [A]"),
      Param.of("commands", "shell", STRING_LIST, "[]",
          "shell commands run one after another once every fio job and fs_mark instance has"
              + " exited: sync, sync -f PATH (syncfs), umount PATH, sleep N; 'time CMD' prints"
              + " bash's real/user/sys for it (\"time umount /mnt/test\")"),
      cost("costs.shell.exec", "shell", 500_000,
          "fork() and exec() of one command's tool by the shell [A: lmbench lat_proc exec is"
              + " a few hundred us on x86 servers]"),
      Param.of("fio.job-names", "fio", STRING_LIST, "[]",
          "display names of the inline job files, for error messages"),
      Param.of("dirty-files.directory", "umount", Param.Type.STRING, "",
          "leave a volume of files dirty in the page cache at the start, in this directory of a"
              + " filesystem of blksim.filesystems (\"\": none), for a 'time umount' in"
              + " blksim.commands to write back; the dirty pages are held as extents, so hundreds"
              + " of GB cost memory per extent, not per page"),
      Param.num("dirty-files.files", "umount", INT, "", "1", 1, 100_000_000,
          "how many files"),
      Param.num("dirty-files.file-size", "umount", SIZE, "bytes", "1G", 4096, 8L << 40,
          "each file's size, a multiple of 4 KiB"),
      Param.num("dirty-files.directories", "umount", INT, "", "1", 1, 1_000_000,
          "subdirectories d0..d(N-1) the files are spread over, round robin; XFS places each new"
              + " directory in the next allocation group, so N spreads the data over the disk"),
      Param.num("dirty-files.dirty-extent", "umount", SIZE, "bytes", "0", 0, 8L << 40,
          "the dirty piece at the start of every dirty-stride of a file (0: the whole file is"
              + " dirty), a multiple of 4 KiB"),
      Param.num("dirty-files.dirty-stride", "umount", SIZE, "bytes", "0", 0, 8L << 40,
          "the distance between dirty pieces, at least dirty-extent (0 with dirty-extent 0)"),
      Param.num("dirty-files.overwrite", "umount", Param.Type.DOUBLE, "", "0", 0, 1,
          "the share of the files an earlier run left on the disk, spread evenly over the others:"
              + " their blocks are allocated and, on dm-zoned, their chunks mapped (bitmaps set,"
              + " sequential zones written to the data's end and closed) at t = 0 without I/O,"
              + " so their writeback overwrites them in place (0: every file is new)"),
      Param.num("dirty-files.overwrite-random", "umount", Param.Type.DOUBLE, "", "0", 0, 1,
          "the share of the chunks of those files dm-zoned maps to random (conventional) zones,"
              + " the rest to sequential zones (0: all sequential, where idle reclaim leaves"
              + " older data)"),
      Param.num("trace.sample-interval", "trace", DURATION, "ns", "0", 0, Long.MAX_VALUE,
          "every CPU records its busy time and device completions per interval of this length"
              + " for the report's plots (0: off; run --report sets 1/200 of the run)"),
      cost("costs.btrfs.submit", "btrfs", BtrfsParams.DEFAULT_SUBMIT_NS,
          "submitter CPU per direct write, c_s: reservation, extent allocation, ordered extent"
              + " (kernel-model.md §15.3.4) [A]"),
      cost("costs.btrfs.submit-tree-hold", "btrfs", BtrfsParams.DEFAULT_SUBMIT_TREE_HOLD_NS,
          "the part of c_s holding the hot b-tree nodes' lock shared, h_r (§15.3.4) [A]"),
      cost("costs.btrfs.csum-per-kib", "btrfs", BtrfsParams.DEFAULT_CSUM_NS_PER_KIB,
          "crc32c of the data in the submitter, per KiB (crc32c-intel, about 10 GB/s) [A]"),
      cost("costs.btrfs.finish", "btrfs", BtrfsParams.DEFAULT_FINISH_NS,
          "finish_ordered_fn CPU before the tree lock, c_f (§15.3.4) [A]"),
      cost("costs.btrfs.finish-tree-hold", "btrfs", BtrfsParams.DEFAULT_FINISH_TREE_HOLD_NS,
          "finish_ordered_fn holding the hot b-tree nodes' lock exclusive, h_w (§15.3.4) [A]"),
      cost("costs.btrfs.finish-tail", "btrfs", BtrfsParams.DEFAULT_FINISH_TAIL_NS,
          "finish_ordered_fn CPU after the tree lock, c_f2 (§15.3.4) [A]"),
      cost("costs.btrfs.fsync-log", "btrfs", BtrfsParams.DEFAULT_FSYNC_LOG_NS,
          "fsync's tree-log sync after the ordered extents finished, CPU only [A]"),
      cost("costs.btrfs.tree-transfer", "btrfs", 0,
          "added to a tree-lock hold whose previous holder ran on another core of the LLC: the"
              + " hot b-tree nodes' cache lines move (0: off) [A]"),
      cost("costs.btrfs.tree-transfer-remote", "btrfs", 0,
          "the same when the previous holder ran in another LLC [A]"),
      cost("costs.btrfs.finish-leaf-hold", "btrfs", 0,
          "lock coupling (0: off): finish_ordered_fn takes its file's leaf lock while holding the"
              + " tree lock and holds the leaf this long after releasing it [A]"),
      cost("costs.btrfs.submit-leaf-hold", "btrfs", 0,
          "with coupling, the submitter's shared hold of its file's leaf (btrfs_get_extent),"
              + " taken under the tree lock [A]"),
      Param.choice("kernel.btrfs-dio-plug", "btrfs", "off", List.of("off", "on"),
          "on: a btrfs direct write submits its bios under __iomap_dio_rw()'s plug, as the"
              + " kernel does (XFS direct I/O always does): one write's contiguous bios merge"
              + " there and the submitter runs the queue at blk_finish_plug() instead of"
              + " kblockd; off (the default) issues them unplugged, as thread 2's costs were"
              + " calibrated (on moves numa-off-baseline's write MiB/s from 1168 to 1382, out"
              + " of tolerance)"),
      Param.of("kernel.wq-node-bound-pools", "workqueue", BOOLEAN, "true",
          "whether an unbound pool whose pod lies inside one NUMA node is tied to that node, as"
              + " the kernel does; false makes every unbound pool node-less (NUMA_NO_NODE), so in"
              + " V6_9_RC its works count against the default wq_node_nr_active, whose cap was"
              + " min_active = 8 until d40f92020c7a: thread 1's 6.9-rc2 machine, whose pools were"
              + " not node-bound for a reason not published (kernel-model.md §12.1)"),
      Param.of("kernel.wq-max-active", "workqueue", STRING_LIST, "[]",
          "models a changed alloc_workqueue() call: the max_active passed for the workqueues"
              + " named, as \"NAME=N\" (\"btrfs-endio-write=16\"; NAME may end in * as a"
              + " prefix glob: \"dmz_cwq_*=512\"; the first matching entry wins). Applied when"
              + " the workqueue is allocated, then clamped as the kernel's wq_clamp_max_active()"
              + " clamps it (also for workqueue_set_max_active() and btrfs's thread_pool=): to"
              + " [1, WQ_MAX_ACTIVE = 512] (2048 in V6_13), for an unbound wq in PRE_6_5 and"
              + " V4_3_RC1 to [1, WQ_UNBOUND_MAX_ACTIVE = max(512, 4 x CPUs)]; N above that"
              + " limit is refused (the kernel would run it at the limit); ordered workqueues"
              + " keep 1; a name that matches no workqueue is warned about on stderr"),
      cost("costs.wq.create-worker", "workqueue", WorkqueueParams.DEFAULT_KTHREAD_CREATE_NS,
          "create_worker(): time from a pool's manager starting a kworker to the kworker"
              + " joining the pool (kthread_create_on_node() through kthreadd, attach, first"
              + " wakeup); creation is serial per pool, so N new workers take N times this [A:"
              + " kernel-model.md §2, tens to hundreds of us]"),
      cost("costs.wq.create-worker-cpu", "workqueue", 0,
          "CPU time of one unbound kworker's creation (copy_process() in kthreadd, kthread()'s"
              + " start), charged as system time on the new worker's CPU after"
              + " costs.wq.create-worker's wait, before the worker joins its pool [A: 0 charges nothing; kernel-model.md §15.5 assumes"
              + " 50 us per kworker creation for thread 2]"),
      Param.choice("kernel.spinlock-contention", "locking", "off", List.of("off", "on"),
          "on: contended spinlocks on shared request queues cost queueing time (qspinlock FIFO,"
              + " a cache-line hand-off per waiter, blksim.kernel.locking.SpinLock): mq-deadline's"
              + " dd->lock per request inserted (dd_insert_requests(), after the request took its"
              + " scheduler tag) on a request queue shared by several CPUs; off (the"
              + " default) keeps every lock uncontended-equivalent, as calibrated"),
      cost("costs.spinlock.dd-lock-hold", "locking", 200,
          "time a submission holds mq-deadline's dd->lock (dd_bio_merge() plus"
              + " dd_insert_requests(): an rb-tree lookup and insert, the FIFO list; charged as one"
              + " hold at the insert) [A: a few"
              + " hundred ns of the submission path's cost]"),
      cost("costs.spinlock.handoff-smt", "locking", 15,
          "contended spinlock hand-off between SMT siblings: one cache-line transfer in the"
              + " shared L1/L2 [A: David, Guerraoui, Trigonakis, SOSP 2013, order of magnitude]"),
      cost("costs.spinlock.handoff-llc", "locking", 50,
          "contended spinlock hand-off between cores of one LLC [A: same source]"),
      cost("costs.spinlock.handoff-node", "locking", 100,
          "contended spinlock hand-off between LLCs of one node [A: same source; the sleeping"
              + " locks' spin notice is 100 ns too]"),
      cost("costs.spinlock.handoff-remote-node", "locking", 150,
          "contended spinlock hand-off between nodes of one socket [A: same source]"),
      cost("costs.spinlock.handoff-socket", "locking", 250,
          "contended spinlock hand-off between sockets [A: same source, 150-300 ns]"),
      Param.choice("kernel.rwsem-wait-lock", "locking", "off", List.of("off", "on"),
          "on: every sleeping lock (rw_semaphore, mutex) serialises its slow path on its"
              + " sem->wait_lock, a contended qspinlock (costs.spinlock.handoff-*): queueing,"
              + " each woken writer's retry and each release with sleepers (rwsem_wake() ->"
              + " rwsem_mark_wake(), which walks the whole wait list when a reader is first),"
              + " and the wakeups are issued one after another after it is dropped"
              + " (wake_up_q()); off (the default) keeps those sections free, as calibrated"),
      cost("costs.rwsem.wait-lock-hold", "locking", 200,
          "hold of one sem->wait_lock section without the list walk: list insert or delete,"
              + " the count's atomic, the waiter's fields, a few cache lines"
              + " [A: 2 cache-line transfers of costs.spinlock.handoff-node]"),
      cost("costs.rwsem.wait-list-entry", "locking", 100,
          "rwsem_mark_wake()'s walk, per wait-list entry visited under sem->wait_lock: one"
              + " cache-line miss (each struct rwsem_waiter is on its task's stack)"
              + " [A: one transfer, costs.spinlock.handoff-node]"),
      Param.choice("kernel.cpuidle", "cpu", "off", List.of("off", "skx"),
          "idle states deeper than C1: skx is intel_idle's skx_cstates (Skylake-SP / Cascade"
              + " Lake, drivers/idle/intel_idle.c: C1E exit 10 us after 20 us idle, C6 exit 133 us"
              + " after 600 us idle): an idle CPU woken (a task or an interrupt) after an idle"
              + " period of at least a state's target residency pays that state's exit latency"
              + " on top of C1's (costs.sched.idle-exit), the governor taken as an oracle; off"
              + " (the default): every idle CPU is in C1"),
      Param.choice("kernel.cache-cold", "cache", "off", List.of("off", "on"),
          "on: cache-cold first touches (issue 10 item 9) on brd, zram and memory-backed"
              + " null_blk, and in the copies of a buffered synchronous fio job's buffers: each"
              + " CPU keeps the device and buffer pages it touched last (costs.cache.size, LRU);"
              + " a page read or written that is not among them costs costs.cache.cold-page"
              + " more, and the first bio a CPU submits to a device costs costs.cache.cold-path"
              + " more; off (the default)"
              + " keeps every brd and zram page cost as calibrated (the calibrated per-page"
              + " costs came from random I/O over devices much larger than a cache, i.e. cold)"),
      Param.num("costs.cache.cold-page", "cache", DURATION, "ns", "500ns", 0, 1_000_000_000L,
          "extra CPU time of copying a 4 KiB page that is not in the CPU's cache, drawn per"
              + " cold page (a distribution may be given) [D: 64 lines from DRAM at ~90 ns each"
              + " (Drepper, What Every Programmer Should Know About Memory, 2007, sec. 3.3), at"
              + " most ~10 in flight per core (the L1 fill buffers, Intel 64 and IA-32"
              + " Optimization Reference Manual): ~580 ns, against ~60 ns from L2]"),
      Param.num("costs.cache.cold-path", "cache", DURATION, "ns", "5us", 0, 1_000_000_000L,
          "extra CPU time of the first bio a CPU submits to a device: the driver's code and the"
              + " device's structures are not yet in that CPU's caches [A: a few hundred"
              + " instruction and data lines at ~100 ns each, partly overlapped]"),
      Param.num("costs.cache.size", "cache", SIZE, "bytes", "2M", 4096, 1L << 36,
          "bytes of device and buffer pages one CPU's caches hold for kernel.cache-cold [A: a"
              + " core's L2,"
              + " 1-2 MiB on current x86 server cores; what falls out of it is taken as cold]"));

  private static Param cost(String path, String component, long defaultNs, String description) {
    return Param.num(path, component, DURATION, "ns", defaultNs + "ns", 0, 1_000_000_000L,
        description);
  }

  /** Keys of a device, by device type. */
  public static final Map<String, List<Param>> DEVICE_KEYS = devices();

  private static Map<String, List<Param>> devices() {
    Map<String, List<Param>> m = new LinkedHashMap<>();
    m.put("null_blk", List.of(
        Param.of("type", "null_blk", STRING, null, "device type: null_blk"),
        Param.of("name", "null_blk", STRING, null,
            "disk name, as fio's filename names it (nullb0 or /dev/nullb0)"),
        Param.num("size", "null_blk", SIZE, "bytes", "250G", 4096, Long.MAX_VALUE,
            "capacity (null_blk's gb parameter)"),
        Param.num("bs", "null_blk", INT, "bytes", "512", 512, 4096,
            "logical block size, 512 or 4096"),
        Param.num("hw-queue-depth", "null_blk", INT, "",
            String.valueOf(NullBlkParams.DEFAULT_HW_QUEUE_DEPTH), 1, 65536,
            "driver tags per hardware queue (hw_queue_depth)"),
        Param.choice("irqmode", "null_blk", "softirq", List.of("none", "softirq", "timer"),
            "completion mode: inline, softirq on the submitting CPU, or hrtimer"),
        Param.num("completion-nsec", "null_blk", DURATION, "ns",
            NullBlkParams.DEFAULT_COMPLETION_NS + "ns", 0,
            1_000_000_000_000L, "completion time in timer mode (completion_nsec); a duration or a"
                + " distribution such as \"lognormal(mean=10us, sd=2us)\" (README, Costs as"
                + " distributions)"),
        Param.of("queue-mode", "null_blk", STRING, "2",
            "queue_mode: 2 (or mq), blk-mq, the only one modelled (0, bio-based, is not; 1 was"
                + " removed from the kernel)"),
        Param.of("submit-queues", "null_blk", STRING, "per-cpu",
            "hardware queues (submit_queues): per-cpu (blksim's default: one per CPU, any"
                + " partitioning) or N (the module's default is 1; more than the CPUs is"
                + " clamped to them; CPUs sharing a queue must share a partition)"),
        Param.choice("scheduler", "null_blk", "auto", List.of("auto", "none", "mq-deadline"),
            "I/O scheduler (auto: the kernel's choice, mq-deadline with one hardware queue,"
                + " none with several)"),
        Param.of("nr-requests", "null_blk", STRING, "auto",
            "scheduler tags per hardware queue, nr_requests (auto: 2 x min(hw-queue-depth,"
                + " 128) with a scheduler, hw-queue-depth without)"),
        Param.num("max-sectors", "null_blk", SIZE, "bytes",
            String.valueOf(NullBlkParams.DEFAULT_MAX_BYTES), 512, 1L << 30,
            "largest request, in bytes: bios are split and merges stop at it (max_sectors;"
                + " 255 sectors, the kernel's default limit)"),
        Param.of("shared-tags", "null_blk", BOOLEAN, "false",
            "shared_tags: one tag set for every null_blk device with it on, hardware queue i of"
                + " each drawing from the set's tags[i]; two or more such devices share fairly,"
                + " max(ceil(depth / active queues), 4) tags each (hctx_may_queue()); they"
                + " must agree on hw-queue-depth, submit-queues and shared-tag-bitmap"),
        Param.num("poll-queues", "null_blk", INT, "", "0", 0, 65536,
            "poll_queues: 0 (blksim's default; the module's is 1) for none, REQ_POLLED bios then"
                + " complete by interrupt; more: io_uring hipri (IORING_SETUP_IOPOLL) requests"
                + " wait on a poll list whatever irqmode says and complete when the submitter"
                + " polls, in its context, with no interrupt (null_poll())"),
        Param.of("memory-backed", "null_blk", BOOLEAN, "false",
            "memory_backed: reads and writes copy each 4 KiB page to or from the device's own"
                + " pages (costs.null-blk.memory-read-page, memory-write-page; with"
                + " kernel.cache-cold on, a page cold on the CPU costs costs.cache.cold-page"
                + " more, as brd's)"),
        Param.of("shared-tag-bitmap", "null_blk", BOOLEAN, "false",
            "shared_tag_bitmap (BLK_MQ_F_TAG_HCTX_SHARED, SCSI's host_tagset): all hardware"
                + " queues draw from one map of hw-queue-depth tags; touched by every CPU, so"
                + " partitions = one")));
    m.put("dm", List.of(
        Param.of("type", "dm", STRING, null, "device type: dm (a device-mapper device)"),
        Param.of("name", "dm", STRING, null,
            "mapped device name: /dev/mapper/<name> (fio's filename may use either form)"),
        Param.of("table", "dm", STRING, null, "the table in dmsetup syntax, one target per line:"
            + " <start> <length> <linear|zero|delay|zoned> <args>; devices it names must be"
            + " declared before it (zoned: one zoned-disk, formatted as dmzadm --format does,"
            + " '0 <nr_chunks x zone sectors> zoned /dev/<disk>')")));
    m.put("brd", List.of(
        Param.of("type", "brd", STRING, null, "device type: brd (RAM disk)"),
        Param.of("name", "brd", STRING, null, "disk name, as fio's filename names it (ram0)"),
        Param.num("size", "brd", SIZE, "bytes", "4M", 4096, Long.MAX_VALUE,
            "capacity (brd's rd_size)"),
        Param.of("nowait", "brd", BOOLEAN, String.valueOf(BrdParams.DEFAULT_NOWAIT),
            "the driver declares QUEUE_FLAG_NOWAIT (off in the May 2023 measurement)"),
        Param.of("prefilled", "brd", BOOLEAN, String.valueOf(BrdParams.DEFAULT_PREFILLED),
            "every backing page already exists, so writes never allocate")));
    m.put("zram", List.of(
        Param.of("type", "zram", STRING, null, "device type: zram (compressed RAM)"),
        Param.of("name", "zram", STRING, null, "disk name, as fio's filename names it (zram0)"),
        Param.num("size", "zram", SIZE, "bytes", null, 4096, Long.MAX_VALUE,
            "disksize (zram has no default)"),
        Param.of("nowait", "zram", BOOLEAN, String.valueOf(ZramParams.DEFAULT_NOWAIT),
            "the driver declares QUEUE_FLAG_NOWAIT (none in May 2023; thread 5's patch)"),
        Param.fraction("same-filled-fraction", "zram",
            String.valueOf(ZramParams.DEFAULT_SAME_FILLED_FRACTION),
            "fraction of stored pages filled with one repeated value (metadata only)"),
        Param.fraction("huge-fraction", "zram", String.valueOf(ZramParams.DEFAULT_HUGE_FRACTION),
            "fraction of stored pages that did not compress (stored as is)")));
    m.put("disk", requestBased("disk", "a SATA rotational disk behind the blk-mq request layer",
        "14T", List.of(
        Param.num("rpm", "disk", INT, "rpm", "7200", 1000, 20000, "spindle speed"),
        Param.num("surfaces", "disk", INT, "", "16", 1, 64,
            "recording surfaces (heads): sets the cylinder count"),
        Param.num("track-seek", "disk", DURATION, "ns", "300us", 0, 1_000_000_000L,
            "track-to-track seek time"),
        Param.num("average-seek", "disk", DURATION, "ns", "8200us", 0, 1_000_000_000L,
            "seek time over a third of the stroke (the data sheet's average seek)"),
        Param.num("full-stroke-seek", "disk", DURATION, "ns", "15ms", 0, 1_000_000_000L,
            "seek time over the whole stroke"),
        Param.num("outer-rate", "disk", SIZE, "bytes/s", "237M", 1, Long.MAX_VALUE,
            "media rate at the outer edge (LBA 0), bytes per second"),
        Param.num("inner-rate", "disk", SIZE, "bytes/s", "130M", 1, Long.MAX_VALUE,
            "media rate at the inner edge, bytes per second"),
        Param.num("command-overhead", "disk", DURATION, "ns", "50us", 0, 1_000_000_000L,
            "controller time per command before the mechanism moves"),
        Param.choice("ncq-policy", "disk", "sptf", List.of("sptf", "fifo"),
            "how the drive picks among its queued commands: shortest positioning time or"
                + " arrival order"),
        Param.num("ncq-aging", "disk", DURATION, "ns", "0", 0, 10_000_000_000L,
            "the drive's command aging limit: a command queued this long is served next"
                + " (0: none; DDN's Hitachi drive setting defaults to 200ms)"),
        Param.choice("write-cache", "disk", "off", List.of("off", "on"),
            "the drive's volatile write cache: writes complete once held, the drive destages"
                + " them itself, FLUSH CACHE waits for the destage (on by default for a"
                + " zoned-disk, kernel-model.md §15.2)"),
        Param.num("write-cache-size", "disk", SIZE, "bytes", "256M", 512, 1L << 40,
            "write cache capacity: writes wait at the drive while it would hold more"),
        Param.num("write-cache-latency", "disk", DURATION, "ns", "100us", 0, 1_000_000_000L,
            "controller time to take a write into the cache, before its transfer"),
        Param.num("link-rate", "disk", SIZE, "bytes/s", "600000000", 1, Long.MAX_VALUE,
            "host link rate at which a cached write's data arrives (SATA 6 Gb/s: 600 MB/s)"))));
    m.put("zoned-disk", requestBased("zoned-disk", "a host-managed zoned (SMR) SATA disk behind"
        + " the blk-mq request layer: the disk model with conventional and sequential zones",
        String.valueOf(ZonedLayout.DEFAULT_CAPACITY_BYTES), zonedDiskKeys(m.get("disk"))));
    m.put("ssd", requestBased("ssd", "a SATA SSD behind the blk-mq request layer", "960000000000",
        List.of(
        Param.num("channels", "ssd", INT, "", "8", 1, 1024, "flash channels working in parallel"),
        Param.num("bandwidth", "ssd", SIZE, "bytes/s", "490000000", 1, Long.MAX_VALUE,
            "host link rate, the device's bandwidth cap, bytes per second"),
        Param.num("read-latency", "ssd", DURATION, "ns", "40us", 0, 1_000_000_000L,
            "channel time to read one page"),
        Param.num("write-latency", "ssd", DURATION, "ns", "40us", 0, 1_000_000_000L,
            "channel time to take one written page"),
        Param.num("page-size", "ssd", SIZE, "bytes", "4k", 512, 1 << 20,
            "flash page: the striping unit, a power of two"),
        // 0 for SATA: sd_config_atomic() takes the limits from the Block Limits VPD page's
        // atomic fields, which libata's SCSI translation (ata_scsiop_inq_b0()) leaves zero.
        Param.num("atomic-write-unit-max", "ssd", SIZE, "bytes", "0", 0, 1 << 30,
            "queue/atomic_write_unit_max_bytes: the largest RWF_ATOMIC write (a power of two;"
                + " 0: no atomic writes, as a SATA SSD)"))));
    m.put("nvme", List.of(
        Param.of("type", "nvme", STRING, null, "device type: nvme (a PCIe NVMe SSD as nvme-pci"
            + " presents it: a hardware queue per CPU up to the controller's, over one media"
            + " model; all CPUs in one partition)"),
        Param.of("name", "nvme", STRING, null, "disk name, as fio's filename names it (nvme0n1)"),
        Param.num("size", "nvme", SIZE, "bytes", "7680000000000", 4096, Long.MAX_VALUE,
            "capacity ([S] the Samsung PM9A3 U.2 7.68 TB the media defaults come from)"),
        Param.num("bs", "nvme", INT, "bytes", "512", 512, 4096, "logical block size, 512 or 4096"
            + " (the LBA format; 512 as shipped)"),
        Param.num("io-queues", "nvme", INT, "", String.valueOf(NvmeParams.DEFAULT_MAX_IO_QUEUES),
            1, 65535, "I/O queues the controller grants ([A] 128, datacenter class); hardware"
                + " queues = min(CPUs, this) as nvme_max_io_queues() asks one per CPU, CPUs"
                + " spread over them as blk_mq_map_queues() does"),
        Param.num("poll-queues", "nvme", INT, "", "0", 0, 65534,
            "poll_queues ([S] drivers/nvme/host/pci.c module parameter, default 0): I/O queues"
                + " with no interrupt vector, taken from io-queues (nvme_setup_irqs() keeps one"
                + " for the default map, so at most io-queues - 1); io_uring hipri"
                + " (IORING_SETUP_IOPOLL) requests complete when the submitter polls, with no"
                + " interrupt (nvme_poll()); 0: hipri runs unpolled, refused with kernel.mode ="
                + " V6_13; at most the CPUs (io_queue_count_set())"),
        Param.num("io-queue-depth", "nvme", INT, "",
            String.valueOf(NvmeParams.DEFAULT_IO_QUEUE_DEPTH), 2, 65536,
            "io_queue_depth ([S] drivers/nvme/host/pci.c module parameter, 1024): entries per"
                + " submission queue; the driver tags per hardware queue are one less (1023:"
                + " nvme_alloc_io_tag_set(), sqsize = q_depth - 1)"),
        Param.choice("scheduler", "nvme", "auto", List.of("auto", "none", "mq-deadline",
            "deadline"), "I/O scheduler (auto: [S] block/elevator.c elevator_get_default(),"
                + " none with several hardware queues, mq-deadline with one)"),
        Param.of("nr-requests", "nvme", STRING, "auto",
            "scheduler tags per hardware queue, nr_requests (auto: 2 x min(tags, 128) with a"
                + " scheduler, the driver tags without)"),
        Param.num("max-sectors", "nvme", SIZE, "bytes",
            String.valueOf(NvmeParams.DEFAULT_MAX_BYTES), 512, 1L << 30,
            "largest request ([D] 512 KiB: max-segments x 4 KiB pages, below the MDTS of a"
                + " Samsung drive (PM981: 2 MiB) and the 1280 KiB default max_sectors_kb)"),
        Param.num("max-segments", "nvme", INT, "", String.valueOf(NvmeParams.DEFAULT_MAX_SEGMENTS),
            1, 65536, "most physical segments in one request ([S] pci.c NVME_MAX_SEGS, 128 in"
                + " 6.x trees, 127 in older ones)"),
        Param.num("channels", "nvme", INT, "", "120", 1, 1024,
            "independent flash units (dies/planes) of the media model ([D] sequential read:"
                + " 120 x 4 KiB / 75 us = 6.55 GB/s >= the PM9A3's 6,500 MB/s; random 4 KiB"
                + " reads at 128 outstanding: ~1.6M x 128 / 247 = 829K IOPS estimated, 899K"
                + " simulated with 4 io_uring jobs x iodepth 32, vs its 900K)"),
        Param.num("bandwidth", "nvme", SIZE, "bytes/s", "6500000000", 1, Long.MAX_VALUE,
            "the drive's bandwidth cap ([S] PM9A3 U.2 datasheet sequential read, 6,500 MB/s;"
                + " PCIe 4.0 x4 carries ~7.9 GB/s)"),
        Param.num("read-latency", "nvme", DURATION, "ns", "75us", 0, 1_000_000_000L,
            "unit time to read one page ([A] TLC read with controller overhead: a QD1 4 KiB"
                + " read ~76 us at the device; the datasheet gives none)"),
        Param.num("write-latency", "nvme", DURATION, "ns", "140us", 0, 1_000_000_000L,
            "unit time to take one written page ([D] 120 x 4 KiB / 140 us = 3.5 GB/s, the"
                + " PM9A3's sequential write; no GC, so 4 KiB random writes reach ~850K IOPS,"
                + " not its steady-state 200K)"),
        Param.num("page-size", "nvme", SIZE, "bytes", "4k", 512, 1 << 20,
            "the striping unit, a power of two ([A] the FTL's 4 KiB mapping unit)")));
    return m;
  }

  /**
   * A zoned disk's own keys: the disk's mechanism keys (after the request-queue keys of
   * {@code disk}), then the zone layout (defaults: the 15 TB example, kernel-model.md §15.1.1).
   */
  private static List<Param> zonedDiskKeys(List<Param> disk) {
    List<Param> l = new java.util.ArrayList<>();
    for (Param p : disk.subList(disk.size() - 14, disk.size())) {
      // §15.2: a host-managed SMR drive has its write cache on [S].
      String dflt = p.path().equals("write-cache") ? "on" : p.defaultValue();
      l.add(new Param(p.path(), "zoned-disk", p.type(), p.unit(), dflt,
          p.description(), p.min(), p.max(), p.choices()));
    }
    l.add(Param.num("zone-size", "zoned-disk", SIZE, "bytes", "256M", 4096, Long.MAX_VALUE,
        "zone size, a power of two (the kernel's rule); size must be a whole number of zones"));
    l.add(Param.num("conventional-zones", "zoned-disk", LONG, "",
        String.valueOf(ZonedLayout.DEFAULT_CONVENTIONAL_ZONES), 0, Long.MAX_VALUE,
        "conventional (random-write) zones at the start of the disk, at most all zones"));
    l.add(Param.num("max-open-zones", "zoned-disk", INT, "",
        String.valueOf(ZonedLayout.DEFAULT_MAX_OPEN_ZONES), 1, 1 << 20,
        "open-zone limit (max_open_zones): a write opening one more zone closes an implicitly"
            + " open one"));
    l.add(Param.choice("wbt", "zoned-disk", "off", List.of("off", "on"),
        "writeback throttling on the disk's queue (blk-wbt; the kernel enables it by default"
            + " under mq-deadline, blksim keeps it off unless asked)"));
    l.add(Param.num("wbt-lat-usec", "zoned-disk", INT, "us", "75000", 1, 1_000_000_000,
        "wbt's latency target (queue/wbt_lat_usec); the kernel's default for a rotational disk"
            + " is 75000"));
    l.add(Param.num("dmzadm-seq", "zoned-disk", LONG, "", "16", 1, Long.MAX_VALUE,
        "sequential zones dmzadm --format --seq reserves for dm-zoned's reclaim (at most the"
            + " conventional zones minus one are kept, as dmz_locate_metadata() does)"));
    l.add(Param.of("dmzadm-label", "zoned-disk", STRING, "",
        "dm-zoned label dmzadm --format --label writes (1 to 31 of A-Z a-z 0-9 _ . -); empty:"
            + " dmzadm's default dmz-<disk>. It names the target's workqueues (dmz_cwq_<label>)"));
    l.add(Param.choice("dmz-metadata-cache", "zoned-disk", "bounded",
        List.of("bounded", "unbounded"),
        "dm-zoned's metadata block cache: bounded as the kernel's (min_nr_mblks = 2 + map blocks"
            + " + 16 zones' bitmaps, max = min + 512; a bitmap block not cached is read"
            + " synchronously by the chunk work, which keeps its dmz_cwq slot), or unbounded"
            + " (every block cached, no miss)"));
    return List.copyOf(l);
  }

  /** The keys every request-based device has, then {@code own}. */
  private static List<Param> requestBased(String type, String what, String size,
      List<Param> own) {
    List<Param> l = new java.util.ArrayList<>(List.of(
        Param.of("type", type, STRING, null, "device type: " + type + " (" + what + ")"),
        Param.of("name", type, STRING, null, "disk name, as fio's filename names it (sdb)"),
        Param.num("size", type, SIZE, "bytes", size, 4096, Long.MAX_VALUE, "capacity"),
        Param.num("bs", type, INT, "bytes", "512", 512, 4096, "logical block size, 512 or 4096"),
        Param.choice("scheduler", type, "mq-deadline", List.of("mq-deadline", "deadline", "none"),
            "I/O scheduler (deadline is the legacy name of mq-deadline)"),
        Param.of("nr-requests", type, STRING, "auto",
            "scheduler tags, nr_requests (auto: 2 x min(queue-depth, 128) with a scheduler,"
                + " queue-depth without; 128 with a scheduler in kernel.mode V4_3_RC1, 4.3's"
                + " legacy queue)"),
        Param.num("queue-depth", type, INT, "", "32", 1, 65536,
            "driver tags of the one hardware queue, also the drive's NCQ depth"),
        Param.num("max-sectors", type, SIZE, "bytes", "512k", 512, 1L << 30,
            "largest request (max_sectors_kb)"),
        Param.num("max-segments", type, INT, "", "128", 1, 65536,
            "most physical segments (4 KiB pages) in one request"),
        Param.num("read-expire", type, DURATION, "ns", "500ms", 0, 1_000_000_000_000L,
            "mq-deadline read_expire"),
        Param.num("write-expire", type, DURATION, "ns", "5s", 0, 1_000_000_000_000L,
            "mq-deadline write_expire"),
        Param.num("fifo-batch", type, INT, "", "16", 1, 65536, "mq-deadline fifo_batch"),
        Param.num("writes-starved", type, INT, "", "2", 0, 65536, "mq-deadline writes_starved"),
        Param.of("front-merges", type, BOOLEAN, "true", "mq-deadline front_merges"),
        Param.of("host", type, STRING, "",
            "the SCSI host (Scsi_Host) the drive sits on: drives naming the same host share its"
                + " tag set of host-queue-depth tags, fairly (max(ceil(depth / active queues),"
                + " 4) each, hctx_may_queue()); empty: a host of its own, as AHCI gives each"
                + " port"),
        Param.num("host-queue-depth", type, INT, "", "32", 1, 65536,
            "the host's tags (shost->can_queue; 32 is AHCI's per-port AHCI_MAX_CMDS); drives of"
                + " one host must agree on it")));
    l.addAll(own);
    return List.copyOf(l);
  }

  /** Keys of a filesystem (an element of {@code blksim.filesystems}), by filesystem type. */
  public static final Map<String, List<Param>> FILESYSTEM_KEYS = filesystems();

  private static Map<String, List<Param>> filesystems() {
    Map<String, List<Param>> m = new LinkedHashMap<>();
    m.put("xfs", List.of(
        Param.of("type", "xfs", STRING, null, "filesystem type: xfs (an XFS-like model)"),
        Param.of("device", "xfs", STRING, null,
            "the device it is made on, a name from blksim.devices (sdb or /dev/sdb); one"
                + " filesystem per device"),
        Param.of("mount", "xfs", STRING, null,
            "absolute mount point (/mnt/test); fio's directory= and filename= and fs_mark's -d"
                + " resolve to the longest mount point that prefixes them"),
        Param.of("options", "xfs", STRING, "rw",
            "mount options, a string (\"ro,noatime\") or a list ([ro, noatime]): "
                + String.join(", ", FilesystemParams.OPTIONS.stream().sorted().toList())
                + "; the last of ro/rw wins"),
        Param.num("ag-count", "xfs", INT, "", "0", 0, XfsGeometry.MAX_AG_COUNT,
            "allocation groups (mkfs.xfs -d agcount); 0: as mkfs.xfs chooses for the device"
                + " size (4 from 128 MiB to 4 TiB, 1 TiB AGs above)"),
        Param.fraction("p-contig", "xfs", String.valueOf(XfsParams.DEFAULT_P_CONTIG),
            "chance that the next inode written back in an AG gets the block right after the"
                + " previous allocation there (kernel-model.md §15.4.4)"),
        Param.num("jump-blocks", "xfs", INT, "blocks",
            String.valueOf(XfsParams.DEFAULT_JUMP_BLOCKS), 1, 1 << 20,
            "how far, in 4 KiB blocks, a non-contiguous allocation lands past the previous one"
                + " (default: one 32 KiB inode chunk)")));
    m.put("btrfs", List.of(
        Param.of("type", "btrfs", STRING, null,
            "filesystem type: btrfs (direct writes with ordered extents, kernel-model.md §15.3)"),
        Param.of("devices", "btrfs", STRING_LIST, null,
            "the devices it is made on, names from blksim.devices ([sda, sdb]); data striped"
                + " over them in 64 KiB elements with data-profile raid0"),
        Param.of("mount", "btrfs", STRING, null, "absolute mount point (/mnt/btrfs)"),
        Param.of("options", "btrfs", STRING, "rw",
            "mount options, a string or a list: "
                + String.join(", ", FilesystemParams.OPTIONS.stream().sorted().toList())
                + ", thread_pool=N (max_active of btrfs-endio-write; default min(CPUs + 2, 8))"),
        Param.choice("data-profile", "btrfs", "single", BtrfsParams.PROFILES,
            "mkfs.btrfs -d: single (one device) or raid0 (two or more devices)")));
    return m;
  }

  /** The schema entry for {@code path} under {@code blksim}, or {@code null}. */
  public static Param key(String path) {
    for (Param p : KEYS) {
      if (p.path().equals(path)) {
        return p;
      }
    }
    return null;
  }
}
