package blksim.kernel.block;

/**
 * The errno values a bio can complete with, by their kernel names ({@code
 * include/uapi/asm-generic/errno-base.h} and {@code errno.h}, x86-64 numbering). A bio's
 * {@link BioEndIo#endIo} receives 0 or the negated value, as {@code blk_status_to_errno()} turns
 * a {@code blk_status_t} into one.
 */
public final class Errno {
  private Errno() {}

  /**
   * {@code EIO} (5): "I/O error"; {@code BLK_STS_IOERR}, for instance a write to a sequential
   * zone not at its write pointer, which a ZBC/ZAC drive fails with ILLEGAL REQUEST, UNALIGNED
   * WRITE COMMAND (ASC/ASCQ 21h/04h) and the SCSI midlayer completes with {@code BLK_STS_IOERR}
   * (null_blk's zoned mode fails it with {@code BLK_STS_IOERR} too).
   */
  public static final int EIO = 5;
  /**
   * {@code ETOOMANYREFS} (109); {@code BLK_STS_ZONE_OPEN_RESOURCE}: opening one more zone would
   * exceed the device's open-zone limit and no implicitly open zone can be closed for it.
   */
  public static final int ETOOMANYREFS = 109;
  /** {@code EAGAIN} (11): "try again"; {@code BLK_STS_AGAIN}, a REQ_NOWAIT bio would block. */
  public static final int EAGAIN = 11;
  /**
   * {@code EOPNOTSUPP} (95): "operation not supported"; {@code BLK_STS_NOTSUPP}, for instance a
   * REQ_NOWAIT bio sent to a device without QUEUE_FLAG_NOWAIT.
   */
  public static final int EOPNOTSUPP = 95;

  /**
   * The name of an error as a bio's end_io sees it: {@code "0"}, {@code "-EAGAIN"},
   * {@code "-EOPNOTSUPP"}, or the number for an errno this class does not name.
   */
  public static String name(int error) {
    switch (error) {
      case 0:
        return "0";
      case -EAGAIN:
        return "-EAGAIN";
      case -EOPNOTSUPP:
        return "-EOPNOTSUPP";
      case -EIO:
        return "-EIO";
      case -ETOOMANYREFS:
        return "-ETOOMANYREFS";
      default:
        return Integer.toString(error);
    }
  }
}
