package blksim.workload.fsmark;

import blksim.kernel.fs.VfsCalls;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.syscall.SystemCall;
import java.util.Iterator;
import java.util.SplittableRandom;

/**
 * One fs_mark child process for one iteration: it walks its {@link FsMarkPlan} step by step,
 * making each system call on the VFS ({@link VfsCalls}) and timing it as fs_mark does
 * ({@link FsMarkProcessStats}), then tells its parent and exits.
 *
 * <p>User space: fs_mark's own work per file (name building, {@code gettimeofday()}, loop
 * bookkeeping) is one burst of {@code userPerFileNs} before each create [A: no published figure;
 * kernel-model.md §15.5 gives 60 µs of fs_mark CPU per file in all, of which the kernel's create,
 * write, close and unlink paths take their own costs].
 *
 * <p>An error from a call fs_mark treats as fatal (a failed create or write, ENOSPC) ends the run
 * with a message naming the process and the path; EEXIST from a mkdir is fine, as in fs_mark.
 */
public final class FsMarkProcess extends Task {
  /** What the parent learns when the child is done. */
  public interface Done {
    void exited(FsMarkProcess child);
  }

  private final Iterator<FsMarkOp> plan;
  private final FsMarkProcessStats stats;
  private final long userPerFileNs;
  private final long epochUsec;
  private final Done done;
  private VfsCalls calls;
  private final java.util.function.Function<Task, VfsCalls> callsFactory;
  private FsMarkOp op;
  private SystemCall call;
  private VfsCalls.OpenFile file;
  private long startUsec;
  private boolean userDone;

  /**
   * @param plan the steps of this process in this iteration
   * @param epochUsec the simulated wall clock at virtual time 0, µs since the epoch
   */
  public FsMarkProcess(String comm, int pid, FsMarkPlan planner, int processIndex,
      long epochUsec, SplittableRandom random, java.util.function.Function<Task, VfsCalls> calls,
      long userPerFileNs, Done done) {
    super(comm, pid, 0);
    this.stats = new FsMarkProcessStats(planner.options());
    this.userPerFileNs = userPerFileNs;
    this.epochUsec = epochUsec;
    this.done = done;
    this.callsFactory = calls;
    this.plan = planner.process(processIndex, () -> usec(), random);
  }

  private long nowNs;

  private long usec() {
    return epochUsec + nowNs / 1000;
  }

  /** This process's statistics, once it is done. */
  public FsMarkStats stats() {
    return stats.toStats();
  }

  @Override
  protected void step(TaskCpu cpu) {
    nowNs = cpu.now();
    if (calls == null) {
      calls = callsFactory.apply(this);
    }
    while (true) {
      if (call != null) {
        if (!call.step(cpu)) {
          return;
        }
        nowNs = cpu.now();
        finishOp(call.ret());
        call = null;
      }
      if (op == null) {
        if (!plan.hasNext()) {
          done.exited(this);
          cpu.exit();
          return;
        }
        op = plan.next();
        userDone = false;
        startUsec = usec();
      }
      if (op.kind() == FsMarkOp.Kind.CREATE && !userDone && userPerFileNs > 0) {
        userDone = true;
        cpu.runFor(CpuMode.USER, userPerFileNs);
        return;
      }
      if (op.kind() == FsMarkOp.Kind.CREATE) {
        startUsec = usec();
      }
      call = start(op);
      if (call == null) {
        finishOp(0);
      }
    }
  }

  /** The op's system call, or null for a step that makes none. */
  private SystemCall start(FsMarkOp o) {
    switch (o.kind()) {
      case SETUP_MKDIR:
      case MKDIR:
        return calls.mkdir(o.directory());
      case STATFS:
        return calls.statfs(o.directory());
      case CREATE:
        return calls.creat(o.path());
      case WRITE:
        return calls.write(file, (int) o.bytes());
      case FSYNC:
      case REOPEN_FSYNC:
        return calls.fsync(file);
      case CLOSE:
      case REOPEN_CLOSE:
        return calls.close(file);
      case SYNC:
        return calls.sync();
      case REOPEN:
        return calls.open(o.path());
      case UNLINK:
        return calls.unlink(o.path());
      default:
        return null;
    }
  }

  private void finishOp(long ret) {
    FsMarkOp o = op;
    op = null;
    switch (o.kind()) {
      case CREATE:
      case REOPEN:
        if (ret < 0) {
          throw fatal(o, ret);
        }
        file = calls.lastOpened();
        break;
      case WRITE:
      case UNLINK:
        if (ret < 0) {
          throw fatal(o, ret);
        }
        break;
      default:
        break;
    }
    stats.record(o, startUsec, usec());
  }

  private IllegalStateException fatal(FsMarkOp o, long errno) {
    return new IllegalStateException(comm() + ": " + o.kind().name().toLowerCase(
        java.util.Locale.ROOT) + " " + o.path() + " failed with errno " + (-errno)
        + " (fs_mark exits)");
  }
}
