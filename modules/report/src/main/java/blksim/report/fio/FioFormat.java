package blksim.report.fio;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;

/**
 * Number and date formatting exactly as fio prints them: {@code num2str()} of fio's
 * lib/num2str.c, glibc's {@code %W.Pf} (exact binary value, round half to even), ctime's date
 * layout and the nsec/usec/msec unit switch of stat.h ({@code nsec_to_usec()},
 * {@code nsec_to_msec()}). Reimplemented from the documented behaviour, not copied.
 */
final class FioFormat {

    /** fio's {@code enum n2s_unit}: the suffix num2str appends. */
    enum Unit {
        NONE(""), PERSEC("/s"), BYTE("B"), BIT("bit"), BYTEPERSEC("B/s"), BITPERSEC("bit/s");

        final String suffix;

        Unit(String suffix) {
            this.suffix = suffix;
        }
    }

    /** fio's default {@code significant_figures}. */
    static final int SIG_FIGS = 4;

    private static final String[] SI = {"", "k", "M", "G", "T", "P", "E"};
    private static final String[] IEC = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    private static final String[] DAYS = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
    private static final String[] MONTHS = {
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
    };

    private FioFormat() {
    }

    /**
     * fio's {@code num2str()}: divides {@code num} by 1000 (or 1024 with {@code pow2}) until it
     * has at most {@code maxlen} digits, then fills the remaining width with decimals of the
     * remainder ("cheesy ... complete with carry rounding error"), e.g. 79612 &rarr; {@code 79.6k}.
     *
     * @param num a non-negative quantity
     * @param maxlen maximum digits including the decimal point
     * @param base multiplier already applied to {@code num} (1, or 1024 if num is in Ki)
     * @param pow2 IEC prefixes (Ki, Mi, ...) with 1024 steps instead of SI with 1000
     * @param unit suffix after the prefix
     */
    static String num2str(long num, int maxlen, int base, boolean pow2, Unit unit) {
        if (num < 0) {
            throw new IllegalArgumentException("num2str needs a non-negative number, was " + num);
        }
        String[] prefix = pow2 ? IEC : SI;
        long thousand = pow2 ? 1024 : 1000;
        int post = 0;
        for (long b = base; b > 1; post++) {
            b /= thousand;
        }
        if (unit == Unit.BIT || unit == Unit.BITPERSEC) {
            num *= 8;
        }
        long modulo = -1;
        boolean carry = false;
        while (post < SI.length) {
            if (Long.toString(num).length() <= maxlen) {
                break;
            }
            modulo = num % thousand;
            num /= thousand;
            carry = modulo >= thousand / 2;
            post++;
        }
        if (post >= SI.length) {
            post = 0;
        }
        if (modulo == -1) {
            return num + prefix[post] + unit.suffix;
        }
        int len = Long.toString(num).length();
        if (maxlen - len <= 1) {
            if (carry) {
                num++;
            }
            return num + prefix[post] + unit.suffix;
        }
        String frac = fixed((double) modulo / (double) thousand, maxlen - len - 1);
        if (frac.charAt(0) == '1') {
            num++;
        }
        return num + "." + frac.substring(2) + prefix[post] + unit.suffix;
    }

