package blksim.kernel.mm;

import blksim.kernel.block.Bio;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.ReqOp;
import blksim.kernel.workqueue.WorkFn;
import blksim.kernel.workqueue.WorkRun;
import blksim.kernel.workqueue.WorkerCpu;

/**
 * One execution of a wb's flusher work, {@code wb_workfn()} → {@code wb_do_writeback()}, on the
 * kworker of the unbound {@code writeback} workqueue that runs it, as Linux 4.3's
 * fs/fs-writeback.c has it (kernel-model.md §9.3, §15.4.1):
 *
 * <ol>
 * <li>Queued works first, then the periodic "kupdate" flush ({@code wb_check_old_data_flush()}:
 *     every {@code dirty_writeback_interval}, inodes dirtied more than
 *     {@code dirty_expire_interval} ago), then background writeback
 *     ({@code wb_check_background_flush()}: while {@code wb_over_bg_thresh()}).
 * <li>{@code wb_writeback()}: with the plug policy's plug held around the loop (4.3-rc1), repeat:
 *     stop when the budget is spent, when a background or kupdate work sees other works queued or
 *     background sees dirty memory under the threshold; refill {@code b_io} ({@code queue_io()});
 *     write inodes; update the bandwidth estimate; go on while progress is made.
 * <li>{@code writeback_sb_inodes()}, per inode of {@code b_io}, oldest first: I_SYNC, the chunk
 *     ({@code writeback_chunk_size()}), the host's preparation (a filesystem allocates here), then
 *     {@code write_cache_pages()}: dirty pages from {@code writeback_index}, in batches of 14
 *     ({@code PAGEVEC_SIZE}), each batch followed by {@code cond_resched()} (scheduling point (a));
 *     contiguous pages go into one bio (at most 256 pages, {@code BIO_MAX_PAGES}), which stays
 *     open across batches as the filesystem's writepage context keeps it (a request-based
 *     queue splits it at its limits, {@code bio_split_to_limits()}: the pages' writeback ends
 *     when the last piece has completed, {@code bio_chain()}); then
 *     {@code requeue_inode()} and scheduling point (b): {@code cond_resched_lock()} in 4.3-rc1, or
 *     the patch's {@code if (need_resched()) { blk_flush_plug(); cond_resched(); }}; a pass returns
 *     to {@code wb_writeback()} after 100 ms with progress.
 * </ol>
 *
 * <p>Neither {@code cond_resched()} flushes the plug; a sleep does (through the task's
 * {@code sched_submit_work()}, wired by the owner of the plug). The flusher never waits for its
 * I/O (WB_SYNC_NONE); a WB_SYNC_ALL work waits for each inode's writeback to end.
 *
 * <p>Simplified: one superblock per wb; {@code inode_sleep_on_writeback()} is not needed (one
 * flusher per wb, and tasks' fsync runs in their own context without I_SYNC here); the inode's own
 * metadata write ({@code write_inode}) is part of the host's per-inode cost; a bio holds pages of
 * one inode only (merging across inodes is the block layer's job).
 */
final class Flusher implements WorkRun {
  private enum Phase {
    NEXT_WORK,
    LOOP,
    INODE_NEXT,
    PAGES,
    EXTENTS,
    ISSUE,
    BATCH_END,
    WAIT_SYNC,
    INODE_DONE,
    POINT_B,
    AFTER_B,
    PASS_END,
    END_WORK
  }

  /** {@code PAGEVEC_SIZE}. */
  static final int PAGEVEC_SIZE = 14;
  /**
   * A pass of {@code writeback_sb_inodes()} returns to {@code wb_writeback()} after
   * {@code HZ / 10} jiffies with progress: 100 ms at any HZ.
   */
  static final long PASS_LIMIT_NS = 100_000_000L;
  /** {@code BIO_MAX_PAGES} in 4.x. */
  static final int BIO_MAX_PAGES = blksim.kernel.block.Bio.MAX_VECS;
  /** Sectors per 4 KiB page. */
  private static final int PAGE_SECTORS = 8;

