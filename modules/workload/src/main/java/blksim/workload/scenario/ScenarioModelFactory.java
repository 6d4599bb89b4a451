package blksim.workload.scenario;

import blksim.engine.Component;
import blksim.engine.Model;
import blksim.engine.ModelFactory;
import blksim.engine.Seeds;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.DriverCpu;
import blksim.kernel.block.Kblockd;
import blksim.kernel.block.RequestQueue;
import blksim.kernel.block.RequestQueueParams;
import blksim.kernel.device.NullBlkDriver;
import blksim.kernel.device.NullBlkParams;
import blksim.kernel.device.NvmeDriver;
import blksim.kernel.device.NvmeParams;
import blksim.kernel.device.RequestBasedParams;
import blksim.kernel.workqueue.WorkItem;
import blksim.kernel.device.DeviceParams;
import blksim.kernel.dm.DmParams;
import blksim.kernel.dm.Kdelayd;
import blksim.kernel.block.Bio;
import blksim.kernel.block.BioEndIo;
import blksim.kernel.block.BlkMqRules;
import blksim.kernel.block.Plug;
import blksim.kernel.fs.Filesystem;
import blksim.kernel.fs.FilesystemParams;
import blksim.kernel.fs.Vfs;
import blksim.kernel.fs.VfsCalls;
import blksim.kernel.mm.AddressSpace;
import blksim.kernel.mm.WbPlugPolicy;
import blksim.kernel.mm.WritebackParams;
import blksim.kernel.dm.DmTable;
import blksim.workload.fsmark.FsMarkOptions;
import blksim.workload.fsmark.FsMarkParent;
import blksim.workload.shell.ShellTask;
import blksim.workload.fio.thread.FileFioThread;
import blksim.kernel.mm.FlusherPlug;
import blksim.kernel.sched.Task;
import blksim.kernel.mm.BdiWriteback;
import blksim.kernel.mm.MmComponent;
import blksim.kernel.mm.MmParams;
import blksim.kernel.mm.PageCache;
import blksim.kernel.mm.WbScheduler;
import blksim.kernel.workqueue.DelayedWork;
import blksim.kernel.timer.TimerParams;
import blksim.kernel.workqueue.KernelMode;
import blksim.kernel.workqueue.Workqueue;
import blksim.kernel.workqueue.WorkqueueParams;
import blksim.kernel.workqueue.WorkqueueSystem;
import blksim.kernel.kthread.HousekeepingKworker;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.topology.Cpu;
import blksim.kernel.topology.Topology;
import blksim.workload.fio.FioJob;
import blksim.workload.fio.stats.JobInfo;
import blksim.workload.fio.stats.JobStats;
import blksim.workload.fio.FioEngine;
import blksim.workload.fio.thread.AsyncFioThread;
import blksim.workload.fio.thread.FioJobThread;
import blksim.workload.fio.thread.JobSequencer;
import blksim.workload.fio.thread.NullThread;
import blksim.workload.fio.thread.PsyncThread;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Builds the simulated machine of a scenario: one {@link CpuComponent} per CPU (wrapped with its
 * per-CPU workqueue pools), the unbound workqueue pool hosts, each device's queue on every CPU (a
 * blk-mq hardware context, a bio-based driver's submission path, or a device-mapper table stacked
 * on the queues below it), and the fio job threads.
 *
 * <p>Placement of fio jobs: job {@code k} (in run order, numjobs expanded) runs on CPU
 * {@code k mod nr_cpus} for its whole life. Simplified: the kernel would place and migrate the
 * threads; with one job per CPU or fewer this is what its load balancer converges to.
 */
public final class ScenarioModelFactory implements ModelFactory {

  @Override
  public Model build(String spec) {
    return build(ScenarioLoader.fromSpec(spec));
  }

  /**
   * A built machine: the engine's model, and the workqueue system that reads the workqueue
   * components' reports back ({@code null} when the scenario uses no workqueue), and the VFS with
   * the mounted filesystems ({@code null} without one), whose state a local run leaves there.
   */
  public record Machine(Model model, WorkqueueSystem workqueues, Vfs vfs,
      List<String> unmatchedWqMaxActive) {}

  /**
   * Refuses to split a scenario whose kernel state every CPU shares ({@link
   * Scenario#sharesKernelState}) over several partitions: the loader checks the scenario's own
   * {@code partitions}, this checks a partitioning a runner was handed.
   */
  public static void checkPartitioning(Scenario s, Model model, blksim.engine.Partitioning p) {
    if (!s.sharesKernelState()) {
      return;
    }
    int[] placement = p.place(model.components());
    for (int x : placement) {
      if (x != placement[0]) {
        throw new blksim.engine.InputException(null, 0, "partitions", "the scenario has a page"
            + " cache, a filesystem or a shared request queue, which every CPU touches: it runs"
            + " in one partition only, not '" + p + "'");
      }
    }
  }

  /**
   * Load balancing across LLCs moves a task to another partition as the Java object itself (a
   * message of the local host); the cluster host builds the model once per partition, so a task
   * cannot change partitions there. A run with tasks that may move between LLCs
   * ({@link blksim.kernel.sched.Task#movesAcrossLlc()}) over several partitions of the cluster
   * host is refused.
   */
  public static void checkClusterPartitioning(Scenario s, Model model,
      blksim.engine.Partitioning p) {
    int[] placement = p.place(model.components());
    boolean split = false;
    for (int x : placement) {
      split |= x != placement[0];
    }
    if (!split) {
      return;
    }
    for (blksim.engine.Component c : model.components()) {
      if (c instanceof CpuComponent cpu
          && cpu.tasks().stream().anyMatch(blksim.kernel.sched.Task::movesAcrossLlc)) {
        throw new blksim.engine.InputException(null, 0, "kernel.load-balance", "on, it moves"
            + " tasks between LLCs, which the cluster host cannot do across partitions: use"
            + " --host=local, --partitions=one or kernel.load-balance=off, not '" + p + "'");
      }
    }
  }

  /** Builds the model of an already loaded scenario. */
  public Model build(Scenario s) {
    return machine(s).model();
  }

