package blksim.kernel.device;

import blksim.kernel.block.DriverCpu;
import blksim.kernel.block.MqDriver;
import blksim.kernel.block.ReqOp;
import blksim.kernel.block.Request;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code sd}/libata driver and a SATA rotational drive below a request queue: each dispatched
 * request becomes a tagged NCQ command ({@code ata_qc_issue()}); the drive serves one command at
 * a time, choosing among those it holds ({@link RotationalDisk#pickNext}, SPTF or FIFO), and
 * reports each at its completion time, when it starts the next. The queue then raises the
 * completion interrupt on the submitting CPU.
 *
 * <p>The drive's timer runs on the CPU of the request being served (all CPUs of such a machine
 * share one partition). Simplified: no command overhead overlapped with the previous transfer, no
 * write cache (see {@link RotationalDisk}).
 */
public final class RotationalDiskDriver implements MqDriver {
  private final RotationalDisk disk;
  private final List<Request> held = new ArrayList<>();
  private boolean busy;
  private long commands;

  public RotationalDiskDriver(RotationalDisk disk) {
    this.disk = disk;
  }

  @Override
  public void queueRq(Request rq, DriverCpu cpu) {
    held.add(rq);
    if (!busy) {
      serveNext(cpu.now());
    }
  }

  private void serveNext(long now) {
    int i = disk.pickNext(now, held, Request::sector, Request::dispatchNs);
    Request rq = held.remove(i);
    busy = true;
    commands++;
    long done = disk.serve(now, rq.sector(), rq.bytes(), rq.op() != ReqOp.READ);
    DriverCpu at = rq.submitCpu();
    at.callAfter(done - now, () -> {
      busy = false;
      if (!held.isEmpty()) {
        serveNext(at.now());
      }
      rq.queue().hardwareDone(rq);
    });
  }

  /** The drive's model. */
  public RotationalDisk disk() {
    return disk;
  }

  /** Commands served or being served so far. */
  public long commands() {
    return commands;
  }
}
