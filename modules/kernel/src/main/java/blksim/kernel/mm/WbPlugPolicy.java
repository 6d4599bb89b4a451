package blksim.kernel.mm;

/**
 * How the flusher plugs its I/O ({@code kernel.writeback-plug}, kernel-model.md §9.3, §15.4.1).
 */
public enum WbPlugPolicy {
  /** No plug in {@code wb_writeback()} (4.3-rc1 without 505a666ee3fc, "noplug"). */
  NONE,
  /** 4.3-rc1: a plug around {@code wb_writeback()}'s loop; {@code cond_resched_lock()} between
   *  inodes. */
  PLUG,
  /** The plug, and after each inode {@code if (need_resched()) { blk_flush_plug(); cond_resched(); }}
   *  (590dca3a7187, "-flush"). */
  PLUG_FLUSH;

  /** The policy named by a scenario value: none, plug or plug-flush. */
  public static WbPlugPolicy parse(String s) {
    switch (s) {
      case "none":
        return NONE;
      case "plug":
        return PLUG;
      case "plug-flush":
        return PLUG_FLUSH;
      default:
        throw new IllegalArgumentException("writeback plug policy must be none, plug or"
            + " plug-flush, was " + s);
    }
  }
}