  /** Builds the machine of an already loaded scenario. */
  public Machine machine(Scenario s) {
    Topology topo = Topology.of(s.topology());
    TimerParams timers = TimerParams.defaults(s.hz());
    WorkqueueParams wqp = WorkqueueParams.defaults(KernelMode.valueOf(s.kernelMode()))
        .withMonitorIntervalNs(s.wqMonitorIntervalNs())
        .withKthreadCreateNs(s.wq().createWorkerNs())
        .withCreateWorkerCpuNs(s.wq().createWorkerCpuNs())
        .withMaxActiveOverrides(s.wq().maxActive())
        .withNodeBoundPools(s.wq().nodeBoundPools());
    WorkqueueSystem.Builder wb = WorkqueueSystem.builder(topo, s.sched(), timers, wqp);
    boolean hasDm = s.devices().stream().anyMatch(d -> d instanceof DmParams);
    boolean pageCacheWrites = s.usesPageCacheWrites();
    int nCpus = topo.cpuCount();
    // null_blk with a scheduler runs its queue through kblockd too (none never defers a run).
    boolean hasRq = s.devices().stream().anyMatch(d -> d instanceof RequestBasedParams
        || (d instanceof NullBlkParams nb && nb.schedulerFor(nb.hwQueues(nCpus))
            != RequestQueueParams.Scheduler.NONE)
        || (d instanceof NvmeParams np && np.schedulerFor(np.hwQueues(nCpus))
            != RequestQueueParams.Scheduler.NONE));
    // Nothing else queues work yet: without dm, writeback, a request queue or wq_monitor the
    // workqueue components would only sit in every event's path (the per-CPU wrapper costs ~15%
    // of the event rate).
    boolean needWq = hasDm || pageCacheWrites || hasRq || s.wqMonitorIntervalNs() > 0;
    Workqueue kdelayd = hasDm ? Kdelayd.alloc(wb) : null;
    // bdi_wq: alloc_workqueue("writeback", WQ_MEM_RECLAIM | WQ_FREEZABLE | WQ_UNBOUND |
    // WQ_SYSFS, 0) in mm/backing-dev.c.
    Workqueue bdiWq = pageCacheWrites ? wb.allocWorkqueue("writeback", Workqueue.WQ_MEM_RECLAIM
        | Workqueue.WQ_FREEZABLE | Workqueue.WQ_UNBOUND | Workqueue.WQ_SYSFS, 0) : null;
    // s_dio_done_wq of each filesystem that asynchronous direct I/O writes to:
    // sb_init_dio_done_wq(): alloc_workqueue("dio/%s", WQ_MEM_RECLAIM, 0, sb->s_id).
    // Simplified: every filesystem gets one when any such job exists.
    Map<String, Workqueue> dioWqs = new LinkedHashMap<>();
    boolean asyncDirect = s.jobs().stream().anyMatch(j -> j.direct() && !j.ioengine().isSync()
        && s.onFilesystem(j));
    for (FilesystemParams f : s.filesystems()) {
      if (asyncDirect) {
        needWq = true;
        dioWqs.put(f.mountPoint(), wb.allocWorkqueue("dio/" + DmTable.deviceName(f.device()),
            Workqueue.WQ_MEM_RECLAIM, 0));
      }
    }
    // btrfs_init_workqueues(): fs_info->endio_write_workers = btrfs_alloc_workqueue(fs_info,
    // "endio-write", WQ_UNBOUND | WQ_MEM_RECLAIM | WQ_FREEZABLE, max_active = thread_pool_size,
    // 2), named "btrfs-endio-write".
    Map<String, Workqueue> btrfsEndioWrite = new LinkedHashMap<>();
    for (FilesystemParams f : s.filesystems()) {
      if (f.btrfs() != null) {
        needWq = true;
        btrfsEndioWrite.put(f.mountPoint(), wb.allocWorkqueue("btrfs-endio-write",
            Workqueue.WQ_UNBOUND | Workqueue.WQ_MEM_RECLAIM | Workqueue.WQ_FREEZABLE,
            f.btrfs().threadPoolSize(nCpus)));
      }
    }
    blksim.kernel.dm.DmzContext dmz = blksim.kernel.dm.DmzContext.alloc(wb,
        s.devices().stream().filter(d -> d instanceof DmParams).map(d -> (DmParams) d).toList(),
        s::device);
    WorkqueueSystem wqs = needWq ? wb.build() : null;
    if (wqs != null) {
      dmz.bind(wqs, s.hz(), nCpus);
    }
    Kdelayd kd = hasDm ? Kdelayd.on(wqs, kdelayd) : Kdelayd.STANDALONE;
    Kblockd kblockd = hasRq ? kblockd(wqs, s.kblockdRunNs()) : Kblockd.INLINE;
    // A request-based device has one queue shared by every CPU (the loader keeps the CPUs in one
    // partition when such a device exists).
    Map<String, RequestQueue> shared = new LinkedHashMap<>();
    blksim.engine.CostDistribution[] spread = spread(s);
    CacheCold cold = CacheCold.of(s);
    for (DeviceParams d : s.devices()) {
      if (d instanceof RequestBasedParams rb) {
        RequestQueue rq = rb.newRequestQueue(kblockd);
        rq.irqDelivery(spread[1], "dev/" + d.name() + "/irq", s.seed());
        shared.put(d.name(), rq);
      }
    }
    // null_blk: one driver per device with its hardware contexts; a context of one CPU is
    // touched by that CPU alone (the loader keeps the CPUs of a shared context together).
    Map<String, NullBlkDriver> nullBlk = new LinkedHashMap<>();
    for (DeviceParams d : s.devices()) {
      if (d instanceof NullBlkParams nb) {
        nullBlk.put(d.name(), new NullBlkDriver(nb, topo.cpus(), kblockd).seed(s.seed())
            .hrtimerExpiry(spread[0])
            .remoteAccess(topo.cpus(), s.sched().placement().cachelineRemoteNs()));
        cold.memoryBacked(nullBlk.get(d.name()), s, d, topo.cpus());
      }
    }
    NullBlkDriver.shareTagSets(new ArrayList<>(nullBlk.values()));
    // nvme: one driver per device, its hardware queues over one media model (the loader keeps
    // the CPUs in one partition when such a device exists).
    Map<String, NvmeDriver> nvme = new LinkedHashMap<>();
    for (DeviceParams d : s.devices()) {
      if (d instanceof NvmeParams np) {
        NvmeDriver drv = new NvmeDriver(np, topo.cpus(), kblockd);
        for (blksim.kernel.block.HwCtx h : drv.hctxs()) {
          h.queue().irqDelivery(spread[1], "dev/" + d.name() + "/irq", s.seed());
        }
        nvme.put(d.name(), drv);
      }
    }
    scsiHostTags(s, shared);
    contendedSchedulerLocks(s, topo.cpus(), shared, nullBlk, nvme);
    List<CpuComponent> cpus = new ArrayList<>();
    boolean skxIdle = cpuIdleSkx(s);
    Map<String, List<BlockQueue>> queues = new LinkedHashMap<>();
    for (Cpu c : topo.cpus()) {
      CpuComponent cpu = new CpuComponent(c, s.sched());
      if (skxIdle) {
        // intel_idle's skx_cstates beyond C1 (C1E, C6), each exit counted above C1's 2 us.
        cpu.useIdleStates(new long[] {10_000 - 2_000, 133_000 - 2_000},
            new long[] {20_000, 600_000});
      }
      if (s.timehist().traces(c.id())) {
        cpu.traceSwitches(s.timehist());
      }
      Map<String, BlockQueue> onCpu = new LinkedHashMap<>();
      for (DeviceParams d : s.devices()) {
        BlockQueue q;
        if (d instanceof DmParams dm) {
          // A mapped device stacks on the queues of the devices declared before it, on this CPU.
          q = dm.newQueue(cpu, s.blockLayer(), timers, kd, dmz, onCpu::get);
        } else if (d instanceof RequestBasedParams) {
          q = shared.get(d.name()).attach(cpu);
        } else if (d instanceof NullBlkParams) {
          q = nullBlk.get(d.name()).attach(cpu);
        } else if (d instanceof NvmeParams) {
          q = nvme.get(d.name()).attach(cpu);
        } else {
          // One seed per device, the same on every CPU: all CPUs agree on its contents.
          q = d.newQueue(cpu, s.blockLayer(),
              new SplittableRandom(Seeds.forComponent(s.seed(), "dev/" + d.name())));
          cold.attach(q, s, d, cpu);
        }
        cpu.attach(q);
        onCpu.put(d.name(), q);
        queues.computeIfAbsent(d.name(), k -> new ArrayList<>()).add(q);
      }
      if (s.housekeepingIntervalNs() > 0) {
        cpu.addTask(new HousekeepingKworker(c.id(), s.housekeepingIntervalNs(),
            s.housekeepingWorkNs()));
      }
      cpus.add(cpu);
    }
    if (s.migratesInLlc() || s.sched().placement().needsLlc()) {
      Map<Integer, List<CpuComponent>> byLlc = new java.util.TreeMap<>();
      for (CpuComponent c : cpus) {
        byLlc.computeIfAbsent(c.cpu().llc(), k -> new ArrayList<>()).add(c);
      }
      // One unmodifiable list per LLC, which every CPU of it keeps as is (List.copyOf of it is
      // itself): not a copy per CPU, quadratic in the LLC's size.
      byLlc.replaceAll((k, v) -> List.copyOf(v));
      for (List<CpuComponent> l : byLlc.values()) {
        CpuComponent.joinLlcAll(l); // linear in the LLC (joinLlc per CPU is quadratic)
      }
      if (s.migratesInLlc()) {
        // Load balancing moves the tasks that may move, within their LLC (issue 15 item 3).
        for (List<CpuComponent> l : byLlc.values()) {
          CpuComponent.loadBalance(l, s.loadBalance());
        }
        // And across the LLCs and nodes (DIE, NUMA), by messages between them.
        CpuComponent.loadBalanceAcross(new ArrayList<>(byLlc.values()), s.loadBalance());
      }
    }
    PageCache pc = null;
    Vfs vfs = null;
    List<Task> workloadTasks = new ArrayList<>();
    Map<String, AddressSpace> bdevMappings = new LinkedHashMap<>();
    MmComponent mm = null;
    if (pageCacheWrites) {
      long pages = (s.memoryBytes() - s.mm().reservedBytes()) >>> 12;
      pc = new PageCache(pages, s.mm().dirty(), s.hz(), cpus.size());
      mm = new MmComponent(pc, s.mm().vmstatIntervalNs());
      for (DeviceParams d : s.devices()) {
        // A filesystem's flusher pays its per-inode cost in the filesystem's allocation
        // (costs.xfs.writeback-per-inode), not again in the generic one.
        boolean holdsFs = s.filesystems().stream()
            .anyMatch(f -> DmTable.deviceName(f.device()).equals(d.name()));
        WritebackParams costs = holdsFs ? new WritebackParams(s.mm().costs().perPageNs(), 0,
            s.mm().costs().writePerPageNs(), s.mm().costs().inodeDoneNs()) : s.mm().costs();
        AddressSpace as = bdevMapping(pc, wqs, bdiWq, cpus.get(0), d, queues.get(d.name()),
            s.mm().plugPolicy(), costs,
            KernelMode.valueOf(s.kernelMode()).isV4_3() ? BlkMqRules.V4_3 : BlkMqRules.V6);
        as.wb().setReadAheadKb(s.mm().readAheadKb());
        bdevMappings.put(d.name(), as);
      }
      if (!s.filesystems().isEmpty() || s.commandsUseVfs()) {
        vfs = new Vfs(pc, s.syscalls(), s.mm().costs());
        vfs.setWaitLock(lockParams(s).waitLock());
        vfs.setReadCosts(s.pageCache());
        vfs.setFaultCosts(s.mm().faults());
        for (FilesystemParams f : s.filesystems()) {
          DeviceParams d = s.device(f.device());
          Filesystem fs = f.mkfs(f.devices().stream().map(n -> s.device(n).sizeBytes())
              .toList());
          vfs.mount(f.mountPoint(), fs, f.readOnly(), bdevMappings.get(d.name()).wb(),
              new SplittableRandom(Seeds.forComponent(s.seed(), "fs" + f.mountPoint())));
          if (dioWqs.containsKey(f.mountPoint())) {
            vfs.setDioDoneWq(f.mountPoint(), wqs, dioWqs.get(f.mountPoint()));
          }
          blksim.kernel.dm.DmzDevice zoned = dmz.devices().get(d.name());
          if (zoned != null && s.dirtyFiles() != null) {
            // dirty-files.overwrite: dm-zoned maps the chunks an earlier run left.
            double rnd = s.dirtyFiles().overwriteRandom();
            vfs.setWrittenHook(f.mountPoint(), (sec, n) -> zoned.prewrite(sec, n, rnd));
          }
          if (fs instanceof blksim.kernel.fs.btrfs.BtrfsFilesystem b) {
            // Direct writes go to each device's queue on the submitting CPU.
            List<List<BlockQueue>> devQueues = new ArrayList<>();
            for (String n : f.devices()) {
              devQueues.add(queues.get(n));
            }
            b.mountedAt(f.mountPoint());
            b.attach(wqs, btrfsEndioWrite.get(f.mountPoint()), dioWqs.get(f.mountPoint()),
                devQueues, s.syscalls(), lockParams(s));
          }
        }
        workloadTasks.addAll(fsMark(s, vfs, cpus));
      }
    }
    long expectedEnd = 0;
    List<FioJob> jobs = startDelays(s.jobs(), s.seed());
    List<FioJobThread> threads = new ArrayList<>();
    checkWriteIologs(s, jobs);
    for (int k = 0; k < jobs.size(); k++) {
      FioJob j = jobs.get(k);
      int[] allowed = allowedCpus(j, k, cpus);
      // fio forks the job; the kernel places it. Here: job k on CPU k, or on the k-th CPU of its
      // cpus_allowed set (round robin), which with cpus_allowed_policy=split is its only CPU.
      int cpuId = allowed == null ? k % cpus.size() : allowed[k % allowed.length];
      JobStats stats = new JobStats(info(j, 1000 + k));
      if (j.disableSlat()) {
        stats.disableSlat();
      }
      if (j.disableLat()) {
        stats.disableLat();
      }
      if (j.disableClat()) {
        stats.disableClat();
      }
      stats.setSampleWindows(j.bwAvgTimeMs(), j.iopsAvgTimeMs());
      stats.setReportOptions(j.unifiedRwReporting(), j.significantFigures(), j.unitBase());
      stats.setPercentileReports(j.slatPercentiles(), j.clatPercentiles(), j.latPercentiles());
      var logs = j.logOptions();
      if (logs != null && logs.avgMsec() == 0) {
        // per_unit_log(): the report's samples come per I/O; gtod_reduce takes the iops ones
        // (account_io_completion()'s no_reduce) and disable_bw the bw ones (refused with it).
        stats.setPerIoSamples(logs.bwPrefix() != null && !j.disableBw(),
            logs.iopsPrefix() != null && !j.gtodReduce());
      }
      stats.setLatencyProfile(j.latencyTargetNs(), j.latencyWindowNs() / 1000,
          j.latencyPercentile());
      if (j.logOptions() != null) {
        stats.keepSamples(); // fio's per-I/O logs are written from them after the run
      }
      FioJobThread t;
      if (s.onFilesystem(j)) {
        // A job on files of a filesystem (directory=, or filename= paths in one); the loader
        // checked the rest.
        Vfs v = vfs;
        t = new FileFioThread(j, k, 1000 + k, task -> new VfsCalls(v, task),
            s.fioCosts().forJob(j),
            stats, s.seed(), j.ioengine() == FioEngine.LIBAIO || j.ioengine() == FioEngine.IO_URING
            || j.ioengine() == FioEngine.POSIXAIO ? s.ioUring() : null, s.syscalls());
      } else if (j.ioengine() == FioEngine.CPUIO) {
        // fio's cpuio engine burns CPU and touches no file and no device.
        t = new blksim.workload.fio.thread.CpuioThread(j, k, 1000 + k, s.fioCosts(), stats,
            s.seed());
      } else if (j.ioengine() == FioEngine.PAGE_FAULT) {
        // fio's page_fault engine: faults on anonymous memory, no file, no device.
        t = new blksim.workload.fio.thread.PageFaultThread(j, k, 1000 + k, s.mm().faults(),
            s.pageCache(), s.fioCosts().forJob(j), stats, s.seed());
      } else if (s.charDevice(j) != null) {
        // /dev/null or /dev/zero: no device, the I/O is the system call's own work.
        t = new blksim.workload.fio.thread.CharDevThread(j, k, 1000 + k, j.offsetBytes()
            + j.jobIndex() * j.offsetIncrementBytes() + j.sizeBytes(), s.charDevice(j),
            s.fioCosts().forJob(j), s.syscalls(), s.ioUring(), chardevZeroPerPage(s), stats,
            s.seed());
      } else if (j.ioengine() == FioEngine.NULL) {
        // fio's null engine touches no file and no device.
        t = new NullThread(j, k, 1000 + k, j.sizeBytes(), s.fioCosts().forJob(j), stats, s.seed());
      } else {
        DeviceParams dev = s.device(j.filename());
        List<BlockQueue> q = queues.get(dev.name());
        t = thread(s, j, k, q, stats, cpus.size(), pc, bdevMappings.get(dev.name()));
        cold.buffers(t, s, j, k, topo.cpus());
      }
      threads.add(t);
      t.setTimers(timers, s.syscalls().timerSlackNs(), spread[0],
          Seeds.forComponent(s.seed(), "hrtimer/fio/" + j.name() + "/" + k));
      t.setAllowedCpus(allowed);
      t.setUnbound(s.migratesInLlc() && (allowed == null || allowed.length > 1));
      // Balancing may move a job to another LLC or node only if nothing else touches its state
      // while it is runnable: synchronous I/O (completed while it sleeps), cpuio, null.
      t.setMovesAcrossLlc(t.unbound() && !j.offload() && j.verifyAsync() == 0
          && (t instanceof PsyncThread || t instanceof blksim.workload.fio.thread.CpuioThread
              || t instanceof NullThread));
      cpus.get(cpuId).addTask(t);
      if (j.runtimeNs() > 0) {
        expectedEnd = Math.max(expectedEnd, j.startDelayNs() + j.rampTimeNs() + j.runtimeNs());
      }
    }
    sequence(jobs, threads);
    workloadTasks.addAll(threads);
    if (s.dirtyFiles() != null) {
      Vfs v = vfs;
      Task d = new blksim.workload.umount.DirtyFilesTask(899, s.dirtyFiles(),
          t -> new VfsCalls(v, t));
      cpus.get(0).addTask(d);
      workloadTasks.add(d);
    }
    if (!s.commands().isEmpty()) {
      Vfs v = vfs;
      ShellTask sh = new ShellTask(900, s.commands(), v == null ? null : t -> new VfsCalls(v, t),
          s.shellExecNs());
      CpuComponent shCpu = cpus.get(0);
      for (Task t : workloadTasks) {
        sh.waitFor(t, shCpu);
      }
      shCpu.addTask(sh);
    }
    long sampleNs = sampleIntervalNs(s);
    if (sampleNs > 0) { // run --report: busy time and completions per interval
      for (CpuComponent c : cpus) {
        c.sample(sampleNs);
      }
    }
    List<Component> components = new ArrayList<>(wqs != null ? wqs.components(cpus) : cpus);
    if (mm != null) {
      components.add(mm);
    }
    java.nio.file.Path blktrace = blktraceDir(s);
    if (blktrace != null) { // run --blktrace DIR: every device traced, per-CPU files
      Map<String, List<blksim.kernel.block.HwCtx>> hctxs = new LinkedHashMap<>();
      nullBlk.forEach((k, d) -> hctxs.put(k, d.hctxs()));
      nvme.forEach((k, d) -> hctxs.put(k, d.hctxs()));
      components.addAll(blksim.kernel.blktrace.BlkTraces.install(blktrace, s.devices(), shared,
          hctxs, queues, cpus));
    }
    long maxTime = s.maxTimeNs() > 0 ? s.maxTimeNs() : Long.MAX_VALUE;
    return new Machine(
        new Model(components, s.sched().wakeupLatencyNs(), maxTime, expectedEnd, s.seed(),
            s.localityGroups()), wqs,
        vfs, wb.unmatchedMaxActiveOverrides().stream().map(Object::toString).toList());
  }

