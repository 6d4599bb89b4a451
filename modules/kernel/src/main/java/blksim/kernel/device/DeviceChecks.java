package blksim.kernel.device;

/** Checks shared by the device parameter records; messages name the field and the rule. */
final class DeviceChecks {
  private DeviceChecks() {}

  /** Largest accepted CPU cost, one second: a guard against unit mistakes. */
  static final long MAX_COST_NS = 1_000_000_000L;

  static void name(String name) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("name must be a non-empty disk name, was "
          + (name == null ? "null" : "'" + name + "'"));
    }
  }

  static void cost(String field, long ns) {
    if (ns < 0 || ns > MAX_COST_NS) {
      throw new IllegalArgumentException(field + " must be in [0, " + MAX_COST_NS + "] ns, was "
          + ns);
    }
  }

  static void fraction(String field, double f) {
    if (!(f >= 0 && f <= 1)) {
      throw new IllegalArgumentException(field + " must be in [0, 1], was " + f);
    }
  }
}
