package blksim.workload.trace;

/**
 * What a trace record asks for, normalised over all formats.
 *
 * <p>The block operations follow the kernel's {@code REQ_OP_*} and fio's {@code enum fio_ddir}
 * ({@code DDIR_READ}, {@code DDIR_WRITE}, {@code DDIR_TRIM}, {@code DDIR_SYNC},
 * {@code DDIR_DATASYNC}, {@code DDIR_WAIT}); the file actions are fio's iolog
 * {@code enum file_log_act} ({@code FIO_LOG_ADD_FILE}, {@code FIO_LOG_OPEN_FILE},
 * {@code FIO_LOG_CLOSE_FILE}).
 */
public enum TraceOp {
  /** Read of {@code lengthBytes} at {@code offsetBytes}. */
  READ,
  /** Write of {@code lengthBytes} at {@code offsetBytes}. */
  WRITE,
  /** Discard (blktrace RWBS {@code D}, fio {@code trim}). */
  TRIM,
  /** A cache flush with no data (blktrace RWBS {@code F} on an empty request). */
  FLUSH,
  /** fio iolog {@code sync}: fsync(2) of the file. */
  SYNC,
  /** fio iolog {@code datasync}: fdatasync(2) of the file. */
  DATASYNC,
  /** fio iolog file action {@code add}. */
  ADD,
  /** fio iolog file action {@code open}. */
  OPEN,
  /** fio iolog file action {@code close}. */
  CLOSE,
  /** fio iolog v2 {@code wait}: the value fio reads into {@code ipo->delay}, in µs. */
  WAIT;

  /** Whether this is a data operation that addresses {@code offsetBytes}/{@code lengthBytes}. */
  public boolean isData() {
    return this == READ || this == WRITE || this == TRIM;
  }

  /** Whether this is an iolog file action (add, open, close). */
  public boolean isFileAction() {
    return this == ADD || this == OPEN || this == CLOSE;
  }
}