  /**
   * {@code write_iolog}: recorded for block-device, file (and replay and null-engine) jobs, one
   * job per file (fio would intersperse several jobs' lines in one file; here they would race).
   */
  private static void checkWriteIologs(Scenario s, List<FioJob> jobs) {
    java.util.Set<java.nio.file.Path> seen = new java.util.HashSet<>();
    for (FioJob j : jobs) {
      if (j.writeIolog() == null) {
        continue;
      }
      if (!seen.add(java.nio.file.Path.of(j.writeIolog()).toAbsolutePath().normalize())) {
        throw new blksim.engine.InputException(null, 0, "write_iolog", "job " + j.name()
            + ": " + j.writeIolog() + " is written by another job too; give each job its own"
            + " (fio would intersperse their lines; with numjobs use a name per clone)");
      }
    }
  }

  /**
   * The kernel's sources of latency spread (issue 10 item 9): {@code costs.timer.hrtimer-expiry}
   * and {@code costs.irq.delivery}, read from the spec (the loader has checked them).
   */
  static blksim.engine.CostDistribution[] spread(Scenario s) {
    com.typesafe.config.Config c = com.typesafe.config.ConfigFactory.parseString(s.spec());
    Values v = new Values(c, "blksim", ScenarioSchema.KEYS);
    return new blksim.engine.CostDistribution[] {v.getCost("costs.timer.hrtimer-expiry"),
        v.getCost("costs.irq.delivery")};
  }

