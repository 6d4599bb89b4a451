package blksim.workload.fio.thread;

import blksim.kernel.block.Bio;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.Errno;
import blksim.kernel.iouring.CompletionRing;
import blksim.kernel.iouring.IoRequest;
import blksim.kernel.iouring.IoUringParams;
import blksim.kernel.iouring.IoWq;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.TaskCpu;
import blksim.workload.fio.FioJob;
import blksim.workload.fio.stats.JobStats;
import java.util.ArrayList;
import java.util.function.IntFunction;

/**
 * A fio job thread with an asynchronous engine, {@code io_uring} or {@code libaio}: keeps up to
 * {@code iodepth} I/Os in flight (mirrors fio's {@code do_io()} with {@code td_io_queue()},
 * {@code td_io_commit()} and {@code wait_for_completions()}, and the engines' queue, commit and
 * getevents hooks).
 *
 * <p>fio's loop: prepare an I/O (user time) and commit it with one submit system call
 * ({@code iodepth_batch_submit}, default 1); when {@code iodepth} I/Os are in flight, reap at least
 * {@code iodepth_batch_complete_min} completions before submitting more. {@code slat} runs to the
 * return of the submit call; {@code clat} from there to
 * the reap. fio's start_time is taken here when the prepared I/O is handed to the engine, just
 * before the submit call [A: the published slat of inline brd reads, 7.6 µs, is close to the
 * submit call's system time alone].
 *
 * <p>io_uring ({@code io_uring_enter()}, §6.3): each SQE is first issued inline with REQ_NOWAIT.
 * A device that takes it runs it right there (brd or zram do their whole copy inside the system
 * call) or completes it later by interrupt; one that refuses (-EOPNOTSUPP without nowait support,
 * -EAGAIN without a free tag) gets it punted to io-wq, whose workers issue it in blocking mode.
 * Completions already in the CQ ring are reaped in user space without a system call.
 *
 * <p>libaio ({@code io_submit()} / {@code io_getevents()}, §6.2): each iocb is issued in blocking
 * mode inside {@code io_submit()}, so a synchronous driver completes it there; reaping is always
 * a system call.
 *
 * <p>{@code iodepth_batch_submit} I/Os are queued before one submit call commits them (fio also
 * commits what is queued before it waits for completions); {@code iodepth_batch_complete_max}
 * completions at most are reaped at once.
 *
 * <p>Simplified: completions of interrupt-completed requests are posted to the ring in the
 * interrupt (the kernel defers part of it to task work).
 */
public final class AsyncFioThread extends FioJobThread {
  /** Which asynchronous engine. */
  public enum Engine {
    IO_URING,
    LIBAIO
  }

  private enum Phase {
    LOOP,
    QUEUED,
    COMMIT_NEXT,
    SUBMIT_ISSUE,
    SUBMIT_POSTED,
    PUNTED,
    RETURNED,
    REAP_ENTERED,
    REAP_WOKEN
  }

  private final Engine engine;
  private final IoUringParams uring;
  private final int depth;
  private final int completeMin;
  private final int batchSubmit;
  private final ArrayList<IoRequest> batch = new ArrayList<>();
  private int commitIdx;
  private final int maxWorkers;
  /**
   * The unbounded class's limit, RLIMIT_NPROC: no block I/O is unbounded work, so fio's
   * io_uring jobs never use it; the default soft limit of a large machine [A].
   */
  static final int UNBOUNDED_MAX = 4096;
  private CompletionRing ring;
  private IoWq ioWq;
  private Phase phase = Phase.LOOP;
  private int inFlight;
  private IoRequest req;
  private Bio issuedBio;
  private boolean inIssue;
  private boolean inlineDone;
  private int inlineResult;
  private int nextTag;

  /**
   * @param uring io_uring costs (libaio uses {@code enterNs} for its system calls and
   *     {@code cqePostNs} for posting an event)
   * @param onlineCpus CPUs of the machine, for io-wq's bounded worker limit
   */
  public AsyncFioThread(FioJob job, int globalJobNumber, int pid, IntFunction<BlockQueue> queues,
      FioCostParams costs, IoUringParams uring, Engine engine, int onlineCpus, JobStats stats,
      long runSeed) {
    super(job, globalJobNumber, pid, queues, costs, stats, runSeed);
    this.engine = engine;
    this.uring = uring;
    this.depth = Math.max(1, job.iodepth());
    this.completeMin = Math.max(1, Math.min(job.iodepthBatchCompleteMin(), depth));
    this.batchSubmit = Math.max(1, Math.min(job.iodepthBatchSubmit(), depth));
    // io_uring sizes its SQ to iodepth rounded up to a power of two.
    int sqEntries = Integer.highestOneBit(Math.max(1, depth - 1)) << 1;
    this.maxWorkers = IoWq.boundedMax(Math.max(sqEntries, depth), onlineCpus);
  }

