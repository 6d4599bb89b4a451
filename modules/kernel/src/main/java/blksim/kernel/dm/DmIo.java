package blksim.kernel.dm;

import blksim.kernel.block.Bio;
import blksim.kernel.block.BioEndIo;

/**
 * One bio submitted to a mapped device while its clones are in flight: mirrors {@code struct
 * dm_io} ({@code drivers/md/dm-core.h}) with its {@code io_count} and {@code status}.
 *
 * <p>The count starts at 1, the submission's own reference, which {@link DmQueue} drops when it
 * has mapped every clone; each clone adds one and drops it when it completes
 * ({@code dm_io_dec_pending()}). When the count reaches 0 the original bio completes with the
 * first error any clone saw ({@code dm_io_complete()}, then {@code bio_endio()}). Owned by the
 * {@link DmQueue} of one CPU.
 */
final class DmIo {
  final DmQueue md;
  final Bio orig;
  final BioEndIo endIo;
  final long startNs;
  private int pending = 1;
  private int status;
  private boolean accounted;

  DmIo(DmQueue md, Bio orig, BioEndIo endIo, long startNs) {
    this.md = md;
    this.orig = orig;
    this.endIo = endIo;
    this.startNs = startNs;
  }

  /** A clone was created ({@code dm_io_inc_pending()}). */
  void inc() {
    pending++;
  }

  /**
   * {@code dm_io_dec_pending()}: drops one reference, keeping the first error; completes the
   * original bio when none is left.
   */
  void dec(int error) {
    if (pending <= 0) {
      throw new IllegalStateException(md.diskName() + ": bio " + orig
          + " completed more often than it was cloned");
    }
    if (error != 0 && status == 0) {
      status = error;
    }
    if (--pending == 0) {
      md.complete(this, status, accounted);
    }
  }

  /**
   * {@code dm_start_io_acct()}: the first clone a target accepted (remapped and issued, or
   * taken) starts the mapped device's accounting of this bio.
   */
  void account() {
    if (!accounted) {
      accounted = true;
      md.startAccounting(this);
    }
  }
}
