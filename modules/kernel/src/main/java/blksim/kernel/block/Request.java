package blksim.kernel.block;

import java.util.ArrayList;
import java.util.List;

/**
 * A block request ({@code struct request}): one contiguous range of one operation, built from one
 * or more bios (kernel-model.md §5.3). It is allocated with a scheduler tag when a bio cannot be
 * merged into an existing request ({@code blk_mq_get_new_requests()}), collects contiguous bios of
 * the same operation by back and front merges ({@code bio_attempt_back_merge()},
 * {@code bio_attempt_front_merge()} in {@code block/blk-merge.c}), is dispatched to the driver
 * with a driver tag, and on completion ends each of its bios ({@code blk_update_request()} calling
 * {@code bio_endio()} in bio order).
 *
 * <p>Segments: each bio counts as many physical segments as the 4 KiB pages it touches (page-cache
 * and user pages are not physically contiguous, {@code bio_phys_segments()}); a merge must keep the
 * request within the queue's {@code max_segments} and {@code max_sectors}
 * ({@code ll_back_merge_fn()}, {@code ll_front_merge_fn()}). Simplified: no segment-boundary or
 * virt-boundary rules, no discard or write-zeroes merging.
 */
public final class Request {
  private final RequestQueue queue;
  private final ReqOp op;
  private final DriverCpu submitCpu;
  private final long allocNs;
  /** {@code rq->ioprio}, from the first bio; bios of another priority do not merge in. */
  private final int ioprio;
  /**
   * The first bio and its end_io while the request has one (nearly always on the direct-I/O
   * paths): two lists per request were four objects per I/O. From the first merge on, the bios
   * are in {@link #bios} and {@link #endIos} and these two are null.
   */
  private Bio bio0;
  private BioEndIo endIo0;
  private ArrayList<Bio> bios;
  private ArrayList<BioEndIo> endIos;
  private long sector;
  private long bytes;
  private int segments;
  /** mq-deadline's FIFO deadline ({@code rq->fifo_time}), ns. */
  long fifoTimeNs;
  /** mq-deadline's class index while it counts the request as queued ({@code dd_queued()}), or -1. */
  int ddPrio = -1;
  /** Insertion order into the elevator, for stable FIFO ties. */
  long insertSeq;
  private long dispatchNs = -1;
  /** {@code rq->wbt_flags} ({@link Wbt}). */
  int wbtFlags;
  /** REQ_NOMERGE in {@code rq->cmd_flags} (from its first bio): nothing merges into it. */
  private final boolean noMerge;

  Request(RequestQueue queue, Bio bio, BioEndIo endIo, DriverCpu submitCpu, long allocNs) {
    this.queue = queue;
    this.op = bio.op();
    this.submitCpu = submitCpu;
    this.allocNs = allocNs;
    this.ioprio = bio.ioprio();
    this.sector = bio.sector();
    this.bytes = bio.sizeBytes();
    this.segments = (int) Math.max(1, bio.pageCount());
    this.noMerge = bio.hasFlag(Bio.REQ_NOMERGE);
    bio0 = bio;
    endIo0 = endIo;
  }

  /** The bios in the lists, from the first merge on. */
  private void toLists() {
    if (bios == null) {
      bios = new ArrayList<>(4);
      endIos = new ArrayList<>(4);
      bios.add(bio0);
      endIos.add(endIo0);
      bio0 = null;
      endIo0 = null;
    }
  }

  /** Its I/O priority ({@code req_get_ioprio()}). */
  public int ioprio() {
    return ioprio;
  }

  /** The queue the request belongs to ({@code rq->q}). */
  public RequestQueue queue() {
    return queue;
  }

  /** Its operation ({@code req_op(rq)}). */
  public ReqOp op() {
    return op;
  }

  /** First sector ({@code blk_rq_pos()}). */
  public long sector() {
    return sector;
  }

  /** Length in bytes ({@code blk_rq_bytes()}). */
  public long bytes() {
    return bytes;
  }

  /** The sector after the last ({@code blk_rq_pos() + blk_rq_sectors()}). */
  public long endSector() {
    return sector + (bytes >>> 9);
  }

  /** Physical segments ({@code rq->nr_phys_segments}). */
  public int segments() {
    return segments;
  }