  /**
   * Cache-cold first touches (issue 10 item 9, {@code kernel.cache-cold}): one
   * {@link blksim.kernel.block.CacheFootprint} per CPU, given to that CPU's brd and zram queues
   * with a stream per (device, CPU) for the costs that are distributions. Off: {@link #attach}
   * does nothing.
   */
  private static final class CacheCold {
    private final blksim.engine.CostDistribution page;
    private final blksim.engine.CostDistribution path;
    private final long sizeBytes;
    private final Map<Integer, blksim.kernel.block.CacheFootprint> byCpu = new LinkedHashMap<>();

    private CacheCold(blksim.engine.CostDistribution page, blksim.engine.CostDistribution path,
        long sizeBytes) {
      this.page = page;
      this.path = path;
      this.sizeBytes = sizeBytes;
    }

    static CacheCold of(Scenario s) {
      com.typesafe.config.Config c = com.typesafe.config.ConfigFactory.parseString(s.spec());
      Values v = new Values(c, "blksim", ScenarioSchema.KEYS);
      if (!"on".equals(v.getString("kernel.cache-cold"))) {
        return new CacheCold(null, null, 0);
      }
      return new CacheCold(v.getCost("costs.cache.cold-page"), v.getCost("costs.cache.cold-path"),
          v.getSize("costs.cache.size"));
    }

