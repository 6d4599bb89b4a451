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
  /** The line's bytes when split by {@link #splitBlanks(byte[], int, int, long)}, else null. */
  private byte[] bytes;
  private int[] starts = new int[8];
  private int[] ends = new int[8];

  Fields(String file) {
    this.file = file;
  }

  /** Splits {@code text} at every {@code sep}, trimming blanks around each field. */
  Fields split(String text, char sep, long lineNo) {
    line = lineNo;
    bytes = null;
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
    bytes = null;
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

  /**
   * {@link #splitBlanks(String, long)} of the UTF-8 line {@code b[from, to)} without decoding it:
   * the blanks are ASCII, so they split the bytes where they split the text. A field becomes a
   * {@code String} only when {@link #get} asks for it; {@link #nonNegativeLong} and
   * {@link #equalsAscii} read the bytes.
   */
  Fields splitBlanks(byte[] b, int from, int to, long lineNo) {
    line = lineNo;
    bytes = b;
    count = 0;
    int i = from;
    while (i < to) {
      while (i < to && isBlank((char) b[i])) {
        i++;
      }
      int start = i;
      while (i < to && !isBlank((char) b[i])) {
        i++;
      }
      if (i > start) {
        if (count == starts.length) {
          starts = java.util.Arrays.copyOf(starts, count * 2);
          ends = java.util.Arrays.copyOf(ends, count * 2);
          fields = java.util.Arrays.copyOf(fields, count * 2);
        }
        starts[count] = start;
        ends[count] = i;
        fields[count++] = null;
      }
    }
    return this;
  }

  private static boolean isBlank(char c) {
    return c == ' ' || c == '\t' || c == '\f' || c == 0x0b;
  }

  /** Whether field {@code i} is exactly the ASCII text {@code s}. */
  boolean equalsAscii(int i, String s) {
    if (bytes == null) {
      return fields[i].equals(s);
    }
    int from = starts[i];
    int n = s.length();
    if (ends[i] - from != n) {
      return false;
    }
    for (int k = 0; k < n; k++) {
      if (bytes[from + k] != s.charAt(k)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Field {@code i}, or {@code last} when the field's text is {@code last}'s (so that a reader can
   * keep one {@code String} for a value that repeats on every line, such as a file name).
   */
  String getOr(int i, String last) {
    if (bytes == null || last == null) {
      return get(i);
    }
    int from = starts[i];
    int n = ends[i] - from;
    if (n != last.length()) {
      return get(i);
    }
    for (int k = 0; k < n; k++) {
      byte c = bytes[from + k];
      if (c < 0 || c != last.charAt(k)) {
        return get(i); // not ASCII, or another text: decoded
      }
    }
    return last;
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
    String f = fields[i];
    if (f == null) {
      f = new String(bytes, starts[i], ends[i] - starts[i], java.nio.charset.StandardCharsets.UTF_8);
      fields[i] = f;
    }
    return f;
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
    long v = bytes == null ? parseUnsigned(fields[i]) : parseUnsigned(bytes, starts[i], ends[i]);
    if (v < 0) {
      throw error(name, name + " must be a non-negative integer, was '" + get(i) + "'");
    }
    return v;
  }

  /** Field {@code i} as a non-negative integer multiplied by {@code unit} (sectors to bytes). */
  long nonNegativeLongTimes(int i, String name, long unit) {
    long v = nonNegativeLong(i, name);
    try {
      return Math.multiplyExact(v, unit);
    } catch (ArithmeticException e) {
      throw error(name, name + " is too large: " + get(i) + " x " + unit + " overflows");
    }
  }

  /** Field {@code i} as a non-negative decimal number of units of {@code unitNs}, in ns. */
  long decimalNs(int i, String name, long unitNs) {
    long v = parseDecimalNs(get(i), unitNs);
    if (v < 0) {
      throw error(name, name + " must be a non-negative decimal number, was '" + get(i) + "'");
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

  /** {@link #parseUnsigned(String)} of the bytes {@code b[from, to)}. */
  static long parseUnsigned(byte[] b, int from, int to) {
    int n = to - from;
    if (n == 0 || n > 19) {
      if (n == 0) {
        return -1;
      }
      while (from < to - 1 && b[from] == '0') {
        from++; // leading zeros are harmless (tooLong)
      }
      if (to - from > 19) {
        return -1;
      }
    }
    long v = 0;
    for (int k = from; k < to; k++) {
      int c = b[k];
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
