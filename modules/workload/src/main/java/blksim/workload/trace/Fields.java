package blksim.workload.trace;

import blksim.engine.InputException;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * The fields of one text-trace line and their checked conversions.
 *
 * <p>Every conversion that fails throws an {@link InputException} naming the file, the line, the
 * field (by the format's own column name) and the rule, for example {@code "Offset must be a
 * non-negative integer, was 'x'"}. Splitting is done by hand (no regular expressions): these
 * readers sit on the replay's hot path.
 */
final class Fields {
  private static final long MAX_FRACTION_DIGITS = 9;

  private final String file;
  private String[] fields = new String[8];
  private int count;
  private long line;

  Fields(String file) {
    this.file = file;
  }

  /** Splits {@code text} at every {@code sep}, trimming blanks around each field. */
  Fields split(String text, char sep, long lineNo) {
    line = lineNo;
    count = 0;
    int start = 0;
    int n = text.length();
    for (int i = 0; i <= n; i++) {
      if (i == n || text.charAt(i) == sep) {
        add(text.substring(start, i).strip());
        start = i + 1;
      }
    }
    return this;
  }

  /** Splits {@code text} at runs of blanks (spaces, tabs). */
  Fields splitBlanks(String text, long lineNo) {
    line = lineNo;
    count = 0;
    int n = text.length();
    int i = 0;
    while (i < n) {
      while (i < n && isBlank(text.charAt(i))) {
        i++;
      }
      int start = i;
      while (i < n && !isBlank(text.charAt(i))) {
        i++;
      }
      if (i > start) {
        add(text.substring(start, i));
      }
    }
    return this;
  }

  private static boolean isBlank(char c) {
    return c == ' ' || c == '\t' || c == '\f' || c == 0x0b;
  }

  private void add(String s) {
    if (count == fields.length) {
      fields = java.util.Arrays.copyOf(fields, count * 2);
    }
    fields[count++] = s;
  }

  /** How many fields the line has. */
  int count() {
    return count;
  }

  /** Field {@code i} (0-based). */
  String get(int i) {
    return fields[i];
  }

  /** The line these fields came from. */
  long line() {
    return line;
  }

  /** Requires at least {@code names.length} fields, named in the message when some are missing. */
  void requireAtLeast(String... names) {
    if (count < names.length) {
      throw error(null, "expected " + names.length + " fields (" + String.join(", ", names)
          + "), found " + count);
    }
  }

  /** An error at this line. */
  InputException error(String field, String rule) {
    return LineSource.error(file, line, field, rule);
  }

  /** Field {@code i} as a non-negative decimal integer. */
  long nonNegativeLong(int i, String name) {
    String s = fields[i];
    long v = parseUnsigned(s);
    if (v < 0) {
      throw error(name, name + " must be a non-negative integer, was '" + s + "'");
    }
    return v;
  }

  /** Field {@code i} as a non-negative integer multiplied by {@code unit} (sectors to bytes). */
  long nonNegativeLongTimes(int i, String name, long unit) {
    long v = nonNegativeLong(i, name);
    try {
      return Math.multiplyExact(v, unit);
    } catch (ArithmeticException e) {
      throw error(name, name + " is too large: " + fields[i] + " x " + unit + " overflows");
    }
  }

  /** Field {@code i} as a non-negative decimal number of units of {@code unitNs}, in ns. */
  long decimalNs(int i, String name, long unitNs) {
    long v = parseDecimalNs(fields[i], unitNs);
    if (v < 0) {
      throw error(name, name + " must be a non-negative decimal number, was '" + fields[i] + "'");
    }
    return v;
  }

  /**
   * {@code s} as an unsigned decimal integer, or -1 when it is not one (empty, a sign, another
   * character) or does not fit in a long.
   */
  static long parseUnsigned(String s) {
    int n = s.length();
    if (n == 0 || n > 19) {
      return n > 19 && allDigits(s) ? tooLong(s) : -1;
    }
    long v = 0;
    for (int k = 0; k < n; k++) {
      char c = s.charAt(k);
      if (c < '0' || c > '9') {
        return -1;
      }
      v = v * 10 + (c - '0');
      if (v < 0) {
        return -1;
      }
    }
    return v;
  }

  private static long tooLong(String s) {
    // Leading zeros are harmless; anything else longer than 19 digits overflows a long.
    String t = s.replaceFirst("^0+(?=.)", "");
    return t.length() <= 19 ? parseUnsigned(t) : -1;
  }

  private static boolean allDigits(String s) {
    for (int k = 0; k < s.length(); k++) {
      if (s.charAt(k) < '0' || s.charAt(k) > '9') {
        return false;
      }
    }
    return true;
  }

  /**
   * {@code s}, a non-negative decimal number of units of {@code unitNs} ns, in whole ns (extra
   * digits truncated), or -1 when it is not such a number or overflows. Plain
   * {@code digits[.digits]} is converted exactly with longs; anything else (an exponent) through
   * {@link BigDecimal}.
   */
  static long parseDecimalNs(String s, long unitNs) {
    int dot = s.indexOf('.');
    String whole = dot < 0 ? s : s.substring(0, dot);
    String frac = dot < 0 ? "" : s.substring(dot + 1);
    if (unitNs <= 1_000_000_000L && (!whole.isEmpty() || !frac.isEmpty())
        && (whole.isEmpty() || allDigits(whole)) && allDigits(frac)) {
      long w = whole.isEmpty() ? 0 : parseUnsigned(whole);
      if (w < 0) {
        return -1;
      }
      long f = 0;
      long scale = 1;
      for (int k = 0; k < frac.length() && k < MAX_FRACTION_DIGITS; k++) {
        f = f * 10 + (frac.charAt(k) - '0');
        scale *= 10;
      }
      try {
        return Math.addExact(Math.multiplyExact(w, unitNs), f * unitNs / scale);
      } catch (ArithmeticException e) {
        return -1;
      }
    }
    try {
      BigDecimal v = new BigDecimal(s).multiply(BigDecimal.valueOf(unitNs));
      if (v.signum() < 0) {
        return -1;
      }
      return v.setScale(0, RoundingMode.DOWN).longValueExact();
    } catch (NumberFormatException | ArithmeticException e) {
      return -1;
    }
  }
}