    /** Every CPU's footprint, indexed by CPU id (created here, before the run). */
    blksim.kernel.block.CacheFootprint[] all(List<Cpu> cpus) {
      blksim.kernel.block.CacheFootprint[] a = new blksim.kernel.block.CacheFootprint[cpus.size()];
      for (Cpu c : cpus) {
        a[c.id()] = byCpu.computeIfAbsent(c.id(),
            k -> new blksim.kernel.block.CacheFootprint(sizeBytes));
      }
      return a;
    }

    /**
     * A null_blk device's {@code memory-backed} key: its copy costs
     * ({@code costs.null-blk.memory-*-page}) and, when on, its cold touches.
     */
    void memoryBacked(NullBlkDriver drv, Scenario s, DeviceParams d, List<Cpu> cpus) {
      com.typesafe.config.Config c = com.typesafe.config.ConfigFactory.parseString(s.spec());
      int i = s.devices().indexOf(d);
      com.typesafe.config.Config dc = ((com.typesafe.config.ConfigObject) c.getList(
          "blksim.devices").get(i)).toConfig();
      Values dv = new Values(dc, null, ScenarioSchema.DEVICE_KEYS.get("null_blk"), "");
      if (!dv.getBoolean("memory-backed")) {
        return;
      }
      Values v = new Values(c, "blksim", ScenarioSchema.KEYS);
      drv.memoryBacked(v.getDuration("costs.null-blk.memory-read-page"),
          v.getDuration("costs.null-blk.memory-write-page"));
      if (page != null) {
        drv.coldTouches(all(cpus), i, page, path);
      }
    }

