package blksim.kernel.iouring;

import blksim.kernel.block.Bio;
import blksim.kernel.block.Errno;
import blksim.kernel.block.ReqOp;
import blksim.kernel.fs.BlockDeviceFile;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.syscall.SystemCall;

/**
 * One read or write SQE on a block device opened without O_DIRECT, issued in the ring owner's
 * context (io_uring/rw.c of 6.6, {@code io_read()} / {@code io_write()} with
 * {@code IO_URING_F_NONBLOCK}): inline from {@link SubmitCall}, or again as task work after the
 * page it waited for was unlocked ({@link CompletionRing#runReissues}).
 *
 * <ul>
 * <li>On a device without nowait support ({@code bdev_nowait()} false: {@code blkdev_open()}
 *     sets no FMODE_NOWAIT, so {@code io_file_supports_nowait()} fails) every SQE is punted to
 *     io-wq at once, read or write.
 * <li>A write: {@code blkdev_write_iter()} returns -EOPNOTSUPP for IOCB_NOWAIT without
 *     IOCB_DIRECT, which {@code io_write()} turns into -EAGAIN: punted to io-wq
 *     ({@code io_queue_iowq()}), where a worker runs the blocking buffered write
 *     ({@link IoWqWorker}: page-cache dirtying and {@code balance_dirty_pages()} in the worker).
 * <li>A read: {@code blkdev_read_iter()} → {@code filemap_read()} with IOCB_NOWAIT
 *     ({@link BlockDeviceFile#preadNowait}). Cached and up to date: the copy is done here and the
 *     CQE posted. A miss starts readahead (its bios are submitted here) and stops at the locked
 *     page; {@code io_rw_should_retry()} then holds for a block device ({@code blkdev_open()}
 *     sets FMODE_BUF_RASYNC, and a block device cannot be polled), so the read is retried with
 *     IOCB_WAITQ, which queues {@code io_async_buf_func()} on that page
 *     ({@code __folio_lock_async()}) instead of sleeping: no io-wq. When the page is unlocked
 *     ({@link blksim.kernel.mm.AddressSpace#waitPageAsync}), {@code io_req_task_queue()} makes
 *     the read task work of the owner, which issues it again in its next
 *     {@code io_uring_enter()} and copies what is now cached (or waits again, from where it
 *     got). A page that failed to read, or that readahead did not add, can only be read by a
 *     blocking read: -EAGAIN from the retry, punted to io-wq.
 * </ul>
 *
 * <p>Costs: {@link IoUringParams#sqeIssueNs} per issue (the caller pays it for the first, this
 * call for a task-work re-issue [A: the same {@code io_issue_sqe()} path]), the nested read's own
 * costs (its entry {@code rwEntryNs} stands for {@code io_read()}'s set-up, as
 * {@code BufferedBdevSubmit} and {@link blksim.kernel.fs.FileAio} do for buffered iocbs),
 * {@link IoUringParams#cqePostNs} per CQE posted here, {@link IoUringParams#puntNs} and a worker's
 * creation per punt. Simplified: the IOCB_WAITQ second pass of {@code filemap_read()} and the
 * arming of the page wait cost nothing beyond the first pass; a read punted after a partial copy
 * is read whole again by the worker (the pages it copied are cache hits).
 */
final class BufferedSqe extends SystemCall {
  /** A read to issue again from {@code pos} for {@code len} bytes (its page was unlocked). */
  record Reissue(IoRequest req, long pos, int len) {}

  private static final int START = 0;
  private static final int READ = 1;
  private static final int POST = 2;
  private static final int PUNT = 3;
  private static final int DONE = 4;

  private final BlockDeviceFile file;
  private final CompletionRing ring;
  private final IoUringParams costs;
  private final IoWq ioWq;
  private IoRequest req;
  private long pos;
  private int len;
  private boolean reissue;
  private int phase;
  private int result;
  private SystemCall nested;

  BufferedSqe(BlockDeviceFile file, CompletionRing ring, IoUringParams costs, IoWq ioWq) {
    if (file.direct() || file.mapping() == null) {
      throw new IllegalArgumentException("BufferedSqe is for a device file with a page cache,"
          + " opened without O_DIRECT");
    }
    this.file = file;
    this.ring = ring;
    this.costs = costs;
    this.ioWq = ioWq;
  }

  /** The first, inline issue of {@code r} (its issue cost already paid by the caller). */
  SystemCall arm(IoRequest r) {
    Bio b = r.bio();
    if (b.op() != ReqOp.READ && b.op() != ReqOp.WRITE) {
      throw new IllegalStateException("buffered io_uring " + b.op() + " SQE on a block device");
    }
    return arm(r, b.sector() << 9, b.sizeBytes(), false);
  }

  /** The task-work re-issue {@code r}. */
  SystemCall arm(Reissue r) {
    return arm(r.req(), r.pos(), r.len(), true);
  }

  private SystemCall arm(IoRequest r, long at, int bytes, boolean again) {
    req = r;
    pos = at;
    len = bytes;
    reissue = again;
    phase = START;
    return this;
  }

  @Override
  public boolean step(TaskCpu cpu) {
    while (true) {
      switch (phase) {
        case START:
          if (reissue) {
            reissue = false;
            cpu.runFor(CpuMode.SYSTEM, costs.sqeIssueNs());
            return false;
          }
          if (req.bio().op() == ReqOp.WRITE || !file.supportsNowait()) {
            return punt(cpu);
          }
          nested = file.preadNowait(pos, len);
          phase = READ;
          continue;
        case READ: {
          if (!nested.step(cpu)) {
            return false;
          }
          long r = nested.ret();
          nested = null;
          if (r == len || r == 0 || r < 0 && r != -Errno.EAGAIN) {
            result = r < 0 ? (int) r : 0;
            phase = POST;
            cpu.runFor(CpuMode.SYSTEM, costs.cqePostNs());
            return false;
          }
          long page = file.blockedPage();
          if (page < 0) {
            return punt(cpu);
          }
          // io_rw_should_retry(): IOCB_WAITQ, io_async_buf_func() armed on the locked page.
          int done = (int) Math.max(0, r);
          Reissue again = new Reissue(req, pos + done, len - done);
          file.mapping().waitPageAsync(page, () -> ring.addReissue(again));
          return returned(0);
        }
        case POST:
          ring.post(req, result);
          return returned(0);
        case PUNT: {
          // io_queue_iowq() -> io_wq_enqueue(): a worker created here is created in this call.
          phase = DONE;
          long createNs = ioWq.enqueue(req);
          if (createNs > 0) {
            cpu.runFor(CpuMode.SYSTEM, createNs);
            return false;
          }
          continue;
        }
        case DONE:
          return returned(0);
        default:
          throw new IllegalStateException("buffered SQE in phase " + phase);
      }
    }
  }

  private boolean punt(TaskCpu cpu) {
    phase = PUNT;
    req.lastCpu = cpu.cpu().cpu();
    cpu.runFor(CpuMode.SYSTEM, costs.puntNs());
    return false;
  }
}
