package blksim.workload.scenario;

import blksim.engine.CostDistribution;
import blksim.engine.InputException;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Typed, checked access to one section of a scenario: every read applies the schema's default and
 * rule, and every failure names the file, line, key and rule.
 */
final class Values {
  private static final Pattern DURATION =
      Pattern.compile("\\s*([0-9]+(?:\\.[0-9]+)?)\\s*(ns|us|µs|ms|s|m|h)?\\s*");
  private final Config cfg;
  private final String prefix;
  private final List<Param> schema;
  private final String displayPrefix;

  Values(Config cfg, String section, List<Param> schema) {
    this(cfg, section, schema, section == null ? "" : section + ".");
  }

  Values(Config cfg, String section, List<Param> schema, String displayPrefix) {
    this.cfg = cfg;
    this.prefix = section == null ? "" : section + ".";
    this.schema = schema;
    this.displayPrefix = displayPrefix;
  }

  private Param param(String key) {
    for (Param p : schema) {
      if (p.path().equals(key)) {
        return p;
      }
    }
    throw new IllegalArgumentException("no schema entry for " + key);
  }

  /** The raw value of {@code key}, or its default parsed as HOCON; error if required. */
  private ConfigValue raw(String key) {
    String path = prefix + key;
    if (cfg.hasPath(path)) {
      return cfg.getValue(path);
    }
    Param p = param(key);
    if (p.defaultValue() == null) {
      throw new InputException(cfg.origin().filename() != null ? cfg.origin().filename()
          : cfg.origin().description(), Math.max(0, cfg.origin().lineNumber()),
          displayPrefix + key, "required key is missing: " + p.description());
    }
    return ConfigFactory.parseString("v = " + quoteIfNeeded(p)).getValue("v");
  }

  private static String quoteIfNeeded(Param p) {
    String d = p.defaultValue();
    if (p.type() == Param.Type.STRING && !d.startsWith("[")
        || blksim.engine.CostDistribution.isDistribution(d)) {
      return "\"" + d + "\"";
    }
    return d;
  }

  /** The key as the user sees it, with its section prefix. */
  String display(String key) {
    return displayPrefix + key;
  }

  InputException error(String key, String rule) {
    String path = prefix + key;
    if (cfg.hasPath(path)) {
      return ScenarioLoader.at(cfg.getValue(path).origin(), displayPrefix + key, rule);
    }
    return ScenarioLoader.at(cfg.origin(), displayPrefix + key, rule);
  }

  private long checkRange(String key, long v) {
    Param p = param(key);
    if (v < p.min() || v > p.max()) {
      throw error(key, displayPrefix + key + " must be in [" + p.min() + ", " + p.max() + "]"
          + (p.unit().isEmpty() ? "" : " " + p.unit()) + ", was " + v);
    }
    return v;
  }

  int getInt(String key) {
    ConfigValue v = raw(key);
    if (v.valueType() != ConfigValueType.NUMBER) {
      throw error(key, displayPrefix + key + " must be a whole number, was " + v.render());
    }
    Number n = (Number) v.unwrapped();
    if (n.doubleValue() != Math.rint(n.doubleValue())) {
      throw error(key, displayPrefix + key + " must be a whole number, was " + n);
    }
    return (int) checkRange(key, n.longValue());
  }

  long getLong(String key) {
    ConfigValue v = raw(key);
    if (v.valueType() != ConfigValueType.NUMBER) {
      throw error(key, displayPrefix + key + " must be a whole number, was " + v.render());
    }
    return checkRange(key, ((Number) v.unwrapped()).longValue());
  }

  /**
   * A duration in ns. A unit is required (ns, us, ms, s, m, h), except that 0 needs none and keys
   * named after a kernel parameter in nanoseconds ({@code *-nsec}) take a bare number as ns.
   */
  long getDuration(String key) {
    ConfigValue v = raw(key);
    String s = String.valueOf(v.unwrapped());
    Matcher m = DURATION.matcher(s);
    if (!m.matches()) {
      throw error(key, displayPrefix + key + " must be a duration such as 10us or 1.5ms, was '"
          + s + "'");
    }
    double num = Double.parseDouble(m.group(1));
    String unit = m.group(2);
    if (unit == null) {
      if (key.endsWith("-nsec") || num == 0) {
        unit = "ns";
      } else {
        throw error(key, displayPrefix + key + " needs a unit (ns, us, ms, s), was '" + s + "'");
      }
    }
    double scale;
    switch (unit) {
      case "ns":
        scale = 1;
        break;
      case "us":
      case "µs":
        scale = 1e3;
        break;
      case "ms":
        scale = 1e6;
        break;
      case "s":
        scale = 1e9;
        break;
      case "m":
        scale = 60e9;
        break;
      default:
        scale = 3600e9;
        break;
    }
    return checkRange(key, Math.round(num * scale));
  }

