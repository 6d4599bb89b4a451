package blksim.kernel.fs;

import blksim.kernel.block.Bio;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.ReqOp;
import blksim.kernel.mm.PageCache;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;
import java.util.List;
import java.util.function.IntFunction;

/**
 * The XFS part of an unmount after the VFS wrote the data back (kernel-model.md §15.1.5), run by
 * the unmounting task, each stage's bios issued and then waited for:
 *
 * <ol>
 * <li>{@code sync_filesystem()} → {@code xfs_fs_sync_fs(wait=1)} → {@code xfs_log_force()}: the
 *     checkpoint of what the data writeback logged (delalloc conversions, creates);
 * <li>{@code xfs_unmountfs()} → {@code xfs_unmount_flush_inodes()}: {@code xfs_log_force()}
 *     (empty now) and {@code xfs_ail_push_all_sync()}: the metadata buffers in place;
 * <li>{@code xfs_log_unmount()} → {@code xfs_log_clean()} → {@code xfs_log_quiesce()} →
 *     {@code xfs_log_cover()}: the superblock logged and pushed twice (covering takes two dummy
 *     transactions, XLOG_STATE_COVER_NEED then NEED2), each a log force and an AIL push;
 * <li>{@code xfs_log_unmount_write()}: the unmount record (REQ_PREFLUSH | REQ_FUA);
 * <li>{@code xfs_free_buftarg()} → {@code blkdev_issue_flush()}: an empty REQ_PREFLUSH bio, the
 *     final cache flush.
 * </ol>
 *
 * <p>So an unmount issues 4 REQ_PREFLUSH bios plus one per log force with content (§15.5); on
 * a device without a write cache ({@link BlockQueue#writeCache}) the empty flush ends in
 * {@code submit_bio_noacct()} and is counted without reaching the device.
 * Simplified: xfsaild's work is done by the unmounting task (its submission CPU is the task's
 * system time); the buffers of a stage are issued without a plug.
 */
final class XfsUnmount {
  private final XfsFilesystem fs;
  private final XfsLog log;
  private final IntFunction<BlockQueue> queues;
  private final PageCache pc;
  private final Task task;
  private int stage;
  private List<long[]> bios;
  private int next;
  /** The bio {@code next} being paid for and issued, or null until it is built. */
  private Bio current;
  private int inFlight;
  private boolean paid;
  private long stageStart;
  private long dirtyAtStart;
  private long writebackAtStart;
  private int preflush;
  private int fua;
  private long bytes;
  private String name;

  private static final String[] NAMES = {"xfs_log_force", "xfs_ail_push_all_sync",
      "xfs_log_cover", "xfs_log_cover", "xfs_log_cover", "xfs_log_cover",
      "xfs_log_unmount_write", "blkdev_issue_flush"};

  XfsUnmount(XfsFilesystem fs, IntFunction<BlockQueue> queues, PageCache pc, Task task) {
    this.fs = fs;
    this.log = fs.log();
    this.queues = queues;
    this.pc = pc;
    this.task = task;
  }

  /** Takes one action; true when the unmount's XFS work is done (no action taken then). */
  boolean step(TaskCpu cpu) {
    while (true) {
      if (bios == null) {
        if (stage == NAMES.length) {
          return true;
        }
        open(cpu);
      }
      if (next < bios.size()) {
        if (current == null) {
          // Built once per bio: a retry after a tag wait passes the same Bio object
          // (BlockQueue.issue: a split bio's submitted pieces are found by its identity).
          long[] b = bios.get(next);
          current = b[1] == 0 ? new Bio(ReqOp.FLUSH, 0, 0, (int) b[2] | Bio.REQ_SYNC)
              : new Bio(ReqOp.WRITE, b[0], (int) b[1], (int) b[2] | Bio.REQ_SYNC);
        }
        Bio bio = current;
        BlockQueue q = queues.apply(cpu.cpu().cpu().id());
        if (bio.sizeBytes() == 0 && !q.writeCache()) {
          // submit_bio_noacct(): an empty flush to a device without a write cache ends at once.
          next++;
          current = null;
          preflush++;
          continue;
        }
        if (!paid) {
          paid = true;
          cpu.runFor(CpuMode.SYSTEM, q.submitCostNs(bio));
          return false;
        }
        CpuComponent c = cpu.cpu();
        inFlight++;
        if (!q.issue(bio, (x, err) -> {
          if (--inFlight == 0) {
            c.wake(task);
          }
        }, () -> c.wake(task))) {
          inFlight--;
          cpu.sleep();
          return false;
        }
        paid = false;
        next++;
        current = null;
        preflush += bio.hasFlag(Bio.REQ_PREFLUSH) ? 1 : 0;
        fua += bio.hasFlag(Bio.REQ_FUA) ? 1 : 0;
        bytes += bio.sizeBytes();
        continue;
      }
      if (inFlight > 0) {
        cpu.sleep();
        return false;
      }
      log.record(new XfsLog.Stage(name, stageStart, cpu.now(), bios.size(), preflush, fua,
          bytes, dirtyAtStart, writebackAtStart));
      bios = null;
      stage++;
    }
  }

  /** The bios of the next stage. */
  private void open(TaskCpu cpu) {
    name = NAMES[stage];
    stageStart = cpu.now();
    dirtyAtStart = pc.nrDirty();
    writebackAtStart = pc.nrWriteback();
    next = 0;
    preflush = 0;
    fua = 0;
    bytes = 0;
    bios = switch (stage) {
      case 0 -> log.force(0);
      case 1 -> {
        List<long[]> l = log.force(0);
        l.addAll(log.pushAil(fs::agOfSlot));
        yield l;
      }
      case 2, 4 -> {
        log.logSuperblock();
        yield log.force(0);
      }
      case 3, 5 -> log.pushAil(fs::agOfSlot);
      case 6 -> new java.util.ArrayList<>(List.of(log.unmountRecord()));
      default -> new java.util.ArrayList<>(List.of(new long[] {0, 0, Bio.REQ_PREFLUSH}));
    };
  }
}
