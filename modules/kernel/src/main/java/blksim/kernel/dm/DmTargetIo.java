package blksim.kernel.dm;

import blksim.kernel.block.Bio;
import blksim.kernel.block.BioEndIo;
import blksim.kernel.block.BlockQueue;

/**
 * One clone of a bio, sent to one target: mirrors {@code struct dm_target_io} with the clone bio
 * it embeds. The target remaps it ({@code bio_set_dev()} and {@code bi_sector}), submits it
 * ({@code dm_submit_bio_remap()}) now or later, or completes it ({@code bio_endio()}); its
 * completion ({@code clone_endio()}) drops its reference on the {@link DmIo}.
 *
 * <p>Owned by the {@link DmQueue} of one CPU and, while it is queued, by its target.
 */
public final class DmTargetIo implements BioEndIo {
  private final DmIo io;
  private final DmTarget target;
  private Bio clone;
  private BlockQueue dev;
  private boolean done;
  /** The clone's sector on the mapped device before {@link #remap} (the A event's origin). */
  private long fromSector;

  DmTargetIo(DmIo io, DmTarget target, Bio clone) {
    this.io = io;
    this.target = target;
    this.clone = clone;
  }

  /** The clone as it is now: the mapped device's sector until remapped, then the device's. */
  public Bio bio() {
    return clone;
  }

  /** The target it was sent to. */
  public DmTarget target() {
    return target;
  }

  /** The device it was remapped to, {@code null} before {@link #remap}. */
  public BlockQueue device() {
    return dev;
  }

  /** Whether the clone completed. */
  public boolean done() {
    return done;
  }

  /** {@code bio_set_dev(clone, dev)} and {@code clone->bi_iter.bi_sector = sector}. */
  public void remap(BlockQueue device, long sector) {
    this.fromSector = clone.sector();
    this.dev = device;
    this.clone = new Bio(clone.op(), sector, clone.sizeBytes(), clone.flags(), clone.ioprio());
  }

  /**
   * CPU time the submitting context spends to submit the remapped clone to its device
   * ({@link BlockQueue#submitCostNs}).
   */
  public long submitCostNs() {
    return dev.submitCostNs(clone);
  }

  /**
   * {@code dm_submit_bio_remap()} → {@code submit_bio_noacct()}: issues the remapped clone to its
   * device after its cost was paid; returns false, having done nothing, if the device had no tag
   * and the caller must wait for {@code onTagFree} and try again (see
   * {@link BlockQueue#issue}).
   */
  public boolean submit(Runnable onTagFree) {
    if (dev == null) {
      throw new IllegalStateException(io.md.diskName() + ": clone " + clone
          + " submitted before it was remapped");
    }
    if (dev.blkTrace() != null) {
      dev.blkTrace().remap(dev.cpu(), clone, io.md.blkTraceDev(), fromSector);
    }
    return dev.issue(clone, this, onTagFree);
  }

  /** {@code bio_endio(clone)}: the clone completed with {@code error} (0 or a negative errno). */
  public void endio(int error) {
    if (done) {
      throw new IllegalStateException(io.md.diskName() + ": clone " + clone
          + " completed twice");
    }
    done = true;
    io.dec(error);
  }

  /** The underlying device's completion of the clone ({@code clone_endio()}). */
  @Override
  public void endIo(Bio bio, int error) {
    endio(error);
  }

  /** The mapped device's accounting starts with this clone ({@code dm_start_io_acct()}). */
  void account() {
    io.account();
  }
}
