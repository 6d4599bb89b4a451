package blksim.kernel.mm;

import blksim.engine.Component;
import blksim.engine.ComponentReport;
import blksim.engine.Context;
import blksim.engine.Locality;
import blksim.engine.Message;
import java.util.ArrayList;
import java.util.List;

/**
 * The page cache as an engine component ({@code mm}): it owns nothing that changes on its own,
 * but samples {@code /proc/meminfo} (Dirty, Writeback) and {@code /proc/vmstat}
 * ({@code nr_dirtied}, {@code nr_written}) every {@code vmstat-interval} of virtual time, and
 * reports them with each wb's flusher statistics and the balance_dirty_pages statistics at the end
 * of the run ({@link MmReport}). Placed with the CPUs (one partition, see {@link PageCache}).
 */
public final class MmComponent implements Component {
  /** The sampling timer. */
  public record VmstatTick() implements Message {}

  /** {@link ComponentReport#kind()} of its report. */
  public static final String KIND = "mm";

  private final PageCache pc;
  private final long intervalNs;
  private final List<MmReport.Sample> samples = new ArrayList<>();

  public MmComponent(PageCache pc, long intervalNs) {
    this.pc = pc;
    this.intervalNs = intervalNs;
  }

  /** The page cache it reports on. */
  public PageCache pageCache() {
    return pc;
  }

  @Override
  public String id() {
    return "mm";
  }

  @Override
  public Locality locality() {
    return Locality.MACHINE;
  }

  @Override
  public void start(Context ctx) {
    if (intervalNs > 0) {
      ctx.schedule(intervalNs, new VmstatTick());
    }
  }

  @Override
  public void handle(Message message, Context ctx) {
    if (!(message instanceof VmstatTick)) {
      throw new IllegalStateException("mm: unexpected message " + message);
    }
    samples.add(sample(ctx.now()));
    ctx.schedule(intervalNs, message);
  }

  private MmReport.Sample sample(long now) {
    return new MmReport.Sample(now, pc.nrDirty(), pc.nrWriteback(), pc.nrDirtied(),
        pc.nrWritten(), pc.nrFilePages());
  }

  @Override
  public ComponentReport report(long endNs) {
    List<MmReport.Wb> wbs = new ArrayList<>();
    for (BdiWriteback wb : pc.wbs()) {
      FlusherStats f = wb.stats();
      wbs.add(new MmReport.Wb(wb.name(), f.works(), f.inodes(), f.pages(), f.bios(),
          f.reschedBetweenInodes(), f.flushBeforeResched(), f.tagSleeps(),
          wb.bandwidth().writeBandwidth(), wb.bandwidth().dirtyRatelimit()));
    }
    BdpStats b = pc.bdpStats();
    MmReport r = new MmReport(pc.limits().backgroundThreshPages(), pc.limits().threshPages(),
        samples, sample(endNs), wbs, b.iterations(), b.freerun(), b.sleeps(), b.pauseNs(),
        b.maxPauseNs(), b.pauseBuckets(), pc.reclaimedPages(),
        pc.pgpgin(), pc.readaheadPages());
    return new ComponentReport(id(), KIND, r.encode());
  }
}
