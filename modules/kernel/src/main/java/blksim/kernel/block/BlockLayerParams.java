package blksim.kernel.block;

/**
 * CPU costs of the generic block layer, independent of the device.
 *
 * <table>
 * <caption>Defaults and their sources</caption>
 * <tr><th>field</th><th>default</th><th>source</th></tr>
 * <tr><td>{@code nowaitRejectNs}</td><td>200 ns</td><td>[A] {@code submit_bio()} into
 *     {@code submit_bio_noacct()} up to the REQ_NOWAIT test, then {@code bio_endio()} with
 *     BLK_STS_NOTSUPP: a few dozen instructions and a cache miss or two; no source measures
 *     it.</td></tr>
 * </table>
 *
 * @param nowaitRejectNs system time a submitter spends when {@code submit_bio_noacct()} rejects a
 *     REQ_NOWAIT bio with -EOPNOTSUPP (excluding the bio's end_io callback, which is the
 *     caller's)
 */
public record BlockLayerParams(long nowaitRejectNs) {

  /** Default of {@link #nowaitRejectNs}, [A]. */
  public static final long DEFAULT_NOWAIT_REJECT_NS = 200;

  /** The defaults above. */
  public static final BlockLayerParams DEFAULTS = new BlockLayerParams(DEFAULT_NOWAIT_REJECT_NS);

  public BlockLayerParams {
    if (nowaitRejectNs < 0) {
      throw new IllegalArgumentException("nowaitRejectNs must be >= 0, was " + nowaitRejectNs);
    }
  }
}
