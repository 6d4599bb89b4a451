package blksim.workload.scenario;

import blksim.engine.IndexedReport;
import blksim.engine.RunOutcome;
import blksim.engine.RunStats;
import blksim.kernel.block.DiskCounters;
import blksim.kernel.sched.CpuReport;
import blksim.kernel.sched.TaskReport;
import blksim.kernel.sched.TaskStat;
import blksim.workload.fio.stats.CpuUtil;
import blksim.workload.fio.stats.DiskStats;
import blksim.workload.fio.stats.EngineStats;
import blksim.workload.fio.stats.JobStats;
import blksim.workload.fio.stats.RunResult;
import blksim.workload.fio.stats.ThreadStat;
import blksim.workload.fio.thread.FioJobThread;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns the components' reports of a run into fio's results: per-job statistics in job order and
 * per-disk statistics summed over CPUs.
 */
public final class ScenarioResults {
  /** The version blksim reports. */
  public static final String VERSION = "0.1.0";

  private ScenarioResults() {}

  /** The fio view of a run. */
  public static RunResult toRunResult(RunOutcome outcome, long wallClockEpochMs) {
    TreeMap<Integer, JobStats> jobs = new TreeMap<>();
    List<CpuUtil> cpus = new ArrayList<>();
    TreeMap<Integer, List<ThreadStat>> threadsByCpu = new TreeMap<>();
    Map<String, List<DiskCounters.Snapshot>> disks = new LinkedHashMap<>();
    for (IndexedReport ir : outcome.reports()) {
      if (!ir.report().kind().equals(CpuReport.KIND)) {
        continue;
      }
      CpuReport cpu = CpuReport.decode(ir.report().payload());
      cpus.add(new CpuUtil(cpu.cpu(), cpu.userNs(), cpu.sysNs(), cpu.irqNs(), cpu.idleNs(),
          cpu.contextSwitches()));
      List<ThreadStat> ts = new ArrayList<>(cpu.threads().size());
      for (TaskStat t : cpu.threads()) {
        ts.add(new ThreadStat(cpu.cpu(), t.tid(), t.comm(), t.nice(), t.utimeNs(), t.stimeNs(),
            t.nvcsw(), t.nivcsw(), t.runDelayNs(), t.pcount(), t.migrations(), t.state(),
            t.wchan(), t.locks()));
      }
      threadsByCpu.put(cpu.cpu(), ts);
      for (TaskReport t : cpu.tasks()) {
        if (t.kind().equals(FioJobThread.KIND)) {
          jobs.put(FioJobThread.jobNumber(t.name()), JobStats.decode(t.payload()));
        }
      }
      for (DiskCounters.Snapshot d : cpu.disks()) {
        disks.computeIfAbsent(d.disk(), k -> new ArrayList<>()).add(d);
      }
    }
    RunStats rs = outcome.stats();
    List<DiskStats> diskStats = new ArrayList<>();
    for (Map.Entry<String, List<DiskCounters.Snapshot>> e : disks.entrySet()) {
      DiskCounters.Snapshot sum = null;
      long[] busy = new long[e.getValue().size()];
      int i = 0;
      for (DiskCounters.Snapshot s : e.getValue()) {
        sum = sum == null ? s : sum.plus(s);
        busy[i++] = s.ioTicksNs();
      }
      double util = DiskCounters.utilisation(busy, rs.simulatedTimeNs()) * 100;
      diskStats.add(new DiskStats(e.getKey(), sum.readIos(), sum.writeIos(), sum.readSectors(),
          sum.writeSectors(), sum.readMerges(), sum.writeMerges(), sum.readTicksNs() / 1_000_000,
          sum.writeTicksNs() / 1_000_000, sum.timeInQueueNs() / 1_000_000, util, sum.tagWaits(),
          sum.tagWaitNs(), sum.lockSpins(), sum.lockSpinNs()));
    }
    EngineStats es = new EngineStats(rs.events(), rs.windows(), rs.partitions(),
        rs.couplingFactor(), rs.simulatedTimeNs(), rs.wallTimeNs(), rs.eventsPerWallSecond());
    cpus.sort(java.util.Comparator.comparingInt(CpuUtil::cpu));
    List<ThreadStat> threads = new ArrayList<>();
    threadsByCpu.values().forEach(threads::addAll);
    return new RunResult(new ArrayList<>(jobs.values()), diskStats, es, wallClockEpochMs, VERSION,
        new java.util.LinkedHashMap<>(), cpus, threads);
  }
}
