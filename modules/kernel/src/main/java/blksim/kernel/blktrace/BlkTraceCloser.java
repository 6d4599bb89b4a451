package blksim.kernel.blktrace;

import blksim.engine.Component;
import blksim.engine.ComponentReport;
import blksim.engine.Context;
import blksim.engine.Locality;
import blksim.engine.Message;
import java.util.List;

/**
 * Closes one CPU's blktrace files at the end of the run, in that CPU's partition (blktrace
 * stopping its per-CPU relay channels): it sits where the CPU sits, receives no message and
 * reports nothing, so that the per-CPU buffers are written by the partition that fills them.
 */
public final class BlkTraceCloser implements Component {
  private final int cpu;
  private final Locality locality;
  private final List<BlkTrace> traces;

  /** Closes {@code cpu}'s files of every trace in {@code traces}. */
  public BlkTraceCloser(int cpu, Locality locality, List<BlkTrace> traces) {
    this.cpu = cpu;
    this.locality = locality;
    this.traces = List.copyOf(traces);
  }

  @Override
  public String id() {
    return "blktrace/" + cpu;
  }

  @Override
  public Locality locality() {
    return locality;
  }

  @Override
  public void handle(Message message, Context ctx) {
    throw new IllegalStateException(id() + " takes no messages, got " + message);
  }

  @Override
  public ComponentReport report(long endNs) {
    for (BlkTrace t : traces) {
      t.close(cpu);
    }
    return null;
  }
}