  private final BdiWriteback wb;
  private final PageCache pc;
  private Phase phase = Phase.NEXT_WORK;
  /** 0: queued works; 1: old-data flush checked; 2: background checked. */
  private int stage;
  private WbWork work;
  /** The wb-level plug of 4.3-rc1 is held (policy PLUG or PLUG_FLUSH). */
  private boolean plugged;
  private boolean outermostPlug;
  /** The per-inode plug of generic_writepages() is held. */
  private boolean inodePlugged;
  private boolean inodeOutermost;
  private long wbStartJiffies;
  private long workStartNs;
  private long passStartNs;
  private long wrote;
  private AddressSpace inode;
  private long chunk;
  private long nrToWrite;
  private long inodePages;
  private long index;
  private boolean wrapped;
  private int inBatch;
  private long pendingNs;
  private long bioFirst;
  private long bioSector;
  private int bioPages;
  private Bio bio;
  private Phase afterIssue;
  /** The bio being built is of extent pages ({@link #extents}). */
  private boolean extentBio;
  /** The inode's extents were walked in this writeback of it. */
  private boolean extentsDone;

  private Flusher(BdiWriteback wb) {
    this.wb = wb;
    this.pc = wb.pc;
  }

  /** {@code wb_workfn}: the work function of {@code wb}'s delayed work. */
  static WorkFn workFn(BdiWriteback wb) {
    return () -> new Flusher(wb);
  }

  @Override
  public void step(WorkerCpu cpu) {
    while (true) {
      switch (phase) {
        case NEXT_WORK:
          if (!nextWork(cpu)) {
            done(cpu);
            return;
          }
          continue;
        case LOOP:
          loop(cpu);
          continue;
        case INODE_NEXT:
          if (inodeNext(cpu)) {
            return;
          }
          continue;
        case PAGES:
          if (pages(cpu)) {
            return;
          }
          continue;
        case EXTENTS:
          if (extents(cpu)) {
            return;
          }
          continue;
        case ISSUE:
          if (issue(cpu)) {
            return;
          }
          continue;
        case BATCH_END:
          if (pendingNs > 0) {
            long ns = pendingNs;
            pendingNs = 0;
            cpu.runFor(ns);
            return;
          }
          // write_cache_pages(): cond_resched() after each pagevec (scheduling point (a)).
          phase = Phase.PAGES;
          inBatch = 0;
          cpu.condResched();
          return;
        case WAIT_SYNC:
          // WB_SYNC_ALL: filemap_fdatawait() for the inode's pages.
          if (inode.nrWriteback > 0) {
            inode.addWritebackWaiter(cpu.waker());
            cpu.sleep();
            return;
          }
          phase = Phase.INODE_DONE;
          continue;
        case INODE_DONE:
          inodeDone();
          if (wb.costs.inodeDoneNs() > 0) {
            cpu.runFor(wb.costs.inodeDoneNs());
            return;
          }
          continue;
        case POINT_B:
          if (pointB(cpu)) {
            return;
          }
          continue;
        case AFTER_B:
          phase = Phase.INODE_NEXT;
          if (wrote > 0 && (cpu.now() - passStartNs >= PASS_LIMIT_NS
              || (!work.syncAll && work.nrPages <= 0))) {
            phase = Phase.PASS_END;
          }
          continue;
        case PASS_END:
          // wb_update_bandwidth() after each pass.
          wb.bw.update(pc.jiffies(cpu.now()), wb.dirtied, wb.written, wbStartJiffies);
          phase = wrote > 0 || work.only != null ? Phase.LOOP : Phase.END_WORK;
          continue;
        case END_WORK:
          endWork(cpu);
          continue;
        default:
          throw new IllegalStateException(wb.name + " flusher in phase " + phase);
      }
    }
  }

  /**
   * {@code wb_do_writeback()}: the next queued work, else the old-data flush if due, else
   * background writeback if over the threshold. Starts its {@code wb_writeback()}.
   */
  private boolean nextWork(WorkerCpu cpu) {
    long now = cpu.now();
    work = null;
    while (work == null) {
      if (stage == 0) {
        work = wb.works.poll();
        if (work == null) {
          stage = 1;
        }
      } else if (stage == 1) {
        stage = 2;
        work = oldDataFlush(now);
      } else if (stage == 2) {
        stage = 3;
        if (overBackground()) {
          work = new WbWork(Long.MAX_VALUE, false, true, false, WbWork.Reason.BACKGROUND);
        }
      } else if (!wb.works.isEmpty()) {
        // wb_workfn(): do { wb_do_writeback() } while (!list_empty(&wb->work_list)).
        stage = 0;
      } else {
        return false;
      }
    }
    wb.running = true;
    wb.stats.works++;
    wbStartJiffies = pc.jiffies(now);
    workStartNs = now;
    plugged = wb.plugPolicy != WbPlugPolicy.NONE && wb.plug != null;
    if (plugged) {
      outermostPlug = wb.plug.start(cpu.worker());
    }
    phase = Phase.LOOP;
    return true;
  }

