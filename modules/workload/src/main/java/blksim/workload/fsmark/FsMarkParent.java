package blksim.workload.fsmark;

import blksim.engine.Seeds;
import blksim.kernel.fs.Filesystem;
import blksim.kernel.fs.VfsCalls;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.sched.TaskReport;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * The fs_mark parent process of one command line ({@code main()} of fs_mark 3.3): per iteration
 * it forks the {@code -t} children ({@link FsMarkProcess}), waits for all of them, reads the
 * filesystem's usage ({@code get_df_full()}) and adds a line to the table
 * ({@link FsMarkIteration#after}); it loops while {@link FsMarkOptions#anotherIteration} says so,
 * then exits. The run's results are its report ({@link FsMarkRunReport}).
 *
 * <p>Placement: child {@code i} of this instance runs for its life on CPU
 * {@code nCpus - 1 - ((firstCpu + i) mod nCpus)}, from the highest CPU down. The kernel's fork
 * balancing puts each child on an idle CPU; counting from the top leaves the low CPUs, where the
 * unbound workqueue pools start their kworkers (the flusher among them) and where the parents
 * sleep, to those, as the kernel's idle-CPU search would on a machine with CPUs to spare.
 * Simplified: no migration afterwards (there is no load balancing). A fork costs the child
 * {@code forkNs} before it can run [A]; the parent itself uses no CPU.
 */
public final class FsMarkParent extends Task {
  /** {@link TaskReport#kind()} of its report. */
  public static final String KIND = "fs_mark";

  private final int instance;
  private final FsMarkOptions options;
  private final FsMarkPlan planner;
  private final List<CpuComponent> cpus;
  private final int firstCpu;
  private final Function<Task, VfsCalls> calls;
  private final Filesystem fs;
  private final long userPerFileNs;
  private final long forkNs;
  private final long epochUsec;
  private final long runSeed;
  private final List<FsMarkIteration> iterations = new ArrayList<>();
  private final List<FsMarkProcess> children = new ArrayList<>();
  private int running;
  private int loops;
  private long startNs = -1;
  private long endNs;
  private boolean waiting;

  public FsMarkParent(int instance, int pid, FsMarkOptions options, List<CpuComponent> cpus,
      int firstCpu, Function<Task, VfsCalls> calls, Filesystem fs, long userPerFileNs,
      long forkNs, long epochUsec, long runSeed) {
    super("fs_mark", pid, 0);
    this.instance = instance;
    this.options = options;
    this.planner = new FsMarkPlan(options);
    this.cpus = cpus;
    this.firstCpu = firstCpu;
    this.calls = calls;
    this.fs = fs;
    this.userPerFileNs = userPerFileNs;
    this.forkNs = forkNs;
    this.epochUsec = epochUsec;
    this.runSeed = runSeed;
  }

  @Override
  public boolean keepsRunAlive() {
    return true;
  }

  @Override
  protected void step(TaskCpu cpu) {
    if (startNs < 0) {
      startNs = cpu.now();
    }
    if (waiting) {
      if (running > 0) {
        cpu.sleep();
        return;
      }
      waiting = false;
      List<FsMarkStats> stats = new ArrayList<>();
      for (FsMarkProcess c : children) {
        stats.add(c.stats());
      }
      children.clear();
      int use = FsMarkIteration.dfFullPercent(fs.totalBlocks(), fs.freeBlocks());
      iterations.add(FsMarkIteration.after(iterations.isEmpty() ? null
          : iterations.get(iterations.size() - 1), stats, use, options));
      loops++;
      if (!options.anotherIteration(loops)) {
        endNs = cpu.now();
        cpu.exit();
        return;
      }
    }
    fork(cpu);
  }

  /** Forks this iteration's children and sleeps until they are all done. */
  private void fork(TaskCpu cpu) {
    CpuComponent parentCpu = cpu.cpu();
    FsMarkProcess.Done done = child -> {
      if (--running == 0) {
        parentCpu.wake(this);
      }
    };
    for (int i = 0; i < options.threads(); i++) {
      SplittableRandom r = new SplittableRandom(Seeds.forComponent(runSeed,
          "fs_mark/" + instance + "/" + loops + "/" + i));
      FsMarkProcess p = new FsMarkProcess("fs_mark", pid() + 1 + loops * options.threads() + i,
          planner, i, epochUsec, r, calls, userPerFileNs, done);
      children.add(p);
      running++;
      cpus.get(cpus.size() - 1 - (firstCpu + i) % cpus.size()).spawn(p, forkNs);
    }
    waiting = true;
    cpu.sleep();
  }

  /** The results so far. */
  public FsMarkRunResult result() {
    return new FsMarkRunResult(options, List.copyOf(iterations));
  }

  @Override
  public TaskReport report(long end) {
    long finished = endNs > 0 ? endNs : end;
    return new TaskReport("fs_mark/" + instance, KIND,
        new FsMarkRunReport(instance, options.argv(), iterations, Math.max(0, startNs),
            finished).encode());
  }
}
