package blksim.kernel.dm;

import blksim.engine.LocalRunner;
import blksim.engine.Model;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.kernel.block.Bio;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;
import java.util.ArrayList;
import java.util.List;

/**
 * A test task that submits I/Os one at a time (QD1, back to back), as a synchronous submitter
 * does: pays {@link BlockQueue#submitCostNs} as system time, issues, and sleeps until the
 * completion unless it came inline.
 *
 * <p>In buffered-read mode each READ is the page-cache miss path of kernel-model.md §5.6: a
 * REQ_RAHEAD read first; if it fails, a synchronous read without REQ_RAHEAD. Records every bio's
 * completion and the end of every I/O.
 */
final class DmSubmitter extends Task {
  /** One completed bio. */
  record Completion(long timeNs, Bio bio, int error, boolean inline) {}

  final BlockQueue q;
  private final List<Bio> ios;
  private final boolean buffered;
  final List<Completion> completions = new ArrayList<>();
  final List<Long> ioDone = new ArrayList<>();
  private int next;
  private Bio current;
  private boolean paid;
  private boolean waiting;
  private boolean inIssue;
  private int seen;
  private final long startAtNs;
  private boolean started;

  DmSubmitter(BlockQueue q, List<Bio> ios, boolean buffered) {
    this(q, ios, buffered, 0);
  }

  /** A submitter that sleeps until virtual time {@code startAtNs} before its first I/O. */
  DmSubmitter(BlockQueue q, List<Bio> ios, boolean buffered, long startAtNs) {
    super("fio", 1000, 0);
    this.q = q;
    this.ios = ios;
    this.buffered = buffered;
    this.startAtNs = startAtNs;
  }

  /** {@code n} copies of {@code bio}. */
  static List<Bio> times(int n, Bio bio) {
    List<Bio> l = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      l.add(bio);
    }
    return l;
  }

  @Override
  public boolean keepsRunAlive() {
    return true;
  }

  @Override
  protected void step(TaskCpu cpu) {
    if (!started) {
      started = true;
      if (startAtNs > cpu.now()) {
        cpu.cpu().callAfter(startAtNs - cpu.now(), () -> cpu.cpu().wake(this));
        cpu.sleep();
        return;
      }
    }
    if (waiting) {
      if (completions.size() == seen) {
        cpu.sleep();
        return;
      }
      waiting = false;
      afterCompletion(cpu);
      return;
    }
    if (current == null) {
      if (next == ios.size()) {
        cpu.exit();
        return;
      }
      Bio b = ios.get(next);
      current = buffered && b.op() == blksim.kernel.block.ReqOp.READ
          ? new Bio(b.op(), b.sector(), b.sizeBytes(), b.flags() | Bio.REQ_RAHEAD) : b;
    }
    if (!paid) {
      paid = true;
      cpu.runFor(CpuMode.SYSTEM, q.submitCostNs(current));
      return;
    }
    inIssue = true;
    boolean taken = q.issue(current, (b, err) -> {
      completions.add(new Completion(cpu.now(), b, err, inIssue));
      cpu.cpu().wake(this);
    }, () -> cpu.cpu().wake(this));
    inIssue = false;
    if (!taken) {
      cpu.sleep();
      return;
    }
    paid = false;
    waiting = true;
    if (completions.size() > seen) {
      waiting = false;
      afterCompletion(cpu);
    } else {
      cpu.sleep();
    }
  }

  private void afterCompletion(TaskCpu cpu) {
    Completion c = completions.get(seen++);
    if (buffered && c.bio().hasFlag(Bio.REQ_RAHEAD) && c.error() != 0) {
      // The page is not up to date: read it synchronously, without REQ_RAHEAD.
      Bio b = c.bio();
      current = new Bio(b.op(), b.sector(), b.sizeBytes(), b.flags() & ~Bio.REQ_RAHEAD);
    } else {
      current = null;
      next++;
      ioDone.add(cpu.now());
    }
    cpu.runFor(CpuMode.SYSTEM, 0);
  }

  /** Runs the model of {@code cpus} to the end (the submitters exit). */
  static void run(List<CpuComponent> cpus, long lookaheadNs) {
    LocalRunner.run(new Model(List.copyOf(cpus), lookaheadNs, Long.MAX_VALUE, 0, 1),
        Partitioning.ONE, 1, ProgressListener.NONE);
  }
}
