package blksim.report.plot;

import java.util.List;

/**
 * One plot of a report, as data: {@link PlotPng} draws it with JFreeChart, {@link PlotSvg} writes
 * the same data as SVG. {@code name} is the file name without extension ({@code [a-z0-9_-]+}).
 */
public sealed interface Plot permits Plot.Lines, Plot.Bars, Plot.Heat {

  /** File name without extension. */
  String name();

  /** Title drawn above the plot. */
  String title();

  /**
   * One line of a {@link Lines} plot or one set of bars of a {@link Bars} plot.
   *
   * @param label legend entry
   * @param x x values (ignored for bars)
   * @param y y values
   */
  record Series(String label, double[] x, double[] y) {
    /** Checks the lengths. */
    public Series {
      if (x.length != y.length) {
        throw new IllegalArgumentException(label + ": " + x.length + " x values, " + y.length
            + " y values");
      }
    }
  }

  /** Lines with a marker at each point; {@code logX}: the x axis is logarithmic. */
  record Lines(String name, String title, String xLabel, String yLabel, List<Series> series,
      boolean logX) implements Plot {
    /** Copies the list. */
    public Lines {
      series = List.copyOf(series);
    }
  }

  /** Bars per category ({@code categories}), one set per series (each y one per category). */
  record Bars(String name, String title, String xLabel, String yLabel, List<String> categories,
      List<Series> series) implements Plot {
    /** Copies the lists. */
    public Bars {
      categories = List.copyOf(categories);
      series = List.copyOf(series);
    }
  }

  /**
   * A heatmap: {@code z[row][col]} drawn as a cell at x = {@code x0 + col * dx}, y = row, in
   * shades from white (0) to dark ({@code zMax} and above).
   */
  record Heat(String name, String title, String xLabel, String yLabel, String zLabel, double x0,
      double dx, double[][] z, double zMax) implements Plot {}
}
