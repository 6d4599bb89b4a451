package blksim.workload.fsmark;

/**
 * fs_mark's {@code -S} sync methods 0..6, mirroring the {@code SYNC_TEST_*} values built from the
 * {@code FSYNC_*} bits in {@code fs_mark.h} (fs_mark 3.3) and the header text of
 * {@code sync_policy_string[]}.
 *
 * <p>The bits say what a process does: {@link #fsyncBeforeClose()} an {@code fsync()} of each file in
 * the write loop; after the loop, in this order, {@link #syncSyscall()} one {@code sync()},
 * {@link #postInOrder()} reopen ({@code O_RDONLY}), {@code fsync()} and close each file in creation
 * order, {@link #postReverse()} the same in reverse order, {@link #firstFile()} the same for the first
 * file only (the order of the {@code if} blocks after the loop in {@code do_run()}).
 */
public enum FsMarkSyncMethod {
  /** {@code -S 0}, {@code SYNC_TEST_NONE}. */
  NONE(0, 0, "NO SYNC: Test does not issue sync() or fsync() calls."),
  /** {@code -S 1}, {@code SYNC_TEST_PER_FILE}, fs_mark's default. */
  PER_FILE(1, Bits.BEFORE_CLOSE, "INBAND FSYNC: fsync() per file in write loop."),
  /** {@code -S 2}, {@code SYNC_TEST_PER_THREAD}. */
  PER_THREAD(2, Bits.SYNC_SYSCALL | Bits.FIRST_FILE,
      "SYSTEM SYNC/SINGLE FSYNC: Issue sync() after main write loop and 1 file fsync() per"
          + " subdirectory."),
  /** {@code -S 3}, {@code SYNC_TEST_REVERSE}. */
  REVERSE(3, Bits.POST_REVERSE,
      "POST REVERSE: Reopen and fsync() each file in reverse order after main write loop."),
  /** {@code -S 4}, {@code SYNC_TEST_REVERSE_SYNC}. */
  REVERSE_SYNC(4, Bits.POST_REVERSE | Bits.SYNC_SYSCALL,
      "SYNC POST REVERSE: Issue sync() and then reopen and fsync() each file in reverse order after"
          + " main write loop."),
  /** {@code -S 5}, {@code SYNC_TEST_POST}. */
  POST(5, Bits.POST_IN_ORDER,
      "POST: Reopen and fsync() each file in order after main write loop."),
  /** {@code -S 6}, {@code SYNC_TEST_POST_SYNC}. */
  POST_SYNC(6, Bits.POST_IN_ORDER | Bits.SYNC_SYSCALL,
      "SYNC POST: Issue sync() and then reopen and fsync() each file in order after main write"
          + " loop.");

  /** The {@code FSYNC_*} bits of {@code fs_mark.h}. */
  private static final class Bits {
    static final int BEFORE_CLOSE = 0x1;
    static final int SYNC_SYSCALL = 0x2;
    static final int FIRST_FILE = 0x4;
    static final int POST_REVERSE = 0x8;
    static final int POST_IN_ORDER = 0x10;
  }

  private final int number;
  private final int bits;
  private final String description;

  FsMarkSyncMethod(int number, int bits, String description) {
    this.number = number;
    this.bits = bits;
    this.description = description;
  }

  /** The {@code -S} value (0..6). */
  public int number() {
    return number;
  }

  /** The header's text for this method ({@code sync_policy_string[sync_method_type]}). */
  public String description() {
    return description;
  }

  /** {@code FSYNC_BEFORE_CLOSE}: fsync() each file before close() in the write loop. */
  public boolean fsyncBeforeClose() {
    return (bits & Bits.BEFORE_CLOSE) != 0;
  }

  /** {@code FSYNC_SYNC_SYSCALL}: one sync() after the write loop. */
  public boolean syncSyscall() {
    return (bits & Bits.SYNC_SYSCALL) != 0;
  }

  /** {@code FSYNC_FIRST_FILE}: reopen, fsync() and close the first file after the loop. */
  public boolean firstFile() {
    return (bits & Bits.FIRST_FILE) != 0;
  }

  /** {@code FSYNC_POST_REVERSE}: reopen, fsync() and close every file, last to first. */
  public boolean postReverse() {
    return (bits & Bits.POST_REVERSE) != 0;
  }

  /** {@code FSYNC_POST_IN_ORDER}: reopen, fsync() and close every file, first to last. */
  public boolean postInOrder() {
    return (bits & Bits.POST_IN_ORDER) != 0;
  }

  /** The method for {@code -S n}. */
  public static FsMarkSyncMethod of(int number) {
    for (FsMarkSyncMethod m : values()) {
      if (m.number == number) {
        return m;
      }
    }
    throw new IllegalArgumentException("sync method must be in [0, 6], was " + number);
  }
}
