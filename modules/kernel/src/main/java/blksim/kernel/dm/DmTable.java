package blksim.kernel.dm;

import blksim.kernel.device.DeviceParams;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * A device-mapper table in {@code dmsetup table} syntax: one target per line,
 * {@code <start> <len> <target> <args...>}, in 512-byte sectors (mirrors {@code struct dm_table}
 * as {@code dm_table_add_target()} and the targets' constructors build it, kernel-model.md §8.1).
 *
 * <p>Rules, as the kernel applies them: the first target starts at sector 0 and each next one
 * where the previous ends ("Gap in table"); a target has a positive length ("zero-length
 * target"); the target type is known ({@code linear}, {@code zero}, {@code delay},
 * {@code zoned}); its arguments are those its constructor accepts. Blank lines and lines
 * starting with {@code #} are skipped, as {@code dmsetup} does when it reads a table file. Each
 * error is a {@link DmTableException} naming the line and the field.
 *
 * <p>Underlying devices are checked separately ({@link #checkDevices}), against the devices
 * declared before the mapped device: they must exist and be large enough for the range the
 * target maps to ({@code device_area_is_invalid()}: "too small for target").
 *
 * <p>Immutable.
 */
public final class DmTable {
  /** {@code SECTOR_SHIFT}: a sector is 512 bytes. */
  public static final int SECTOR_SHIFT = 9;
  /** {@code SECTOR_SIZE}, bytes. */
  public static final int SECTOR_SIZE = 1 << SECTOR_SHIFT;
  /** The prefix of a mapped device's path. */
  public static final String MAPPER_PREFIX = "/dev/mapper/";
  /** The prefix of a disk's path. */
  public static final String DEV_PREFIX = "/dev/";
  /** The target types this model knows, in the order messages list them. */
  public static final List<String> TARGET_TYPES =
      List.of(DmTargetArgs.Linear.TYPE, DmTargetArgs.Zero.TYPE, DmTargetArgs.Delay.TYPE,
          DmTargetArgs.Zoned.TYPE);

  private static final Pattern WS = Pattern.compile("\\s+");
  private static final Pattern UNSIGNED = Pattern.compile("[0-9]+");
  /** major:minor, compiled once: {@link #deviceName} runs several times per fio job. */
  private static final Pattern DEVICE_NUMBERS = Pattern.compile("[0-9]+:[0-9]+");

  private final List<DmTableEntry> entries;

  private DmTable(List<DmTableEntry> entries) {
    this.entries = List.copyOf(entries);
  }

  /**
   * Parses {@code text}; throws {@link DmTableException} naming the line and field of the first
   * error.
   */
  public static DmTable parse(String text) {
    if (text == null) {
      throw new DmTableException(1, "table", "a table needs at least one target line, was none");
    }
    List<DmTableEntry> entries = new ArrayList<>();
    String[] lines = text.split("\r?\n", -1);
    long next = 0;
    for (int i = 0; i < lines.length; i++) {
      int line = i + 1;
      String l = lines[i].strip();
      if (l.isEmpty() || l.startsWith("#")) {
        continue;
      }
      String[] f = WS.split(l);
      if (f.length < 3) {
        String[] names = {"start", "len", "target"};
        throw new DmTableException(line, names[f.length], "a table line is <start> <len>"
            + " <target> <args...>, was '" + l + "'");
      }
      long start = unsigned(line, "start", f[0], "a number of sectors");
      if (start != next) {
        throw new DmTableException(line, "start", "must be " + next + ", where "
            + (entries.isEmpty() ? "the table begins (the first target starts at sector 0)"
                : "the previous line ends (a table has no gaps)") + ", was " + start);
      }
      long len = unsigned(line, "len", f[1], "a positive number of sectors");
      if (len == 0) {
        throw new DmTableException(line, "len", "must be a positive number of sectors"
            + " (zero-length target), was 0");
      }
      if (len > DmTargetArgs.MAX_SECTOR - start) {
        throw new DmTableException(line, "len", "the table would end beyond sector "
            + DmTargetArgs.MAX_SECTOR + ", was " + len);
      }
      List<String> args = List.of(f).subList(3, f.length);
      entries.add(new DmTableEntry(line, start, len, targetArgs(line, f[2], args)));
      next = start + len;
    }
    if (entries.isEmpty()) {
      throw new DmTableException(1, "table", "a table needs at least one target line, was none");
    }
    return new DmTable(entries);
  }

  private static DmTargetArgs targetArgs(int line, String type, List<String> a) {
    switch (type) {
      case DmTargetArgs.Linear.TYPE:
        if (a.size() != DmTargetArgs.Linear.ARGC) {
          throw new DmTableException(line, "args", "linear needs exactly 2 arguments,"
              + " <dev> <offset>, got " + a.size());
        }
        return new DmTargetArgs.Linear(device(line, "device", a.get(0)),
            unsigned(line, "offset", a.get(1), "a number of sectors"));
      case DmTargetArgs.Zero.TYPE:
        if (!a.isEmpty()) {
          throw new DmTableException(line, "args", "zero takes no arguments, got " + a.size()
              + " ('" + String.join(" ", a) + "')");
        }
        return new DmTargetArgs.Zero();
      case DmTargetArgs.Delay.TYPE:
        if (!DmTargetArgs.Delay.ARGCS.contains(a.size())) {
          throw new DmTableException(line, "args", "delay needs exactly 3, 6 or 9 arguments,"
              + " <dev> <offset> <delay_ms> [<wdev> <woffset> <wdelay_ms> [<fdev> <foffset>"
              + " <fdelay_ms>]], got " + a.size());
        }
        DmTargetArgs.DelayClassArgs read = delayClass(line, "", a, 0);
        DmTargetArgs.DelayClassArgs write = a.size() >= 6 ? delayClass(line, "write ", a, 1)
            : read;
        DmTargetArgs.DelayClassArgs flush = a.size() == 9 ? delayClass(line, "flush ", a, 2)
            : write;
        return new DmTargetArgs.Delay(read, write, flush, a.size());
      case DmTargetArgs.Zoned.TYPE:
        if (a.size() != 1) {
          throw new DmTableException(line, "args", "zoned needs exactly 1 argument, <dev>"
              + " (one zoned device; a regular cache device is not modelled), got " + a.size());
        }
        return new DmTargetArgs.Zoned(device(line, "device", a.get(0)));
      default:
        throw new DmTableException(line, "target", "unknown target type '" + type
            + "'; known types: " + String.join(", ", TARGET_TYPES));
    }
  }

  private static DmTargetArgs.DelayClassArgs delayClass(int line, String prefix, List<String> a,
      int set) {
    int at = set * DmTargetArgs.Delay.ARGS_PER_CLASS;
    String dev = device(line, prefix + "device", a.get(at));
    long offset = unsigned(line, prefix + "offset", a.get(at + 1), "a number of sectors");
    String d = a.get(at + 2);
    if (!UNSIGNED.matcher(d).matches() || d.length() > 10
        || Long.parseLong(d) > DmTargetArgs.DelayClassArgs.MAX_DELAY_MS) {
      throw new DmTableException(line, prefix + "delay", "must be a whole number of"
          + " milliseconds in [0, " + DmTargetArgs.DelayClassArgs.MAX_DELAY_MS + "], was '" + d
          + "'");
    }
    return new DmTargetArgs.DelayClassArgs(dev, offset, Long.parseLong(d));
  }

  private static long unsigned(int line, String field, String v, String what) {
    if (!UNSIGNED.matcher(v).matches() || v.length() > 19
        || Long.parseLong(v) > DmTargetArgs.MAX_SECTOR) {
      throw new DmTableException(line, field, "must be " + what + " (an integer in [0, "
          + DmTargetArgs.MAX_SECTOR + "]), was '" + v + "'");
    }
    return Long.parseLong(v);
  }

  private static String device(int line, String field, String path) {
    try {
      deviceName(path);
    } catch (IllegalArgumentException e) {
      throw new DmTableException(line, field, e.getMessage());
    }
    return path;
  }

  /**
   * The device name a path in a table refers to: {@code /dev/mapper/<name>} and
   * {@code /dev/<name>} name device {@code <name>}, and a bare name names itself. Device numbers
   * ({@code 253:0}) and other paths are refused.
   */
  public static String deviceName(String path) {
    String n;
    if (path.startsWith(MAPPER_PREFIX)) {
      n = path.substring(MAPPER_PREFIX.length());
    } else if (path.startsWith(DEV_PREFIX)) {
      n = path.substring(DEV_PREFIX.length());
    } else {
      n = path;
    }
    if (DEVICE_NUMBERS.matcher(n).matches()) {
      throw new IllegalArgumentException("device numbers (major:minor) are not modelled; name"
          + " the device (/dev/mapper/<name>, /dev/<name>), was '" + path + "'");
    }
    if (n.isEmpty() || n.contains("/")) {
      throw new IllegalArgumentException("a device is /dev/mapper/<name>, /dev/<name> or"
          + " <name>, was '" + path + "'");
    }
    return n;
  }

  /**
   * Checks every target's underlying devices against {@code devices} (device name →
   * parameters, {@code null} if there is none, the scenario's devices declared before this
   * mapped device): each must exist and hold the range the target maps to.
   */
  public void checkDevices(Function<String, DeviceParams> devices) {
    for (DmTableEntry e : entries) {
      for (DmTargetArgs.DeviceRef r : e.args().devices()) {
        DeviceParams d = devices.apply(deviceName(r.path()));
        if (d == null) {
          throw new DmTableException(e.line(), r.field(), "no device '" + deviceName(r.path())
              + "' (from '" + r.path() + "'); an underlying device must be declared before the"
              + " mapped device that uses it");
        }
        long devSectors = d.sizeBytes() >>> SECTOR_SHIFT;
        if (r.offsetSectors() > devSectors || e.lenSectors() > devSectors - r.offsetSectors()) {
          throw new DmTableException(e.line(), r.field(), d.name() + " too small for target:"
              + " start=" + r.offsetSectors() + ", len=" + e.lenSectors() + ", dev_size="
              + devSectors);
        }
      }
    }
  }

  /** The targets, in table order. */
  public List<DmTableEntry> entries() {
    return entries;
  }

  /** The mapped device's size in sectors: where the last target ends. */
  public long lengthSectors() {
    return entries.get(entries.size() - 1).endSectors();
  }

  /** The mapped device's size in bytes. */
  public long sizeBytes() {
    return lengthSectors() << SECTOR_SHIFT;
  }

  /**
   * The names of the devices the table maps to, once each, in order of first use (what must be
   * declared before the mapped device).
   */
  public List<String> underlyingDevices() {
    List<String> names = new ArrayList<>();
    for (DmTableEntry e : entries) {
      for (DmTargetArgs.DeviceRef r : e.args().devices()) {
        String n = deviceName(r.path());
        if (!names.contains(n)) {
          names.add(n);
        }
      }
    }
    return names;
  }

  /** The table as {@code dmsetup table} prints it, one line per target. */
  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    for (DmTableEntry e : entries) {
      b.append(e).append('\n');
    }
    return b.toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DmTable t && t.entries.equals(entries);
  }

  @Override
  public int hashCode() {
    return entries.hashCode();
  }
}
