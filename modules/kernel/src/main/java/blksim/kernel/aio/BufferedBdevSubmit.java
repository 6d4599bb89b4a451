package blksim.kernel.aio;

import blksim.kernel.block.Bio;
import blksim.kernel.block.ReqOp;
import blksim.kernel.fs.BlockDeviceFile;
import blksim.kernel.iouring.CompletionRing;
import blksim.kernel.iouring.IoRequest;
import blksim.kernel.iouring.IoUringParams;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.syscall.SystemCall;
import java.util.List;

/**
 * {@code io_submit()} of iocbs on a block device opened without O_DIRECT: {@code aio_read()} /
 * {@code aio_write()} call {@code blkdev_read_iter()} / {@code blkdev_write_iter()} with an
 * asynchronous kiocb, but the buffered paths ({@code filemap_read()},
 * {@code generic_perform_write()}) ignore that asynchrony (IOCB_NOWAIT is not set by libaio
 * unless the iocb asks for RWF_NOWAIT), so each iocb's whole read or write runs synchronously in
 * the submitter: page-cache lookups, readahead and the wait for a missed page, the copy, dirty
 * throttling. {@code aio_rw_done()} then completes the kiocb ({@code aio_complete()}: the event
 * is in the ring) before the next iocb is looked at. The nested call is the one a
 * {@code pread()}/{@code pwrite()} makes ({@link BlockDeviceFile}), with the device's page cache
 * when the machine has one.
 *
 * <p>Costs: {@code enterNs} for the call, {@code sqeIssueNs} per iocb and {@code cqePostNs} per
 * event, as on the O_DIRECT path ({@link blksim.kernel.iouring.SubmitCall}). Simplified: the
 * nested call pays its own entry and return cost ({@code rwEntryNs}, {@code wakeReturnNs}), which
 * stands for {@code aio_read()}'s set-up and {@code aio_rw_done()} [A: same order of work as
 * {@code ksys_pread64()}'s entry]; the same simplification {@link blksim.kernel.fs.FileAio} makes
 * for regular files.
 */
final class BufferedBdevSubmit extends SystemCall {
  private static final int ENTER = 0;
  private static final int NEXT = 1;
  private static final int IO = 2;
  private static final int POST = 3;

  private final BlockDeviceFile file;
  private final CompletionRing ring;
  private final IoUringParams costs;
  private List<IoRequest> batch;
  private int idx;
  private int phase;
  private IoRequest req;
  private SystemCall nested;
  private int result;

  BufferedBdevSubmit(BlockDeviceFile file, CompletionRing ring, IoUringParams costs) {
    if (file.direct()) {
      throw new IllegalArgumentException("BufferedBdevSubmit is for files opened without O_DIRECT");
    }
    this.file = file;
    this.ring = ring;
    this.costs = costs;
  }

  SystemCall arm(List<IoRequest> iocbs) {
    this.batch = iocbs;
    this.idx = 0;
    this.phase = ENTER;
    return this;
  }

  @Override
  public boolean step(TaskCpu cpu) {
    while (true) {
      switch (phase) {
        case ENTER:
          phase = NEXT;
          cpu.runFor(CpuMode.SYSTEM, costs.enterNs());
          return false;
        case NEXT: {
          if (idx == batch.size()) {
            return returned(batch.size());
          }
          req = batch.get(idx++);
          Bio b = req.bio();
          if (b.op() != ReqOp.READ && b.op() != ReqOp.WRITE) {
            // IOCB_CMD_FSYNC and friends are not iocbs fio's libaio engine sends here.
            throw new IllegalStateException("buffered io_submit of a " + b.op() + " iocb");
          }
          nested = b.op() == ReqOp.READ ? file.pread(b.sector() << 9, b.sizeBytes())
              : file.pwrite(b.sector() << 9, b.sizeBytes());
          phase = IO;
          cpu.runFor(CpuMode.SYSTEM, costs.sqeIssueNs());
          return false;
        }
        case IO:
          if (!nested.step(cpu)) {
            return false;
          }
          long r = nested.ret();
          nested = null;
          result = r < 0 ? (int) r : 0;
          phase = POST;
          continue;
        case POST:
          ring.post(req, result);
          phase = NEXT;
          cpu.runFor(CpuMode.SYSTEM, costs.cqePostNs());
          return false;
        default:
          throw new IllegalStateException("buffered io_submit in phase " + phase);
      }
    }
  }
}
