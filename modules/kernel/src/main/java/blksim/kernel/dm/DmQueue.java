package blksim.kernel.dm;

import blksim.kernel.block.Bio;
import blksim.kernel.block.BioEndIo;
import blksim.kernel.block.BlockLayer;
import blksim.kernel.block.BlockLayerParams;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.DiskCounters;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.timer.TimerParams;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * A mapped device as one CPU submits to it: the DM core's bio-based {@code ->submit_bio},
 * mirroring {@code dm_submit_bio()} → {@code dm_split_and_process_bio()} →
 * {@code __split_and_process_bio()} / {@code __send_empty_flush()} → {@code __map_bio()}
 * ({@code drivers/md/dm.c}, kernel-model.md §8.1).
 *
 * <p>For each bio: {@code submit_bio_noacct()}'s REQ_NOWAIT check against this device
 * ({@link BlockLayer#checkSubmit}); the end-of-device check ({@code bio_check_eod()}: a bio
 * beyond the table's end fails with -EIO); then one clone per target the bio's range overlaps,
 * cut at target boundaries, at the mapped device's sectors (an empty flush instead gets
 * {@link DmTarget#numFlushBios} clones per target, and completes at once if no target takes
 * flushes). Each clone goes through its target's {@code map()}:
 * <ul>
 *   <li>{@link DmMapio#REMAPPED}: the core issues it to the device the target chose, in the
 *       same context (stacked devices run synchronously in the submitter, §5.2 step 3);
 *   <li>{@link DmMapio#SUBMITTED}: the target owns it (dm-zero completed it already, dm-delay
 *       queued it);
 *   <li>{@link DmMapio#KILL}: it completes with {@code -EIO}.
 * </ul>
 * The original bio completes, in the context of its last clone's completion, with the first
 * error any clone saw ({@link DmIo}).
 *
 * <p>CPU time: the submitter pays {@link #submitCostNs}, which is {@link DmCostParams#coreNs}
 * per clone plus each target's {@link DmTarget#mapCostNs} (including the submission of a clone
 * remapped at once to its device); work a target defers (dm-delay's resubmission) is paid by the
 * context that does it. Nowait: the device takes REQ_NOWAIT bios only if every target and every
 * underlying device does ({@code dm_table_supports_nowait()}).
 *
 * <p>Tags: if the first clone's device has no free tag, {@link #issue} returns false having done
 * nothing, and the caller waits and retries as with any device. Simplified: a later clone of a
 * split bio that finds no tag is re-issued by this queue when the device frees one, in that
 * context, instead of blocking the submitter.
 *
 * <p>Accounting ({@code /proc/diskstats} of {@code dm-N}): a bio is counted from the moment a
 * target accepts its first clone until the original completes; bios failed by the nowait or
 * end-of-device checks, or whose every clone was killed, are not counted.
 *
 * <p>Simplified: a write with data and REQ_PREFLUSH is mapped as one data bio that keeps the
 * flag (the kernel first sends an empty flush to every target, then the data without the
 * flag); bios are not split at {@code max_io_len} or the devices' {@code max_sectors}; the
 * per-task {@code bio_list} that flattens stacked submissions is modelled as the nested calls it
 * is equivalent to. Owned by its {@link CpuComponent}: the targets built here are this CPU's
 * instances.
 */
public final class DmQueue implements BlockQueue {
  private final DmParams params;
  private final CpuComponent cpu;
  private final BlockLayerParams blockLayer;
  private final List<DmTarget> targets;
  private final boolean nowait;
  private final int logicalBlockSize;
  private final DiskCounters counters;
  private final TimerParams timers;
  private final Kdelayd kdelayd;
  private final DmzContext dmz;
  /** {@code q->blk_trace} of the mapped device: null unless the run is traced. */
  private blksim.kernel.blktrace.BlkTrace blkTrace;

  /**
   * Builds the targets of {@code params}'s table on {@code cpu}, resolving device paths with
   * {@link DmTable#deviceName} through {@code devices} (name → that device's queue on
   * {@code cpu}).
   */
  DmQueue(DmParams params, CpuComponent cpu, BlockLayerParams blockLayer, TimerParams timers,
      Kdelayd kdelayd, DmzContext dmz, Function<String, BlockQueue> devices) {
    if (timers.hz() != cpu.params().hz()) {
      throw new IllegalArgumentException("dm device " + params.name() + ": the timers' HZ "
          + timers.hz() + " differs from the scheduler's " + cpu.params().hz() + " on "
          + cpu.id());
    }
    this.params = params;
    this.timers = timers;
    this.kdelayd = kdelayd;
    this.dmz = dmz;
    this.cpu = cpu;
    this.blockLayer = blockLayer;
    this.counters = new DiskCounters(params.name());
    List<DmTarget> ts = new ArrayList<>();
    int bs = DmTable.SECTOR_SIZE;
    boolean nw = true;
    for (DmTableEntry e : params.table().entries()) {
      DmTarget t = newTarget(e, devices);
      ts.add(t);
      nw &= t.supportsNowait();
      for (BlockQueue d : t.devices()) {
        bs = Math.max(bs, d.logicalBlockSize());
      }
    }
    if (bs != params.blockSize()) {
      throw new IllegalStateException("dm device " + params.name() + ": its devices' logical"
          + " block size is " + bs + " on " + cpu.id() + " but " + params.blockSize()
          + " in its parameters");
    }
    this.targets = List.copyOf(ts);
    this.nowait = nw;
    this.logicalBlockSize = bs;
  }

  private DmTarget newTarget(DmTableEntry e, Function<String, BlockQueue> devices) {
    DmTargetArgs a = e.args();
    if (a instanceof DmTargetArgs.Linear l) {
      return new LinearTarget(e, resolve(e, "device", l.device(), devices), params.costs());
    }
    if (a instanceof DmTargetArgs.Zero) {
      return new ZeroTarget(e, params.costs());
    }
    if (a instanceof DmTargetArgs.Delay d) {
      BlockQueue r = resolve(e, "device", d.read().device(), devices);
      BlockQueue w = d.argc() >= 6 ? resolve(e, "write device", d.write().device(), devices) : r;
      BlockQueue f = d.argc() == 9 ? resolve(e, "flush device", d.flush().device(), devices) : w;
      return new DelayTarget(e, d, r, w, f, params, cpu, timers, kdelayd);
    }
    if (a instanceof DmTargetArgs.Zoned z) {
      if (dmz == null) {
        throw new IllegalStateException("dm device " + params.name() + ": a zoned target needs"
            + " a DmzContext (a workqueue system)");
      }
      return new DmzTarget(e, dmz.device(params.name()), resolve(e, "device", z.device(),
          devices), cpu);
    }
    throw new IllegalStateException("target type " + a.type());
  }

  private BlockQueue resolve(DmTableEntry e, String field, String path,
      Function<String, BlockQueue> devices) {
    BlockQueue q = devices.apply(DmTable.deviceName(path));
    if (q == null) {
      throw new DmTableException(e.line(), field, "no device '" + DmTable.deviceName(path)
          + "' (from '" + path + "') on " + cpu.id());
    }
    return q;
  }

  /** The device's parameters. */
  public DmParams params() {
    return params;
  }

  /** This CPU's instances of the table's targets, in table order. */
  public List<DmTarget> targets() {
    return targets;
  }

  /** Every device the table maps to, once each, in order of first use. */
  public List<BlockQueue> underlyingDevices() {
    Set<BlockQueue> s = new LinkedHashSet<>();
    for (DmTarget t : targets) {
      s.addAll(t.devices());
    }
    return List.copyOf(s);
  }

  @Override
  public String diskName() {
    return params.name();
  }

  @Override
  public long capacityBytes() {
    return params.sizeBytes();
  }

  @Override
  public int logicalBlockSize() {
    return logicalBlockSize;
  }

  /** {@code dm_table_supports_nowait()}: every target and every underlying device. */
  @Override
  public boolean supportsNowait() {
    return nowait;
  }

  @Override
  public long submitCostNs(Bio bio) {
    if (rejectError(bio) != 0) {
      return blockLayer.nowaitRejectNs();
    }
    List<Clone> plan = plan(bio);
    if (plan.isEmpty()) {
      return params.costs().coreNs();
    }
    long ns = 0;
    for (Clone c : plan) {
      ns += params.costs().coreNs() + c.target.mapCostNs(c.bio);
    }
    return ns;
  }

  @Override
  public boolean issue(Bio bio, BioEndIo endIo, Runnable onTagFree) {
    int error = rejectError(bio);
    if (error != 0) {
      endIo.endIo(bio, error);
      return true;
    }
    if (blkTrace != null) {
      blkTrace.queue(cpu, bio);
    }
    DmIo io = new DmIo(this, bio, endIo, cpu.now());
    List<Clone> plan = plan(bio);
    if (blkTrace != null) {
      traceSplits(plan);
    }
    for (int i = 0; i < plan.size(); i++) {
      Clone c = plan.get(i);
      DmTargetIo tio = new DmTargetIo(io, c.target, c.bio);
      io.inc();
      DmMapio r = c.target.map(tio);
      switch (r) {
        case REMAPPED:
          if (i == 0) {
            if (!tio.submit(onTagFree)) {
              // Nothing happened yet: the caller waits for a tag and retries the whole bio.
              if (blkTrace != null) {
                blkTrace.retry(cpu, bio);
              }
              return false;
            }
          } else {
            reissue(tio);
          }
          tio.account();
          break;
        case SUBMITTED:
          tio.account();
          break;
        case KILL:
          tio.endio(-DmMapio.EIO);
          break;
        default:
          throw new IllegalStateException(diskName() + ": map() returned " + r);
      }
    }
    io.dec(0);
    return true;
  }

  /**
   * X for each cut of a bio at a target boundary ({@code dm_split_and_process_bio()} traces
   * {@code trace_block_split()} before it resubmits the rest): the part before the cut, and the
   * sector where the rest starts.
   */
  private void traceSplits(List<Clone> plan) {
    for (int i = 1; i < plan.size(); i++) {
      Bio before = plan.get(i - 1).bio;
      if (before.sizeBytes() > 0 && plan.get(i).bio.sector() != before.sector()) {
        blkTrace.split(cpu, before, plan.get(i).bio.sector());
      }
    }
  }

  /** Traces this mapped device's events into {@code t}. */
  public void setBlkTrace(blksim.kernel.blktrace.BlkTrace t) {
    blkTrace = t;
  }

  @Override
  public blksim.kernel.blktrace.BlkTrace blkTrace() {
    return blkTrace;
  }

  /** The mapped device's {@code dev_t} in its trace (an A event's origin), 0 if untraced. */
  int blkTraceDev() {
    return blkTrace == null ? 0 : blkTrace.dev();
  }

  /** Issues a later clone of a split bio, again each time its device frees a tag. */
  private void reissue(DmTargetIo tio) {
    tio.submit(() -> reissue(tio));
  }

  /**
   * The error {@code submit_bio_noacct()} fails {@code bio} with before the DM core sees it, or
   * 0: -EOPNOTSUPP for REQ_NOWAIT without nowait support, -EIO beyond the device's end.
   */
  private int rejectError(Bio bio) {
    int error = BlockLayer.checkSubmit(this, bio);
    if (error != 0) {
      return error;
    }
    long capacity = params.table().lengthSectors();
    long sectors = (bio.sizeBytes() + DmTable.SECTOR_SIZE - 1) >>> DmTable.SECTOR_SHIFT;
    if (sectors > 0 && (bio.sector() > capacity || sectors > capacity - bio.sector())) {
      return -DmMapio.EIO;
    }
    return 0;
  }

  /** One clone to create: its target and its initial bio. */
  private record Clone(DmTarget target, Bio bio) {}

  /**
   * The clones of {@code bio} in the order {@code __split_and_process_bio()} makes them: an
   * empty flush goes to every target that takes flushes; a bio with data is cut at target
   * boundaries.
   */
  private List<Clone> plan(Bio bio) {
    List<Clone> plan = new ArrayList<>(1);
    if (DmTarget.isEmptyFlush(bio)) {
      for (DmTarget t : targets) {
        for (int k = 0; k < t.numFlushBios(); k++) {
          plan.add(new Clone(t, bio));
        }
      }
      return plan;
    }
    long startByte = bio.sector() << DmTable.SECTOR_SHIFT;
    long endByte = startByte + bio.sizeBytes();
    for (DmTarget t : targets) {
      long tStart = t.entry().beginSectors() << DmTable.SECTOR_SHIFT;
      long tEnd = t.entry().endSectors() << DmTable.SECTOR_SHIFT;
      long from = Math.max(startByte, tStart);
      long to = Math.min(endByte, tEnd);
      if (from < to || (bio.sizeBytes() == 0 && startByte >= tStart && startByte < tEnd)) {
        plan.add(new Clone(t, from == startByte && to == endByte ? bio
            : new Bio(bio.op(), from >>> DmTable.SECTOR_SHIFT, (int) (to - from), bio.flags(), bio.ioprio())));
      }
    }
    return plan;
  }

  /** Starts the accounting of {@code io} ({@code dm_start_io_acct()}). */
  void startAccounting(DmIo io) {
    counters.start(io.startNs);
  }

  /** {@code dm_io_complete()}: ends the accounting and completes the original bio. */
  void complete(DmIo io, int status, boolean accounted) {
    if (accounted) {
      counters.done(io.orig.op(), io.orig.sizeBytes(), io.startNs, cpu.now());
    }
    if (blkTrace != null) {
      blkTrace.bioComplete(cpu, io.orig, status);
    }
    io.endIo.endIo(io.orig, status);
  }

  @Override
  public DiskCounters counters() {
    return counters;
  }

  /** The CPU this queue belongs to. */
  public CpuComponent cpu() {
    return cpu;
  }

  /**
   * dm-zoned takes flushes itself: an empty REQ_PREFLUSH bio runs its metadata flush, which ends
   * with the zoned disk's cache flush (a host-managed SMR drive has its write cache on), so a
   * table with a {@code zoned} target says it has a write cache, as {@code
   * dm_table_supports_flush()} finds through the disk's QUEUE_FLAG_WC. Other tables keep the
   * default (their device models have no write cache).
   */
  @Override
  public boolean writeCache() {
    for (DmTableEntry e : params.table().entries()) {
      if (e.args() instanceof DmTargetArgs.Zoned) {
        return true;
      }
    }
    return false;
  }
}
