package blksim.kernel.device;

import blksim.engine.CostDistribution;
import blksim.engine.Seeds;
import blksim.kernel.block.BlkMqTags;
import blksim.kernel.block.Bio;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.CacheFootprint;
import blksim.kernel.block.DriverCpu;
import blksim.kernel.block.HwCtx;
import blksim.kernel.block.Kblockd;
import blksim.kernel.block.MqDriver;
import blksim.kernel.block.ReqOp;
import blksim.kernel.block.Request;
import blksim.kernel.block.RequestQueue;
import blksim.kernel.block.RequestQueueParams;
import blksim.kernel.topology.Cpu;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * null_blk in {@code queue_mode=2}: a blk-mq driver ({@code null_mq_ops}) below the shared
 * request layer. Each hardware queue ({@code submit_queues} of them) is a {@link HwCtx} with its
 * own {@link RequestQueue}: {@code hw_queue_depth} driver tags, {@code nr_requests} scheduler
 * tags and the scheduler. Bios become requests there (plug and queue merging up to
 * {@code max_sectors}, a sleeping submitter when the scheduler tags run out, -EAGAIN for a
 * REQ_NOWAIT bio then), and a request that gets a driver tag reaches {@link #queueRq}
 * ({@code null_queue_rq()} → {@code null_handle_cmd()}).
 *
 * <p>Completion follows {@code irqmode}, as the module does: NONE ends the request inside
 * {@code queue_rq} ({@code end_cmd()}), at no interrupt cost; SOFTIRQ completes it through
 * {@code blk_mq_complete_request()} on the submitting CPU, costing {@code completionCostNs} of
 * interrupt time there ({@link RequestQueue#hardwareDone}); TIMER arms an hrtimer of
 * {@code completion_nsec} on the CPU that ran {@code queue_rq}, whose expiry ends the request
 * there after {@code completionCostNs} of interrupt time. The hrtimer's handler does not run at
 * the programmed expiry itself but after the local APIC timer interrupt reaches the CPU and
 * {@code hrtimer_interrupt()} (kernel/time/hrtimer.c) runs the expired timer: that delay is
 * {@link #hrtimerExpiry} (issue 10 item 9; {@code costs.timer.hrtimer-expiry}), drawn per
 * request from a stream of its own per CPU, {@code dev/NAME/hrtimer/cpuC}, apart from the
 * {@code completion_nsec} stream, so a spread in one does not shift the other's draws.
 *
 * <p>Tags: a request's tags are freed before its bios end, and a submitter waiting for a tag on
 * the completing CPU is woken inside the completion ({@code blk_mq_put_tag()} waking the
 * sbitmap's waiters), as blksim's null_blk always did.
 *
 * <p>Queue map ({@link #mapQueues}): CPUs are grouped as {@code group_cpus_evenly()} does for
 * {@code blk_mq_map_queues()}, simplified to contiguous groups of CPUs in (core, thread) order,
 * so that SMT siblings and the CPUs of a node stay together. With one hardware queue per CPU
 * (blksim's default) every context is touched by its CPU alone, so the device adds no state
 * shared between CPUs and any partitioning is exact; a context shared by several CPUs is called
 * directly from each of them, so the scenario loader refuses partitionings that split its CPUs.
 *
 * <p>Shared tags ({@link #shareTagSets}): {@code shared_tags} puts every device with it on in
 * one tag set, whose {@code tags[i]} hardware queue {@code i} of each device draws from (one
 * device alone behaves as without it); {@code shared_tag_bitmap} makes one map of
 * {@code hw_queue_depth} tags for all hardware queues of the set ({@code BLK_MQ_F_TAG_HCTX_SHARED},
 * fair sharing per device). See {@link BlkMqTags}. Simplified: with a scheduler and
 * {@code shared_tag_bitmap} the scheduler tags stay per hardware queue (the kernel shares them
 * per request queue, {@code q->sched_shared_tags}).
 *
 * <p>Poll queues ({@code poll_queues} &gt; 0, {@link #poll}): as {@code null_queue_rq()} does
 * on a {@code HCTX_TYPE_POLL} context since commit 0a593fbbc245 ("null_blk: poll queue
 * support", 5.13), a REQ_POLLED request is only put on the context's poll list, whatever
 * {@code irqmode} and {@code completion_nsec} say; {@code null_poll()} completes every request
 * on the list in the polling task's context, at no interrupt cost. Simplified: the poll
 * contexts are not separate hardware contexts with tags of their own (a polled request takes
 * its tags from the submitting CPU's default context and waits on that context's poll list),
 * and how many poll queues there are does not matter beyond none or some.
 *
 * <p>{@code memory_backed=1} ({@link #memoryBacked}): each page of a read or write is copied
 * to or from the device's own pages ({@code null_transfer()}: {@code copy_to_nullb()} /
 * {@code copy_from_nullb()}), charged per bio with the submission cost on the submitting CPU;
 * with {@code kernel.cache-cold} on ({@link #coldTouches}) a page outside that CPU's
 * {@link CacheFootprint} costs more, as brd's do. Simplified: the copy is taken on the
 * submitting CPU (a queue run by kblockd on another CPU copies there), {@code nullb->lock} is
 * not contended, a first write's page allocation and discards' frees are not charged, and no
 * contents are kept (reads of never-written pages cost as a copy, not a memset).
 *
 * <p>Simplified: null_blk's zoned mode, bandwidth throttling, fault injection
 * and {@code BLK_STS_RESOURCE} requeues are not modelled. Bios larger than {@code max_sectors}
 * or {@code max_segments} are split before they reach it, by the request queue
 * ({@code bio_split_to_limits()}).
 */
public final class NullBlkDriver implements MqDriver {
  private final NullBlkParams params;
  private final HwCtx[] hctxs;
  private final int[] cpuToHctx;
  private long runSeed;
  /** One stream per CPU, each created and drawn by its CPU alone. */
  private final SplittableRandom[] streams;
  /** The hrtimer expiry latency; a constant 0 (the default here) draws nothing. */
  private CostDistribution hrtimerExpiry = CostDistribution.constant(0);
  /** One stream per CPU for {@link #hrtimerExpiry}, created and drawn by its CPU alone. */
  private final SplittableRandom[] expiryStreams;
  /**
   * Each context's poll list ({@code nq->poll_list}) by its request queue, with poll queues;
   * null without. Looked up, never iterated.
   */
  private final java.util.IdentityHashMap<RequestQueue, java.util.ArrayDeque<Request>> pollLists;

  /** The device on a machine of {@code cpus}, with its {@code submit_queues} mapped to them. */
  public NullBlkDriver(NullBlkParams params, List<Cpu> cpus, Kblockd kblockd) {
    this(params, mapQueues(cpus, params.hwQueues(cpus.size())), params.hwQueues(cpus.size()),
        kblockd);
  }

  /**
   * The device with {@code nrHctx} hardware contexts, CPU {@code c} mapped to context
   * {@code cpuToHctx[c]}; queue runs through {@code kblockd}.
   */
  public NullBlkDriver(NullBlkParams params, int[] cpuToHctx, int nrHctx, Kblockd kblockd) {
    this.params = params;
    this.cpuToHctx = cpuToHctx.clone();
    this.streams = new SplittableRandom[cpuToHctx.length];
    this.expiryStreams = new SplittableRandom[cpuToHctx.length];
    RequestQueueParams qp = params.queueParams(nrHctx);
    this.hctxs = new HwCtx[nrHctx];
    // Each context's CPUs, ascending, in two passes over the map (not one per context: with a
    // queue per CPU that was quadratic in the CPUs).
    int[][] mine = new int[nrHctx][];
    int[] n = new int[nrHctx];
    for (int m : cpuToHctx) {
      n[m]++;
    }
    for (int h = 0; h < nrHctx; h++) {
      mine[h] = new int[n[h]];
      n[h] = 0;
    }
    for (int c = 0; c < cpuToHctx.length; c++) {
      int h = cpuToHctx[c];
      mine[h][n[h]++] = c;
    }
    for (int h = 0; h < nrHctx; h++) {
      hctxs[h] = new HwCtx(h, mine[h], new RequestQueue(qp, this, kblockd, true));
    }
    if (params.pollQueues() > 0) {
      pollLists = new java.util.IdentityHashMap<>();
      for (HwCtx h : hctxs) {
        pollLists.put(h.queue(), new java.util.ArrayDeque<>());
      }
    } else {
      pollLists = null;
    }
  }

  /**
   * {@code blk_mq_map_queues()}: the hardware context of each CPU (indexed by CPU id) for
   * {@code nrQueues} contexts. CPUs in (core, id) order, so threads of a core and cores of a node
   * are neighbours, are cut into {@code nrQueues} contiguous groups whose sizes differ by at most
   * one. With as many queues as CPUs each CPU has its own.
   */
  public static int[] mapQueues(List<Cpu> cpus, int nrQueues) {
    if (nrQueues < 1 || nrQueues > cpus.size()) {
      throw new IllegalArgumentException("nr_hw_queues must be in [1, " + cpus.size() + "], was "
          + nrQueues);
    }
    List<Cpu> order = new ArrayList<>(cpus);
    order.sort(Comparator.comparingInt(Cpu::core).thenComparingInt(Cpu::id));
    int n = order.size();
    int[] map = new int[n];
    Arrays.fill(map, -1);
    for (int rank = 0; rank < n; rank++) {
      int id = order.get(rank).id();
      if (id < 0 || id >= n || map[id] >= 0) {
        throw new IllegalArgumentException("CPU ids must be 0.." + (n - 1));
      }
      map[id] = (int) ((long) rank * nrQueues / n);
    }
    return map;
  }

  /** The parameters. */
  public NullBlkParams params() {
    return params;
  }

  /** The hardware contexts. */
  public List<HwCtx> hctxs() {
    return List.of(hctxs);
  }

  /**
   * Builds the shared tag maps of {@code drivers} (all null_blk devices of a run, in declaration
   * order): one set for those with {@code shared_tags} ({@code null_init_global_tag_set()}),
   * and a set of its own for a device with {@code shared_tag_bitmap} alone. Before the run.
   * The devices of the shared set must agree on {@code hw_queue_depth}, the number of hardware
   * queues and {@code shared_tag_bitmap} (the loader checks it).
   */
  public static void shareTagSets(List<NullBlkDriver> drivers) {
    List<NullBlkDriver> global = new ArrayList<>();
    for (NullBlkDriver d : drivers) {
      if (d.params.sharedTags()) {
        global.add(d);
      } else if (d.params.sharedTagBitmap()) {
        shareTagSet(List.of(d), d.params.name());
      }
    }
    if (!global.isEmpty()) {
      shareTagSet(global, "null_blk");
    }
  }

  private static void shareTagSet(List<NullBlkDriver> set, String name) {
    NullBlkDriver first = set.get(0);
    int depth = first.params.hwQueueDepth();
    boolean queueShared = set.size() > 1;
    if (first.params.sharedTagBitmap()) {
      BlkMqTags tags = new BlkMqTags(name + "/shared_tags", depth).queueShared(queueShared);
      for (NullBlkDriver d : set) {
        BlkMqTags.Sharer s = tags.newSharer();
        for (HwCtx h : d.hctxs) {
          h.queue().shareTags(s);
        }
      }
      return;
    }
    if (!queueShared) {
      return; // one device: tags[i] are its own hardware queues' tags, as without the set
    }
    for (int i = 0; i < first.hctxs.length; i++) {
      BlkMqTags tags = new BlkMqTags(name + "/tags" + i, depth).queueShared(true);
      for (NullBlkDriver d : set) {
        if (d.hctxs.length != first.hctxs.length
            || !Arrays.equals(d.hctxs[i].cpus(), first.hctxs[i].cpus())) {
          throw new IllegalArgumentException("devices sharing a tag set must map their hardware"
              + " queues alike: " + d.params.name() + " and " + first.params.name() + " differ");
        }
        d.hctxs[i].queue().shareTags(tags.newSharer());
      }
    }
  }

  /**
   * Cache lines of a request and its tag that the submitting CPU writes ({@code
   * blk_mq_get_tag()}'s sbitmap word, {@code blk_mq_rq_ctx_init()} over the first lines of the
   * ~300-byte {@code struct request}); [A], not measured.
   */
  public static final int REQUEST_LINES = 4;

  /**
   * NUMA remote access (issue 15 item 4): a hardware context's requests and tags are allocated
   * on its node, the node of its first CPU ({@code blk_mq_hw_queue_to_node()}), so a CPU of
   * another node mapped to it pulls {@link #REQUEST_LINES} lines from that node per request, at
   * {@code lineRemoteNs} each, as submission CPU time. Only contexts that span nodes (fewer
   * {@code submit_queues} than nodes, or groups cut across a node boundary) pay anything.
   * {@code cpus} are the machine's CPUs by id. Before the run; 0 turns it off.
   */
  public NullBlkDriver remoteAccess(List<Cpu> cpus, long lineRemoteNs) {
    if (lineRemoteNs <= 0) {
      return this;
    }
    for (HwCtx h : hctxs) {
      int home = cpus.get(h.cpus()[0]).node();
      // Made only for a context with a remote CPU: one per context and machine CPU would be
      // O(CPUs^2) memory with a queue per CPU (128 MiB at 4,096 CPUs).
      long[] ns = null;
      for (int c : h.cpus()) {
        if (cpus.get(c).node() != home) {
          if (ns == null) {
            ns = new long[cpuToHctx.length];
          }
          ns[c] = REQUEST_LINES * lineRemoteNs;
        }
      }
      if (ns != null) {
        h.queue().remoteAccessNs(ns);
      }
    }
    return this;
  }

  /** The hardware context CPU {@code cpuId} submits to ({@code blk_mq_map_queue()}). */
  public HwCtx hctx(int cpuId) {
    return hctxs[cpuToHctx[cpuId]];
  }

  /** Maps {@code cpu}'s software queue to its hardware context; returns the CPU's view. */
  public BlockQueue attach(DriverCpu cpu) {
    return hctx(cpu.cpuId()).queue().attach(cpu);
  }

  /**
   * Seeds the per-CPU streams a non-constant {@code completion_nsec} is drawn from: CPU
   * {@code c}'s stream is {@code Seeds.forComponent(runSeed, "dev/NAME/cpuC")}, drawn only by
   * requests whose {@code queue_rq} runs on CPU {@code c}, so draws do not depend on the
   * partitioning. Without it (tests) the streams are seeded from 0. A constant draws nothing.
   */
  public NullBlkDriver seed(long runSeed) {
    this.runSeed = runSeed;
    Arrays.fill(streams, null);
    Arrays.fill(expiryStreams, null);
    return this;
  }

  /**
   * The delay from a timer-mode request's hrtimer expiry to its handler
   * ({@code costs.timer.hrtimer-expiry}): the local APIC timer interrupt's delivery and entry
   * into {@code hrtimer_interrupt()}. Drawn from CPU C's stream
   * {@code Seeds.forComponent(runSeed, "dev/NAME/hrtimer/cpuC")}; a constant draws nothing.
   */
  public NullBlkDriver hrtimerExpiry(CostDistribution d) {
    this.hrtimerExpiry = java.util.Objects.requireNonNull(d, "hrtimerExpiry");
    return this;
  }

  private long expiryNs(DriverCpu cpu) {
    if (hrtimerExpiry.isConstant()) {
      return hrtimerExpiry.sampleNs(null);
    }
    int id = cpu.cpuId();
    SplittableRandom r = expiryStreams[id];
    if (r == null) {
      r = new SplittableRandom(Seeds.forComponent(runSeed, "dev/" + params.name()
          + "/hrtimer/cpu" + id));
      expiryStreams[id] = r;
    }
    return hrtimerExpiry.sampleNs(r);
  }

  private long completionNs(DriverCpu cpu) {
    CostDistribution c = params.completion();
    if (c.isConstant()) {
      return c.sampleNs(null);
    }
    int id = cpu.cpuId();
    SplittableRandom r = streams[id];
    if (r == null) {
      r = new SplittableRandom(Seeds.forComponent(runSeed, "dev/" + params.name() + "/cpu"
          + id));
      streams[id] = r;
    }
    return c.sampleNs(r);
  }

  /** memory_backed=1's copy per 4 KiB page, read and write; -1 when not memory-backed. */
  private long memReadNs = -1;
  private long memWriteNs = -1;
  /** kernel.cache-cold: each CPU's footprint by CPU id, or null (off). */
  private CacheFootprint[] coldByCpu;
  private int coldDevice;
  private CostDistribution coldPage;
  private CostDistribution coldPath;
  /** Per CPU: whether its first bio (the driver's cold path) was charged; its stream. */
  private boolean[] pathWarm;
  private SplittableRandom[] coldStreams;

  /**
   * {@code memory_backed=1}: a read copies {@code readPageNs}, a write {@code writePageNs}, per
   * 4 KiB page of each bio, on the submitting CPU (see the class comment). Before the run.
   */
  public NullBlkDriver memoryBacked(long readPageNs, long writePageNs) {
    if (readPageNs < 0 || writePageNs < 0) {
      throw new IllegalArgumentException("memory-backed copy costs must be >= 0");
    }
    this.memReadNs = readPageNs;
    this.memWriteNs = writePageNs;
    for (HwCtx h : hctxs) {
      h.queue().bioCostNs(this::memoryNs);
    }
    return this;
  }

  /**
   * Cache-cold first touches (issue 10 item 9, {@code kernel.cache-cold}) of a memory-backed
   * device, as {@link blksim.kernel.block.BioBasedQueue#coldTouches} for brd: CPU {@code c}
   * touches the bio's pages in {@code byCpu[c]} (device index {@code device}) and pays
   * {@code page} per cold one, and {@code path} once for its first bio. A distribution is drawn
   * from CPU c's stream {@code dev/NAME/cache/cpuC}, by that CPU alone. Needs
   * {@link #memoryBacked} first.
   */
  public NullBlkDriver coldTouches(CacheFootprint[] byCpu, int device, CostDistribution page,
      CostDistribution path) {
    if (memReadNs < 0) {
      throw new IllegalStateException(params.name() + ": cold touches need memory_backed");
    }
    this.coldByCpu = byCpu.clone();
    this.coldDevice = device;
    this.coldPage = page;
    this.coldPath = path;
    this.pathWarm = new boolean[byCpu.length];
    this.coldStreams = new SplittableRandom[byCpu.length];
    return this;
  }

  private long memoryNs(Bio bio, DriverCpu cpu) {
    ReqOp op = bio.op();
    if (op != ReqOp.READ && op != ReqOp.WRITE) {
      return 0;
    }
    long pages = bio.pageCount();
    long ns = pages * (op == ReqOp.READ ? memReadNs : memWriteNs);
    if (coldByCpu == null) {
      return ns;
    }
    int id = cpu.cpuId();
    SplittableRandom r = null;
    if (!coldPage.isConstant() || !coldPath.isConstant()) {
      r = coldStreams[id];
      if (r == null) {
        r = new SplittableRandom(Seeds.forComponent(runSeed, "dev/" + params.name()
            + "/cache/cpu" + id));
        coldStreams[id] = r;
      }
    }
    if (!pathWarm[id]) {
      pathWarm[id] = true;
      ns += coldPath.sampleNs(r);
    }
    long cold = coldByCpu[id].touch(coldDevice, bio.firstPage(), pages);
    if (coldPage.isConstant()) {
      return ns + cold * coldPage.sampleNs(null);
    }
    for (long i = 0; i < cold; i++) {
      ns += coldPage.sampleNs(r);
    }
    return ns;
  }

  /** Whether the device has poll queues ({@code poll_queues} &gt; 0). */
  @Override
  public boolean polled() {
    return pollLists != null;
  }

  /**
   * {@code null_poll()}: every request on {@code q}'s poll list ends now, in the polling task's
   * context on {@code cpu}, without an interrupt; returns how many.
   */
  @Override
  public int poll(RequestQueue q, DriverCpu cpu) {
    java.util.ArrayDeque<Request> list = pollLists == null ? null : pollLists.get(q);
    if (list == null) {
      return 0;
    }
    int n = 0;
    Request rq;
    while ((rq = list.poll()) != null) {
      q.endRequestInline(rq, cpu);
      n++;
    }
    return n;
  }

  /**
   * {@code null_queue_rq()}: completes {@code rq} as {@code irqmode} says, or, a REQ_POLLED
   * request on a device with poll queues, puts it on its context's poll list.
   */
  @Override
  public void queueRq(Request rq, DriverCpu cpu) {
    RequestQueue q = rq.queue();
    if (pollLists != null && rq.bios().get(0).hasFlag(blksim.kernel.block.Bio.REQ_POLLED)) {
      pollLists.get(q).add(rq);
      return;
    }
    switch (params.irqmode()) {
      case NONE:
        q.endRequestInline(rq, cpu);
        break;
      case SOFTIRQ:
        q.hardwareDone(rq);
        break;
      case TIMER:
        long delay = completionNs(cpu);
        delay += expiryNs(cpu);
        cpu.callAfter(delay, () -> cpu.interrupt(params.completionCostNs(),
            () -> q.endRequestInline(rq, cpu)));
        break;
      default:
        throw new IllegalStateException("irqmode " + params.irqmode());
    }
  }
}