    /**
     * A buffered job's I/O buffers ({@link FioJobThread#coldBuffers}): address space 2^14 + k,
     * above every device index; a distribution drawn from the job's stream
     * {@code job/NAME/K/cache}.
     */
    void buffers(FioJobThread t, Scenario s, FioJob j, int k, List<Cpu> cpus) {
      if (page == null || j.direct()) {
        return;
      }
      SplittableRandom r = page.isConstant() ? null : new SplittableRandom(
          Seeds.forComponent(s.seed(), "job/" + j.name() + "/" + k + "/cache"));
      t.coldBuffers(all(cpus), (1 << 14) + k, page, r);
    }

    void attach(BlockQueue q, Scenario s, DeviceParams d, CpuComponent cpu) {
      if (page == null || !(q instanceof blksim.kernel.block.BioBasedQueue b)) {
        return;
      }
      int id = cpu.cpu().id();
      blksim.kernel.block.CacheFootprint fp = byCpu.computeIfAbsent(id,
          k -> new blksim.kernel.block.CacheFootprint(sizeBytes));
      SplittableRandom r = page.isConstant() && path.isConstant() ? null
          : new SplittableRandom(Seeds.forComponent(s.seed(),
              "dev/" + d.name() + "/cache/cpu" + id));
      b.coldTouches(fp, s.devices().indexOf(d), page, path, r);
    }
  }

  /**
   * SCSI hosts: request-based drives naming the same {@code host} share one tag set of
   * {@code host-queue-depth} tags (the host's {@code can_queue}; one hardware queue per drive,
   * so the set is shared between request queues, {@code BLK_MQ_F_TAG_QUEUE_SHARED} with two or
   * more drives, and each drive's {@code queue-depth} stays its device queue depth). Read from
   * the scenario's device list (the loader checked the depths agree).
   */
  private static void scsiHostTags(Scenario s, Map<String, RequestQueue> shared) {
    com.typesafe.config.Config c = com.typesafe.config.ConfigFactory.parseString(s.spec());
    if (!c.hasPath("blksim.devices")) {
      return;
    }
    Map<String, List<RequestQueue>> byHost = new LinkedHashMap<>();
    Map<String, Integer> depth = new LinkedHashMap<>();
    for (com.typesafe.config.ConfigValue e : c.getList("blksim.devices")) {
      com.typesafe.config.Config d = ((com.typesafe.config.ConfigObject) e).toConfig();
      String type = d.getString("type");
      if (!type.equals("disk") && !type.equals("ssd") && !type.equals("zoned-disk")) {
        continue;
      }
      Values dv = new Values(d, null, ScenarioSchema.DEVICE_KEYS.get(type), "");
      String host = dv.getString("host").trim();
      RequestQueue q = shared.get(dv.getString("name"));
      if (host.isEmpty() || q == null) {
        continue;
      }
      byHost.computeIfAbsent(host, k -> new ArrayList<>()).add(q);
      depth.putIfAbsent(host, dv.getInt("host-queue-depth"));
    }
    for (Map.Entry<String, List<RequestQueue>> h : byHost.entrySet()) {
      blksim.kernel.block.BlkMqTags tags = new blksim.kernel.block.BlkMqTags(h.getKey(),
          depth.get(h.getKey())).queueShared(h.getValue().size() > 1);
      for (RequestQueue q : h.getValue()) {
        q.shareTags(tags.newSharer());
      }
    }
  }

  /**
   * {@code kernel.cpuidle = skx}: intel_idle's {@code skx_cstates} (drivers/idle/intel_idle.c,
   * [S]): C1 exit 2 us; C1E exit 10 us, target residency 20 us; C6 exit 133 us, target residency
   * 600 us. Off: every idle CPU is in C1 and nothing changes.
   */
  private static boolean cpuIdleSkx(Scenario s) {
    Values v = new Values(com.typesafe.config.ConfigFactory.parseString(s.spec()), "blksim",
        ScenarioSchema.KEYS);
    return v.getString("kernel.cpuidle").equals("skx");
  }

  /**
   * The sleeping locks' parameters: HZ, and {@code sem->wait_lock} when
   * {@code kernel.rwsem-wait-lock = on} (off: not modelled, nothing changes).
   */
  static blksim.kernel.locking.LockParams lockParams(Scenario s) {
    blksim.kernel.locking.LockParams p =
        blksim.kernel.locking.LockParams.DEFAULT.withHz(s.hz());
    Values v = new Values(com.typesafe.config.ConfigFactory.parseString(s.spec()), "blksim",
        ScenarioSchema.KEYS);
    if (!v.getString("kernel.rwsem-wait-lock").equals("on")) {
      return p;
    }
    return p.withWaitLock(new blksim.kernel.locking.LockParams.WaitLock(
        new blksim.kernel.locking.SpinLockParams(
            v.getDuration("costs.spinlock.handoff-smt"),
            v.getDuration("costs.spinlock.handoff-llc"),
            v.getDuration("costs.spinlock.handoff-node"),
            v.getDuration("costs.spinlock.handoff-remote-node"),
            v.getDuration("costs.spinlock.handoff-socket")),
        v.getDuration("costs.rwsem.wait-lock-hold"), v.getDuration("costs.rwsem.wait-list-entry")));
  }

