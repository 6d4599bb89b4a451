package blksim.kernel.syscall;

/**
 * CPU costs of the system-call paths around the block layer, system time of the calling task,
 * from the machine profile ({@code costs.fio.syscall}, {@code costs.fio.syscall-return}).
 *
 * @param rwEntryNs a read/write system call up to {@code submit_bio()}: entry, VFS, the O_DIRECT
 *     block-device path; charged before the block layer's own cost
 * @param wakeReturnNs after the task is woken by a completion until the system call returns to
 *     user space
 * @param timerSlackNs a user task's {@code timer_slack_ns}: how late its {@code nanosleep()} may
 *     be woken (the hrtimer's hard expiry is the request plus the slack)
 * @param dioPinPageNs O_DIRECT submission, per user page after the first: pinning it
 *     ({@code bio_iov_iter_get_pages()} → {@code iov_iter_extract_pages()} →
 *     {@code pin_user_pages_fast()}: the lockless page-table walk of gup_fast and a pin per page)
 *     and adding it to the bio ({@code bio_add_page()}); profile {@code costs.mm.dio-pin-page}
 * @param dioUnpinPageNs O_DIRECT completion, per user page after the first: releasing the pin
 *     ({@code bio_release_pages()} → {@code unpin_user_pages()}); profile
 *     {@code costs.mm.dio-unpin-page}
 */
public record SyscallParams(long rwEntryNs, long wakeReturnNs, long timerSlackNs,
    long dioPinPageNs, long dioUnpinPageNs) {

  /**
   * The default {@link #dioPinPageNs} [D]: 50 ns. gup_test (tools/testing/selftests/mm) on
   * v6.15 pins 8 GiB in 512-page calls with the slow path, {@code pin_user_pages(FOLL_LONGTERM)},
   * in 130.5 ms: 62 ns a page (commit a03db236aebf, "gup: optimize longterm pin_user_pages() for
   * large folio", 2025, its "without this patch" row, -LT -m 8192 -n 512). O_DIRECT takes the
   * lockless fast path ({@code gup_fast()}: no mmap_lock, no VMA lookup, one PTE read and one
   * atomic pin per order-0 page), assumed ~40 ns, plus ~10 ns for {@code bio_add_page()}'s bvec
   * [A].
   */
  public static final long DEFAULT_DIO_PIN_PAGE_NS = 50;
  /**
   * The default {@link #dioUnpinPageNs} [D]: 15 ns, the same gup_test row's put time, 31.7 ms for
   * the 2 Mi pages ({@code unpin_user_pages()}: one atomic per page).
   */
  public static final long DEFAULT_DIO_UNPIN_PAGE_NS = 15;

  /** {@code init_task.timer_slack_ns} (include/linux/init_task.h): 50 us, inherited by fork. */
  public static final long DEFAULT_TIMER_SLACK_NS = 50_000;

  public SyscallParams {
    if (rwEntryNs < 0 || wakeReturnNs < 0 || timerSlackNs < 0 || dioPinPageNs < 0
        || dioUnpinPageNs < 0) {
      throw new IllegalArgumentException("system-call costs must be >= 0, were " + rwEntryNs
          + ", " + wakeReturnNs + ", " + timerSlackNs + ", " + dioPinPageNs + " and "
          + dioUnpinPageNs);
    }
  }

  /** The costs without the O_DIRECT per-page costs (a test rig's). */
  public SyscallParams(long rwEntryNs, long wakeReturnNs, long timerSlackNs) {
    this(rwEntryNs, wakeReturnNs, timerSlackNs, 0, 0);
  }

  /**
   * The number of user pages of an O_DIRECT transfer of {@code bytes} charged the per-page costs:
   * every page after the first ({@code PAGE_SIZE} 4 KiB, a page-aligned buffer as fio's), since
   * the calibrated per-I/O costs (entry, block layer, driver) were measured on 4 KiB I/Os and so
   * already include one page's pin, add and unpin.
   */
  public static long dioExtraPages(long bytes) {
    long pages = (bytes + PAGE_SIZE - 1) / PAGE_SIZE;
    return Math.max(0, pages - 1);
  }

  /** Submission cost of pinning an O_DIRECT buffer of {@code bytes} beyond one page. */
  public long dioPinNs(long bytes) {
    return dioExtraPages(bytes) * dioPinPageNs;
  }

  /** Completion cost of unpinning an O_DIRECT buffer of {@code bytes} beyond one page. */
  public long dioUnpinNs(long bytes) {
    return dioExtraPages(bytes) * dioUnpinPageNs;
  }

  /**
   * These costs without the O_DIRECT per-page ones: io_uring's registered buffers
   * (IORING_REGISTER_BUFFERS, fio's {@code fixedbufs}) are pinned once at registration, and each
   * I/O takes a bvec of them ({@code io_import_fixed()}, {@code bio_iov_bvec_set()}): no
   * per-page pin or unpin.
   */
  public SyscallParams withoutDioPages() {
    return new SyscallParams(rwEntryNs, wakeReturnNs, timerSlackNs, 0, 0);
  }

  private static final long PAGE_SIZE = 4096;

  /** The read/write costs with the default timer slack. */
  public SyscallParams(long rwEntryNs, long wakeReturnNs) {
    this(rwEntryNs, wakeReturnNs, DEFAULT_TIMER_SLACK_NS);
  }
}
