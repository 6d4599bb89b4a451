package blksim.kernel.device;

/**
 * The memory character devices {@code /dev/null} and {@code /dev/zero} ({@code drivers/char/mem.c},
 * major 1, minors 3 and 5): what a read or a write of one of them does and what it costs.
 *
 * <ul>
 * <li>{@code /dev/null}: {@code read_iter_null()} returns 0 (end of file) without touching the
 *     buffer; {@code write_iter_null()} advances the iterator and returns the count (the data is
 *     discarded).
 * <li>{@code /dev/zero}: {@code read_iter_zero()} zeroes the user buffer a page at a time
 *     ({@code iov_iter_zero()} → {@code clear_user()}, then {@code signal_pending()} and
 *     {@code cond_resched()} per page, "just for latency reasons") and returns the count;
 *     {@code write_iter_zero} is {@code write_iter_null}.
 * </ul>
 *
 * <p>No block layer, no bio, no page cache, no device time: the whole I/O is the system call's
 * own CPU time, spent in the caller. Both devices' {@code open} sets {@code FMODE_NOWAIT}
 * ({@code memory_open()}/{@code mem_class} fops with {@code FOP_*} flags in 6.x), so io_uring
 * issues them inline in {@code io_uring_enter()} and never punts them to io-wq, and libaio's
 * {@code aio_read()}/{@code aio_write()} run {@code ->read_iter}/{@code ->write_iter} in
 * {@code io_submit()} and complete the iocb there. Their inode has no {@code ->direct_IO}, so
 * {@code open(O_DIRECT)} fails with EINVAL ({@code do_dentry_open()}: O_DIRECT without
 * {@code FMODE_CAN_ODIRECT}).
 *
 * <p>Simplified: a read of {@code /dev/zero} costs {@link #zeroReadNs} per started page, the
 * partial last page like a whole one; the {@code need_resched()} exit of a nowait read (6.x:
 * -EAGAIN when the CPU has other work) is not modelled.
 */
public enum MemCharDevice {
  NULL("/dev/null"),
  ZERO("/dev/zero");

  /** {@code PAGE_SIZE}: {@code read_iter_zero()}'s chunk. */
  public static final long PAGE_SIZE = 4096;

  /**
   * The default of {@code costs.chardev.zero-read-per-page}: 400 ns. [D] {@code clear_user()} of
   * one 4 KiB page is {@code rep stosb} on x86-64 with ERMS/FSRM ({@code arch/x86/lib/
   * clear_page_64.S}, {@code rep_stos_alternative}), ~10 GB/s for cold lines, the figure the
   * generic-x86 profile already takes for {@code clear_page()} (costs.mm.anon-page, C. Lameter's
   * prezeroing posting): 4096 B / 10 GB/s = 410 ns, taken as 400 ns with the per-page
   * {@code signal_pending()}/{@code cond_resched()} checks inside it [A]. fio reuses one buffer,
   * which may stay in the L1/L2 cache and clear faster; no published figure times it.
   */
  public static final long DEFAULT_ZERO_READ_PER_PAGE_NS = 400;

  private final String path;

  MemCharDevice(String path) {
    this.path = path;
  }

  /** The device's path, {@code /dev/null} or {@code /dev/zero}. */
  public String path() {
    return path;
  }

  /** The device {@code path} names exactly, or null for any other path. */
  public static MemCharDevice of(String path) {
    if (path == null) {
      return null;
    }
    for (MemCharDevice d : values()) {
      if (d.path.equals(path)) {
        return d;
      }
    }
    return null;
  }

  /** The bytes a read of {@code len} bytes returns: 0 for /dev/null (EOF), {@code len} else. */
  public long readBytes(long len) {
    return this == NULL ? 0 : len;
  }

  /** The bytes a write of {@code len} bytes returns: all of them, discarded. */
  public long writeBytes(long len) {
    return len;
  }

  /**
   * System time inside {@code ->read_iter} / {@code ->write_iter} for {@code len} bytes (besides
   * the system call's entry and return): /dev/zero's reads clear the buffer page by page, at
   * {@code zeroReadPerPageNs} a page; everything else returns at once.
   */
  public long iterNs(boolean read, long len, long zeroReadPerPageNs) {
    if (!read || this == NULL || len <= 0) {
      return 0;
    }
    return (len + PAGE_SIZE - 1) / PAGE_SIZE * zeroReadPerPageNs;
  }

  /** {@link #iterNs(boolean, long, long)} with {@link #DEFAULT_ZERO_READ_PER_PAGE_NS}. */
  public long zeroReadNs(long len) {
    return iterNs(true, len, DEFAULT_ZERO_READ_PER_PAGE_NS);
  }
}