  /**
   * {@code kernel.spinlock-contention = on}: mq-deadline's {@code dd->lock} of every request
   * queue with a scheduler that more than one CPU submits to becomes a contended
   * {@link blksim.kernel.locking.SpinLock} (such queues already keep their CPUs in one
   * partition). Off, nothing changes.
   */
  private static void contendedSchedulerLocks(Scenario s, List<Cpu> cpus,
      Map<String, RequestQueue> shared, Map<String, NullBlkDriver> nullBlk,
      Map<String, NvmeDriver> nvme) {
    Values v = new Values(com.typesafe.config.ConfigFactory.parseString(s.spec()), "blksim",
        ScenarioSchema.KEYS);
    if (!v.getString("kernel.spinlock-contention").equals("on")) {
      return;
    }
    blksim.kernel.locking.SpinLockParams costs = new blksim.kernel.locking.SpinLockParams(
        v.getDuration("costs.spinlock.handoff-smt"), v.getDuration("costs.spinlock.handoff-llc"),
        v.getDuration("costs.spinlock.handoff-node"),
        v.getDuration("costs.spinlock.handoff-remote-node"),
        v.getDuration("costs.spinlock.handoff-socket"));
    long hold = v.getDuration("costs.spinlock.dd-lock-hold");
    List<RequestQueue> qs = new ArrayList<>(shared.values());
    for (NullBlkDriver d : nullBlk.values()) {
      for (blksim.kernel.block.HwCtx h : d.hctxs()) {
        if (!h.cpuLocal()) {
          qs.add(h.queue());
        }
      }
    }
    for (NvmeDriver d : nvme.values()) {
      for (blksim.kernel.block.HwCtx h : d.hctxs()) {
        if (!h.cpuLocal()) {
          qs.add(h.queue());
        }
      }
    }
    for (RequestQueue q : qs) {
      if (q.params().scheduler() != blksim.kernel.block.RequestQueueParams.Scheduler.NONE) {
        q.modelSchedulerLock(new blksim.kernel.locking.SpinLock(q.params().name() + "/dd->lock",
            costs), cpus, hold);
      }
    }
  }

  /** {@code trace.sample-interval} (set by {@code run --report DIR}), 0 when off. */
  public static long sampleIntervalNs(Scenario s) {
    com.typesafe.config.Config c = com.typesafe.config.ConfigFactory.parseString(s.spec());
    return new Values(c, "blksim", ScenarioSchema.KEYS).getDuration("trace.sample-interval");
  }

  /** {@code trace.blktrace-dir} (set by {@code run --blktrace DIR}), or null when not tracing. */
  static java.nio.file.Path blktraceDir(Scenario s) {
    com.typesafe.config.Config c = com.typesafe.config.ConfigFactory.parseString(s.spec());
    String key = "blksim.trace.blktrace-dir";
    String dir = c.hasPath(key) ? c.getString(key) : "";
    return dir.isEmpty() ? null : java.nio.file.Path.of(dir);
  }

  /**
   * The page cache of block device {@code d} (its bdev inode's address_space, sector = page x 8)
   * and its bdi_writeback, whose flusher is a delayed work homed on {@code home} on the
   * {@code writeback} workqueue.
   */
  private static AddressSpace bdevMapping(PageCache pc, WorkqueueSystem wqs, Workqueue bdiWq,
      CpuComponent home, DeviceParams d, List<BlockQueue> q, WbPlugPolicy policy,
      WritebackParams costs, BlkMqRules rules) {
    DelayedWork[] dwork = new DelayedWork[1];
    BdiWriteback wb = pc.newWb(d.name(), new WbScheduler() {
      @Override
      public void modDelayedWork(BdiWriteback w, long delayJiffies) {
        wqs.modDelayedWork(home, bdiWq, dwork[0], delayJiffies);
      }

      @Override
      public void queueDelayedWork(BdiWriteback w, long delayJiffies) {
        wqs.queueDelayedWork(home, bdiWq, dwork[0], delayJiffies);
      }
    });
    dwork[0] = new DelayedWork(wqs.newWorkItem("wb_workfn/" + d.name(), wb.workFn(),
        home.cpu().id()));
    wb.attach(q::get, policy, costs, flusherPlug(rules));
    return pc.newAddressSpace(new AddressSpace.Host() {
      @Override
      public long prepareWriteback(AddressSpace as) {
        return 0;
      }

      @Override
      public long sectorOf(AddressSpace as, long index) {
        return index << 3;
      }

      @Override
      public long iSize(AddressSpace as) {
        return d.sizeBytes(); // the block device inode's i_size
      }
    }, wb);
  }

  /**
   * kblockd on the workqueue model: each (request queue, CPU) gets its run work, an item homed on
   * the CPU ({@code INIT_DELAYED_WORK(&hctx->run_work, blk_mq_run_work_fn)}), queued on the
   * per-CPU, WQ_HIGHPRI | WQ_MEM_RECLAIM {@code kblockd} workqueue; one run costs
   * {@code runNs} of the kworker's system time, then dispatches.
   */
  static Kblockd kblockd(WorkqueueSystem wqs, long runNs) {
    return (name, cpu, run) -> {
      CpuComponent c = cpuComponent(cpu);
      WorkItem item = wqs.newWorkItem("blk_mq_run_work_fn", () -> {
        boolean[] paid = {false};
        return w -> {
          if (!paid[0]) {
            paid[0] = true;
            w.runFor(runNs);
          } else {
            run.run();
            w.finish();
          }
        };
      }, c.cpuId());
      return () -> wqs.queueWork(c, wqs.kblockd(), item);
    };
  }

  private static CpuComponent cpuComponent(DriverCpu cpu) {
    if (cpu instanceof CpuComponent c) {
      return c;
    }
    throw new IllegalStateException("kblockd binds to a scheduler CPU, got " + cpu);
  }

