package blksim.workload.trace;

/**
 * One blktrace event that matters to a replay, from blkparse text or the binary format.
 *
 * @param timeNs time relative to the first event of the trace, in ns
 * @param device {@code "major,minor"} as blkparse prints it
 * @param action {@code 'Q'}, {@code 'D'}, {@code 'C'}, {@code 'M'} (back merge) or {@code 'F'}
 *     (front merge)
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
