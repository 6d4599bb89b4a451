package blksim.kernel.block;

/** The operation of a bio or request ({@code enum req_op}). */
public enum ReqOp {
  READ,
  WRITE,
  FLUSH,
  DISCARD,
  /** {@code REQ_OP_ZONE_RESET}: the zone's write pointer back to its start (zoned devices). */
  ZONE_RESET,
  /** {@code REQ_OP_ZONE_FINISH}: the zone made full, its write pointer at its end. */
  ZONE_FINISH,
  /** {@code REQ_OP_ZONE_OPEN}: the zone explicitly opened. */
  ZONE_OPEN,
  /** {@code REQ_OP_ZONE_CLOSE}: the open zone closed, releasing its open resource. */
  ZONE_CLOSE;

  /** Whether this is a zone management operation ({@code op_is_zone_mgmt()}). */
  public boolean zoneMgmt() {
    return this == ZONE_RESET || this == ZONE_FINISH || this == ZONE_OPEN || this == ZONE_CLOSE;
  }

  /** The stat group of {@code /proc/diskstats}: 0 for reads, 1 for writes and the rest. */
  public int statGroup() {
    return this == READ ? 0 : 1;
  }
}
