package blksim.kernel.workqueue;

import java.util.List;

/**
 * One entry of the scenario key {@code kernel.wq-max-active}: the {@code max_active} that an
 * {@code alloc_workqueue()} call passes for the workqueues named {@code pattern}, in place of the
 * value the model's code passes. It models a changed call (a patched driver, or a mount option
 * such as btrfs's {@code thread_pool=} that sets {@code max_active}), not a run-time
 * {@code workqueue_set_max_active()}: it applies when the workqueue is allocated.
 *
 * <p>The value goes through {@code wq_clamp_max_active()} like any passed value, so the
 * workqueue gets at most {@link KernelMode#wqMaxActiveLimit}; the loader refuses a value above
 * the largest limit of the run's mode and CPU count instead of clamping it silently.
 *
 * @param pattern a workqueue name, or a prefix followed by {@code *} ({@code dmz_cwq_*})
 * @param maxActive the max_active passed, at least 1
 */
public record MaxActiveOverride(String pattern, int maxActive) {
  public MaxActiveOverride {
    if (pattern == null || pattern.isEmpty() || pattern.equals("*")) {
      throw new IllegalArgumentException("the workqueue name is empty");
    }
    if (pattern.indexOf('*') >= 0 && pattern.indexOf('*') != pattern.length() - 1) {
      throw new IllegalArgumentException("'" + pattern + "': '*' may only end a name (a prefix"
          + " glob such as dmz_cwq_*)");
    }
    if (maxActive < 1) {
      throw new IllegalArgumentException("'" + pattern + "': max_active must be at least 1, was "
          + maxActive);
    }
  }

  /**
   * Parses {@code NAME=N}.
   *
   * @throws IllegalArgumentException with the rule broken
   */
  public static MaxActiveOverride parse(String entry) {
    int eq = entry.lastIndexOf('=');
    if (eq <= 0 || eq == entry.length() - 1) {
      throw new IllegalArgumentException("entry '" + entry + "' is not NAME=N (e.g."
          + " \"btrfs-endio-write=16\" or \"dmz_cwq_*=512\")");
    }
    String name = entry.substring(0, eq).trim();
    String n = entry.substring(eq + 1).trim();
    int v;
    try {
      v = Integer.parseInt(n);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("entry '" + entry + "': '" + n + "' is not an integer");
    }
    return new MaxActiveOverride(name, v);
  }

  /** Whether this entry names workqueue {@code name}. */
  public boolean matches(String name) {
    if (pattern.endsWith("*")) {
      return name.startsWith(pattern.substring(0, pattern.length() - 1));
    }
    return name.equals(pattern);
  }

  /** The first entry of {@code overrides} that names {@code name}, or null. */
  static MaxActiveOverride first(List<MaxActiveOverride> overrides, String name) {
    for (MaxActiveOverride o : overrides) {
      if (o.matches(name)) {
        return o;
      }
    }
    return null;
  }

  @Override
  public String toString() {
    return pattern + "=" + maxActive;
  }
}
