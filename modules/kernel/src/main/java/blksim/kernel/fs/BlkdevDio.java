package blksim.kernel.fs;

import blksim.kernel.block.BlkMqRules;
import blksim.kernel.block.Bio;
import blksim.kernel.block.BioEndIo;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.Errno;
import blksim.kernel.block.Plug;
import blksim.kernel.sched.Task;

/**
 * The bios of an O_DIRECT read or write on a block device, as {@code blkdev_direct_IO()}
 * ({@code block/fops.c}) builds them: an I/O of at most {@link #BIO_MAX_VECS} pages is one bio
 * ({@code __blkdev_direct_IO_simple()} for a synchronous call, {@code __blkdev_direct_IO_async()}
 * for libaio and io_uring); a larger one goes through {@code __blkdev_direct_IO()}, which
 * allocates each bio with {@code bio_iov_vecs_to_alloc(iter, BIO_MAX_VECS)} vecs, fills it
 * ({@code bio_iov_iter_get_pages()}), submits it and allocates the next while the iter has data,
 * all under one {@code blk_start_plug()}; the I/O completes when its last bio has
 * ({@code dio->ref}, {@code blkdev_bio_end_io()}), with the first error of a bio. Each bio then
 * meets the queue's limits on its own ({@code bio_split_to_limits()} in a request-based queue).
 *
 * <p>One object per submitting task (a file's calls, a ring's submitter, an io-wq worker): it
 * holds the submission in progress, so a bio that waits for a tag is retried, with the same
 * {@code Bio} object, when the caller retries with the same I/O (the {@link BlockQueue#issue}
 * protocol). The completion counter is one small object per multi-bio I/O.
 *
 * <ul>
 * <li>[A] The user buffer is page-aligned and not physically contiguous: one 4 KiB page per
 *     bvec ({@code bio_iov_iter_get_pages()} adds a page per vec; fio's buffers are malloc'd
 *     and page-aligned, and transparent huge pages are {@code madvise} by default, so they are
 *     order-0 pages). An I/O of N bytes has ceil(N / 4096) pages, whatever its device offset,
 *     and every bio but the last carries {@link #BIO_MAX_BYTES} (1 MiB).
 * <li>REQ_NOWAIT (io_uring's inline issue, {@code IOCB_NOWAIT}): an I/O of more than
 *     {@link #BIO_MAX_VECS} pages ends with -EAGAIN before any bio is submitted
 *     ({@code __blkdev_direct_IO()}: "be safe and ask for a retry of this from blocking
 *     context"), so io_uring punts it to io-wq on every device.
 * <li>REQ_POLLED is not set on the bios of a multi-bio I/O (only
 *     {@code __blkdev_direct_IO_async()} sets it): they complete by interrupt.
 * <li>The plug ({@link DioPlug}): the task's own if it holds one (a nested
 *     {@code blk_start_plug()}, as under {@code io_submit()} of more than 2 iocbs), else this
 *     object's, set as {@code current->plug} while the bios are submitted, so a sleep for a tag
 *     flushes it.
 * </ul>
 *
 * <p>Costs: {@link #submitCostNs} is the sum of the queue's submission cost of each bio
 * ({@link BlockQueue#submitCostNs}, which holds the bio's allocation); the caller pays it in one
 * burst before the first bio, as for a single bio. Simplified: the kernel interleaves each
 * bio's building with its submission; a refused REQ_NOWAIT I/O costs no block-layer time (the
 * kernel allocates and fills the first bio, then frees it: only its pinned pages,
 * {@link #pinnedBytes}, are charged, by the caller); the pinning of the user pages stays the
 * caller's per-page cost of the whole I/O ({@code SyscallParams#dioPinNs}); on a bio-based
 * queue the disk's ticks of each bio are the driver's time without cold touches (the bios are
 * built again at the issue, so {@link blksim.kernel.block.BioBasedQueue}'s cost is not reused).
 * Simplified as well: 6.x's {@code block/fops.c} and plug rules ({@link BlkMqRules#V6}) in every
 * kernel mode (before 4.10 the block device's O_DIRECT went through {@code fs/direct-io.c}).
 */
public final class BlkdevDio {
  /** {@code BIO_MAX_VECS}: vecs of one bio at most. */
  public static final int BIO_MAX_VECS = Bio.MAX_VECS;
  /** The bytes of a full bio: {@link #BIO_MAX_VECS} pages of 4 KiB (see the class comment). */
  public static final int BIO_MAX_BYTES = BIO_MAX_VECS * Bio.PAGE_SIZE;

  /** This submitter's plug ({@code struct blk_plug} on the stack of __blkdev_direct_IO). */
  private final DioPlug plug;

  /** The multi-bio I/O being submitted (by identity), or null. */
  private Bio io;
  private Ref ref;
  /** Where the part not yet in a bio starts, and its bytes. */
  private long sector;
  private long left;
  /** The bio built and not yet taken (it waits for a tag), or null. */
  private Bio bio;

