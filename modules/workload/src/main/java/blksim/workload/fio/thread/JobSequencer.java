package blksim.workload.fio.thread;

import blksim.kernel.sched.CpuComponent;
import blksim.workload.fio.FioJob;
import java.util.List;

/**
 * fio's job sequencing: which jobs may start, and which must stop when an {@code exitall} job ends.
 *
 * <p>Mirrors {@code run_threads()} in fio's {@code backend.c}: jobs are looked at in order; a job
 * whose {@code startdelay} (counted from the start of the run) has not passed is skipped; a
 * {@code stonewall} job waits while any earlier started job still runs, and no job after it
 * starts before it does ({@code break}); a {@code wait_for} job waits while any job of that name
 * still runs ({@code waitee_running()}); the rest start. As in fio's {@code add_job()}, clones
 * ({@code numjobs}) carry no stonewall of their own. When a job ends and any job of the run has
 * {@code exitall} ({@code exitall_on_terminate}), {@code fio_terminate_threads()} ({@code libfio.c})
 * ends the jobs its {@code exit_what} names: {@code group} its reporting group (jobs not started
 * yet never start), {@code stonewall} the jobs running now, {@code all} every job.
 *
 * <p>Simplified: fio's main loop looks every 100 ms ({@code do_usleep(100000)}); here a waiting
 * job is woken when the job it waits for ends (one wakeup latency later if on another CPU).
 * Shared by the job threads of a run, which must therefore be in one partition (the loader
 * refuses other partitionings when a job is sequenced). Decisions depend only on the jobs' states
 * and the time, so they do not depend on the order in which threads ask.
 *
 * <p>It also holds fio's flow control ({@code flow}, {@code flow_id}; {@link #flowExceeded}),
 * shared by the jobs of a flow as fio's {@code fio_flow} in shared memory is.
 */
public final class JobSequencer {
  private enum State {
    WAITING,
    RUNNING,
    EXITED
  }

  private final List<FioJob> jobs;
  private final State[] state;
  private final boolean[] terminate;
  private final FioJobThread[] threads;
  private final boolean exitallOnTerminate;
  /**
   * fio's {@code flow.c}: per {@code flow_id}, the shared I/O counter (starting at 1) and the
   * total weight of its jobs ({@code flow_init_job()} at {@code add_job()}, so every job of the
   * run counts from the start); per job its own counter.
   */
  private final java.util.TreeMap<Integer, long[]> flows = new java.util.TreeMap<>();
  private final long[] flowCounter;

  /** A sequencer for the run's jobs in run order (job number = index). */
  public JobSequencer(List<FioJob> jobs) {
    this.jobs = List.copyOf(jobs);
    this.state = new State[jobs.size()];
    this.terminate = new boolean[jobs.size()];
    this.threads = new FioJobThread[jobs.size()];
    java.util.Arrays.fill(state, State.WAITING);
    boolean ex = false;
    for (FioJob j : jobs) {
      ex |= j.exitall();
    }
    this.exitallOnTerminate = ex;
    this.flowCounter = new long[jobs.size()];
    for (FioJob j : jobs) {
      if (j.flow() != 0) {
        flows.computeIfAbsent(j.flowId(), id -> new long[] {1, 0})[1] += j.flow();
      }
    }
  }

  /**
   * fio's {@code flow_threshold_exceeded()} for job {@code k} about to prepare an I/O: true when
   * its share of its flow's I/Os is above its share of the flow's weight (it must wait; nothing
   * is counted), else false and the I/O is counted in both counters.
   */
  boolean flowExceeded(int k) {
    FioJob j = jobs.get(k);
    if (j.flow() == 0) {
      return false;
    }
    long[] f = flows.get(j.flowId());
    double counterRatio = (double) flowCounter[k] / f[0];
    double weightRatio = (double) j.flow() / f[1];
    if (counterRatio > weightRatio) {
      return true;
    }
    f[0]++;
    flowCounter[k]++;
    return false;
  }

  /** Whether any job of the list needs a sequencer (stonewall after a job, wait_for, exitall). */
  public static boolean needed(List<FioJob> jobs) {
    for (int k = 0; k < jobs.size(); k++) {
      FioJob j = jobs.get(k);
      if (k > 0 && stonewall(j) || j.waitFor() != null || j.exitall() || j.flow() != 0
          || j.exitOnIoDone()) {
        return true;
      }
    }
    return false;
  }

