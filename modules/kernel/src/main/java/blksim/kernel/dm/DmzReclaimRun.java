package blksim.kernel.dm;

import blksim.kernel.block.Bio;
import blksim.kernel.block.ReqOp;
import blksim.kernel.workqueue.WorkRun;
import blksim.kernel.workqueue.WorkerCpu;

/**
 * One run of {@code dmz_reclaim_work()} (drivers/md/dm-zoned-reclaim.c, kernel-model.md §15.1.4):
 * if {@code dmz_should_reclaim()} fails, re-check after {@code DMZ_IDLE_PERIOD}; otherwise set
 * the kcopyd throttle, {@code dmz_do_reclaim()} one zone, flush the metadata and
 * {@code dmz_schedule_reclaim()}.
 *
 * <p>{@code dmz_do_reclaim()}: the zone {@code dmz_get_zone_for_reclaim()} locks; a random data
 * zone without valid blocks is freed ({@code dmz_reclaim_empty()}); a random data zone's valid
 * runs go to a free sequential zone, which then maps the chunk ({@code dmz_reclaim_rnd_data()});
 * for a buffered sequential zone, a buffer whose valid blocks all lie at or past the data zone's
 * write pointer is appended to the data zone ({@code dmz_reclaim_buf()}), otherwise the data
 * zone's blocks go to the buffer, which becomes the data zone ({@code dmz_reclaim_seq_data()}).
 * Each valid run is one kcopyd copy waited for ({@code dmz_reclaim_copy()}); before it, the gap
 * to a sequential destination's write pointer is written with zeroes
 * ({@code dmz_reclaim_align_wp()}); a user bio that waits for the zone stops the copy
 * ({@code dmz_reclaim_should_terminate()}, -EINTR). Owned by the run.
 */
final class DmzReclaimRun implements WorkRun {
  private enum St { START, COPY, ALIGN, KCOPY, DONE, MBLK, RECLAIMED, FLUSH, END }

  private final DmzDevice dev;
  private final DmzMetadata md;
  private St st = St.START;
  private DmzZone dzone;
  private DmzZone src;
  private DmzZone dst;
  /** 0: empty, 1: rnd data, 2: buf into data, 3: seq data into buf. */
  private int kind;
  private int block;
  private int endBlock;
  private int chunkBlock;
  private int[] run;
  private int ret;
  private DmzIoBatch align;
  private DmzKcopyd copy;
  private DmzMetaFlush flush;
  /** A wait for metadata cache misses, and the state after it. */
  private DmzMblkWait mblkWait;
  private St after;

  DmzReclaimRun(DmzDevice dev) {
    this.dev = dev;
    this.md = dev.md;
  }

  @Override
  public void step(WorkerCpu cpu) {
    while (true) {
      switch (st) {
        case START -> {
          if (!dev.shouldReclaim()) {
            dev.rearmReclaim(DmzDevice.IDLE_PERIOD_S * dev.hz());
            cpu.finish();
            return;
          }
          dev.kcThrottle.throttle = dev.throttleFor();
          dev.stats().reclaimRuns++;
          dzone = md.getZoneForReclaim();
          if (dzone == null) {
            // -EBUSY: nothing lockable now. The kernel would re-queue at once; one jiffy
            // later, or an idle period when idle, avoids a zero-delay loop.
            dev.rearmReclaim(dev.targetIdle() ? DmzDevice.IDLE_PERIOD_S * dev.hz() : 1);
            cpu.finish();
            return;
          }
          if (!prepare()) {
            cpu.finish();
            return;
          }
          st = kind == 0 ? St.DONE : St.COPY;
          cpu.runFor(DmzDevice.RECLAIM_NS);
          return;
        }
        case COPY -> {
          if (src.reclaimTerminate) {
            ret = -4; // -EINTR
            st = St.DONE;
            break;
          }
          run = block < endBlock ? src.valid.firstValid(block) : null;
          if (block < endBlock) {
            // dmz_first_valid_block() -> dmz_get_bitmap() of each bitmap block it scans.
            int scanEnd = run == null ? endBlock : Math.min(endBlock, run[0] + 1);
            md.accessBitmaps(src, block, scanEnd - block, false);
          }
          if (run == null || run[0] >= endBlock) {
            st = St.DONE;
            mblkWait = DmzMblkWait.take(dev);
            if (mblkWait != null) {
              after = St.DONE;
              st = St.MBLK;
            }
            break;
          }
          run[1] = Math.min(run[1], endBlock - run[0]);
          if (dst.seq() && dst.wpBlock < run[0]) {
            align = new DmzIoBatch(dev::queue);
            for (int b = dst.wpBlock; b < run[0]; b += DmzKcopyd.SUB_JOB_BLOCKS) {
              int n = Math.min(DmzKcopyd.SUB_JOB_BLOCKS, run[0] - b);
              align.add(new Bio(ReqOp.WRITE, dev.sectorOf(dst, b), n * DmzFormat.BLOCK_SIZE,
                  0));
            }
            st = St.ALIGN;
          } else {
            st = St.KCOPY;
          }
          copy = new DmzKcopyd(dev, dev.sectorOf(src, run[0]), dev.sectorOf(dst, run[0]),
              run[1], dst.seq());
          mblkWait = DmzMblkWait.take(dev);
          if (mblkWait != null) {
            after = st;
            st = St.MBLK;
          }
        }
        case MBLK -> {
          if (mblkWait.step(cpu)) {
            return;
          }
          mblkWait = null;
          st = after;
        }
        case ALIGN -> {
          if (align.step(cpu)) {
            return;
          }
          dst.wpBlock = run[0];
          st = St.KCOPY;
        }
        case KCOPY -> {
          if (copy.step(cpu)) {
            return;
          }
          if (copy.error() != 0) {
            ret = copy.error();
            st = St.DONE;
            break;
          }
          block = run[0] + run[1];
          if (dst.seq()) {
            dst.wpBlock = block;
          }
          st = St.COPY;
        }
        case DONE -> {
          finishZone();
          // The bitmap updates' misses (dmz_merge_valid_blocks(), dmz_invalidate_blocks()).
          mblkWait = DmzMblkWait.take(dev);
          st = St.RECLAIMED;
          if (mblkWait != null) {
            after = St.RECLAIMED;
            st = St.MBLK;
          }
        }
        case RECLAIMED -> {
          if (ret != 0) {
            dev.stats().reclaimAborts++;
            st = St.END;
            break;
          }
          dev.stats().reclaimedZones++;
          dev.sample(cpu.now());
          flush = new DmzMetaFlush(dev);
          st = St.FLUSH;
        }
        case FLUSH -> {
          if (flush.step(cpu)) {
            return;
          }
          dev.stats().flushes++;
          st = St.END;
        }
        case END -> {
          dev.scheduleReclaim();
          cpu.finish();
          return;
        }
        default -> throw new IllegalStateException(st.name());
      }
    }
  }

