package blksim.kernel.device;

import blksim.kernel.block.DriverCpu;
import blksim.kernel.block.MqDriver;
import blksim.kernel.block.ReqOp;
import blksim.kernel.block.Request;

/**
 * The driver of an SSD below a request queue: each dispatched request is a command to the
 * {@link Ssd} model, which books its service at once; at its completion time the driver reports
 * it to the queue, which raises the completion interrupt on the submitting CPU. The queue's driver
 * tags ({@code queue_depth}) never exceed the drive's own.
 */
public final class SsdDriver implements MqDriver {
  private final Ssd ssd;

  public SsdDriver(Ssd ssd) {
    this.ssd = ssd;
  }

  @Override
  public void queueRq(Request rq, DriverCpu cpu) {
    long now = cpu.now();
    long done = ssd.submit(now, rq.sector(), rq.bytes(), rq.op() != ReqOp.READ);
    rq.submitCpu().callAfter(done - now, () -> rq.queue().hardwareDone(rq));
  }
}