  /** {@code wb_check_old_data_flush()}. */
  private WbWork oldDataFlush(long now) {
    long intervalMs = pc.params().dirtyWritebackIntervalMs();
    if (intervalMs <= 0) {
      return null;
    }
    long jiffies = pc.jiffies(now);
    if (jiffies < wb.lastOldFlushJiffies + wb.msecsToJiffies(intervalMs)) {
      return null;
    }
    wb.lastOldFlushJiffies = jiffies;
    long nr = pc.nrDirty();
    return nr > 0 ? new WbWork(nr, false, false, true, WbWork.Reason.PERIODIC) : null;
  }

  private boolean overBackground() {
    long wbThresh = BalanceDirtyPages.wbCalcThresh(pc.limits().threshPages(), 1, 1);
    return BalanceDirtyPages.wbOverBgThresh(pc.nrDirty(), wb.reclaimable, pc.limits(), wbThresh);
  }

  /** The top of {@code wb_writeback()}'s loop. */
  private void loop(WorkerCpu cpu) {
    long now = cpu.now();
    if (!work.syncAll && work.nrPages <= 0
        || (work.forBackground || work.forKupdate) && !wb.works.isEmpty()
        || work.forBackground && !overBackground()) {
      phase = Phase.END_WORK;
      return;
    }
    long olderThan;
    if (work.forKupdate) {
      olderThan = now - pc.params().dirtyExpireIntervalMs() * 1_000_000L;
    } else if (work.forBackground) {
      olderThan = now;
    } else {
      olderThan = workStartNs;
    }
    if (work.only != null) {
      if (work.onlyDone) {
        phase = Phase.END_WORK;
        return;
      }
    } else if (wb.bIo.isEmpty()) {
      wb.queueIo(olderThan);
    }
    passStartNs = now;
    wrote = 0;
    phase = Phase.INODE_NEXT;
  }

  /** {@code writeback_sb_inodes()}: takes the next inode of {@code b_io}. */
  private boolean inodeNext(WorkerCpu cpu) {
    AddressSpace as = work.only != null ? (work.onlyDone ? null : work.only) : wb.bIo.oldest();
    if (as == null) {
      phase = Phase.PASS_END;
      return false;
    }
    if (work.only != null) {
      work.onlyDone = true;
    }
    if (as.freeing) {
      InodeList.unlink(as);
      return false;
    }
    if (as.iSync && !work.syncAll) {
      wb.requeueIo(as);
      return false;
    }
    inode = as;
    as.iSync = true;
    chunk = wb.chunkSize(work);
    nrToWrite = chunk;
    inodePages = 0;
    index = as.writebackIndex;
    wrapped = index == 0;
    inBatch = 0;
    bioPages = 0;
    extentsDone = false;
    wb.stats.inodes++;
    // generic_writepages(): blk_start_plug() around write_cache_pages() (nested under the
    // wb-level plug, where it does nothing).
    inodePlugged = wb.plug != null;
    if (inodePlugged) {
      inodeOutermost = wb.plug.start(cpu.worker());
    }
    phase = Phase.PAGES;
    cpu.runFor(wb.costs.perInodeNs() + as.host.prepareWriteback(as));
    return true;
  }

