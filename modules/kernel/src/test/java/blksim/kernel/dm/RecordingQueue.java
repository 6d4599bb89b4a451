package blksim.kernel.dm;

import blksim.kernel.block.Bio;
import blksim.kernel.block.BioEndIo;
import blksim.kernel.block.BlockLayer;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.DiskCounters;
import java.util.ArrayList;
import java.util.List;

/**
 * A test device that records every bio issued to it and completes it inside issue() with a set
 * error, at a fixed submission cost; optionally it has a number of tags, freed by
 * {@link #freeTag()}.
 */
final class RecordingQueue implements BlockQueue {
  final String name;
  final long capacity;
  final boolean nowait;
  final long costNs;
  final List<Bio> issued = new ArrayList<>();
  final List<Long> issuedAt = new ArrayList<>();
  final List<Runnable> tagWaiters = new ArrayList<>();
  final DiskCounters counters;
  int error;
  int tags = Integer.MAX_VALUE;
  int blockSize = 512;
  java.util.function.LongSupplier clock = () -> -1;
  /** Runs when a bio finds no tag (a test schedules the tag's return here). */
  Runnable onBlocked = () -> { };

  RecordingQueue(String name, long capacity, boolean nowait, long costNs) {
    this.name = name;
    this.capacity = capacity;
    this.nowait = nowait;
    this.costNs = costNs;
    this.counters = new DiskCounters(name);
  }

  @Override
  public String diskName() {
    return name;
  }

  @Override
  public long capacityBytes() {
    return capacity;
  }

  @Override
  public int logicalBlockSize() {
    return blockSize;
  }

  @Override
  public boolean supportsNowait() {
    return nowait;
  }

  @Override
  public long submitCostNs(Bio bio) {
    return costNs;
  }

  @Override
  public boolean issue(Bio bio, BioEndIo endIo, Runnable onTagFree) {
    int e = BlockLayer.checkSubmit(this, bio);
    if (e != 0) {
      endIo.endIo(bio, e);
      return true;
    }
    if (tags == 0) {
      tagWaiters.add(onTagFree);
      onBlocked.run();
      return false;
    }
    if (tags != Integer.MAX_VALUE) {
      tags--;
    }
    issued.add(bio);
    issuedAt.add(clock.getAsLong());
    endIo.endIo(bio, error);
    return true;
  }

  /** Gives a tag back and runs the first waiter. */
  void freeTag() {
    tags++;
    if (!tagWaiters.isEmpty()) {
      tagWaiters.remove(0).run();
    }
  }

  @Override
  public DiskCounters counters() {
    return counters;
  }
}
