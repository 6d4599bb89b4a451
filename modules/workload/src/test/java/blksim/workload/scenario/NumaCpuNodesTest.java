package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.IndexedReport;
import blksim.engine.InputException;
import blksim.engine.LocalRunner;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.kernel.sched.CpuReport;
import blksim.kernel.sched.TaskReport;
import blksim.workload.fio.thread.FioJobThread;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * fio's {@code numa_cpu_nodes}: the job runs on the CPUs of those NUMA nodes (fio's
 * {@code numa_run_on_node_mask()}, applied after {@code cpus_allowed}); {@code numa_mem_policy}
 * is checked and has no effect.
 */
@Timeout(60)
class NumaCpuNodesTest {
  @TempDir Path dir;

  /** 2 sockets (nodes) x 2 cores: CPUs 0-1 on node 0, 2-3 on node 1. */
  Path scenario(String job) throws IOException {
    Path p = dir.resolve("n.conf");
    Files.writeString(p, "blksim {\n  machine { sockets = 2, cores-per-llc = 2,"
        + " threads-per-core = 1 }\n"
        + "  devices = [ { type = null_blk, name = nullb0, size = 1G } ]\n"
        + "  fio.jobs = [\"\"\"\n[j]\nfilename=/dev/nullb0\ndirect=1\nrw=randread\n"
        + "runtime=1ms\ntime_based\nnumjobs=2\n" + job + "\n\"\"\"]\n}\n");
    return p;
  }

  /** The CPUs whose reports hold a fio job thread. */
  TreeSet<Integer> cpusOfJobs(String job) throws IOException {
    Scenario s = ScenarioLoader.load(scenario(job), List.of(), Map.of());
    RunOutcome out = LocalRunner.run(new ScenarioModelFactory().build(s.spec()), Partitioning.ONE,
        1, ProgressListener.NONE);
    TreeSet<Integer> cpus = new TreeSet<>();
    for (IndexedReport r : out.reports()) {
      if (r.report().kind().equals(CpuReport.KIND)) {
        CpuReport c = CpuReport.decode(r.report().payload());
        for (TaskReport t : c.tasks()) {
          if (t.kind().equals(FioJobThread.KIND)) {
            cpus.add(c.cpu());
          }
        }
      }
    }
    return cpus;
  }

  @Test
  void jobsRunOnTheNodesCpus_evenAgainstCpusAllowed() throws IOException {
    assertEquals(new TreeSet<>(List.of(0, 1)), cpusOfJobs(""));
    assertEquals(new TreeSet<>(List.of(2, 3)), cpusOfJobs("numa_cpu_nodes=1"));
    assertEquals(new TreeSet<>(List.of(2, 3)),
        cpusOfJobs("cpus_allowed=0\nnuma_cpu_nodes=1\nnuma_mem_policy=bind:1"));
  }

  @Test
  void aMissingNode_andABadPolicy_areRefused() {
    InputException e = assertThrows(InputException.class,
        () -> ScenarioLoader.load(scenario("numa_cpu_nodes=0-2"), List.of(), Map.of()));
    assertEquals("numa_cpu_nodes", e.key());
    assertTrue(e.getMessage().contains("node 2 does not exist"), e.getMessage());
    e = assertThrows(InputException.class,
        () -> ScenarioLoader.load(scenario("numa_mem_policy=prefer:0-1"), List.of(), Map.of()));
    assertEquals("numa_mem_policy", e.key());
  }
}
