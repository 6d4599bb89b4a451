package blksim.kernel.device;

/**
 * A zone's condition ({@code enum blk_zone_cond}, {@code include/uapi/linux/blkzoned.h}), as
 * {@code blkzone report} prints it.
 */
public enum ZoneCondition {
  /** {@code BLK_ZONE_COND_NOT_WP}: a conventional zone, no write pointer. */
  NOT_WP("nw"),
  /** {@code BLK_ZONE_COND_EMPTY}: write pointer at the zone's start. */
  EMPTY("em"),
  /** {@code BLK_ZONE_COND_IMP_OPEN}: opened by a write. */
  IMP_OPEN("oi"),
  /** {@code BLK_ZONE_COND_EXP_OPEN}: opened by a zone open command. */
  EXP_OPEN("oe"),
  /** {@code BLK_ZONE_COND_CLOSED}: partly written, not open. */
  CLOSED("cl"),
  /** {@code BLK_ZONE_COND_FULL}: written to its end, or finished. */
  FULL("fu");

  private final String shortName;

  ZoneCondition(String shortName) {
    this.shortName = shortName;
  }

  /** The two letters util-linux's {@code blkzone report} prints ({@code zone_cond_str}). */
  public String shortName() {
    return shortName;
  }

  /** Whether the zone holds an open resource (implicitly or explicitly open). */
  public boolean open() {
    return this == IMP_OPEN || this == EXP_OPEN;
  }
}