  /**
   * {@code write_cache_pages()}: takes dirty pages into a bio until the pagevec is full, the
   * budget is spent, the pages run out or the next page is not contiguous; then submits.
   */
  private boolean pages(WorkerCpu cpu) {
    while (true) {
      boolean budget = work.syncAll || nrToWrite > 0;
      long p = budget && inBatch < PAGEVEC_SIZE ? nextDirtyPage() : -1;
      if (p >= 0 && bioPages > 0 && (p != bioFirst + bioPages || bioPages >= BIO_MAX_PAGES
          || inode.host.sectorOf(inode, p) != bioSector + (long) bioPages * PAGE_SECTORS)) {
        // Not contiguous: submit what is built; the page is taken afterwards.
        return submit(cpu, Phase.PAGES);
      }
      if (p < 0) {
        if (bioPages > 0 && !(budget && inBatch >= PAGEVEC_SIZE)) {
          return submit(cpu, Phase.BATCH_END);
        }
        // A full pagevec only ends the batch: the bio being built stays open across the
        // cond_resched() (the writepage context, mpage_data or iomap_writepage_ctx, holds it
        // until a page is not contiguous, the bio is full or write_cache_pages() returns).
        if (inBatch > 0) {
          phase = Phase.BATCH_END;
          return false;
        }
        if (inode.dirtyExtents != null && !extentsDone) {
          // The pages held as extents follow the page bits (simplified: one pass of each).
          extentsDone = true;
          phase = Phase.EXTENTS;
          return false;
        }
        phase = work.syncAll ? Phase.WAIT_SYNC : Phase.INODE_DONE;
        if (inodePlugged) {
          // The end of generic_writepages(): blk_finish_plug(), which dispatches only without
          // an outer plug ("noplug": each inode's bios go out at the end of the inode).
          inodePlugged = false;
          wb.plug.finish(cpu.worker(), inodeOutermost);
        }
        return false;
      }
      if (bioPages == 0) {
        bioFirst = p;
        bioSector = inode.host.sectorOf(inode, p);
      }
      pc.startWriteback(inode, p);
      bioPages++;
      inBatch++;
      nrToWrite--;
      inodePages++;
      index = p + 1;
      pendingNs += wb.costs.perPageNs();
      wb.stats.pages++;
    }
  }

  /**
   * {@code write_cache_pages()} over the inode's dirty extents ({@link AddressSpace#dirtyExtents}):
   * one bio per step, of the next dirty pages from {@code index} (wrapping once) up to
   * {@code BIO_MAX_PAGES}, the budget and the end of the disk extent they map to. The pages are
   * accounted as a whole, with no work per page; the CPU time is the per-page cost times the
   * pages, paid with the bio's submission. Simplified: the bio's run is the only scheduling
   * point (no {@code cond_resched()} per pagevec).
   */
  private boolean extents(WorkerCpu cpu) {
    long max = Math.min(BIO_MAX_PAGES, work.syncAll ? Long.MAX_VALUE : nrToWrite);
    long[] r = max > 0 ? nextExtent(max) : null;
    if (r == null) {
      phase = Phase.PAGES;
      return false;
    }
    long first = r[0];
    int n = (int) r[1];
    bioFirst = first;
    bioSector = inode.host.sectorOf(inode, first);
    bioPages = n;
    nrToWrite -= n;
    inodePages += n;
    index = first + n;
    pendingNs += wb.costs.perPageNs() * n;
    wb.stats.pages += n;
    extentBio = true;
    return submit(cpu, Phase.EXTENTS);
  }

  /** The next extent piece from {@code index}, wrapping once, cut at the disk extent's end. */
  private long[] nextExtent(long max) {
    long from = index;
    java.util.Map.Entry<Long, Long> e = inode.dirtyExtents.floorEntry(from);
    if (e == null || e.getValue() <= from) {
      e = inode.dirtyExtents.ceilingEntry(from);
    }
    if (e == null && !wrapped) {
      wrapped = true;
      from = 0;
      e = inode.dirtyExtents.firstEntry();
    }
    if (e == null) {
      return null;
    }
    long s = Math.max(e.getKey(), from);
    long run = inode.host.contiguousPages(inode, s, Math.min(max, e.getValue() - s));
    return pc.startWritebackExtent(inode, s, Math.max(1, run));
  }

  /** The next dirty page from {@code index}, wrapping once ({@code range_cyclic}). */
  private long nextDirtyPage() {
    long p = inode.nextDirty(index);
    if (p < 0 && !wrapped) {
      wrapped = true;
      index = 0;
      p = inode.nextDirty(0);
    }
    return p;
  }

