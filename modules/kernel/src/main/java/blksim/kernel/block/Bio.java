package blksim.kernel.block;

/**
 * A block I/O ({@code struct bio}): one contiguous range of a device, one operation.
 *
 * @param op the operation
 * @param sector first 512-byte sector ({@code bi_iter.bi_sector})
 * @param sizeBytes length in bytes ({@code bi_iter.bi_size})
 * @param flags request flags ({@code REQ_*} bits, see the constants)
 */
public record Bio(ReqOp op, long sector, int sizeBytes, int flags) {
  /** {@code REQ_SYNC}. */
  public static final int REQ_SYNC = 1;
  /** {@code REQ_NOWAIT}: fail with -EAGAIN rather than block. */
  public static final int REQ_NOWAIT = 1 << 1;
  /** {@code REQ_RAHEAD}: readahead, may be dropped. */
  public static final int REQ_RAHEAD = 1 << 2;

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
}
