package blksim.kernel.fs;

import java.util.List;
import java.util.Set;

/**
 * One filesystem of a scenario: made on a device and mounted at a path ({@code mkfs} +
 * {@code mount -o OPTIONS DEVICE MOUNTPOINT}).
 *
 * @param type the filesystem type; {@link #TYPES} lists the modelled ones
 * @param device the name of the device it is made on ({@code sdb}, not {@code /dev/sdb})
 * @param mountPoint an absolute, normalised path ({@code /mnt/test})
 * @param options mount options in order; {@link #OPTIONS} lists the known ones, and the last of
 *     {@code ro} / {@code rw} wins, as mount(8) applies them
 * @param xfs the XFS model's parameters (type {@code xfs})
 * @param devices every device it is made on, {@code device} first (one for xfs; btrfs may
 *     span several)
 * @param btrfs the btrfs model's parameters (type {@code btrfs}), null otherwise
 */
public record FilesystemParams(String type, String device, String mountPoint,
    List<String> options, XfsParams xfs, List<String> devices,
    blksim.kernel.fs.btrfs.BtrfsParams btrfs) {

  /** Filesystem types the model has. */
  public static final List<String> TYPES = List.of("xfs", "btrfs");

  /** An xfs filesystem on one device. */
  public FilesystemParams(String type, String device, String mountPoint, List<String> options,
      XfsParams xfs) {
    this(type, device, mountPoint, options, xfs, List.of(device), null);
  }

  /** The btrfs mount option that sets {@code thread_pool_size}: {@code thread_pool=N}. */
  public static final String THREAD_POOL = "thread_pool=";

  /**
   * Why mount option {@code o} is refused for a filesystem of {@code type}, or null if it is
   * taken: {@link #OPTIONS} for every type; for btrfs also {@code thread_pool=N} with N a
   * positive integer ({@code btrfs_parse_param()} refuses 0: "invalid value 0 for thread_pool").
   */
  public static String optionError(String type, String o) {
    if (OPTIONS.contains(o)) {
      return null;
    }
    if (type.equals("btrfs") && o.startsWith(THREAD_POOL)) {
      String n = o.substring(THREAD_POOL.length());
      int v;
      try {
        v = Integer.parseInt(n);
      } catch (NumberFormatException e) {
        return "mount option '" + o + "': thread_pool takes a positive integer";
      }
      if (v <= 0) {
        return "mount option '" + o + "': invalid value " + n + " for thread_pool (btrfs needs"
            + " at least one thread)";
      }
      return null;
    }
    return "unknown mount option '" + o + "' for " + type + "; known: "
        + OPTIONS.stream().sorted().toList()
        + (type.equals("btrfs") ? " and thread_pool=N" : "");
  }

  /** The last {@code thread_pool=N} of the options, 0 without one. */
  public int threadPool() {
    int n = 0;
    for (String o : options) {
      if (o.startsWith(THREAD_POOL)) {
        n = Integer.parseInt(o.substring(THREAD_POOL.length()));
      }
    }
    return n;
  }

  /**
   * Mount options the model takes: {@code ro}, {@code rw}, and {@code noatime},
   * {@code relatime} (the model never updates access times, so these hold by construction).
   */
  public static final Set<String> OPTIONS = Set.of("ro", "rw", "noatime", "relatime");

  public FilesystemParams {
    if (!TYPES.contains(type)) {
      throw new IllegalArgumentException("type must be one of " + TYPES + ", was '" + type + "'");
    }
    if (device == null || device.isEmpty()) {
      throw new IllegalArgumentException("device must name a device");
    }
    String norm = Mounts.normalise(mountPoint);
    if (norm == null || !norm.equals(mountPoint)) {
      throw new IllegalArgumentException("mountPoint must be an absolute normalised path such as"
          + " /mnt/test, was '" + mountPoint + "'");
    }
    options = List.copyOf(options);
    for (String o : options) {
      String err = optionError(type, o);
      if (err != null) {
        throw new IllegalArgumentException(err);
      }
    }
    devices = List.copyOf(devices);
    if (devices.isEmpty() || !devices.get(0).equals(device)) {
      throw new IllegalArgumentException("devices must start with device " + device);
    }
    if (type.equals("xfs") && (xfs == null || devices.size() != 1)) {
      throw new IllegalArgumentException("an xfs filesystem needs its parameters and one device");
    }
    if (type.equals("btrfs") && btrfs == null) {
      throw new IllegalArgumentException("btrfs must not be null for type btrfs");
    }
  }

  /** Whether the mount is read-only: the last {@code ro} or {@code rw} wins; rw by default. */
  public boolean readOnly() {
    boolean ro = false;
    for (String o : options) {
      if (o.equals("ro")) {
        ro = true;
      } else if (o.equals("rw")) {
        ro = false;
      }
    }
    return ro;
  }

  /**
   * {@code mkfs} on a device of {@code deviceBytes}: a new, unmounted filesystem of this type.
   *
   * @throws IllegalArgumentException if the device cannot hold it (naming the rule)
   */
  public Filesystem mkfs(long deviceBytes) {
    if (type.equals("btrfs")) {
      return mkfs(List.of(deviceBytes));
    }
    return XfsFilesystem.mkfs(device, deviceBytes, xfs);
  }

  /** {@code mkfs} over {@link #devices()} of {@code deviceBytes} each, in order. */
  public Filesystem mkfs(List<Long> deviceBytes) {
    if (type.equals("btrfs")) {
      return blksim.kernel.fs.btrfs.BtrfsFilesystem.mkfs(devices, deviceBytes, btrfs);
    }
    return XfsFilesystem.mkfs(device, deviceBytes.get(0), xfs);
  }
}
