package blksim.kernel.device;

import blksim.kernel.block.DriverCpu;
import blksim.kernel.block.Errno;
import blksim.kernel.block.MqDriver;
import blksim.kernel.block.ReqOp;
import blksim.kernel.block.Request;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code sd}/libata driver and a host-managed SMR drive (ZAC) below a request queue: the
 * {@link RotationalDiskDriver}'s NCQ service (the drive holds up to its NCQ depth of commands and
 * serves the one with the shortest positioning time, {@link RotationalDisk#pickNext}) with the
 * zone rules of {@link ZonedDisk} checked when the drive takes a command. A rejected command
 * costs the command overhead only (the drive checks the command before moving the mechanism)
 * and completes with its error; a zone management command (reset, finish, open, close) costs
 * the command overhead [A: no published figure; SMR drives update zone metadata without media
 * transfer]. A FLUSH costs the overhead (no write cache is modelled); a DISCARD fails with
 * {@code -EOPNOTSUPP} (SMR drives do not support TRIM [A]).
 *
 * <p>The media rate depends on the zone's position through {@link RotationalDisk}'s radius model
 * (outer zones fastest).
 */
public final class ZonedDiskDriver implements MqDriver {
  private final RotationalDisk disk;
  private final ZonedDisk zones;
  private final List<Request> held = new ArrayList<>();
  private boolean busy;
  private long commands;
  private long rejected;

  public ZonedDiskDriver(RotationalDisk disk, ZonedDisk zones) {
    if (disk.params().capacityBytes() != zones.layout().capacityBytes()) {
      throw new IllegalArgumentException("the drive's capacity " + disk.params().capacityBytes()
          + " differs from the zone layout's " + zones.layout().capacityBytes());
    }
    this.disk = disk;
    this.zones = zones;
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
    long done;
    int error = 0;
    long overhead = disk.params().perCommandOverheadNs();
    ReqOp op = rq.op();
    if (op == ReqOp.READ) {
      done = disk.serve(now, rq.sector(), rq.bytes(), false);
    } else if (op == ReqOp.WRITE) {
      error = zones.write(rq.sector(), rq.bytes() >>> 9);
      done = error == 0 ? disk.serve(now, rq.sector(), rq.bytes(), true) : now + overhead;
    } else {
      error = switch (op) {
        case ZONE_RESET -> zones.reset(rq.sector());
        case ZONE_FINISH -> zones.finish(rq.sector());
        case ZONE_OPEN -> zones.open(rq.sector());
        case ZONE_CLOSE -> zones.close(rq.sector());
        case DISCARD -> -Errno.EOPNOTSUPP;
        default -> 0;
      };
      done = now + overhead;
    }
    if (error != 0) {
      rejected++;
    }
    int status = error;
    DriverCpu at = rq.submitCpu();
    at.callAfter(done - now, () -> {
      busy = false;
      if (!held.isEmpty()) {
        serveNext(at.now());
      }
      rq.queue().hardwareDone(rq, status);
    });
  }

  /** The mechanism. */
  public RotationalDisk disk() {
    return disk;
  }

  /** The zone state. */
  public ZonedDisk zones() {
    return zones;
  }

  /** Commands served or being served so far. */
  public long commands() {
    return commands;
  }

  /** Commands the drive failed (zone rule violations, unsupported operations) so far. */
  public long rejected() {
    return rejected;
  }
}
