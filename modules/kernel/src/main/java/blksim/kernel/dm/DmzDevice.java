package blksim.kernel.dm;

import blksim.kernel.block.Bio;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.ReqOp;
import blksim.kernel.device.ZonedDisk;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.workqueue.DelayedWork;
import blksim.kernel.workqueue.WorkItem;
import blksim.kernel.workqueue.WorkRun;
import blksim.kernel.workqueue.WorkerCpu;
import blksim.kernel.workqueue.Workqueue;
import blksim.kernel.workqueue.WorkqueueSystem;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * One dm-zoned target ({@code struct dmz_target}, drivers/md/dm-zoned-target.c, with its
 * {@code struct dmz_reclaim}, -reclaim.c; kernel-model.md §8.5, §15.1): the state every CPU's
 * {@link DmzTarget} shares, its chunk works, its flush work and its reclaim work.
 *
 * <ul>
 *   <li><b>Chunk works</b> ({@code dmz_queue_chunk_work()}, {@code dmz_chunk_work()}): a bio is
 *       appended to its chunk's {@code dm_chunk_work} (created on first use) and the work is
 *       queued on {@code dmz_cwq_<label>}; the work pops its chunk's bios one at a time and
 *       handles each ({@code dmz_handle_bio()}): {@code mblk_sem} shared, the chunk's mapping
 *       ({@code dmz_get_chunk_mapping()}; a write to an unmapped chunk takes a free random zone,
 *       which schedules reclaim; with none free the work drops the lock and waits for a zone to
 *       be freed), the clones submitted ({@code dmz_handle_read()} / {@code dmz_handle_write()}:
 *       direct to a random data zone or at a sequential zone's write pointer, else into the
 *       chunk's buffer zone, {@code dmz_get_chunk_buffer()}), the bitmaps updated, then
 *       {@code dmz_put_chunk_mapping()}. The work never waits for its clones.</li>
 *   <li><b>Flush</b> ({@code dmz_flush_work()} on the ordered {@code dmz_fwq_<label>}): every
 *       {@code DMZ_FLUSH_PERIOD} (10 s) and at once for an empty REQ_PREFLUSH bio,
 *       {@code dmz_flush_metadata()} ({@link DmzMetaFlush}), then the queued flush bios
 *       complete.</li>
 *   <li><b>Reclaim</b> ({@code dmz_reclaim_work()} on the ordered {@code dmz_rwq_<label>_0}):
 *       {@code dmz_should_reclaim()} (idle for {@code DMZ_IDLE_PERIOD} with a random zone in
 *       use, or at most {@code DMZ_RECLAIM_LOW_UNMAP_RND} = 30 % of the random zones free),
 *       else re-check in 10 s; the kcopyd throttle (100 % idle or below 15 % free, else
 *       min(75, 100 - p/2)); {@code dmz_do_reclaim()} of one zone (random data zone into a free
 *       sequential zone, buffer into its sequential data zone, or the sequential data zone into
 *       its buffer), a metadata flush, and {@code dmz_schedule_reclaim()}.</li>
 * </ul>
 *
 * <p>The waits of {@code dmz_wait_for_free_zones()} ({@code io_schedule_timeout(HZ)} on
 * {@code free_wq}) and {@code dmz_wait_for_reclaim()} ({@code wait_on_bit_timeout(..., HZ)}) end
 * when a zone is freed or the reclaim of that zone ends, or after 1 s ({@link #WAIT_TIMEOUT_NS}),
 * and the work re-takes {@code mblk_sem} and retries. A zone stays active
 * ({@code dmz_activate_zone()} in {@code dmz_handle_bio()}) until the last clone of the bio
 * completes ({@code dmz_bio_endio()} -> {@code dmz_deactivate_zone()}, which also records the
 * target's activity for reclaim, {@code dmz_reclaim_bio_acc()}), so reclaim does not pick a zone
 * with writes still queued at the disk.
 *
 * <p>Simplified: a
 * freed sequential zone's ZONE_RESET is issued without the freeing work waiting for it (the zone
 * returns to its free list when the reset completes); a data bio carrying REQ_PREFLUSH is handled
 * as a data bio (the flag is dropped); the dm core does not split bios at the chunk boundary,
 * the target does ({@code dm_accept_partial_bio()}); the chunk work items are kept per chunk
 * once made (the kernel frees one whose bio list drained; queueing behaves the same); the flush
 * and reclaim works start with the first bio rather than at table load; the reclaim work re-arms
 * itself one jiffy later when no zone can be locked (the kernel would loop at once). Reads, the
 * metadata cache and the metadata lock cost CPU time only as stated in the constants below.
 * Shared by the CPUs of the one partition a zoned disk allows.
 */
public final class DmzDevice {
  /** {@code DMZ_FLUSH_PERIOD}: 10 s [S]. */
  public static final long FLUSH_PERIOD_S = 10;
  /** {@code DMZ_IDLE_PERIOD}: 10 s [S]. */
  public static final long IDLE_PERIOD_S = 10;
  /** {@code DMZ_RECLAIM_LOW_UNMAP_RND}: 30 % [S]. */
  public static final int RECLAIM_LOW_UNMAP_RND = 30;
  /** {@code DMZ_RECLAIM_HIGH_UNMAP_RND}: 50 % [S]. */
  public static final int RECLAIM_HIGH_UNMAP_RND = 50;
  /**
   * The timeout of {@code dmz_wait_for_free_zones()} and {@code dmz_wait_for_reclaim()}: HZ
   * jiffies, 1 s [S] (drivers/md/dm-zoned-metadata.c).
   */
  public static final long WAIT_TIMEOUT_NS = 1_000_000_000L;
  /** CPU time of {@code dmz_map()} per bio piece [A] (a radix-tree lookup and a list add). */
  public static final long MAP_NS = 1_000;
  /** CPU time of {@code dmz_handle_bio()} per bio, clones' submission excluded [A]. */
  public static final long HANDLE_NS = 4_000;
  /** CPU time of one {@code dmz_do_reclaim()} outside its I/O [A]. */
  public static final long RECLAIM_NS = 20_000;
  /** CPU time of {@code dmz_flush_metadata()} per dirty block written [A]. */
  public static final long FLUSH_PER_BLOCK_NS = 1_000;
  /** {@code alloc_workqueue("dmz_cwq_%s", WQ_MEM_RECLAIM | WQ_UNBOUND, 0)} [S]. */
  public static final int CWQ_FLAGS = Workqueue.WQ_MEM_RECLAIM | Workqueue.WQ_UNBOUND;
  /** Its max_active: 0, the default [S]. */
  public static final int CWQ_MAX_ACTIVE = 0;

  /** {@code dmz_cwq_<label>}, as {@code dmz_ctr()} names it. */
  public static String cwqName(String label) {
    return "dmz_cwq_" + label;
  }

  /** {@code dmz_fwq_<label>}. */
  public static String fwqName(String label) {
    return "dmz_fwq_" + label;
  }

  /** {@code dmz_rwq_<label>_<idx>}, for the one device. */
  public static String rwqName(String label) {
    return "dmz_rwq_" + label + "_0";
  }

  /** The metadata: zones, mapping, bitmaps. */
  final DmzMetadata md;
  final DmzFormat fmt;
  final String name;
  private final WorkqueueSystem wqs;
  private final Workqueue cwq;
  private final Workqueue fwq;
  private final Workqueue rwq;
  private final int hz;
  private final BlockQueue[] queues;
  private final CpuComponent[] cpus;
  private CpuComponent home;
  private DelayedWork flushWork;
  private DelayedWork reclaimWork;
  private boolean started;
  /** {@code chunk_rxtree}. */
  private final TreeMap<Integer, ChunkWork> chunkWorks = new TreeMap<>();
  /** {@code flush_list}. */
  private final ArrayDeque<DmTargetIo> flushList = new ArrayDeque<>();
  /** {@code zrc->atime}, ns. */
  private long atimeNs;
  final DmzKcopyd.Throttle kcThrottle;
  long kcopydBytes;
  private final Stats stats = new Stats();

  /** Counters of a run. */
  public static final class Stats {
    public long bios;
    public long chunkWorkRuns;
    public long directWrites;
    public long bufferedWrites;
    public long readClones;
    public long zeroReads;
    public long freeZoneWaits;
    public long reclaimWaits;
    public long flushes;
    public long flushedBlocks;
    public long reclaimRuns;
    public long reclaimedZones;
    public long reclaimAborts;
    public long zoneResets;
    public long waitTimeouts;
  }

  DmzDevice(String name, DmzFormat fmt, WorkqueueSystem wqs, int hz, int nCpus) {
    this(name, fmt, wqs, hz, nCpus, true);
  }

  /** {@code boundedCache}: the kernel's bounded metadata cache, else every block cached. */
  DmzDevice(String name, DmzFormat fmt, WorkqueueSystem wqs, int hz, int nCpus,
      boolean boundedCache) {
    this.name = name;
    this.fmt = fmt;
    this.md = new DmzMetadata(fmt, boundedCache);
    this.wqs = wqs;
    this.cwq = wqs.workqueue(cwqName(fmt.label()));
    this.fwq = wqs.workqueue(fwqName(fmt.label()));
    this.rwq = wqs.workqueue(rwqName(fmt.label()));
    this.hz = hz;
    this.queues = new BlockQueue[nCpus];
    this.cpus = new CpuComponent[nCpus];
    this.kcThrottle = new DmzKcopyd.Throttle(hz);
    md.scheduleReclaim = this::scheduleReclaim;
    md.resetZone = this::resetZone;
  }

  /** Registers CPU {@code cpu}'s queue of the zoned disk. */
  void attach(CpuComponent cpu, BlockQueue disk) {
    int id = cpu.cpu().id();
    queues[id] = disk;
    cpus[id] = cpu;
    if (home == null) {
      home = cpu;
      flushWork = new DelayedWork(wqs.newWorkItem("dmz_flush_work", this::flushWorkRun, id));
      reclaimWork = new DelayedWork(wqs.newWorkItem("dmz_reclaim_work", this::reclaimWorkRun,
          id));
      cpu.spawn(new DmzReportTask(this));
    }
  }

  BlockQueue queue(int cpu) {
    return queues[cpu];
  }

  /** The counters so far. */
  public Stats stats() {
    return stats;
  }

  /** The format. */
  public DmzFormat format() {
    return fmt;
  }

  long jiffies() {
    return home.now() * hz / 1_000_000_000L;
  }

  private long now() {
    return home.now();
  }

  /** Runs {@code r} on the home CPU of the flush and reclaim works. */
  private void onHome(Runnable r) {
    home.callAfter(0, r);
  }

  private void start() {
    started = true;
    atimeNs = now();
    onHome(() -> {
      // dmz_ctr(): mod_delayed_work(flush_wq, flush_work, DMZ_FLUSH_PERIOD);
      // dmz_ctr_reclaim(): queue_delayed_work(zrc->wq, &zrc->work, 0).
      wqs.modDelayedWork(home, fwq, flushWork, FLUSH_PERIOD_S * hz);
      wqs.queueDelayedWork(home, rwq, reclaimWork, 0);
    });
  }

  // ---- dmz_map() ------------------------------------------------------------------------------

  /** {@code dmz_map()} of a clone, on {@code cpu}. */
  DmMapio map(DmTargetIo tio, CpuComponent cpu) {
    Bio bio = tio.bio();
    if (!started) {
      start();
    }
    long sectors = (bio.sizeBytes() + DmTable.SECTOR_SIZE - 1) >> DmTable.SECTOR_SHIFT;
    boolean write = bio.op() == ReqOp.WRITE;
    if (sectors == 0 && !write && bio.op() != ReqOp.FLUSH) {
      tio.remap(queues[cpu.cpu().id()], bio.sector());
      return DmMapio.REMAPPED;
    }
    if ((sectors & (DmzFormat.BLOCK_SECTORS - 1)) != 0
        || (bio.sector() & (DmzFormat.BLOCK_SECTORS - 1)) != 0) {
      return DmMapio.KILL;
    }
    if (sectors == 0) {
      flushList.add(tio);
      onHome(() -> wqs.modDelayedWork(home, fwq, flushWork, 0));
      return DmMapio.SUBMITTED;
    }
    BioCtx ctx = new BioCtx(tio);
    long zs = fmt.zoneNrSectors();
    long s = bio.sector();
    long end = bio.sector() + sectors;
    while (s < end) {
      long e = Math.min(end, (s / zs + 1) * zs);
      Bio piece = new Bio(bio.op(), s, (int) ((e - s) << DmTable.SECTOR_SHIFT),
          bio.flags() & ~Bio.REQ_PREFLUSH);
      ctx.ref++;
      queueChunkWork(cpu, (int) (s / zs), new Piece(piece, ctx));
      s = e;
    }
    ctx.dec(0);
    return DmMapio.SUBMITTED;
  }

  /** Samples of the zone states over time: one per second of simulated time with activity. */
  private final List<long[]> samples = new ArrayList<>();
  private long sampleSecond = -1;

  /**
   * Records the zone states and reclaim's progress at most once per second of simulated time
   * (the first event of each second that has one): free random and sequential zones, zones
   * reclaimed, kcopyd bytes, free-zone waits, bios. Called where they change (a bio queued,
   * a zone reclaimed); it costs one comparison otherwise.
   */
  void sample(long nowNs) {
    long sec = nowNs / 1_000_000_000L;
    if (sec == sampleSecond) {
      return;
    }
    sampleSecond = sec;
    samples.add(new long[] {nowNs, md.nrUnmapRndZones(), md.unmapSeq.size(),
        stats.reclaimedZones, kcopydBytes, stats.freeZoneWaits, stats.bios});
  }

  /** The samples of {@link #sample}: time ns, free rnd, free seq, reclaimed, kcopyd bytes, ... */
  public List<long[]> samples() {
    return samples;
  }

  /** {@code dmz_queue_chunk_work()}. */
  private void queueChunkWork(CpuComponent cpu, int chunk, Piece p) {
    stats.bios++;
    sample(cpu.now());
    ChunkWork cw = chunkWorks.get(chunk);
    if (cw == null) {
      cw = new ChunkWork(chunk);
      cw.item = wqs.newWorkItem("dmz_chunk_work", cw::begin, cpu.cpu().id());
      chunkWorks.put(chunk, cw);
    }
    cw.bios.add(p);
    wqs.queueWork(cpu, cwq, cw.item);
  }

  /** {@code struct dmz_bioctx}: the original clone completes when its last piece does. */
  private static final class BioCtx {
    final DmTargetIo tio;
    int ref = 1;
    int status;

    BioCtx(DmTargetIo tio) {
      this.tio = tio;
    }

    void dec(int err) {
      if (err != 0 && status == 0) {
        status = err;
      }
      if (--ref == 0) {
        tio.endio(status);
      }
    }
  }

  /**
   * The activation of a zone by one bio ({@code bioctx->zone}): dropped by
   * {@code dmz_deactivate_zone()} when the handling and every clone are done, which also
   * refreshes the target's activity time ({@code dmz_reclaim_bio_acc()}).
   */
  private final class ZoneRef {
    final DmzZone zone;
    int ref = 1;

    ZoneRef(DmzZone zone) {
      this.zone = zone;
    }

    void put() {
      if (--ref == 0) {
        zone.active--;
        atimeNs = now();
      }
    }
  }

  /** A bio of one chunk. */
  private record Piece(Bio bio, BioCtx ctx) {}

  /** {@code struct dm_chunk_work}. */
  private final class ChunkWork {
    final int chunk;
    final ArrayDeque<Piece> bios = new ArrayDeque<>();
    WorkItem item;

    ChunkWork(int chunk) {
      this.chunk = chunk;
    }

    WorkRun begin() {
      stats.chunkWorkRuns++;
      return new ChunkRun(this);
    }
  }

  private enum St { POP, LOCK, MAP, BUF_LOCK, BUF, CPU, SUBMIT, MBLK, PUT }

  /** One run of {@code dmz_chunk_work()}: its chunk's bios, one {@code dmz_handle_bio()} each. */
  private final class ChunkRun implements WorkRun {
    private final ChunkWork cw;
    private St st = St.POP;
    private Piece cur;
    private DmzZone zone;
    private final List<Bio> clones = new ArrayList<>();
    private int next;
    private boolean paid;
    private int failStatus;
    private DmzZone waitedOn;
    /** The zone activation {@code bioctx->zone} holds for the bio being handled. */
    private ZoneRef held;
    /** The wait for the metadata cache misses of the bio's bitmap updates. */
    private DmzMblkWait mblkWait;

    ChunkRun(ChunkWork cw) {
      this.cw = cw;
    }

    /**
     * Sleeps on {@code waiters} ({@code free_wq} or the zone's {@code DMZ_RECLAIM} bit) for at
     * most {@link #WAIT_TIMEOUT_NS}: whichever of the wake-up and the timeout comes first wakes
     * the worker, once.
     */
    private void waitWithTimeout(WorkerCpu cpu, List<Runnable> waiters) {
      Runnable waker = cpu.waker();
      Runnable once = new Runnable() {
        private boolean done;

        @Override
        public void run() {
          if (!done) {
            done = true;
            waker.run();
          }
        }
      };
      waiters.add(once);
      cpu.cpu().callAfter(WAIT_TIMEOUT_NS, () -> {
        if (waiters.remove(once)) {
          stats.waitTimeouts++;
          once.run();
        }
      });
      cpu.sleep();
    }

    @Override
    public void step(WorkerCpu cpu) {
      while (true) {
        switch (st) {
          case POP -> {
            cur = cw.bios.poll();
            if (cur == null) {
              cpu.finish();
              return;
            }
            st = St.LOCK;
          }
          case LOCK -> {
            st = St.MAP;
            if (!md.mblkSem.downRead(cpu.waker())) {
              cpu.sleep();
              return;
            }
          }
          case MAP -> {
            if (waitedOn != null) {
              // dmz_wait_for_reclaim(): clear_bit(DMZ_RECLAIM_TERMINATE) after the wait.
              waitedOn.reclaimTerminate = false;
              waitedOn = null;
            }
            boolean write = cur.bio.op() == ReqOp.WRITE;
            zone = md.getChunkMapping(cw.chunk, write);
            if (md.wait == DmzMetadata.Wait.FREE_ZONE) {
              stats.freeZoneWaits++;
              md.mblkSem.upRead();
              waitWithTimeout(cpu, md.freeWaiters);
              st = St.LOCK;
              return;
            }
            if (md.wait == DmzMetadata.Wait.RECLAIM) {
              stats.reclaimWaits++;
              DmzZone z = md.waitZone;
              z.reclaimTerminate = true;
              waitedOn = z;
              md.mblkSem.upRead();
              waitWithTimeout(cpu, z.reclaimWaiters);
              st = St.LOCK;
              return;
            }
            if (zone != null) {
              // dmz_handle_bio(): dmz_activate_zone(zone); bioctx->zone = zone;
              // dmz_reclaim_bio_acc(). The reference is dropped when the bio's clones are done.
              zone.active++;
              held = new ZoneRef(zone);
              atimeNs = now();
            }
            st = St.BUF;
          }
          case BUF_LOCK -> {
            st = St.BUF;
            if (!md.mblkSem.downRead(cpu.waker())) {
              cpu.sleep();
              return;
            }
          }
          case BUF -> {
            if (!plan()) {
              // dmz_get_chunk_buffer() found no free random zone: wait for one.
              stats.freeZoneWaits++;
              md.mblkSem.upRead();
              waitWithTimeout(cpu, md.freeWaiters);
              st = St.BUF_LOCK;
              return;
            }
            // The misses of plan()'s bitmap accesses are this work's (taken before it yields).
            mblkWait = DmzMblkWait.take(DmzDevice.this);
            st = St.CPU;
          }
          case CPU -> {
            st = St.SUBMIT;
            next = 0;
            paid = false;
            cpu.runFor(HANDLE_NS);
            return;
          }
          case SUBMIT -> {
            if (next == clones.size()) {
              // dmz_handle_direct_write() & co. submit the clone, then update the bitmaps
              // (dmz_validate_blocks() -> dmz_get_bitmap()): a miss is read and waited for
              // here, with the slot and mblk_sem held.
              st = St.MBLK;
              break;
            }
            Bio c = clones.get(next);
            BlockQueue q = queues[cpu.cpu().cpu().id()];
            if (!paid) {
              paid = true;
              cpu.runFor(q.submitCostNs(c));
              return;
            }
            BioCtx ctx = cur.ctx;
            ZoneRef zr = held;
            ctx.ref++;
            if (zr != null) {
              zr.ref++;
            }
            if (!q.issue(c, (b, err) -> {
              if (zr != null) {
                zr.put();
              }
              ctx.dec(err);
            }, cpu.waker())) {
              ctx.ref--;
              if (zr != null) {
                zr.ref--;
              }
              cpu.sleep();
              return;
            }
            next++;
            paid = false;
          }
          case MBLK -> {
            if (mblkWait != null && mblkWait.step(cpu)) {
              return;
            }
            mblkWait = null;
            st = St.PUT;
          }
          case PUT -> {
            if (zone != null) {
              md.putChunkMapping(zone);
            }
            if (held != null) {
              held.put();
              held = null;
            }
            clones.clear();
            cur.ctx.dec(failStatus);
            failStatus = 0;
            md.mblkSem.upRead();
            st = St.POP;
          }
          default -> throw new IllegalStateException(st.name());
        }
      }
    }

    /**
     * {@code dmz_handle_read()} / {@code dmz_handle_write()} / {@code dmz_handle_discard()}: the
     * clones to submit and the bitmap updates; false if a buffer zone is needed and none is
     * free.
     */
    private boolean plan() {
      Bio bio = cur.bio;
      int zoneBlocks = (int) fmt.zoneNrBlocks();
      int chunkBlock = (int) ((bio.sector() / DmzFormat.BLOCK_SECTORS) % zoneBlocks);
      int n = bio.sizeBytes() / DmzFormat.BLOCK_SIZE;
      clones.clear();
      switch (bio.op()) {
        case READ -> {
          if (zone == null) {
            stats.zeroReads++;
            return true;
          }
          DmzZone bz = zone.bzone;
          int b = chunkBlock;
          int endBlock = chunkBlock + n;
          // dmz_block_valid() -> dmz_get_bitmap() of the data zone and of the buffer zone.
          md.accessBitmaps(zone, chunkBlock, n, false);
          if (bz != null) {
            md.accessBitmaps(bz, chunkBlock, n, false);
          }
          while (b < endBlock) {
            int nr = 0;
            DmzZone rz = null;
            if (zone.rnd || b < zone.wpBlock) {
              nr = zone.valid.validAt(b);
              rz = zone;
            }
            if (nr == 0 && bz != null) {
              nr = bz.valid.validAt(b);
              rz = bz;
            }
            if (nr > 0) {
              nr = Math.min(nr, endBlock - b);
              clones.add(new Bio(ReqOp.READ, sectorOf(rz, b), nr * DmzFormat.BLOCK_SIZE,
                  bio.flags()));
              stats.readClones++;
            } else {
              // Blocks valid nowhere read as zeroes: skip the whole invalid run.
              int inv = zone.valid.invalidAt(b, endBlock);
              if (bz != null) {
                inv = Math.min(inv, bz.valid.invalidAt(b, endBlock));
              }
              nr = Math.max(1, inv);
              stats.zeroReads++;
            }
            b += nr;
          }
          return true;
        }
        case WRITE -> {
          DmzZone wz = md.handleWrite(zone, chunkBlock, n);
          if (wz == null) {
            return false;
          }
          clones.add(new Bio(ReqOp.WRITE, sectorOf(wz, chunkBlock), bio.sizeBytes(),
              bio.flags()));
          if (wz == zone) {
            stats.directWrites++;
          } else {
            stats.bufferedWrites++;
          }
          return true;
        }
        case DISCARD -> {
          if (zone != null) {
            if (zone.rnd || chunkBlock < zone.wpBlock) {
              md.invalidate(zone, chunkBlock, n);
            }
            if (zone.bzone != null) {
              md.invalidate(zone.bzone, chunkBlock, n);
            }
          }
          return true;
        }
        default -> {
          // dmz_handle_bio(): "Unsupported BIO operation".
          failStatus = -DmMapio.EIO;
          return true;
        }
      }
    }
  }

  /**
   * Sectors {@code [sector, sector + sectors)} of the target as an earlier run left them
   * ({@code dirty-files.overwrite}): each chunk piece mapped and its blocks valid
   * ({@link DmzMetadata#prewrite}, a share {@code randomShare} of the newly mapped chunks in
   * random zones), and a sequential zone's write pointer on the disk moved to the data's end
   * with the zone closed ({@link ZonedDisk#setWritten}); no I/O, nothing dirty, the metadata
   * cache untouched. Before the first bio only.
   *
   * @throws IllegalStateException if the target already handled a bio, or no zone is free
   */
  public void prewrite(long sector, long sectors, double randomShare) {
    if (stats.bios > 0) {
      throw new IllegalStateException(name + ": data left by an earlier run must be placed"
          + " before the first bio");
    }
    long zs = fmt.zoneNrSectors();
    ZonedDisk disk = home != null && queues[home.cpu().id()].zones() instanceof ZonedDisk d
        ? d : null;
    long s = sector;
    long end = sector + sectors;
    while (s < end) {
      long e = Math.min(end, (s / zs + 1) * zs);
      int chunk = (int) (s / zs);
      int block = (int) ((s % zs) / DmzFormat.BLOCK_SECTORS);
      int n = (int) ((e - s) / DmzFormat.BLOCK_SECTORS);
      DmzZone z = md.prewrite(chunk, block, n, randomShare);
      if (z == null) {
        throw new IllegalStateException(name + ": no free zone for chunk " + chunk
            + " left by an earlier run");
      }
      if (z.seq() && disk != null) {
        disk.setWritten(z.id, (long) z.wpBlock * DmzFormat.BLOCK_SECTORS);
      }
      s = e;
    }
  }

  /** Chunks mapped by {@link #prewrite}, and of those in random zones. */
  public long[] prewrittenChunks() {
    return new long[] {md.prewrittenChunks, md.prewrittenRnd};
  }

  /** The disk sector of block {@code block} of zone {@code z}. */
  long sectorOf(DmzZone z, int block) {
    return z.id * fmt.zoneNrSectors() + (long) block * DmzFormat.BLOCK_SECTORS;
  }

  /** {@code dmz_reset_zone()} → {@code blkdev_zone_mgmt(REQ_OP_ZONE_RESET)}. */
  private void resetZone(DmzZone z) {
    stats.zoneResets++;
    Bio b = new Bio(ReqOp.ZONE_RESET, z.id * fmt.zoneNrSectors(), 0, 0);
    issueAsync(b, () -> md.resetDone(z));
  }

  private void issueAsync(Bio b, Runnable done) {
    BlockQueue q = queues[home.cpu().id()];
    if (!q.issue(b, (bio, err) -> done.run(), () -> issueAsync(b, done))) {
      return;
    }
  }

  // ---- flush ----------------------------------------------------------------------------------

  /** {@code dmz_flush_work()}. */
  private WorkRun flushWorkRun() {
    DmzMetaFlush f = new DmzMetaFlush(this);
    return cpu -> {
      if (f.step(cpu)) {
        return;
      }
      stats.flushes++;
      while (!flushList.isEmpty()) {
        flushList.poll().endio(f.error());
      }
      onHome(() -> wqs.queueDelayedWork(home, fwq, flushWork, FLUSH_PERIOD_S * hz));
      cpu.finish();
    };
  }

  // ---- reclaim --------------------------------------------------------------------------------

  /** {@code dmz_target_idle()}. */
  boolean targetIdle() {
    return now() - atimeNs > IDLE_PERIOD_S * 1_000_000_000L;
  }

  /**
   * {@code dmz_reclaim_percentage()}: the share of free random zones, 0 when at most one is
   * free.
   */
  static int reclaimPercentage(int nrRnd, int nrUnmap) {
    return nrUnmap <= 1 || nrRnd == 0 ? 0 : nrUnmap * 100 / nrRnd;
  }

  /**
   * {@code dmz_should_reclaim()} (6.x): idle with any random zone, or, busy, at most
   * {@link #RECLAIM_LOW_UNMAP_RND} % free (the {@link #RECLAIM_HIGH_UNMAP_RND} test before it
   * changes nothing).
   */
  static boolean shouldReclaim(boolean idle, int nrRnd, int pUnmap) {
    if (idle && nrRnd > 0) {
      return true;
    }
    if (pUnmap >= RECLAIM_HIGH_UNMAP_RND) {
      return false;
    }
    return pUnmap <= RECLAIM_LOW_UNMAP_RND;
  }

  /**
   * The kcopyd throttle {@code dmz_reclaim_work()} sets: 100 % when idle or below half the low
   * mark, else {@code min(75, 100 - p / 2)}.
   */
  static int throttleFor(boolean idle, int pUnmap) {
    if (idle || pUnmap < RECLAIM_LOW_UNMAP_RND / 2) {
      return 100;
    }
    return Math.min(75, 100 - pUnmap / 2);
  }

  int pUnmapRnd() {
    return reclaimPercentage(md.nrRndZones(), md.nrUnmapRndZones());
  }

  boolean shouldReclaim() {
    return shouldReclaim(targetIdle(), md.nrRndZones(), pUnmapRnd());
  }

  int throttleFor() {
    return throttleFor(targetIdle(), pUnmapRnd());
  }

  /** {@code dmz_schedule_reclaim()}. */
  void scheduleReclaim() {
    if (started && shouldReclaim()) {
      onHome(() -> wqs.modDelayedWork(home, rwq, reclaimWork, 0));
    }
  }

  /** {@code dmz_reclaim_work()}. */
  private WorkRun reclaimWorkRun() {
    return new DmzReclaimRun(this);
  }

  /** Re-arms the reclaim work after {@code jiffies}. */
  void rearmReclaim(long jiffies) {
    onHome(() -> wqs.modDelayedWork(home, rwq, reclaimWork, jiffies));
  }

  /** The clock rate. */
  int hz() {
    return hz;
  }

  /** Counts reclaim events. */
  Stats statsRef() {
    return stats;
  }

  /** {@code blkzone report}-like dump of the zones in use, and the zone counts. */
  public String blkzoneReport(int maxLines) {
    return md.report(maxLines);
  }

  /** The zone counts and the counters, one line each. */
  public String summary() {
    return name + " (" + fmt.label() + "): " + md.counts()
        + (md.prewrittenChunks == 0 ? "" : "\n  left by an earlier run: " + md.prewrittenChunks
            + " chunks mapped (" + md.prewrittenRnd + " in random zones)")
        + "\n  bios " + stats.bios
        + ", chunk work runs " + stats.chunkWorkRuns + ", direct writes " + stats.directWrites
        + ", buffered writes " + stats.bufferedWrites + ", read clones " + stats.readClones
        + ", free-zone waits " + stats.freeZoneWaits + ", reclaim waits " + stats.reclaimWaits
        + ", wait timeouts " + stats.waitTimeouts
        + "\n  metadata flushes " + stats.flushes + " (" + stats.flushedBlocks + " blocks),"
        + " reclaim runs " + stats.reclaimRuns + ", zones reclaimed " + stats.reclaimedZones
        + ", aborted " + stats.reclaimAborts + ", kcopyd MiB " + (kcopydBytes >> 20)
        + ", throttle sleeps " + kcThrottle.sleeps + ", zone resets " + stats.zoneResets
        + "\n  " + md.cache.summary()
        + "\n" + wbtLine() + cacheLine();
  }

  /** The disk's write cache line, or nothing without one. */
  private String cacheLine() {
    BlockQueue q = queues[home.cpu().id()];
    String d = q == null ? "" : q.driveSummary();
    return d.isEmpty() ? "" : "  " + q.diskName() + " " + d + "\n";
  }

  /** The disk queue's wbt line, or nothing when wbt is off. */
  private String wbtLine() {
    BlockQueue q = queues[home.cpu().id()];
    return q == null || q.wbt() == null ? "" : "  " + q.diskName() + " " + q.wbt().summary()
        + "\n";
  }
}