  /** Chooses the case and the copy; false if no sequential zone is free (-ENOSPC). */
  private boolean prepare() {
    if (dzone.rnd) {
      if (dzone.weight == 0) {
        kind = 0;
        return true;
      }
      DmzZone sz = md.allocZone(true);
      if (sz == null) {
        // -ENOSPC; dmz_schedule_reclaim() would re-queue at once: one jiffy later instead.
        md.unlockZoneReclaim(dzone);
        dev.rearmReclaim(1);
        return false;
      }
      kind = 1;
      src = dzone;
      dst = sz;
      endBlock = (int) dev.fmt.zoneNrBlocks();
      return true;
    }
    DmzZone bz = dzone.bzone;
    int[] first = bz.valid.firstValid(0);
    if (first == null || first[0] >= dzone.wpBlock) {
      kind = 2;
      src = bz;
      dst = dzone;
      chunkBlock = dzone.wpBlock;
      endBlock = (int) dev.fmt.zoneNrBlocks();
    } else {
      kind = 3;
      src = dzone;
      dst = bz;
      endBlock = dzone.wpBlock;
    }
    return true;
  }

  /** The end of {@code dmz_reclaim_*()}: the bitmaps and the mapping, or the undo. */
  private void finishZone() {
    int zb = (int) dev.fmt.zoneNrBlocks();
    int chunk = dzone.chunk;
    switch (kind) {
      case 0 -> {
        md.unmapZone(dzone);
        md.unlockZoneReclaim(dzone);
        md.freeZone(dzone);
      }
      case 1 -> {
        if (ret != 0) {
          md.freeZone(dst);
          md.unlockZoneReclaim(dzone);
          return;
        }
        md.mergeValid(dzone, dst, 0);
        md.invalidate(dzone, 0, zb);
        md.unmapZone(dzone);
        md.unlockZoneReclaim(dzone);
        md.freeZone(dzone);
        md.mapZone(dst, chunk);
      }
      case 2 -> {
        if (ret != 0) {
          md.unlockZoneReclaim(dzone);
          return;
        }
        md.mergeValid(src, dzone, chunkBlock);
        md.invalidate(src, 0, zb);
        md.unmapZone(src);
        md.unlockZoneReclaim(dzone);
        md.freeZone(src);
      }
      default -> {
        if (ret != 0) {
          md.unlockZoneReclaim(dzone);
          return;
        }
        DmzZone bz = dst;
        md.mergeValid(dzone, bz, 0);
        md.invalidate(dzone, 0, zb);
        md.unmapZone(bz);
        md.unmapZone(dzone);
        md.unlockZoneReclaim(dzone);
        md.freeZone(dzone);
        md.mapZone(bz, chunk);
      }
    }
  }
}
