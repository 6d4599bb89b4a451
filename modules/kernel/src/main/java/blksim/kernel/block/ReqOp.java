package blksim.kernel.block;

/** The operation of a bio or request ({@code enum req_op}). */
public enum ReqOp {
  READ,
  WRITE,
  FLUSH,
  DISCARD;

  /** The stat group of {@code /proc/diskstats}: 0 for reads, 1 for writes and the rest. */
  public int statGroup() {
    return this == READ ? 0 : 1;
  }
}
