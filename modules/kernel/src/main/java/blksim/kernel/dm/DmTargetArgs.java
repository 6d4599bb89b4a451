package blksim.kernel.dm;

import java.util.List;

/**
 * The constructor arguments of a table line, by target type: what each target's {@code ctr}
 * ({@code linear_ctr()}, {@code zero_ctr()}, {@code delay_ctr()}) parses from {@code argv}, with
 * the same argument counts and the same rules, checked once when the scenario is loaded. Device
 * paths are kept as written and resolved per CPU when the target is built ({@link DmQueue}).
 */
public sealed interface DmTargetArgs {

  /** Largest sector offset accepted: the last sector of a 2^63-byte device. */
  long MAX_SECTOR = Long.MAX_VALUE >> DmTable.SECTOR_SHIFT;

  /** The target type's name in a table ({@code linear}, {@code zero}, {@code delay}). */
  String type();

  /** The arguments in table syntax, as {@code dmsetup table} prints them. */
  String argsText();

  /** The devices the target maps to, with the offset and range each is used at. */
  List<DeviceRef> devices();

  /**
   * One underlying device of a target: the argument naming it, its path as written, and the
   * first sector of it the target uses.
   *
   * @param field the argument's name in messages ({@code device}, {@code write device})
   * @param path the device as written ({@code /dev/mapper/dm-zeros}, {@code /dev/nullb0},
   *     {@code ram0})
   * @param offsetSectors the first sector of the device the target maps to
   */
  record DeviceRef(String field, String path, long offsetSectors) {}

  /**
   * dm-linear's arguments, {@code <dev> <offset>} ({@code linear_ctr()}, {@code
   * drivers/md/dm-linear.c}).
   *
   * @param device the underlying device's path
   * @param offsetSectors the sector of {@code device} that the target's first sector maps to
   */
  record Linear(String device, long offsetSectors) implements DmTargetArgs {
    /** The type name, {@code linear}. */
    public static final String TYPE = "linear";
    /** {@code linear_ctr()}: {@code argc != 2} is "Invalid argument count". */
    public static final int ARGC = 2;

    @Override
    public String type() {
      return TYPE;
    }

    @Override
    public String argsText() {
      return device + " " + offsetSectors;
    }

    @Override
    public List<DeviceRef> devices() {
      return List.of(new DeviceRef("device", device, offsetSectors));
    }
  }

  /** dm-zero's arguments: none ({@code zero_ctr()}, {@code drivers/md/dm-zero.c}). */
  record Zero() implements DmTargetArgs {
    /** The type name, {@code zero}. */
    public static final String TYPE = "zero";

    @Override
    public String type() {
      return TYPE;
    }

    @Override
    public String argsText() {
      return "";
    }

    @Override
    public List<DeviceRef> devices() {
      return List.of();
    }
  }

  /**
   * The settings of one dm-delay class ({@code struct delay_class}, parsed by
   * {@code delay_class_ctr()}).
   *
   * @param device the device the class's bios go to
   * @param offsetSectors the sector of {@code device} that the target's first sector maps to
   * @param delayMs the delay in milliseconds; 0 sends the class's bios straight through
   */
  record DelayClassArgs(String device, long offsetSectors, long delayMs) {
    /** The largest delay accepted: {@code delay_class_ctr()} reads it with {@code %u}. */
    public static final long MAX_DELAY_MS = 0xFFFF_FFFFL;

    public DelayClassArgs {
      if (device == null || device.isBlank()) {
        throw new IllegalArgumentException("device must be a device path, was " + device);
      }
      if (offsetSectors < 0 || offsetSectors > MAX_SECTOR) {
        throw new IllegalArgumentException("offsetSectors must be in [0, " + MAX_SECTOR
            + "], was " + offsetSectors);
      }
      if (delayMs < 0 || delayMs > MAX_DELAY_MS) {
        throw new IllegalArgumentException("delayMs must be in [0, " + MAX_DELAY_MS + "], was "
            + delayMs);
      }
    }

