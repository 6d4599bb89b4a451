package blksim.workload.trace;

/**
 * One blktrace event that matters to a replay, from blkparse text or the binary format.
 *
 * @param timeNs time relative to the first event of the trace, in ns
 * @param device {@code "major,minor"} as blkparse prints it
 * @param action {@code 'Q'}, {@code 'D'}, {@code 'C'}, {@code 'M'} (back merge), {@code 'F'}
 *     (front merge) or {@code 'X'} (split: {@code sector} is the bio's start and
 *     {@code lengthBytes} its front part's, up to the sector where the rest starts)
 * @param op the request's operation from its RWBS / category bits, or {@code null} for a request
 *     that carries neither data nor a flush (RWBS {@code N})
 * @param sector first 512-byte sector, or -1 when the event shows none (an empty flush)
 * @param lengthBytes length in bytes
 * @param line source line (text) or event number in its file (binary)
 */
record BlkEvent(long timeNs, String device, char action, TraceOp op, long sector,
    long lengthBytes, long line) {

  /** 512-byte sector size of blktrace's {@code sector} field. */
  static final long SECTOR_BYTES = 512;

  /** Sectors in the largest bio ({@code bi_size} is an unsigned int of bytes). */
  static final long MAX_BIO_SECTORS = (1L << 32) / SECTOR_BYTES;

  /** The rule a split's new sector must follow, as the readers report it. */
  static final String SPLIT_RULE = "a split (X) must name the sector where its second part"
      + " starts, after the bio's start sector by less than a bio's 2^32 bytes (blkparse prints"
      + " it modulo 2^32, as the kernel's trace_block_split() passes it)";

  /**
   * The sector where a split bio's second part starts, from the value an {@code X} event carries
   * ({@code blk_add_trace_split()}'s {@code unsigned int} payload, which blkparse prints with
   * {@code %u}: modulo 2^32 on a device beyond 2 TiB); -1 when {@code value} cannot be one.
   */
  static long splitSector(long sector, long value) {
    if (sector < 0 || value < 0) {
      return -1;
    }
    long d = value > 0xffffffffL ? value - sector : (value - sector) & 0xffffffffL;
    return d > 0 && d < MAX_BIO_SECTORS ? sector + d : -1;
  }

  /**
   * The operation of a request from its parts, as {@code blkparse_fmt.c fill_rwbs()} and the
   * kernel's {@code blk_fill_rwbs()} spell them: {@code preflush} is the leading {@code F};
   * {@code kind} is the next letter, {@code D} (discard; {@code DE} secure erase), {@code W},
   * {@code R}, {@code N} (no data) or {@code F} (the kernel's {@code REQ_OP_FLUSH}).
   *
   * <p>A preflush on a request without data is a {@link TraceOp#FLUSH}; a preflush on a write
   * with data is kept as the {@link TraceOp#WRITE} (simplified: the flush before it is not
   * replayed separately). {@code N} without a flush returns {@code null}: there is nothing to
   * replay.
   */
  static TraceOp op(boolean preflush, char kind, long lengthBytes) {
    TraceOp op = switch (kind) {
      case 'D' -> TraceOp.TRIM;
      case 'W' -> TraceOp.WRITE;
      case 'R' -> TraceOp.READ;
      case 'F' -> TraceOp.FLUSH;
      default -> null;
    };
    if (op == TraceOp.FLUSH || (preflush && lengthBytes == 0 && op != TraceOp.TRIM)) {
      return TraceOp.FLUSH;
    }
    return op;
  }
}