    /** glibc {@code %.{prec}f}: the exact binary value rounded half-to-even. */
    static String fixed(double v, int prec) {
        if (Double.isNaN(v)) {
            return "nan";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        String s = prec <= 6 ? fixedFast(Math.abs(v), prec) : null;
        if (s == null) {
            s = new BigDecimal(v).setScale(prec, RoundingMode.HALF_EVEN).toPlainString();
        }
        if (v < 0 || (v == 0.0 && 1.0 / v < 0)) {
            return s.startsWith("-") ? s : "-" + s;
        }
        return s;
    }

    private static final double[] POW10 = {1, 10, 100, 1e3, 1e4, 1e5, 1e6};

    /**
     * {@link #fixed(double, int)} of {@code a >= 0} without BigDecimal where the result cannot
     * differ from the exact one, else null. {@code a * 10^prec} below 1e9 is computed with an
     * error below 1.2e-7 (one rounding of an exact power of ten), and its distance to the
     * fraction .5 is exact, so a value more than 1e-6 away from a tie rounds to the same integer
     * as the exact binary value does; ties and near ties take the exact path. (A report with a
     * job per CPU formats millions of numbers; BigDecimal took most of its time.)
     */
    private static String fixedFast(double a, int prec) {
        double scaled = a * POW10[prec];
        if (!(scaled < 1e9)) {
            return null;
        }
        double floor = Math.floor(scaled);
        double frac = scaled - floor;
        if (Math.abs(frac - 0.5) <= 1e-6) {
            return null;
        }
        long n = (long) floor + (frac > 0.5 ? 1 : 0);
        String digits = Long.toString(n);
        if (prec == 0) {
            return digits;
        }
        if (digits.length() <= prec) {
            digits = "0".repeat(prec + 1 - digits.length()) + digits;
        }
        int point = digits.length() - prec;
        return digits.substring(0, point) + "." + digits.substring(point);
    }

    /** glibc {@code %{width}.{prec}f}: {@link #fixed(double, int)} right-aligned to {@code width}. */
    static String fixed(double v, int width, int prec) {
        return padLeft(fixed(v, prec), width);
    }

    /** C {@code %{width}llu}/{@code %{width}s}: right-aligned, never truncated. */
    static String padLeft(String s, int width) {
        if (s.length() >= width) {
            return s;
        }
        return " ".repeat(width - s.length()) + s;
    }

    /** C {@code %{width}llu}. */
    static String padLeft(long v, int width) {
        return padLeft(Long.toString(v), width);
    }

    /**
     * The date as {@code ctime()} prints it in UTC, without the trailing newline:
     * {@code "Tue Nov 14 22:13:20 2023"} (day of month space-padded to 2).
     */
    static String ctime(long epochMs) {
        ZonedDateTime t = Instant.ofEpochMilli(Math.floorDiv(epochMs, 1000) * 1000).atZone(ZoneOffset.UTC);
        return DAYS[t.getDayOfWeek().getValue() - 1] + " " + MONTHS[t.getMonthValue() - 1] + " "
            + padLeft(t.getDayOfMonth(), 2) + " " + two(t.getHour()) + ":" + two(t.getMinute()) + ":"
            + two(t.getSecond()) + " " + t.getYear();
    }

    private static String two(int v) {
        return v < 10 ? "0" + v : Integer.toString(v);
    }

    /** A latency line's unit and scaled values, after fio's unit switch. */
    record ScaledLat(String unit, long min, long max, double mean, double dev) {
    }

    /**
     * fio's {@code nsec_to_msec()} then {@code nsec_to_usec()}: msec when min &gt; 2 000 000,
     * max &gt; 99 999 999 and stdev &gt; 10^6; usec when min &gt; 2000, max &gt; 99 999 and
     * stdev &gt; 1000; otherwise nsec. min/max are divided as integers.
     */
    static ScaledLat scaleLatency(long min, long max, double mean, double dev) {
        if (min > 2_000_000 && max > 99_999_999L && dev > 1_000_000.0) {
            return new ScaledLat("msec", min / 1_000_000, max / 1_000_000, mean / 1_000_000.0, dev / 1_000_000.0);
        }
        if (min > 2000 && max > 99_999 && dev > 1000.0) {
            return new ScaledLat("usec", min / 1000, max / 1000, mean / 1000.0, dev / 1000.0);
        }
        return new ScaledLat("nsec", min, max, mean, dev);
    }

    /**
     * The text of an errno as glibc's {@code strerror()} gives it, for the errors a simulated
     * block stack reports; other numbers give {@code "Unknown error N"}.
     */
    static String strerror(int err) {
        return switch (err) {
            case 1 -> "Operation not permitted";
            case 2 -> "No such file or directory";
            case 4 -> "Interrupted system call";
            case 5 -> "Input/output error";
            case 6 -> "No such device or address";
            case 11 -> "Resource temporarily unavailable";
            case 12 -> "Cannot allocate memory";
            case 16 -> "Device or resource busy";
            case 19 -> "No such device";
            case 22 -> "Invalid argument";
            case 25 -> "Inappropriate ioctl for device";
            case 28 -> "No space left on device";
            case 30 -> "Read-only file system";
            case 61 -> "No data available";
            case 95 -> "Operation not supported";
            case 110 -> "Connection timed out";
            case 125 -> "Operation canceled";
            default -> "Unknown error " + err;
        };
    }
}
