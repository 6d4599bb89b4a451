package blksim.kernel.dm;

import blksim.kernel.block.BlockQueue;

/**
 * One of a dm-delay target's three classes, read, write or flush: mirrors {@code struct
 * delay_class} (device, start, delay, ops) of {@code drivers/md/dm-delay.c}. {@code ops} counts
 * the class's bios now delayed (what {@code dmsetup status} prints). Owned by its
 * {@link DelayTarget}.
 */
public final class DelayClass {
  private final String name;
  private final BlockQueue dev;
  private final long startSectors;
  private final long delayMs;
  int ops;

  DelayClass(String name, BlockQueue dev, long startSectors, long delayMs) {
    this.name = name;
    this.dev = dev;
    this.startSectors = startSectors;
    this.delayMs = delayMs;
  }

  /** {@code read}, {@code write} or {@code flush}. */
  public String name() {
    return name;
  }

  /** The device this class's bios go to ({@code c->dev}). */
  public BlockQueue dev() {
    return dev;
  }

  /** The sector of {@link #dev} that the target's first sector maps to ({@code c->start}). */
  public long startSectors() {
    return startSectors;
  }

  /** The configured delay, ms ({@code c->delay}); 0 remaps straight through. */
  public long delayMs() {
    return delayMs;
  }

  /** The class's bios now delayed ({@code c->ops}). */
  public int ops() {
    return ops;
  }
}
