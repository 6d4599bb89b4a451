package blksim.kernel.dm;

/**
 * One line of a device-mapper table, {@code <start> <len> <target> <args...>}: the target's range
 * of the mapped device ({@code ti->begin}, {@code ti->len}) and its constructor arguments, already
 * checked (mirrors what {@code dm_table_add_target()} keeps of a line).
 *
 * @param line 1-based line of the table text, for messages
 * @param beginSectors first sector of the mapped device the target covers ({@code ti->begin})
 * @param lenSectors number of sectors it covers ({@code ti->len}), positive
 * @param args the target type and its parsed arguments
 */
public record DmTableEntry(int line, long beginSectors, long lenSectors, DmTargetArgs args) {

  public DmTableEntry {
    if (line < 1) {
      throw new IllegalArgumentException("line must be >= 1, was " + line);
    }
    if (beginSectors < 0) {
      throw new IllegalArgumentException("beginSectors must be >= 0, was " + beginSectors);
    }
    if (lenSectors <= 0) {
      throw new IllegalArgumentException("lenSectors must be > 0, was " + lenSectors);
    }
    if (args == null) {
      throw new IllegalArgumentException("args must be set");
    }
  }

  /** The first sector after the target's range. */
  public long endSectors() {
    return beginSectors + lenSectors;
  }

  /** The line in {@code dmsetup table} syntax. */
  @Override
  public String toString() {
    String a = args.argsText();
    return beginSectors + " " + lenSectors + " " + args.type() + (a.isEmpty() ? "" : " " + a);
  }
}
