package blksim.kernel.fs.btrfs;

/**
 * The data chunk layout of a btrfs filesystem as {@code btrfs_map_block()}
 * ({@code fs/btrfs/volumes.c}) resolves it: a logical byte address to a device and a physical
 * byte address on it.
 *
 * <p>RAID0 ({@code BTRFS_BLOCK_GROUP_RAID0}): the logical space is cut into stripe elements of
 * {@link #STRIPE_LEN} ({@code BTRFS_STRIPE_LEN}, 64 KiB); element {@code n} lies on device
 * {@code n mod N} at element {@code n / N} of that device's part of the chunk
 * ({@code stripe_nr}, {@code stripe_index} in {@code btrfs_map_block()}). A 64 KiB write aligned
 * to 64 KiB lands on one device; consecutive extents rotate over the devices. {@code single}
 * is the same with one device.
 *
 * <p>Simplified: one chunk spans the whole usable space (the kernel allocates chunks of up to
 * 10 % of the filesystem, each striped the same way), each device's data starts after the first
 * MiB that btrfs never allocates ({@code BTRFS_DEVICE_RANGE_RESERVED}), metadata chunks take no
 * space, and the usable size is N times the smallest device (as RAID0 chunks need a stripe on
 * every device).
 */
public final class Raid0Map {
  /** {@code BTRFS_STRIPE_LEN}: 64 KiB. */
  public static final int STRIPE_LEN = 64 << 10;
  /** {@code BTRFS_DEVICE_RANGE_RESERVED}: the first MiB of every device. */
  public static final long DEVICE_RANGE_RESERVED = 1 << 20;

  private final int devices;
  private final long capacity;

  /** A layout over {@code devices} devices of which the smallest has {@code minDeviceBytes}. */
  public Raid0Map(int devices, long minDeviceBytes) {
    if (devices < 1) {
      throw new IllegalArgumentException("a chunk needs at least one device");
    }
    long perDevice = (minDeviceBytes - DEVICE_RANGE_RESERVED) / STRIPE_LEN * STRIPE_LEN;
    if (perDevice < STRIPE_LEN) {
      throw new IllegalArgumentException("a btrfs device needs more than "
          + (DEVICE_RANGE_RESERVED + STRIPE_LEN) + " bytes, the smallest has " + minDeviceBytes);
    }
    this.devices = devices;
    this.capacity = perDevice * devices;
  }

  /** Devices striped over. */
  public int devices() {
    return devices;
  }

  /** Usable logical bytes. */
  public long capacity() {
    return capacity;
  }

  /** The device index of logical byte {@code logical} ({@code stripe_index}). */
  public int device(long logical) {
    return (int) ((logical / STRIPE_LEN) % devices);
  }

  /** The physical byte address of {@code logical} on its device. */
  public long physical(long logical) {
    long element = logical / STRIPE_LEN;
    return DEVICE_RANGE_RESERVED + (element / devices) * STRIPE_LEN + logical % STRIPE_LEN;
  }

  /**
   * Bytes from {@code logical} to the end of its stripe element: the longest piece one bio to
   * one device can carry from there ({@code btrfs_submit_chunk()} splits at element ends).
   */
  public int bytesToElementEnd(long logical) {
    return (int) (STRIPE_LEN - logical % STRIPE_LEN);
  }
}