  private static boolean stonewall(FioJob j) {
    return j.stonewall() && j.jobIndex() == 0;
  }

  void register(int jobNumber, FioJobThread t) {
    threads[jobNumber] = t;
  }

  /**
   * Job {@code k} asks, at {@code now} from CPU {@code on}, whether it may start; this runs fio's
   * start loop, which may start (and wake) other waiting jobs too. True if {@code k} runs.
   */
  boolean tryStart(int k, long now, CpuComponent on) {
    startEligible(now, on, k);
    return state[k] == State.RUNNING;
  }

  /**
   * fio's {@code fio_running_or_pending_io_threads()} (libfio.c), which cpuio's
   * {@code exit_on_io_done} asks before each I/O: 1 while a job that is not cpuio
   * ({@code FIO_NOIO}) has not exited, -1 when the run has no such job (so a run of cpuio jobs
   * alone never ends this way: {@code !(-1)} is false), else 0. A job told to stop before it
   * started counts as exited.
   */
  int runningOrPendingIoJobs() {
    int ioJobs = 0;
    for (int i = 0; i < jobs.size(); i++) {
      if (jobs.get(i).ioengine() == blksim.workload.fio.FioEngine.CPUIO) {
        continue;
      }
      ioJobs++;
      if (state[i] != State.EXITED && !(terminate[i] && state[i] == State.WAITING)) {
        return 1;
      }
    }
    return ioJobs == 0 ? -1 : 0;
  }

  /** Whether job {@code k} was told to stop (exitall) or will never start. */
  boolean terminated(int k) {
    return terminate[k];
  }

  /** Job {@code k} ended at {@code now}: exitall, then the jobs that waited for it may start. */
  void exited(int k, long now, CpuComponent on) {
    state[k] = State.EXITED;
    FioJob me = jobs.get(k);
    if (me.flow() != 0) {
      // flow_exit_job(): the job's count and weight leave its flow.
      long[] f = flows.get(me.flowId());
      f[0] -= flowCounter[k];
      f[1] -= me.flow();
      flowCounter[k] = 0;
    }
    if (exitallOnTerminate) {
      String what = jobs.get(k).exitWhat();
      for (int i = 0; i < jobs.size(); i++) {
        boolean hit = switch (what) {
          case "all" -> true;
          case "stonewall" -> state[i] == State.RUNNING;
          default -> jobs.get(i).groupId() == jobs.get(k).groupId();
        };
        if (hit && state[i] != State.EXITED && !terminate[i]) {
          terminate[i] = true;
          if (state[i] == State.WAITING) {
            wake(i, on);
          }
        }
      }
    }
    startEligible(now, on, -1);
  }

  private void startEligible(long now, CpuComponent on, int asking) {
    boolean anyRunning = false;
    for (State s : state) {
      anyRunning |= s == State.RUNNING;
    }
    for (int i = 0; i < jobs.size(); i++) {
      if (state[i] != State.WAITING || terminate[i]) {
        continue;
      }
      FioJob j = jobs.get(i);
      if (j.startDelayNs() > now) {
        continue;
      }
      if (stonewall(j) && anyRunning) {
        break;
      }
      if (waiteeRunning(j)) {
        continue;
      }
      state[i] = State.RUNNING;
      anyRunning = true;
      if (i != asking) {
        wake(i, on);
      }
    }
  }

  private boolean waiteeRunning(FioJob me) {
    if (me.waitFor() == null) {
      return false;
    }
    for (int i = 0; i < jobs.size(); i++) {
      FioJob o = jobs.get(i);
      if (o.name().equals(me.name()) || !o.name().equals(me.waitFor())) {
        continue;
      }
      if (state[i] != State.EXITED && !(terminate[i] && state[i] == State.WAITING)) {
        return true;
      }
    }
    return false;
  }

  private void wake(int i, CpuComponent on) {
    FioJobThread t = threads[i];
    if (t != null && t.waitingToStart()) {
      on.wakeUp(t);
    }
  }
}
