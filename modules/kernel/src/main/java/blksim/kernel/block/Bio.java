package blksim.kernel.block;

/**
 * A block I/O ({@code struct bio}): one contiguous range of a device, one operation.
 *
 * @param op the operation
 * @param sector first 512-byte sector ({@code bi_iter.bi_sector})
 * @param sizeBytes length in bytes ({@code bi_iter.bi_size})
 * @param flags request flags ({@code REQ_*} bits, see the constants)
 * @param ioprio the I/O priority ({@code bi_ioprio}: class {@code << IOPRIO_CLASS_SHIFT} | level,
 *     include/uapi/linux/ioprio.h); 0 is {@code IOPRIO_CLASS_NONE}, which mq-deadline treats as
 *     best effort
 */
public record Bio(ReqOp op, long sector, int sizeBytes, int flags, int ioprio) {
  /** {@code IOPRIO_CLASS_SHIFT}. */
  public static final int IOPRIO_CLASS_SHIFT = 13;
  /** {@code IOPRIO_CLASS_NONE}, {@code _RT}, {@code _BE}, {@code _IDLE}. */
  public static final int IOPRIO_CLASS_NONE = 0;
  public static final int IOPRIO_CLASS_RT = 1;
  public static final int IOPRIO_CLASS_BE = 2;
  public static final int IOPRIO_CLASS_IDLE = 3;

  /** A bio without an I/O priority ({@code IOPRIO_CLASS_NONE}). */
  public Bio(ReqOp op, long sector, int sizeBytes, int flags) {
    this(op, sector, sizeBytes, flags, 0);
  }

  /** {@code IOPRIO_PRIO_VALUE(class, level)}. */
  public static int ioprioValue(int ioClass, int level) {
    return (ioClass << IOPRIO_CLASS_SHIFT) | level;
  }

  /** {@code IOPRIO_PRIO_CLASS(ioprio)}. */
  public static int ioprioClass(int ioprio) {
    return ioprio >>> IOPRIO_CLASS_SHIFT;
  }

  /** This bio with {@code flags} in place of its own, same priority. */
  public Bio withFlags(int newFlags) {
    return new Bio(op, sector, sizeBytes, newFlags, ioprio);
  }

  /** {@code REQ_SYNC}. */
  public static final int REQ_SYNC = 1;
  /**
   * {@code REQ_NOWAIT}: fail rather than block. A device without nowait support rejects such a
   * bio with -EOPNOTSUPP in {@code submit_bio_noacct()}; a blk-mq device out of tags fails it with
   * -EAGAIN (kernel-model.md §5.2, §5.3).
   */
  public static final int REQ_NOWAIT = 1 << 1;
  /** {@code REQ_RAHEAD}: readahead, may be dropped. */
  public static final int REQ_RAHEAD = 1 << 2;
  /**
   * {@code REQ_PREFLUSH}: flush the device's volatile cache before the write. dm-delay puts a
   * write carrying it in its flush class (kernel-model.md §5.1, §8.4).
   */
  public static final int REQ_PREFLUSH = 1 << 3;
  /**
   * {@code REQ_FUA}: forced unit access, the write is on stable media when it completes (the
   * XFS log's commit record). Devices without a write cache treat it as a plain write.
   */
  public static final int REQ_FUA = 1 << 4;

  /** {@code REQ_IDLE}: O_DIRECT writes carry it with REQ_SYNC (blk-wbt does not throttle them). */
  public static final int REQ_IDLE = 1 << 5;
  /**
   * {@code REQ_BACKGROUND}: background or periodic writeback ({@code wbc_to_write_flags()}); blk-wbt
   * limits it to {@code wb_background}.
   */
  public static final int REQ_BACKGROUND = 1 << 6;
  /** {@code REQ_META}: metadata I/O. */
  public static final int REQ_META = 1 << 7;
  /** {@code REQ_PRIO}: boosted priority. */
  public static final int REQ_PRIO = 1 << 8;
  /**
   * {@code REQ_POLLED}: the submitter polls for the completion ({@code bio_set_polled()}, from
   * IOCB_HIPRI of an io_uring ring set up with IORING_SETUP_IOPOLL). Set only on a queue that
   * {@link BlockQueue#polled() polls}: {@code submit_bio_noacct()} clears it otherwise, and
   * the bio completes by interrupt.
   */
  public static final int REQ_POLLED = 1 << 9;
  /**
   * {@code REQ_NOMERGE}: neither the bio nor the request made of it merges. Set on the front
   * piece {@code bio_submit_split()} splits off a bio larger than the queue's limits.
   */
  public static final int REQ_NOMERGE = 1 << 10;

  /** {@code PAGE_SIZE} of x86-64: the unit in which brd and zram store data. */
  public static final int PAGE_SIZE = 4096;

  /**
   * {@code BIO_MAX_VECS} (include/linux/bio.h; {@code BIO_MAX_PAGES} before 5.12): the vecs of
   * one bio at most, so 256 order-0 pages, 1 MiB, for the callers that fill a bio a page a vec.
   */
  public static final int MAX_VECS = 256;

  public Bio {
    if (sector < 0) {
      throw new IllegalArgumentException("sector must be >= 0, was " + sector);
    }
    if (sizeBytes < 0) {
      throw new IllegalArgumentException("sizeBytes must be >= 0, was " + sizeBytes);
    }
  }

  /** Number of 512-byte sectors covered. */
  public long sectors() {
    return sizeBytes >>> 9;
  }

  /** Whether {@code flag} (a {@code REQ_*} bit) is set. */
  public boolean hasFlag(int flag) {
    return (flags & flag) != 0;
  }

  /** Whether the bio carries {@code REQ_NOWAIT}. */
  public boolean nowait() {
    return hasFlag(REQ_NOWAIT);
  }

  /**
   * The number of {@link #PAGE_SIZE} pages the bio's byte range touches (0 for an empty bio): the
   * iterations of a page-by-page driver loop such as brd's or zram's.
   */
  public long pageCount() {
    if (sizeBytes == 0) {
      return 0;
    }
    long first = (sector << 9) / PAGE_SIZE;
    long last = ((sector << 9) + sizeBytes - 1) / PAGE_SIZE;
    return last - first + 1;
  }

  /** The index of the first {@link #PAGE_SIZE} page the bio touches ({@code sector >> 3}). */
  public long firstPage() {
    return (sector << 9) / PAGE_SIZE;
  }
}