  /** Bios merged into it, in sector order. */
  public List<Bio> bios() {
    return bios == null ? List.of(bio0) : List.copyOf(bios);
  }

  /** The CPU the request was allocated on ({@code rq->mq_ctx->cpu}); it completes there. */
  public DriverCpu submitCpu() {
    return submitCpu;
  }

  /** When it was allocated ({@code rq->start_time_ns}). */
  public long allocNs() {
    return allocNs;
  }

  /** When it was handed to the driver, or -1. */
  public long dispatchNs() {
    return dispatchNs;
  }

  void dispatched(long now) {
    dispatchNs = now;
  }

  /** Whether it was handed to the driver; a started request never merges. */
  public boolean started() {
    return dispatchNs >= 0;
  }

  /** A bio or request of this operation may merge: reads and writes only. */
  static boolean mergeableOp(ReqOp op) {
    return op == ReqOp.READ || op == ReqOp.WRITE;
  }

  /**
   * Whether {@code bio} may merge into this request at all ({@code blk_rq_merge_ok()}): same
   * operation, a mergeable one, the request not started, and the merged size within
   * {@code maxBytes} and {@code maxSegments} ({@code ll_back_merge_fn()}).
   */
  boolean mergeOk(Bio bio, long maxBytes, int maxSegments) {
    return !started() && !noMerge && !bio.hasFlag(Bio.REQ_NOMERGE) && bio.op() == op
        && mergeableOp(op) && bio.ioprio() == ioprio
        && (queue == null || queue.withinChunk(Math.min(sector, bio.sector()),
            Math.max(endSector(), bio.sector() + bio.sectors())))
        && bytes + bio.sizeBytes() <= maxBytes
        && segments + Math.max(1, bio.pageCount()) <= maxSegments;
  }

  /** Whether {@code bio} starts where this request ends ({@code ELEVATOR_BACK_MERGE}). */
  boolean backContiguous(Bio bio) {
    return bio.sector() == endSector();
  }

  /** Whether {@code bio} ends where this request starts ({@code ELEVATOR_FRONT_MERGE}). */
  boolean frontContiguous(Bio bio) {
    return bio.sector() + bio.sectors() == sector;
  }

  /** {@code bio_attempt_back_merge()}: appends the bio. The caller checked {@link #mergeOk}. */
  void backMerge(Bio bio, BioEndIo endIo) {
    toLists();
    bios.add(bio);
    endIos.add(endIo);
    bytes += bio.sizeBytes();
    segments += (int) Math.max(1, bio.pageCount());
  }

  /** {@code bio_attempt_front_merge()}: prepends the bio. */
  void frontMerge(Bio bio, BioEndIo endIo) {
    toLists();
    bios.add(0, bio);
    endIos.add(0, endIo);
    sector = bio.sector();
    bytes += bio.sizeBytes();
    segments += (int) Math.max(1, bio.pageCount());
  }

  /**
   * Whether request {@code next} may be appended to this one ({@code attempt_merge()}): contiguous,
   * same operation, neither started, within the limits.
   */
  boolean requestMergeOk(Request next, long maxBytes, int maxSegments) {
    return !started() && !next.started() && !noMerge && !next.noMerge && next.op == op
        && mergeableOp(op)
        && next.ioprio == ioprio
        && next.sector == endSector() && bytes + next.bytes <= maxBytes
        && (queue == null || queue.withinChunk(sector, next.endSector()))
        && segments + next.segments <= maxSegments;
  }

  /** Appends every bio of {@code next} ({@code attempt_merge()}); {@code next} is then freed. */
  void absorb(Request next) {
    toLists();
    if (next.bios == null) {
      bios.add(next.bio0);
      endIos.add(next.endIo0);
    } else {
      bios.addAll(next.bios);
      endIos.addAll(next.endIos);
    }
    bytes += next.bytes;
    segments += next.segments;
    fifoTimeNs = Math.min(fifoTimeNs, next.fifoTimeNs);
  }

  /** Ends every bio with {@code error}, in order ({@code blk_update_request()}). */
  void endBios(int error) {
    if (bios == null) {
      endIo0.endIo(bio0, error);
      return;
    }
    for (int i = 0; i < bios.size(); i++) {
      endIos.get(i).endIo(bios.get(i), error);
    }
  }

  @Override
  public String toString() {
    return op + "@" + sector + "+" + bytes;
  }
}