  /**
   * The fs_mark instances of the scenario: parent {@code k} on CPU {@code k mod n}; its children
   * on the CPUs that follow the previous instances' children.
   */
  private static List<Task> fsMark(Scenario s, Vfs vfs, List<CpuComponent> cpus) {
    List<Task> parents = new ArrayList<>();
    int firstCpu = 0;
    // fs_mark's clock: the simulated wall clock starts at 2015-09-01 00:00:00 UTC (thread 4's
    // month), so names and headers look like a real run's and stay the same for every run.
    long epochUsec = 1_441_065_600_000_000L;
    List<FsMarkOptions> lines = s.fsMark();
    for (int k = 0; k < lines.size(); k++) {
      FsMarkOptions o = lines.get(k);
      Vfs.Mount m = vfs.mountOf(o.directories().get(0));
      FsMarkParent parent = new FsMarkParent(k, 2000 + 1000 * k, o, cpus, firstCpu,
          t -> new VfsCalls(vfs, t), m.fs(), s.fsMarkCosts().userPerFileNs(),
          s.fsMarkCosts().forkNs(), epochUsec, s.seed());
      cpus.get(k % cpus.size()).addTask(parent);
      parents.add(parent);
      firstCpu += o.threads();
    }
    return parents;
  }

  /**
   * The flusher's plug on the block layer: one {@link Plug} per wb, made {@code current->plug}
   * of the kworker running the flusher while its outermost start is held.
   */
  static FlusherPlug flusherPlug(BlkMqRules rules) {
    Plug plug = new Plug(rules);
    return new FlusherPlug() {
      @Override
      public boolean start(Task owner) {
        boolean outermost = plug.start();
        if (outermost) {
          owner.setPlug(plug);
        }
        return outermost;
      }

      @Override
      public void finish(Task owner, boolean outermost) {
        plug.finish();
        if (outermost) {
          owner.setPlug(null);
        }
      }

      @Override
      public void flush(DriverCpu cpu) {
        plug.flush(cpu, false);
      }

      @Override
      public boolean submit(BlockQueue q, Bio bio, BioEndIo endIo, Runnable onTagFree) {
        return q.issue(bio, endIo, onTagFree, plug);
      }
    };
  }

  /**
   * Each job with a {@code startdelay} range gets its delay, uniform in the range as fio's
   * {@code rand_between()} draws it, from a stream of the run seed and the job's number.
   */
  static List<FioJob> startDelays(List<FioJob> jobs, long seed) {
    List<FioJob> out = new ArrayList<>(jobs);
    for (int k = 0; k < out.size(); k++) {
      FioJob j = out.get(k);
      if (j.startDelayHighNs() > j.startDelayNs()) {
        java.util.SplittableRandom r = new java.util.SplittableRandom(
            blksim.engine.Seeds.forComponent(seed, "fio/" + k + "/startdelay"));
        out.set(k, j.withStartDelay(r.nextLong(j.startDelayNs(), j.startDelayHighNs() + 1)));
      } else if (j.startDelayHighNs() > 0) {
        out.set(k, j.withStartDelay(j.startDelayNs()));
      }
    }
    return out;
  }

  /**
   * Puts the job threads under one {@link JobSequencer} when a job is sequenced (stonewall,
   * wait_for, exitall); otherwise every job starts at once, as before.
   */
  private static void sequence(List<FioJob> jobs, List<FioJobThread> threads) {
    if (!JobSequencer.needed(jobs)) {
      return;
    }
    JobSequencer seq = new JobSequencer(jobs);
    threads.forEach(t -> t.setSequencer(seq));
  }

  /** {@code costs.chardev.zero-read-per-page} (read from the spec, as the trace keys are). */
  private static long chardevZeroPerPage(Scenario s) {
    return new Values(com.typesafe.config.ConfigFactory.parseString(s.spec()), "blksim",
        ScenarioSchema.KEYS).getDuration("costs.chardev.zero-read-per-page");
  }

  private static FioJobThread thread(Scenario s, FioJob j, int k, List<BlockQueue> q,
      JobStats stats, int nCpus, PageCache pc, AddressSpace bdevMapping) {
    int pid = 1000 + k;
    if (j.ioengine().isSync()) {
      return new PsyncThread(j, k, pid, q::get, s.fioCosts().forJob(j), s.syscalls(),
          s.pageCache(), stats,
          s.seed(), pc, bdevMapping, s.mm().costs());
    }
    AsyncFioThread.Engine engine = j.ioengine() == FioEngine.IO_URING
        ? AsyncFioThread.Engine.IO_URING : AsyncFioThread.Engine.LIBAIO;
    return new AsyncFioThread(j, k, pid, q::get, s.fioCosts().forJob(j), s.syscalls(),
        s.pageCache(), s.ioUring(), engine, nCpus, stats, s.seed(), pc, bdevMapping,
        s.mm().costs());
  }

  /**
   * The CPUs job {@code k} (its global number, fio's {@code thread_number - 1}) may run on:
   * {@code cpus_allowed} (or the CPUs of {@code numa_cpu_nodes}, which fio applies after it),
   * cut to its {@code k}-th CPU by {@code cpus_allowed_policy=split}
   * ({@code fio_cpus_split()}); {@code null} for all.
   */
  static int[] allowedCpus(FioJob j, int k, List<CpuComponent> cpus) {
    int[] set = j.cpusAllowed();
    int[] nodes = j.numaCpuNodes();
    if (nodes != null) {
      // numa_run_on_node_mask() after fio_setaffinity(): the nodes' CPUs replace the set.
      if (nodes.length == 1 && nodes[0] < 0) {
        return null;
      }
      java.util.Set<Integer> wanted = new java.util.TreeSet<>();
      for (int n : nodes) {
        wanted.add(n);
      }
      set = cpus.stream().filter(c -> wanted.contains(c.cpu().node()))
          .mapToInt(c -> c.cpu().id()).sorted().toArray();
    }
    if (set == null) {
      return null;
    }
    return j.cpusAllowedSplit() ? new int[] {set[k % set.length]} : set;
  }

  /** The reporting identity of job {@code j}, whose task has pid {@code pid}. */
  static JobInfo info(FioJob j, int pid) {
    return new JobInfo(j.name(), j.groupId(), j.jobIndex(), j.jobOptions(),
        j.rw().fioName(), j.bs().clone(), j.ioengine().fioName(), j.iodepth(),
        j.ioengine().isSync() || (j.ioengine() == FioEngine.NULL && j.iodepth() <= 1),
        j.percentileList().clone(),
        j.description() == null ? "" : j.description(), j.groupReporting(), pid);
  }
}