  /** Builds the bio of the collected pages and pays its cost; {@link #issue} follows. */
  private boolean submit(WorkerCpu cpu, Phase then) {
    // wbc_to_write_flags(): REQ_SYNC for WB_SYNC_ALL, REQ_BACKGROUND for background/kupdate.
    int flags = work.syncAll ? Bio.REQ_SYNC
        : work.forBackground || work.forKupdate ? Bio.REQ_BACKGROUND : 0;
    bio = new Bio(ReqOp.WRITE, bioSector, bioPages * 4096, flags);
    afterIssue = then;
    phase = Phase.ISSUE;
    long ns = pendingNs + queue(cpu).submitCostNs(bio);
    pendingNs = 0;
    cpu.runFor(ns);
    return true;
  }

  private BlockQueue queue(WorkerCpu cpu) {
    return wb.queues.apply(cpu.cpu().cpu().id());
  }

  /** {@code submit_bio()}: into the plug or the queue; sleeps for a request if none is free. */
  private boolean issue(WorkerCpu cpu) {
    AddressSpace as = inode;
    long first = bioFirst;
    int n = bioPages;
    Runnable waker = cpu.waker();
    blksim.kernel.block.BioEndIo end = extentBio ? (b, err) -> pc.endWritebackExtent(as, n)
        : (b, err) -> ended(as, first, n);
    boolean taken = wb.plug != null
        ? wb.plug.submit(queue(cpu), bio, end, waker)
        : queue(cpu).issue(bio, end, waker);
    if (!taken) {
      wb.stats.tagSleeps++;
      cpu.sleep();
      return true;
    }
    wb.stats.bios++;
    bioPages = 0;
    bio = null;
    extentBio = false;
    phase = afterIssue;
    return false;
  }

  /** {@code end_bio_bh_io_sync()} / {@code xfs_end_bio()}: the pages' writeback ends. */
  private void ended(AddressSpace as, long first, int n) {
    for (int i = 0; i < n; i++) {
      pc.endWriteback(as, first + i);
    }
  }

  /** The end of {@code __writeback_single_inode()}: accounting and {@code requeue_inode()}. */
  private void inodeDone() {
    AddressSpace as = inode;
    if (!work.syncAll) {
      work.nrPages -= inodePages;
    }
    wrote += inodePages;
    if (as.nrDirty == 0) {
      wrote++;
    }
    as.writebackIndex = index;
    if (!as.freeing) {
      if (as.nrDirty > 0) {
        if (!work.syncAll && nrToWrite <= 0) {
          wb.requeueIo(as);
        } else {
          wb.redirtyTail(as, workStartNs);
        }
      } else {
        InodeList.unlink(as);
        as.dirtiedWhenNs = 0;
      }
    }
    as.iSync = false;
    inode = null;
    phase = Phase.POINT_B;
  }

  /** Scheduling point (b) between inodes, as the plug policy has it. */
  private boolean pointB(WorkerCpu cpu) {
    phase = Phase.AFTER_B;
    boolean resched = cpu.needResched();
    if (resched) {
      wb.stats.reschedBetweenInodes++;
    }
    if (wb.plugPolicy == WbPlugPolicy.PLUG_FLUSH) {
      if (!resched) {
        return false;
      }
      if (plugged) {
        wb.stats.flushBeforeResched++;
        wb.plug.flush(cpu.cpu());
      }
    }
    // cond_resched_lock(&wb->list_lock), or the patch's cond_resched().
    cpu.condResched();
    return true;
  }

  /** The end of {@code wb_writeback()}: the plug is finished and the work completed. */
  private void endWork(WorkerCpu cpu) {
    if (plugged) {
      plugged = false;
      wb.plug.finish(cpu.worker(), outermostPlug);
    }
    phase = Phase.NEXT_WORK;
    Runnable done = work.done;
    work = null;
    if (done != null) {
      done.run();
    }
  }

  /** {@code wb_workfn()}'s end: re-queue if works came in, else re-arm kupdate if dirty. */
  private void done(WorkerCpu cpu) {
    wb.running = false;
    if (!wb.works.isEmpty()) {
      wb.wakeup();
    } else if (wb.hasDirtyIo()) {
      wb.wakeupDelayed();
    }
    cpu.finish();
  }
}
