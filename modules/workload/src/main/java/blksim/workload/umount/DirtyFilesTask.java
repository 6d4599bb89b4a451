package blksim.workload.umount;

import blksim.kernel.fs.VfsCalls;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;
import java.util.function.Function;

/**
 * The task that leaves the {@link DirtyFiles} volume dirty at the start of the run and exits,
 * so that the scenario's {@code commands} (a {@code time umount}) run after it: one file per
 * step, each paying its creates as system time ({@link VfsCalls#dirtyFile}).
 *
 * <p>Simplified: the data is dirtied without {@code write()} calls (it stands for data written
 * before the part of the run that is measured), so the volume may exceed the dirty limits;
 * the flusher's periodic and background writeback start on it as they would on a volume that
 * had just been written. The files {@link DirtyFiles#overwritten} are first placed all at once,
 * clean, as an earlier run left them ({@link VfsCalls#writtenFile}), then dirtied in their turn.
 */
public final class DirtyFilesTask extends Task {
  private final DirtyFiles spec;
  private final VfsCalls calls;
  private long next;
  private boolean placed;

  public DirtyFilesTask(int pid, DirtyFiles spec, Function<Task, VfsCalls> calls) {
    super("dirty-files", pid, 0);
    this.spec = spec;
    this.calls = calls.apply(this);
  }

  @Override
  public boolean keepsRunAlive() {
    return true;
  }

  @Override
  protected void step(TaskCpu cpu) {
    if (!placed) {
      // The files an earlier run left, all placed in the first step: nothing is dirty yet, so
      // no writeback can touch their chunks while they are mapped.
      placed = true;
      long cost = 0;
      for (long i = 0; spec.overwrite() > 0 && i < spec.files(); i++) {
        if (spec.overwritten(i)) {
          long r = calls.writtenFile(spec.path(i), spec.fileSizeBytes());
          if (r < 0) {
            throw new IllegalStateException("dirty-files: " + spec.path(i) + ": error " + (-r));
          }
          cost += r;
        }
      }
      if (cost > 0) {
        cpu.runFor(CpuMode.SYSTEM, cost);
        return;
      }
    }
    if (next >= spec.files()) {
      cpu.exit();
      return;
    }
    long i = next++;
    long r = calls.dirtyFile(spec.path(i), spec.fileSizeBytes(), spec.extentBytes(),
        spec.strideBytes(), cpu.now(), spec.overwritten(i));
    if (r < 0) {
      throw new IllegalStateException("dirty-files: " + spec.path(i) + ": error " + (-r));
    }
    cpu.runFor(CpuMode.SYSTEM, Math.max(1, r));
  }
}