  /**
   * A cost: a duration ({@link #getDuration}, a constant, range-checked as before) or a
   * distribution such as {@code "lognormal(mean=10us, sd=2us)"} ({@link CostDistribution#parse};
   * HOCON needs the quotes), whose mean and smallest value must lie in the key's range.
   */
  CostDistribution getCost(String key) {
    ConfigValue v = raw(key);
    String s = String.valueOf(v.unwrapped());
    if (v.valueType() != ConfigValueType.STRING || !CostDistribution.isDistribution(s)) {
      return CostDistribution.constant(getDuration(key));
    }
    CostDistribution d;
    try {
      d = CostDistribution.parse(s, key.endsWith("-nsec"));
    } catch (IllegalArgumentException e) {
      throw error(key, displayPrefix + key + ": " + e.getMessage());
    }
    Param p = param(key);
    if (d.minNs() < p.min() || d.meanNs() > p.max()) {
      throw error(key, displayPrefix + key + " must lie in [" + p.min() + ", " + p.max() + "]"
          + (p.unit().isEmpty() ? "" : " " + p.unit()) + ", was " + d);
    }
    return d;
  }

  /** {@link #getDuration}, or -1 when the value is {@code auto}. */
  long getDurationOrAuto(String key) {
    ConfigValue v = raw(key);
    if (v.valueType() == ConfigValueType.STRING && "auto".equals(v.unwrapped())) {
      return -1;
    }
    return getDuration(key);
  }

  /** A size in bytes: a number, or HOCON's size syntax (4k, 1G; powers of 1024). */
  long getSize(String key) {
    ConfigValue v = raw(key);
    Config c = ConfigFactory.empty().withValue("v", v);
    try {
      return checkRange(key, c.getBytes("v"));
    } catch (ConfigException e) {
      throw error(key, displayPrefix + key + " must be a size such as 4096, 4k or 1G, was "
          + v.render());
    }
  }

  double getDouble(String key) {
    ConfigValue v = raw(key);
    if (v.valueType() != ConfigValueType.NUMBER) {
      throw error(key, displayPrefix + key + " must be a number, was " + v.render());
    }
    double d = ((Number) v.unwrapped()).doubleValue();
    Param p = param(key);
    if (!(d >= p.min() && d <= p.max())) {
      throw error(key, displayPrefix + key + " must be in [" + p.min() + ", " + p.max()
          + "], was " + d);
    }
    return d;
  }

  boolean getBoolean(String key) {
    ConfigValue v = raw(key);
    if (v.valueType() == ConfigValueType.BOOLEAN) {
      return (Boolean) v.unwrapped();
    }
    String s = String.valueOf(v.unwrapped());
    if (s.equals("on") || s.equals("yes") || s.equals("1")) {
      return true;
    }
    if (s.equals("off") || s.equals("no") || s.equals("0")) {
      return false;
    }
    throw error(key, displayPrefix + key + " must be true or false, was " + v.render());
  }

  String getString(String key) {
    ConfigValue v = raw(key);
    if (v.valueType() == ConfigValueType.LIST || v.valueType() == ConfigValueType.OBJECT) {
      throw error(key, displayPrefix + key + " must be a single value, was " + v.render());
    }
    String s = String.valueOf(v.unwrapped());
    Param p = param(key);
    if (p.type() == Param.Type.ENUM) {
      for (String c : p.choices()) {
        if (c.equalsIgnoreCase(s)) {
          return c;
        }
      }
      String hint = "";
      if (key.equals("kernel.mode")) {
        blksim.kernel.workqueue.KernelMode m = blksim.kernel.workqueue.KernelMode.forVersion(s);
        if (m != null && v.valueType() == ConfigValueType.STRING) {
          hint = " (a mode covers a range of versions: " + s + " is " + m + ")";
        } else if (v.valueType() == ConfigValueType.NUMBER) {
          hint = " (a version is a mode's name; HOCON read this one as the number " + s + ")";
        }
      }
      throw error(key, displayPrefix + key + " must be one of " + String.join("|", p.choices())
          + ", was '" + s + "'" + hint);
    }
    return s;
  }

  List<String> getStringList(String key) {
    ConfigValue v = raw(key);
    if (v.valueType() != ConfigValueType.LIST) {
      throw error(key, displayPrefix + key + " must be a list, was " + v.render());
    }
    try {
      return ConfigFactory.empty().withValue("v", v).getStringList("v");
    } catch (ConfigException e) {
      throw error(key, displayPrefix + key + " must be a list of strings");
    }
  }


}
