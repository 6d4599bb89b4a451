package blksim.workload.fio;

import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * fio's value syntax: integers with size suffixes, times, arithmetic and substitutions.
 *
 * <p>Mirrors {@code str_to_decimal()}, {@code __get_mult_bytes()} and {@code get_mult_time()} in
 * fio's {@code parse.c}, the expression grammar of {@code exp/expression-parser.{l,y}}, and
 * {@code option_dup_subs()}, {@code fio_keyword_replace()} and {@code bc_calc()} in
 * {@code options.c}. Where fio silently reads a prefix of a malformed value ({@code strtoll()}
 * stops at the first bad character, so {@code 4 k} is 4 and {@code 1.5s} is 1 s) this class
 * rejects the value instead; every value fio reads as intended gets the same number here.
 */
final class FioValues {

  /** A value broke a syntax rule; the caller adds file, line and key. */
  static final class BadValue extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BadValue(String rule) {
      super(rule, null, false, false);
    }
  }

  /** A byte count, or a percentage of the file or device when {@code percent} is set. */
  record Size(long value, boolean percent) {}

  private static final Pattern DECIMAL = Pattern.compile("([0-9]+)([A-Za-z%]*)");
  private static final Pattern HEX = Pattern.compile("0[xX]([0-9A-Fa-f]+)");
  private static final Pattern BYTE_SUFFIX = Pattern.compile("([kmgtp])(i?)(b?)|b?");
  private static final Pattern TIME = Pattern.compile("([0-9]+)([A-Za-z]*)");
  private static final Pattern PERCENTILE = Pattern.compile("[0-9]+(\\.[0-9]+)?|\\.[0-9]+");
  private static final String[] KEYWORDS = {"$pagesize", "$mb_memory", "$ncpus"};

  private FioValues() {}

  /**
   * Expands {@code ${VAR}} from {@code envVars} (empty when unset), then the reserved keywords,
   * then, if a keyword was replaced and the value contains {@code + - * /}, evaluates it as
   * {@code bc} would (integers, usual precedence) — fio pipes such values to {@code bc}.
   */
  static String substitute(String value, Map<String, String> envVars, FioEnvironment env) {
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (i < value.length()) {
      int close = value.startsWith("${", i) ? value.indexOf('}', i + 2) : -1;
      if (close < 0) {
        out.append(value.charAt(i++));
        continue;
      }
      String v = envVars.get(value.substring(i + 2, close));
      out.append(v == null ? "" : v);
      i = close + 1;
    }
    String s = out.toString();
    String[] replacements = {
        Integer.toString(env.pagesize()), Long.toString(env.mbMemory()),
        Integer.toString(env.ncpus())};
    boolean replaced = false;
    for (int k = 0; k < KEYWORDS.length; k++) {
      if (s.contains(KEYWORDS[k])) {
        s = s.replace(KEYWORDS[k], replacements[k]);
        replaced = true;
      }
    }
    if (replaced && s.matches(".*[-+*/].*") && s.indexOf('\'') < 0) {
      s = Long.toString(new Expr(s, Expr.Mode.BC).evaluate());
    }
    return s;
  }

  /** A non-negative byte count or integer ({@code 4k}, {@code 0x10}, {@code (4*1024)}). */
  static long bytes(String value, int kbBase) {
    Size s = size(value, kbBase, false);
    return s.value();
  }

  /**
   * A byte count with fio's suffixes, or a percentage when {@code allowPercent}.
   *
   * <p>With {@code kb_base=1024} (the default) {@code k m g t p} and {@code kb mb ...} are powers
   * of 1024 while {@code kib mib ...} are powers of 1000; {@code kb_base=1000} swaps them. A bare
   * {@code ki}/{@code mi}/... counts like {@code k}/{@code m}, as fio's {@code __get_mult_bytes()}
   * only recognises the three-letter IEC forms (fio issue #1618), although fio's HOWTO says
   * otherwise.
   */
  static Size size(String value, int kbBase, boolean allowPercent) {
    if (value.isEmpty()) {
      throw new BadValue("needs a value");
    }
    if (value.startsWith("(")) {
      return new Size(nonNegative(new Expr(value, Expr.Mode.BYTES).evaluate()), false);
    }
    if (value.startsWith("-")) {
      throw new BadValue("must not be negative, was " + value);
    }
    Matcher hex = HEX.matcher(value);
    if (hex.matches()) {
      try {
        return new Size(Long.parseLong(hex.group(1), 16), false);
      } catch (NumberFormatException e) {
        throw new BadValue("number too large: " + value);
      }
    }
    Matcher m = DECIMAL.matcher(value);
    if (!m.matches()) {
      throw new BadValue("not an integer with an optional unit suffix (4k, 1m, 0x10, (4*1024)): "
          + value + (value.matches(".*[-+*/^].*") ? "; put arithmetic in parentheses" : ""));
    }
    long n = parseLong(m.group(1), value);
    String suffix = m.group(2).toLowerCase(Locale.ROOT);
    if (suffix.equals("%")) {
      if (!allowPercent) {
        throw new BadValue("a percentage is not allowed here: " + value);
      }
      return new Size(n, true);
    }
    Matcher sm = BYTE_SUFFIX.matcher(suffix);
    if (!sm.matches()) {
      throw new BadValue("unknown unit suffix '" + m.group(2) + "' in " + value
          + (suffix.equals("z") ? " (zone units are not modelled)" : ""));
    }
    if (sm.group(1) == null) {
      return new Size(n, false);
    }
    boolean iec = !sm.group(2).isEmpty() && !sm.group(3).isEmpty();
    long mult = iec ? (kbBase == 1024 ? 1000 : 1024) : kbBase;
    long result = n;
    for (int pow = "kmgtp".indexOf(sm.group(1).charAt(0)); pow >= 0; pow--) {
      result = multiply(result, mult, value);
    }
    return new Size(result, false);
  }

  /**
   * A time in nanoseconds. A bare number is seconds when {@code secondsDefault} (runtime,
   * ramp_time, startdelay) and microseconds otherwise (thinktime, thinktime_spin). Units:
   * {@code d h m s ms msec us usec}. In parentheses fio evaluates in microseconds and, for
   * seconds-default options, keeps whole seconds ({@code str_to_decimal()} divides by 10^6).
   */
  static long timeNs(String value, boolean secondsDefault) {
    if (value.isEmpty()) {
      throw new BadValue("needs a value");
    }
    long us;
    if (value.startsWith("(")) {
      Expr e = new Expr(value, Expr.Mode.TIME);
      e.impliedUnits = secondsDefault ? 1_000_000L : 1L;
      us = nonNegative(e.evaluate());
      if (secondsDefault) {
        us = us / 1_000_000L * 1_000_000L;
      }
    } else {
      Matcher m = TIME.matcher(value);
      if (!m.matches()) {
        throw new BadValue("not a time (10, 10s, 500ms, 1m, (2*60)): " + value
            + (value.startsWith("-") ? "; must not be negative" : ""));
      }
      long n = parseLong(m.group(1), value);
      us = multiply(n, timeUnitUs(m.group(2), secondsDefault, value), value);
    }
    return multiply(us, 1000, value);
  }

  private static long timeUnitUs(String unit, boolean secondsDefault, String value) {
    switch (unit.toLowerCase(Locale.ROOT)) {
      case "":
        return secondsDefault ? 1_000_000L : 1L;
      case "us":
      case "usec":
        return 1L;
      case "ms":
      case "msec":
        return 1_000L;
      case "s":
        return 1_000_000L;
      case "m":
        return 60_000_000L;
      case "h":
        return 3_600_000_000L;
      case "d":
        return 86_400_000_000L;
      case "sec":
        throw new BadValue("time unit 'sec' is read as microseconds by fio's get_mult_time()"
            + " although its HOWTO lists it; write 's': " + value);
      default:
        throw new BadValue("unknown time unit '" + unit + "' in " + value
            + " (use us, ms, s, m, h or d)");
    }
  }

  /** A {@code :}-separated list of percentiles, at most 20, each in (0, 100]. */
  static double[] percentiles(String value) {
    String[] parts = value.split(":", -1);
    if (parts.length > 20) {
      throw new BadValue("at most 20 percentiles, was " + parts.length);
    }
    double[] out = new double[parts.length];
    for (int i = 0; i < parts.length; i++) {
      if (!PERCENTILE.matcher(parts[i]).matches()) {
        throw new BadValue("not a number: '" + parts[i] + "' in " + value);
      }
      out[i] = Double.parseDouble(parts[i]);
      if (out[i] <= 0 || out[i] > 100) {
        throw new BadValue("percentiles must be in (0, 100], was " + parts[i]);
      }
    }
    return out;
  }

  private static long nonNegative(long v) {
    if (v < 0) {
      throw new BadValue("must not be negative, was " + v);
    }
    return v;
  }

  private static long parseLong(String digits, String value) {
    try {
      return Long.parseLong(digits);
    } catch (NumberFormatException e) {
      throw new BadValue("number too large: " + value);
    }
  }

  private static long multiply(long a, long b, String value) {
    try {
      return Math.multiplyExact(a, b);
    } catch (ArithmeticException e) {
      throw new BadValue("number too large: " + value);
    }
  }

  /**
   * One arithmetic expression. {@code BYTES} and {@code TIME} follow fio's yacc grammar: operators
   * {@code + - * / % ^}, unit suffixes ({@code k}=1024 whatever kb_base, {@code kib}=1000,
   * {@code s}=10^6 µs, {@code m} = MiB or minutes), yacc's precedences ({@code + -} lowest, then a
   * suffix, {@code * /}, {@code ^}, {@code %}, unary minus) and a unit-less result scaled by the
   * implied unit into 32 bits (fio casts to {@code int}; out-of-range results are rejected). {@code
   * BC} is what {@code bc} computes after keyword substitution: integers, usual precedence.
   */
  private static final class Expr {
    enum Mode { BYTES, TIME, BC }

    /** An operand: fio carries an integer and a double, {@code isD} when the double rules. */
    private record Val(long i, double d, boolean isD) {
      static Val of(long i) {
        return new Val(i, i, false);
      }
    }

    private static final Pattern NUMBER =
        Pattern.compile("0[xX][0-9A-Fa-f]+|[0-9]*\\.?[0-9]+([eE][-+]?[0-9]+)?");
    private static final String[] UNITS = {"kib", "mib", "gib", "pib", "kb", "mb", "gb", "tb",
        "pb", "ms", "us", "k", "m", "g", "t", "p", "s", "d", "h"};

    private final String text;
    private final Mode mode;
    private int pos;
    private boolean unitsSpecified;
    long impliedUnits = 1;

    Expr(String text, Mode mode) {
      this.text = text;
      this.mode = mode;
    }

    long evaluate() {
      Val v = parse(0);
      skipBlanks();
      if (pos < text.length()) {
        throw error("unexpected '" + text.charAt(pos) + "'");
      }
      if (mode == Mode.BC || unitsSpecified) {
        return v.i();
      }
      double scaled = (double) v.i() * impliedUnits;
      if (scaled > Integer.MAX_VALUE || scaled < Integer.MIN_VALUE) {
        throw error("result leaves fio's 32-bit range for unit-less arithmetic; give a unit");
      }
      return (long) scaled;
    }

    private BadValue error(String what) {
      return new BadValue("bad arithmetic expression " + text + ": " + what);
    }

    private int binaryPrecedence(char c) {
      if (mode == Mode.BC) {
        return switch (c) {
          case '+', '-' -> 1;
          case '*', '/', '%' -> 2;
          case '^' -> 3;
          default -> -1;
        };
      }
      return switch (c) {
        case '+', '-' -> 1;
        case '*', '/' -> 3;
        case '^' -> 4;
        case '%' -> 5;
        default -> -1;
      };
    }

    /** Precedence climbing; a unit suffix is a postfix operator of precedence 2. */
    private Val parse(int minPrecedence) {
      Val left = operand();
      while (true) {
        skipBlanks();
        if (pos >= text.length()) {
          return left;
        }
        char c = text.charAt(pos);
        if (mode != Mode.BC && Character.isLetter(c)) {
          if (minPrecedence > 2) {
            return left;
          }
          left = applySuffix(left);
          continue;
        }
        int p = binaryPrecedence(c);
        if (p < 0 || p < minPrecedence) {
          return left;
        }
        pos++;
        Val right = parse(c == '^' ? p : p + 1);
        left = apply(c, left, right);
      }
    }

    private Val operand() {
      skipBlanks();
      if (pos >= text.length()) {
        throw error("missing operand");
      }
      char c = text.charAt(pos);
      if (c == '(') {
        pos++;
        Val v = parse(0);
        skipBlanks();
        if (pos >= text.length() || text.charAt(pos) != ')') {
          throw error("missing ')'");
        }
        pos++;
        return v;
      }
      if (c == '-') {
        pos++;
        Val v = operand();
        return new Val(-v.i(), -v.d(), v.isD());
      }
      return number();
    }

    private Val number() {
      Matcher m = NUMBER.matcher(text).region(pos, text.length());
      if (!m.lookingAt()) {
        throw error("expected a number at '" + text.substring(pos) + "'");
      }
      String tok = m.group();
      pos = m.end();
      boolean hex = tok.startsWith("0x") || tok.startsWith("0X");
      boolean fraction = !hex && (tok.contains(".") || tok.contains("e") || tok.contains("E"));
      if (mode == Mode.BC && (hex || fraction)) {
        throw error("bc takes decimal integers only, was " + tok);
      }
      if (fraction) {
        double d = Double.parseDouble(tok);
        return new Val((long) d, d, true);
      }
      long v;
      try {
        v = hex ? Long.parseLong(tok.substring(2), 16) : Long.parseLong(tok);
      } catch (NumberFormatException e) {
        throw error("number too large: " + tok);
      }
      if (mode != Mode.BC && v > Integer.MAX_VALUE) {
        throw error("fio's expression parser reads numbers as 32-bit int, was " + tok);
      }
      return Val.of(v);
    }

    private Val applySuffix(Val v) {
      int end = pos;
      while (end < text.length() && Character.isLetter(text.charAt(end))) {
        end++;
      }
      String word = text.substring(pos, end).toLowerCase(Locale.ROOT);
      // fio's lexer takes the longest unit token and then goes on with the rest of the word.
      for (String u : UNITS) {
        if (word.startsWith(u)) {
          pos += u.length();
          unitsSpecified = true;
          return scale(v, u);
        }
      }
      throw error("unknown unit '" + word + "'");
    }

    private Val scale(Val v, String unit) {
      boolean time = mode == Mode.TIME;
      double f = switch (unit) {
        case "kib" -> 1e3;
        case "mib" -> 1e6;
        case "gib" -> 1e9;
        case "pib" -> 1e12;
        case "k", "kb" -> 1024d;
        case "mb" -> 1024d * 1024;
        case "m" -> time ? 60e6 : 1024d * 1024;
        case "g", "gb" -> 1024d * 1024 * 1024;
        case "t", "tb" -> 1024d * 1024 * 1024 * 1024;
        case "p", "pb" -> 1024d * 1024 * 1024 * 1024 * 1024;
        case "ms" -> 1e3;
        case "us" -> 1d;
        case "s" -> 1e6;
        case "h" -> 3600e6;
        default -> 86400e6; // "d"
      };
      boolean unitIsD = unit.equals("ms") || unit.equals("us");
      if (!v.isD() && !unitIsD) {
        return new Val(exact(() -> Math.multiplyExact(v.i(), (long) f)), v.i() * f, false);
      }
      // yacc: (long long) $1.dval * $2.dval, i.e. the operand is truncated first.
      return new Val((long) ((double) (long) v.d() * f), v.d() * f, v.isD());
    }

    private Val apply(char op, Val a, Val b) {
      boolean isD = a.isD() || b.isD();
      switch (op) {
        case '+':
          return new Val(isD ? (long) (a.d() + b.d()) : exact(() -> Math.addExact(a.i(), b.i())),
              a.d() + b.d(), isD);
        case '-':
          return new Val(isD ? (long) (a.d() - b.d())
              : exact(() -> Math.subtractExact(a.i(), b.i())), a.d() - b.d(), isD);
        case '*':
          return new Val(isD ? (long) (a.d() * b.d())
              : exact(() -> Math.multiplyExact(a.i(), b.i())), a.d() * b.d(), isD);
        case '/':
          if (isD ? b.d() == 0 : b.i() == 0) {
            throw error("division by zero");
          }
          return new Val(isD ? (long) (a.d() / b.d()) : a.i() / b.i(), a.d() / b.d(), isD);
        case '%':
          if (isD) {
            throw error("modulo on fractions");
          }
          if (b.i() == 0) {
            throw error("division by zero");
          }
          return Val.of(a.i() % b.i());
        default: // '^'
          if (isD || b.i() < 0) {
            double d = Math.pow(a.d(), b.d());
            return new Val((long) d, d, true);
          }
          long r = 1;
          for (long k = 0; k < b.i(); k++) {
            long acc = r;
            r = exact(() -> Math.multiplyExact(acc, a.i()));
          }
          return Val.of(r);
      }
    }

    private long exact(LongSupplier op) {
      try {
        return op.getAsLong();
      } catch (ArithmeticException e) {
        throw error("result too large");
      }
    }

    private void skipBlanks() {
      while (pos < text.length() && (text.charAt(pos) == ' ' || text.charAt(pos) == '\t')) {
        pos++;
      }
    }
  }
}
