package blksim.workload.fio.thread;

import blksim.kernel.fs.VfsCalls;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.syscall.SystemCall;
import blksim.workload.fio.FioJob;
import blksim.workload.fio.stats.JobStats;
import java.util.function.Function;

/**
 * A fio job thread with a synchronous engine writing a file of a filesystem ({@code directory=}):
 * it creates its file ({@code $jobname.$jobnum.0}, fio's default {@code filename_format}),
 * writes it through the page cache with {@code pwrite()} ({@link VfsCalls}), syncs it per
 * {@code fsync=N} / {@code fdatasync=N} and {@code end_fsync}, and closes it.
 *
 * <p>Missing directories on the way to the file are created first, as fio does. Simplified: one
 * file per job ({@code nrfiles=1}); buffered writes only (reads of files and
 * O_DIRECT on files are refused when the scenario is loaded); the file is created empty at the
 * start, not laid out beforehand, and the create is not part of the statistics.
 */
public final class FileFioThread extends FioJobThread {
  private enum Phase {
    MKDIR,
    OPEN,
    PREP,
    CALL,
    IN_CALL,
    IN_SYNC,
    CLOSE
  }

  private final String path;
  private final Function<Task, VfsCalls> callsFactory;
  private VfsCalls calls;
  private VfsCalls.OpenFile file;
  private Phase phase = Phase.MKDIR;
  /** Directories still to create on the way to the file ({@code mkdir -p}), shortest first. */
  private final java.util.ArrayDeque<String> dirs = new java.util.ArrayDeque<>();
  private SystemCall call;
  private long issueNs;
  private int len;
  private long writes;
  private boolean endFsyncDone;

  /**
   * @param path the file's path
   * @param fileBytes the file's size: the job's region
   */
  public FileFioThread(FioJob job, int globalJobNumber, int pid, String path, long fileBytes,
      Function<Task, VfsCalls> calls, FioCostParams costs, JobStats stats, long runSeed) {
    super(job, globalJobNumber, pid, fileBytes, costs, stats, runSeed);
    this.path = path;
    this.callsFactory = calls;
    // fio creates the job's directory if it does not exist (init.c, create_work_dirs()).
    int slash = path.indexOf('/', 1);
    while (slash > 0) {
      dirs.add(path.substring(0, slash));
      slash = path.indexOf('/', slash + 1);
    }
  }

  @Override
  protected void step(TaskCpu cpu) {
    if (starting(cpu)) {
      return;
    }
    if (calls == null) {
      calls = callsFactory.apply(this);
    }
    while (true) {
      if (call != null) {
        if (!call.step(cpu)) {
          return;
        }
        long ret = call.ret();
        call = null;
        if (returned(cpu, ret)) {
          return;
        }
        continue;
      }
      switch (phase) {
        case MKDIR:
          if (dirs.isEmpty()) {
            phase = Phase.OPEN;
            continue;
          }
          call = calls.mkdir(dirs.poll());
          continue;
        case OPEN:
          call = calls.creat(path);
          continue;
        case PREP:
          prep(cpu);
          return;
        case CALL:
          issueNs = cpu.now();
          phase = Phase.IN_CALL;
          call = calls.pwrite(file, ioOffset, len);
          continue;
        default:
          throw new IllegalStateException(job.name() + ": step in phase " + phase);
      }
    }
  }

  /** A call returned; true when an action was taken. */
  private boolean returned(TaskCpu cpu, long ret) {
    switch (phase) {
      case MKDIR:
        // EEXIST (or a mount point) is fine, as for mkdir -p.
        return false;
      case OPEN:
        if (ret < 0) {
          throw new IllegalStateException(job.name() + ": open(" + path + ", O_CREAT) failed"
              + " with errno " + (-ret));
        }
        file = calls.lastOpened();
        phase = Phase.PREP;
        return false;
      case IN_CALL:
        if (ret < 0) {
          throw new IllegalStateException(job.name() + ": pwrite to " + path + " failed with"
              + " errno " + (-ret));
        }
        if (measuring()) {
          long now = cpu.now();
          stats.recordIssue(1);
          stats.recordSubmitBatch(1);
          stats.recordCompleteBatch(1);
          stats.recordIo(1, len, -1, now - issueNs, now);
        }
        writes++;
        phase = Phase.PREP;
        if (job.fsyncBlocks() > 0 && writes % job.fsyncBlocks() == 0
            || job.fdatasyncBlocks() > 0 && writes % job.fdatasyncBlocks() == 0) {
          phase = Phase.IN_SYNC;
          call = calls.fsync(file);
        }
        return false;
      case IN_SYNC:
        phase = Phase.PREP;
        return false;
      case CLOSE:
        finish(cpu);
        return true;
      default:
        throw new IllegalStateException(job.name() + ": return in phase " + phase);
    }
  }

  private void prep(TaskCpu cpu) {
    if (!mayIssue(cpu.now())) {
      if (job.endFsync() && writes > 0 && !endFsyncDone) {
        // end_fsync: inside the job's runtime.
        endFsyncDone = true;
        phase = Phase.IN_SYNC;
        call = calls.fsync(file);
        call.step(cpu);
        return;
      }
      phase = Phase.CLOSE;
      call = calls.close(file);
      call.step(cpu);
      return;
    }
    nextIo();
    len = ioLen;
    phase = Phase.CALL;
    cpu.runFor(CpuMode.USER, costs.userNsPerIo());
  }
}
