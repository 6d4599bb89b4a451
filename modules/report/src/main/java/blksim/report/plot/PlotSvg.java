package blksim.report.plot;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Writes a {@link Plot} as SVG from its data (JFreeSVG is not available here): axes with round
 * ticks, lines with point markers, grouped bars, heatmap cells, a legend. The output depends on
 * the data alone, byte for byte.
 */
public final class PlotSvg {
  static final int W = 900;
  static final int H = 500;
  private static final int LEFT = 80;
  private static final int RIGHT = 170;
  private static final int TOP = 40;
  private static final int BOTTOM = 70;
  private static final String[] COLORS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
      "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

  private PlotSvg() {}

  /** Writes {@code p} to {@code file}. */
  public static void write(Plot p, Path file) throws IOException {
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      w.write(render(p));
    }
  }

  /** The SVG document of {@code p}. */
  public static String render(Plot p) {
    StringBuilder b = new StringBuilder();
    b.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    b.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\""
        + " height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n",
        W, H, W, H));
    b.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    text(b, W / 2.0, 24, "middle", 16, p.title(), 0);
    if (p instanceof Plot.Lines l) {
      lines(b, l);
    } else if (p instanceof Plot.Bars bars) {
      bars(b, bars);
    } else {
      heat(b, (Plot.Heat) p);
    }
    b.append("</svg>\n");
    return b.toString();
  }

  private static void lines(StringBuilder b, Plot.Lines l) {
    double xmin = Double.POSITIVE_INFINITY;
    double xmax = Double.NEGATIVE_INFINITY;
    double ymax = 0;
    double ymin = 0;
    for (Plot.Series s : l.series()) {
      for (int i = 0; i < s.x().length; i++) {
        if (l.logX() && s.x()[i] <= 0) {
          continue;
        }
        double x = l.logX() ? Math.log10(s.x()[i]) : s.x()[i];
        xmin = Math.min(xmin, x);
        xmax = Math.max(xmax, x);
        ymax = Math.max(ymax, s.y()[i]);
        ymin = Math.min(ymin, s.y()[i]);
      }
    }
    if (xmin > xmax) {
      xmin = 0;
      xmax = 1;
    }
    Axis ax = l.logX() ? Axis.log(xmin, xmax) : Axis.of(xmin, xmax);
    Axis ay = Axis.of(ymin, ymax);
    frame(b, ax, ay, l.xLabel(), l.yLabel());
    for (int k = 0; k < l.series().size(); k++) {
      Plot.Series s = l.series().get(k);
      String color = COLORS[k % COLORS.length];
      StringBuilder pts = new StringBuilder();
      StringBuilder marks = new StringBuilder();
      for (int i = 0; i < s.x().length; i++) {
        if (l.logX() && s.x()[i] <= 0) {
          continue;
        }
        double px = ax.px(l.logX() ? Math.log10(s.x()[i]) : s.x()[i]);
        double py = ay.py(s.y()[i]);
        pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", px, py));
        if (s.x().length <= 60) {
          marks.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\""
              + " fill=\"%s\"/>%n", px, py, color));
        }
      }
      b.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\""
          + " stroke-width=\"1.5\" points=\"%s\"/>%n", color, pts.toString().trim()));
      b.append(marks);
    }
    legend(b, l.series());
  }

  private static void bars(StringBuilder b, Plot.Bars p) {
    double ymax = 0;
    for (Plot.Series s : p.series()) {
      for (double y : s.y()) {
        ymax = Math.max(ymax, y);
      }
    }
    int n = Math.max(1, p.categories().size());
    Axis ay = Axis.of(0, ymax);
    Axis ax = new Axis(0, n, new double[0], new String[0]);
    frame(b, ax, ay, p.xLabel(), p.yLabel());
    double slot = (W - LEFT - RIGHT) / (double) n;
    int ns = Math.max(1, p.series().size());
    double bw = slot * 0.8 / ns;
    for (int c = 0; c < p.categories().size(); c++) {
      double x0 = LEFT + c * slot + slot * 0.1;
      for (int k = 0; k < p.series().size(); k++) {
        double y = p.series().get(k).y()[c];
        double top = ay.py(y);
        b.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\""
            + " height=\"%.1f\" fill=\"%s\"/>%n", x0 + k * bw, top, bw, ay.py(0) - top,
            COLORS[k % COLORS.length]));
      }
      double cx = LEFT + (c + 0.5) * slot;
      text(b, cx, H - BOTTOM + 14, "end", 11, p.categories().get(c), -45);
    }
    legend(b, p.series());
  }

  private static void heat(StringBuilder b, Plot.Heat h) {
    int rows = h.z().length;
    int cols = rows == 0 ? 0 : h.z()[0].length;
    double x1 = h.x0() + Math.max(1, cols) * h.dx();
    Axis ax = Axis.of(h.x0(), x1);
    ax = new Axis(h.x0(), x1, ax.ticks, ax.labels);
    Axis ay = Axis.of(0, Math.max(1, rows));
    ay = new Axis(0, Math.max(1, rows), ay.ticks, ay.labels);
    double cw = (W - LEFT - RIGHT) / (double) Math.max(1, cols);
    double ch = (H - TOP - BOTTOM) / (double) Math.max(1, rows);
    for (int r = 0; r < rows; r++) {
      for (int c = 0; c < cols; c++) {
        double v = h.z()[r][c];
        if (v <= 0) {
          continue;
        }
        int[] rgb = shade(v, h.zMax());
        b.append(String.format(Locale.ROOT, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\""
            + " height=\"%.2f\" fill=\"#%02x%02x%02x\"/>%n", LEFT + c * cw,
            H - BOTTOM - (r + 1) * ch, cw + 0.3, ch + 0.3, rgb[0], rgb[1], rgb[2]));
      }
    }
    frame(b, ax, ay, h.xLabel(), h.yLabel());
    // the colour scale
    int lx = W - RIGHT + 30;
    for (int i = 0; i < 50; i++) {
      int[] rgb = shade(h.zMax() * (i + 0.5) / 50, h.zMax());
      b.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%.1f\" width=\"20\""
          + " height=\"%.1f\" fill=\"#%02x%02x%02x\"/>%n", lx, H - BOTTOM - (i + 1) * 7.0, 7.3,
          rgb[0], rgb[1], rgb[2]));
    }
    text(b, lx + 24, H - BOTTOM, "start", 11, fmt(0), 0);
    text(b, lx + 24, H - BOTTOM - 350 + 10, "start", 11, fmt(h.zMax()), 0);
    text(b, lx + 10, H - BOTTOM - 360, "middle", 11, h.zLabel(), 0);
  }

  /** White at 0 to dark blue at {@code max} (and above). */
  public static int[] shade(double v, double max) {
    double f = max <= 0 ? 0 : Math.max(0, Math.min(1, v / max));
    return new int[] {(int) Math.round(255 - f * (255 - 8)), (int) Math.round(255 - f * (255 - 48)),
        (int) Math.round(255 - f * (255 - 107))};
  }

  private static void frame(StringBuilder b, Axis ax, Axis ay, String xl, String yl) {
    int x0 = LEFT;
    int x1 = W - RIGHT;
    int y0 = H - BOTTOM;
    int y1 = TOP;
    for (int i = 0; i < ay.ticks.length; i++) {
      double py = ay.py(ay.ticks[i]);
      b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\""
          + " stroke=\"#dddddd\"/>%n", x0, py, x1, py));
      text(b, x0 - 6, py + 4, "end", 11, ay.labels[i], 0);
    }
    for (int i = 0; i < ax.ticks.length; i++) {
      double px = ax.px(ax.ticks[i]);
      b.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\""
          + " stroke=\"#888888\"/>%n", px, y0, px, y0 + 5));
      text(b, px, y0 + 18, "middle", 11, ax.labels[i], 0);
    }
    b.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\""
        + " fill=\"none\" stroke=\"#444444\"/>%n", x0, y1, x1 - x0, y0 - y1));
    text(b, (x0 + x1) / 2.0, H - 14, "middle", 13, xl, 0);
    text(b, 18, (y0 + y1) / 2.0, "middle", 13, yl, -90);
  }

  private static void legend(StringBuilder b, List<Plot.Series> series) {
    if (series.size() < 2) {
      return;
    }
    int x = W - RIGHT + 15;
    for (int k = 0; k < series.size() && k < 20; k++) {
      int y = TOP + 10 + k * 18;
      b.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\""
          + " fill=\"%s\"/>%n", x, y, COLORS[k % COLORS.length]));
      String label = series.get(k).label();
      text(b, x + 18, y + 10, "start", 11, label.length() > 24 ? label.substring(0, 23) + "\u2026"
          : label, 0);
    }
  }

  private static void text(StringBuilder b, double x, double y, String anchor, int size,
      String s, int rotate) {
    String rot = rotate == 0 ? "" : String.format(Locale.ROOT, " transform=\"rotate(%d %.1f"
        + " %.1f)\"", rotate, x, y);
    b.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\""
        + " font-size=\"%d\"%s>%s</text>%n", x, y, anchor, size, rot, escape(s)));
  }

  static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        .replace("\"", "&quot;");
  }

  static String fmt(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return String.valueOf((long) v);
    }
    String s = String.format(Locale.ROOT, "%.6g", v);
    if (s.contains("e")) {
      return s;
    }
    s = s.contains(".") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
    return s;
  }

  /** An axis: its range, and ticks at round values. */
  private record Axis(double lo, double hi, double[] ticks, String[] labels) {
    static Axis of(double lo, double hi) {
      if (hi <= lo) {
        hi = lo + 1;
      }
      double step = niceStep((hi - lo) / 6);
      double first = Math.floor(lo / step) * step;
      double last = Math.ceil(hi / step) * step;
      List<Double> t = new ArrayList<>();
      for (double v = first; v <= last + step / 2; v += step) {
        t.add(v);
      }
      double[] ticks = t.stream().mapToDouble(Double::doubleValue).toArray();
      String[] labels = new String[ticks.length];
      for (int i = 0; i < ticks.length; i++) {
        labels[i] = fmt(Math.round(ticks[i] / step) * step);
      }
      return new Axis(first, last, ticks, labels);
    }

    /** A log10 axis over decades; values are log10 of the data. */
    static Axis log(double lo, double hi) {
      double first = Math.floor(lo);
      double last = Math.max(first + 1, Math.ceil(hi));
      int n = (int) (last - first) + 1;
      double[] ticks = new double[n];
      String[] labels = new String[n];
      for (int i = 0; i < n; i++) {
        ticks[i] = first + i;
        labels[i] = fmt(Math.pow(10, first + i));
      }
      return new Axis(first, last, ticks, labels);
    }

    static double niceStep(double raw) {
      double mag = Math.pow(10, Math.floor(Math.log10(raw)));
      double f = raw / mag;
      double nice = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
      return nice * mag;
    }

    double px(double v) {
      return LEFT + (v - lo) / (hi - lo) * (W - LEFT - RIGHT);
    }

    double py(double v) {
      return H - BOTTOM - (v - lo) / (hi - lo) * (H - TOP - BOTTOM);
    }
  }
}