    String text() {
      return device + " " + offsetSectors + " " + delayMs;
    }
  }

  /**
   * dm-delay's arguments ({@code delay_ctr()}, {@code drivers/md/dm-delay.c}):
   * {@code <dev> <offset> <delay_ms> [<wdev> <woffset> <wdelay_ms> [<fdev> <foffset>
   * <fdelay_ms>]]}. With 3 arguments every class uses the first set; with 6, flushes use the
   * write set (kernel-model.md §8.4).
   *
   * @param read the read class
   * @param write the write class
   * @param flush the class of writes with REQ_PREFLUSH
   * @param argc how many arguments the line had: 3, 6 or 9 (for printing the table back)
   */
  record Delay(DelayClassArgs read, DelayClassArgs write, DelayClassArgs flush, int argc)
      implements DmTargetArgs {
    /** The type name, {@code delay}. */
    public static final String TYPE = "delay";
    /** The argument counts {@code delay_ctr()} accepts. */
    public static final List<Integer> ARGCS = List.of(3, 6, 9);
    /** Arguments per class: device, offset, delay. */
    public static final int ARGS_PER_CLASS = 3;

    public Delay {
      if (!ARGCS.contains(argc)) {
        throw new IllegalArgumentException("argc must be 3, 6 or 9, was " + argc);
      }
      if (read == null || write == null || flush == null) {
        throw new IllegalArgumentException("every delay class must be set");
      }
    }

    /** The largest configured delay, ms ({@code max_delay} of {@code delay_ctr()}). */
    public long maxDelayMs() {
      return Math.max(read.delayMs(), Math.max(write.delayMs(), flush.delayMs()));
    }

    /**
     * The smallest non-zero configured delay, ms, or 0 if all are 0 ({@code min_delay} of the
     * later {@code delay_ctr()}, built with {@code min_not_zero()}).
     */
    public long minNonZeroDelayMs() {
      long min = 0;
      for (DelayClassArgs c : List.of(read, write, flush)) {
        if (c.delayMs() > 0 && (min == 0 || c.delayMs() < min)) {
          min = c.delayMs();
        }
      }
      return min;
    }

    @Override
    public String type() {
      return TYPE;
    }

    @Override
    public String argsText() {
      StringBuilder b = new StringBuilder(read.text());
      if (argc >= 6) {
        b.append(' ').append(write.text());
      }
      if (argc >= 9) {
        b.append(' ').append(flush.text());
      }
      return b.toString();
    }

    /** One reference per argument set written: the write and flush sets only if present. */
    @Override
    public List<DeviceRef> devices() {
      DeviceRef r = new DeviceRef("device", read.device(), read.offsetSectors());
      DeviceRef w = new DeviceRef("write device", write.device(), write.offsetSectors());
      DeviceRef f = new DeviceRef("flush device", flush.device(), flush.offsetSectors());
      switch (argc) {
        case 3:
          return List.of(r);
        case 6:
          return List.of(r, w);
        default:
          return List.of(r, w, f);
      }
    }
  }

  /**
   * dm-zoned's arguments, {@code <dev>} ({@code dmz_ctr()}, {@code drivers/md/dm-zoned-target.c}):
   * the host-managed zoned device formatted by {@code dmzadm}. Simplified: one device only (the
   * 5.8+ form with a regular cache device first is not modelled).
   *
   * @param device the zoned device's path
   */
  record Zoned(String device) implements DmTargetArgs {
    /** The type name, {@code zoned}. */
    public static final String TYPE = "zoned";

    @Override
    public String type() {
      return TYPE;
    }

    @Override
    public String argsText() {
      return device;
    }

    @Override
    public List<DeviceRef> devices() {
      return List.of(new DeviceRef("device", device, 0));
    }
  }
}
