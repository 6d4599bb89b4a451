package blksim.kernel.dm;

import blksim.kernel.block.Bio;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.device.DeviceParams;
import blksim.kernel.device.ZonedDiskParams;
import blksim.kernel.sched.CpuComponent;
import java.util.List;
import java.util.function.Function;

/**
 * dm-zoned on one CPU ({@code zoned_target}: {@code dmz_ctr()}, {@code dmz_map()},
 * drivers/md/dm-zoned-target.c; kernel-model.md §8.5, §15.1): this CPU's handle on the target's
 * shared state, the {@link DmzDevice}, to which {@code map()} hands every bio
 * ({@link DmMapio#SUBMITTED}: the submitter never waits inside dm-zoned).
 *
 * <p>The constructor's rules ({@link #checkTable}, at scenario load): one argument, a zoned
 * device ({@code dmz_fixup_devices()}: "Invalid regular device" otherwise), the target at
 * sector 0 ("Partial mapping is not supported"), and the length the format exposes
 * ({@code ti->len} = {@code nr_chunks} zones, which {@code dmz_ctr()} sets; here the table must
 * say it). {@code ti->num_flush_bios} = 1. dm-zoned has no {@code DM_TARGET_NOWAIT}.
 */
public final class DmzTarget implements DmTarget {
  /** {@code ti->num_flush_bios} set by {@code dmz_ctr()}. */
  public static final int NUM_FLUSH_BIOS = 1;

  private final DmTableEntry entry;
  private final DmzDevice dev;
  private final BlockQueue disk;
  private final CpuComponent cpu;

  DmzTarget(DmTableEntry entry, DmzDevice dev, BlockQueue disk, CpuComponent cpu) {
    this.entry = entry;
    this.dev = dev;
    this.disk = disk;
    this.cpu = cpu;
    dev.attach(cpu, disk);
  }

  /**
   * Checks every {@code zoned} line of {@code table} against the devices declared before it;
   * a {@link DmTableException} naming the line, the field and the rule.
   */
  static void checkTable(DmTable table, Function<String, DeviceParams> declared) {
    for (DmTableEntry e : table.entries()) {
      if (!(e.args() instanceof DmTargetArgs.Zoned z)) {
        continue;
      }
      DeviceParams d = declared.apply(DmTable.deviceName(z.device()));
      if (!(d instanceof ZonedDiskParams zd)) {
        throw new DmTableException(e.line(), "device", "Invalid regular device: dm-zoned"
            + " needs a host-managed zoned device (type = zoned-disk), but '"
            + DmTable.deviceName(z.device()) + "' is not zoned");
      }
      if (e.beginSectors() != 0) {
        throw new DmTableException(e.line(), "start", "Partial mapping is not supported: a"
            + " zoned target starts at sector 0, was " + e.beginSectors());
      }
      DmzFormat f;
      try {
        f = format(zd, d.name());
      } catch (IllegalArgumentException x) {
        throw new DmTableException(e.line(), "device", "dmzadm --format fails: "
            + x.getMessage());
      }
      if (e.lenSectors() != f.targetSectors()) {
        throw new DmTableException(e.line(), "len", "must be " + f.targetSectors() + " ("
            + f.nrChunks() + " chunks of " + f.zoneNrSectors() + " sectors, what dmz_ctr()"
            + " exposes for " + d.name() + " as dmzadm formats it), was " + e.lenSectors());
      }
    }
  }

  /**
   * {@code dmzadm --format} of zoned disk {@code d} named {@code name}, with the disk's
   * {@code --seq} and {@code --label} (defaults: 16, {@code dmz-<name>}).
   */
  public static DmzFormat format(ZonedDiskParams d, String name) {
    String label = d.dmzadmLabel().isEmpty() ? DmzFormat.defaultLabel(name) : d.dmzadmLabel();
    return DmzFormat.of(d.layout(), d.dmzadmSeq(), label);
  }

  /** The shared target. */
  public DmzDevice device() {
    return dev;
  }

  @Override
  public DmTableEntry entry() {
    return entry;
  }

  @Override
  public List<BlockQueue> devices() {
    return List.of(disk);
  }

  @Override
  public boolean supportsNowait() {
    return false;
  }

  @Override
  public int numFlushBios() {
    return NUM_FLUSH_BIOS;
  }

  @Override
  public long mapCostNs(Bio clone) {
    long zs = dev.fmt.zoneNrSectors();
    long sectors = Math.max(1, (clone.sizeBytes() + DmTable.SECTOR_SIZE - 1)
        >> DmTable.SECTOR_SHIFT);
    long pieces = (clone.sector() + sectors - 1) / zs - clone.sector() / zs + 1;
    return DmzDevice.MAP_NS * pieces;
  }

  @Override
  public DmMapio map(DmTargetIo tio) {
    return dev.map(tio, cpu);
  }
}
