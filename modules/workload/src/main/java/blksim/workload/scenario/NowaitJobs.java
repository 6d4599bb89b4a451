package blksim.workload.scenario;

import blksim.workload.fio.FioEngine;
import blksim.workload.fio.FioJob;

/**
 * The loader's rules for fio's {@code nowait=1} (RWF_NOWAIT on every I/O of io_uring, libaio
 * and pvsync2): where blksim models what the kernel does with it, and a refusal naming the
 * kernel's behaviour where it does not.
 *
 * <ul>
 * <li>O_DIRECT on a block device: io_uring and libaio put REQ_NOWAIT on the bio
 *     ({@code __blkdev_direct_IO_async()}); the block layer fails it with -EAGAIN when no tag is
 *     free and -EOPNOTSUPP on a device without nowait support, io_uring does not reissue it
 *     ({@code io_rw_should_reissue()}: REQ_F_NOWAIT), and fio ends the job with the error.
 *     pvsync2 takes {@code __blkdev_direct_IO_simple()} up to {@code BIO_MAX_VECS} (256) pages,
 *     which sets no REQ_NOWAIT: no effect; above that {@code __blkdev_direct_IO()} returns
 *     -EAGAIN for a transfer that needs a second bio (refused: not modelled).
 * <li>{@code /dev/null}, {@code /dev/zero}: never block (no effect; the 6.x
 *     {@code read_iter_zero()} -EAGAIN when {@code need_resched()} is not modelled).
 * <li>Buffered I/O on a block device: refused (a read that misses the page cache starts
 *     readahead and fails with -EAGAIN; {@code blkdev_write_iter()} fails a NOWAIT write
 *     without O_DIRECT with -EOPNOTSUPP).
 * <li>Files of a filesystem: refused (iomap's IOMAP_NOWAIT paths are not modelled).
 * </ul>
 */
final class NowaitJobs {
  /** {@code BIO_MAX_VECS} pages of 4 KiB: the largest O_DIRECT transfer of one bio. */
  static final long BIO_MAX_BYTES = 256 * 4096;

  private NowaitJobs() {}

  static void check(FioJob j, boolean charDevice, boolean regularFiles) {
    if (!j.nowait() || charDevice) {
      return;
    }
    String who = "nowait=1 (RWF_NOWAIT) ";
    if (regularFiles) {
      throw j.error("nowait", who + "on files of a filesystem is not modelled yet (iomap's"
          + " IOMAP_NOWAIT: -EAGAIN on a contended inode lock or a write that must allocate);"
          + " it is on block devices with direct=1, and on /dev/null and /dev/zero");
    }
    if (!j.direct()) {
      throw j.error("nowait", who + "with buffered I/O on a block device is not modelled (a"
          + " read that misses the page cache starts readahead and fails with EAGAIN; a write"
          + " fails with EOPNOTSUPP, blkdev_write_iter() taking NOWAIT only with O_DIRECT); use"
          + " direct=1");
    }
    if (j.ioengine() == FioEngine.PVSYNC2 && Math.max(j.bs()[0], j.bs()[1]) > BIO_MAX_BYTES) {
      throw j.error("nowait", who + "with pvsync2 and a block size above 1 MiB is not modelled"
          + " (__blkdev_direct_IO() returns EAGAIN for an O_DIRECT transfer that needs more than"
          + " one bio of BIO_MAX_VECS pages)");
    }
  }
}