  @Override
  protected void step(TaskCpu cpu) {
    if (starting(cpu)) {
      return;
    }
    if (ring == null) {
      ring = new CompletionRing(this, cpu.cpu());
      if (engine == Engine.IO_URING) {
        ioWq = new IoWq(cpu.cpu(), queues(), ring, uring, pid(), maxWorkers, UNBOUNDED_MAX,
            unbound());
      }
    }
    while (true) {
      switch (phase) {
        case LOOP:
          if (loop(cpu)) {
            return;
          }
          continue;
        case QUEUED:
          // fio's start_time: the prepared I/O is queued to the engine [A].
          req.startNs(cpu.now());
          batch.add(req);
          req = null;
          if (batch.size() >= batchSubmit) {
            startCommit(cpu);
            return;
          }
          phase = Phase.LOOP;
          continue;
        case COMMIT_NEXT:
          commitNext(cpu);
          return;
        case SUBMIT_ISSUE:
          if (submitIssue(cpu)) {
            return;
          }
          continue;
        case SUBMIT_POSTED:
          ring.post(req, inlineResult);
          phase = Phase.COMMIT_NEXT;
          continue;
        case PUNTED:
          ioWq.enqueue(req);
          phase = Phase.COMMIT_NEXT;
          continue;
        case RETURNED:
          returned();
          continue;
        case REAP_ENTERED:
          if (ring.prepareWait(completeMin)) {
            phase = Phase.REAP_WOKEN;
            cpu.sleep();
            return;
          }
          phase = Phase.LOOP;
          reap(cpu);
          continue;
        case REAP_WOKEN:
          phase = Phase.LOOP;
          cpu.runFor(CpuMode.SYSTEM, costs.syscallReturnNs());
          return;
        default:
          throw new IllegalStateException(job.name() + ": phase " + phase);
      }
    }
  }

  /** fio's do_io() loop: submit while there is room, else reap. True when an action was taken. */
  private boolean loop(TaskCpu cpu) {
    long now = cpu.now();
    boolean more = mayIssue(now);
    if (more && inFlight + batch.size() < depth) {
      req = new IoRequest(nextBio(), nextTag++);
      phase = Phase.QUEUED;
      cpu.runFor(CpuMode.USER, costs.userNsPerIo() / 2);
      return true;
    }
    if (!batch.isEmpty()) {
      // Full, or draining, with I/Os queued but not committed: fio commits before it waits.
      startCommit(cpu);
      return true;
    }
    if (inFlight == 0) {
      finish(cpu);
      return true;
    }
    // The queue is full (or the job is draining): reap.
    if (engine == Engine.IO_URING && ring.ready() >= Math.min(completeMin, inFlight)) {
      reap(cpu);
      return false;
    }
    phase = Phase.REAP_ENTERED;
    cpu.runFor(CpuMode.SYSTEM, uring.enterNs());
    return true;
  }

  /** One submit system call for the queued batch ({@code td_io_commit()}). */
  private void startCommit(TaskCpu cpu) {
    commitIdx = 0;
    phase = Phase.COMMIT_NEXT;
    cpu.runFor(CpuMode.SYSTEM, uring.enterNs());
  }

  /** Issues the batch's next request inside the submit call, or returns to user space. */
  private void commitNext(TaskCpu cpu) {
    if (commitIdx == batch.size()) {
      submitted(cpu);
      return;
    }
    req = batch.get(commitIdx++);
    Bio bio = req.bio();
    if (engine == Engine.IO_URING) {
      issuedBio = new Bio(bio.op(), bio.sector(), bio.sizeBytes(), bio.flags() | Bio.REQ_NOWAIT);
    } else {
      issuedBio = bio;
    }
    phase = Phase.SUBMIT_ISSUE;
    cpu.runFor(CpuMode.SYSTEM, uring.sqeIssueNs() + queue(cpu).submitCostNs(issuedBio));
  }

  /** Issues the request to the device. True when an action was taken. */
  private boolean submitIssue(TaskCpu cpu) {
    IoRequest r = req;
    inIssue = true;
    inlineDone = false;
    boolean issued = queue(cpu).issue(issuedBio, (b, err) -> ended(r, err),
        () -> cpu.cpu().wake(this));
    inIssue = false;
    if (!issued) {
      // libaio without a free tag: io_submit() sleeps in the block layer.
      cpu.sleep();
      return true;
    }
    if (inlineDone && (inlineResult == -Errno.EOPNOTSUPP || inlineResult == -Errno.EAGAIN)) {
      phase = Phase.PUNTED;
      cpu.runFor(CpuMode.SYSTEM, uring.puntNs());
      return true;
    }
    if (inlineDone) {
      phase = Phase.SUBMIT_POSTED;
      cpu.runFor(CpuMode.SYSTEM, uring.cqePostNs());
      return true;
    }
    phase = Phase.COMMIT_NEXT;
    return false;
  }

  private void ended(IoRequest r, int err) {
    if (inIssue) {
      inlineDone = true;
      inlineResult = err;
    } else {
      ring.post(r, err);
    }
  }

  /**
   * The submit call returns to user space, a preemption point, where fio's engine finishes the
   * commit (the second half of fio's per-I/O user time).
   */
  private void submitted(TaskCpu cpu) {
    phase = Phase.RETURNED;
    cpu.runFor(CpuMode.USER, costs.userNsPerIo() - costs.userNsPerIo() / 2);
  }

  /** fio takes the issue time of the committed batch: slat ends, clat starts. */
  private void returned() {
    long now = cpu().now();
    for (IoRequest r : batch) {
      r.issueNs(now);
      inFlight++;
      if (measuring()) {
        stats.recordIssue(inFlight);
      }
    }
    if (measuring()) {
      stats.recordSubmitBatch(batch.size());
    }
    batch.clear();
    req = null;
    phase = Phase.LOOP;
  }

  private void reap(TaskCpu cpu) {
    long now = cpu.now();
    int n = 0;
    IoRequest done;
    // fio reaps up to iodepth_batch_complete_max (at least the minimum asked for).
    int max = Math.max(completeMin, job.iodepthBatchCompleteMax());
    while (n < max && (done = ring.reap()) != null) {
      inFlight--;
      n++;
      if (measuring()) {
        Bio b = done.bio();
        long slat = done.issueNs() - done.startNs();
        stats.recordIo(ddir(b), b.sizeBytes(), slat, now - done.issueNs(), now);
      }
    }
    if (n > 0 && measuring()) {
      stats.recordCompleteBatch(n);
    }
  }

  /** The io-wq of this thread (io_uring only; null before the first step). */
  public IoWq ioWq() {
    return ioWq;
  }
}
