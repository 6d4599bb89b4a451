package blksim.workload.scenario;

import java.util.List;

/**
 * One scenario key: its path, type, unit, default and meaning, and the rule a value must follow.
 * The schema is the single place where a default lives; {@code blksim describe} prints it.
 *
 * @param path HOCON path relative to its section ({@code costs.sched.ctx-switch}), or relative to
 *     a list element for device keys
 * @param component the component the key configures, as {@code describe} groups them
 * @param type the value's type
 * @param unit unit for display ("ns", "bytes", "" when none)
 * @param defaultValue default in scenario syntax, or {@code null} when the key is required
 * @param description one line of meaning and source
 * @param min smallest allowed number (for INT, LONG, DURATION, SIZE)
 * @param max largest allowed number
 * @param choices allowed values for ENUM
 */
public record Param(String path, String component, Type type, String unit, String defaultValue,
    String description, long min, long max, List<String> choices) {

  /** Value types a scenario key may have. */
  public enum Type {
    INT,
    LONG,
    DOUBLE,
    DURATION,
    SIZE,
    ENUM,
    STRING,
    STRING_LIST,
    BOOLEAN
  }

  /** A numeric key. */
  public static Param num(String path, String component, Type type, String unit, String dflt,
      long min, long max, String description) {
    return new Param(path, component, type, unit, dflt, description, min, max, List.of());
  }

  /** A fraction in [0, 1]. */
  public static Param fraction(String path, String component, String dflt, String description) {
    return new Param(path, component, Type.DOUBLE, "fraction", dflt, description, 0, 1,
        List.of());
  }

  /** A key with a fixed set of values. */
  public static Param choice(String path, String component, String dflt, List<String> choices,
      String description) {
    return new Param(path, component, Type.ENUM, "", dflt, description, 0, 0, choices);
  }

  /** A free-form key. */
  public static Param of(String path, String component, Type type, String dflt,
      String description) {
    return new Param(path, component, type, "", dflt, description, 0, 0, List.of());
  }
}