  /** The submitter of {@code task}'s direct I/O. */
  public BlkdevDio(Task task) {
    this.plug = new DioPlug(task);
  }

  /** Whether {@code io} needs more than one bio ({@code nr_pages > BIO_MAX_VECS}). */
  public static boolean multiBio(Bio io) {
    return io.sizeBytes() > BIO_MAX_BYTES;
  }

  /** How many bios {@code io} is submitted as (1 for a REQ_NOWAIT one that is refused). */
  public static int bios(Bio io) {
    if (!multiBio(io) || io.nowait()) {
      return 1;
    }
    return (int) ((io.sizeBytes() + (long) BIO_MAX_BYTES - 1) / BIO_MAX_BYTES);
  }

  /**
   * The bytes of {@code io}'s user buffer pinned ({@code bio_iov_iter_get_pages()}): all of them,
   * or the first bio's for a REQ_NOWAIT I/O that is refused after its first bio was filled.
   */
  public static long pinnedBytes(Bio io) {
    return multiBio(io) && io.nowait() ? BIO_MAX_BYTES : io.sizeBytes();
  }

  /** The next bio of a multi-bio {@code io}: at {@code sector}, with {@code left} bytes to go. */
  private static Bio bioOf(Bio io, long sector, long left) {
    int n = (int) Math.min(left, BIO_MAX_BYTES);
    return new Bio(io.op(), sector, n, io.flags() & ~Bio.REQ_POLLED, io.ioprio());
  }

  /**
   * The submission cost of {@code io}'s bios on {@code q}: {@link BlockQueue#submitCostNs} of the
   * one bio, or the sum over the bios; 0 for a REQ_NOWAIT I/O that is refused (class comment).
   */
  public static long submitCostNs(BlockQueue q, Bio io) {
    if (!multiBio(io)) {
      return q.submitCostNs(io);
    }
    if (io.nowait()) {
      return 0;
    }
    long ns = 0;
    long s = io.sector();
    for (long rest = io.sizeBytes(); rest > 0; rest -= BIO_MAX_BYTES) {
      Bio b = bioOf(io, s, rest);
      ns += q.submitCostNs(b);
      s += b.sectors();
    }
    return ns;
  }

  /**
   * Submits {@code io} to {@code q} after {@link #submitCostNs} was paid; {@code callerPlug} is
   * the plug the caller would pass for a single bio (null: none). Returns false only when a bio
   * must wait for a request: the caller sleeps until {@code onTagFree} runs and retries with the
   * same {@code io}, and the submission goes on from that bio. {@code endIo} runs once, for
   * {@code io}, after its last bio completed, with the first error.
   */
  public boolean issue(BlockQueue q, Bio io, BioEndIo endIo, Runnable onTagFree,
      Plug callerPlug) {
    if (!multiBio(io)) {
      return callerPlug == null ? q.issue(io, endIo, onTagFree)
          : q.issue(io, endIo, onTagFree, callerPlug);
    }
    if (this.io != io) {
      if (io.nowait()) {
        endIo.endIo(io, -Errno.EAGAIN);
        return true;
      }
      this.io = io;
      this.ref = new Ref(io, endIo);
      this.sector = io.sector();
      this.left = io.sizeBytes();
      this.bio = null;
      // blk_start_plug(): nested (it only counts) when the task holds one already.
      plug.start();
    }
    while (true) {
      if (bio == null) {
        bio = bioOf(io, sector, left);
        sector += bio.sectors();
        left -= bio.sizeBytes();
        ref.outstanding++; // atomic_inc(&dio->ref)
      }
      if (!q.issue(bio, ref, onTagFree, plug.held())) {
        return false;
      }
      bio = null;
      if (left == 0) {
        break;
      }
    }
    Ref r = ref;
    this.io = null;
    this.ref = null;
    r.allSubmitted();
    // blk_finish_plug(): the outermost flushes, here, in the caller's context.
    plug.finish();
    return true;
  }

  /** {@code struct blkdev_dio}'s reference count and status: the I/O's completion. */
  private static final class Ref implements BioEndIo {
    private final Bio io;
    private final BioEndIo endIo;
    int outstanding;
    private int firstError;
    private boolean submitted;

    Ref(Bio io, BioEndIo endIo) {
      this.io = io;
      this.endIo = endIo;
    }

    /** {@code blkdev_bio_end_io()}. */
    @Override
    public void endIo(Bio b, int error) {
      if (error != 0 && firstError == 0) {
        firstError = error;
      }
      outstanding--;
      finishIfDone();
    }

    void allSubmitted() {
      submitted = true;
      finishIfDone();
    }

    private void finishIfDone() {
      if (submitted && outstanding == 0) {
        submitted = false; // once
        endIo.endIo(io, firstError);
      }
    }
  }
}
