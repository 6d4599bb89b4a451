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
 */
public record FilesystemParams(String type, String device, String mountPoint,
    List<String> options, XfsParams xfs) {

  /** Filesystem types the model has. */
  public static final List<String> TYPES = List.of("xfs");

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
      if (!OPTIONS.contains(o)) {
        throw new IllegalArgumentException("unknown mount option '" + o + "'; known: "
            + OPTIONS.stream().sorted().toList());
      }
    }
    if (xfs == null) {
      throw new IllegalArgumentException("xfs must not be null for type xfs");
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
    return XfsFilesystem.mkfs(device, deviceBytes, xfs);
  }
}
