package blksim.kernel.block;

/** Completion callback of a bio ({@code bi_end_io}); runs in the completing CPU's context. */
@FunctionalInterface
public interface BioEndIo {

  /** {@code bio} completed with {@code error} (0, or a negative errno). */
  void endIo(Bio bio, int error);
}
