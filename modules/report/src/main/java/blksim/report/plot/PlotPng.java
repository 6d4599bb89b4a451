package blksim.report.plot;

import java.awt.Color;
import java.awt.Paint;
import java.io.IOException;
import java.nio.file.Path;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.block.BlockBorder;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.PaintScale;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.renderer.xy.XYBlockRenderer;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.PaintScaleLegend;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.DefaultXYZDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/** Draws a {@link Plot} as a PNG with JFreeChart (headless; no fonts beyond the JDK's). */
public final class PlotPng {
  /** Width and height of every PNG, pixels. */
  public static final int WIDTH = 900;
  /** Height of a plot's PNG, pixels. */
  public static final int HEIGHT = 500;

  private PlotPng() {}

  /** Writes {@code p} to {@code file}. */
  public static void write(Plot p, Path file) throws IOException {
    System.setProperty("java.awt.headless", "true");
    JFreeChart c = chart(p);
    c.setBackgroundPaint(Color.WHITE);
    if (c.getLegend() != null) {
      c.getLegend().setFrame(BlockBorder.NONE);
    }
    int h = p instanceof Plot.Heat heat ? Math.max(HEIGHT, Math.min(1600, heat.z().length * 3))
        : HEIGHT;
    ChartUtils.saveChartAsPNG(file.toFile(), c, WIDTH, h);
  }

  static JFreeChart chart(Plot p) {
    if (p instanceof Plot.Lines l) {
      XYSeriesCollection data = new XYSeriesCollection();
      for (Plot.Series s : l.series()) {
        XYSeries xy = new XYSeries(s.label(), false, true);
        for (int i = 0; i < s.x().length; i++) {
          if (!l.logX() || s.x()[i] > 0) {
            xy.add(s.x()[i], s.y()[i]);
          }
        }
        data.addSeries(xy);
      }
      NumberAxis x = l.logX() ? null : new NumberAxis(l.xLabel());
      int points = 0;
      for (Plot.Series s : l.series()) {
        points = Math.max(points, s.x().length);
      }
      XYPlot plot = new XYPlot(data, x, new NumberAxis(l.yLabel()),
          new XYLineAndShapeRenderer(true, points <= 60));
      if (l.logX()) {
        LogAxis lx = new LogAxis(l.xLabel());
        lx.setSmallestValue(1e-3);
        plot.setDomainAxis(lx);
      } else {
        x.setAutoRangeIncludesZero(false);
      }
      plot.setBackgroundPaint(Color.WHITE);
      plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
      plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
      return new JFreeChart(l.title(), JFreeChart.DEFAULT_TITLE_FONT, plot, l.series().size() > 1);
    }
    if (p instanceof Plot.Bars b) {
      DefaultCategoryDataset data = new DefaultCategoryDataset();
      for (Plot.Series s : b.series()) {
        for (int i = 0; i < b.categories().size(); i++) {
          data.addValue(s.y()[i], s.label(), b.categories().get(i));
        }
      }
      CategoryPlot plot = new CategoryPlot(data, new org.jfree.chart.axis.CategoryAxis(
          b.xLabel()), new NumberAxis(b.yLabel()), new BarRenderer());
      ((BarRenderer) plot.getRenderer()).setBarPainter(new StandardBarPainter());
      ((BarRenderer) plot.getRenderer()).setShadowVisible(false);
      plot.setOrientation(PlotOrientation.VERTICAL);
      plot.setBackgroundPaint(Color.WHITE);
      plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
      plot.getDomainAxis().setCategoryLabelPositions(
          org.jfree.chart.axis.CategoryLabelPositions.UP_45);
      return new JFreeChart(b.title(), JFreeChart.DEFAULT_TITLE_FONT, plot, b.series().size() > 1);
    }
    Plot.Heat h = (Plot.Heat) p;
    int rows = h.z().length;
    int cols = rows == 0 ? 0 : h.z()[0].length;
    double[][] xyz = new double[3][rows * cols];
    for (int r = 0; r < rows; r++) {
      for (int c = 0; c < cols; c++) {
        int i = r * cols + c;
        xyz[0][i] = h.x0() + c * h.dx();
        xyz[1][i] = r;
        xyz[2][i] = h.z()[r][c];
      }
    }
    DefaultXYZDataset data = new DefaultXYZDataset();
    data.addSeries(h.zLabel(), xyz);
    XYBlockRenderer r = new XYBlockRenderer();
    r.setBlockWidth(h.dx());
    r.setBlockHeight(1);
    r.setBlockAnchor(org.jfree.chart.ui.RectangleAnchor.BOTTOM_LEFT);
    Shades scale = new Shades(h.zMax());
    r.setPaintScale(scale);
    NumberAxis x = new NumberAxis(h.xLabel());
    x.setRange(h.x0(), h.x0() + Math.max(1, cols) * h.dx());
    NumberAxis y = new NumberAxis(h.yLabel());
    y.setRange(0, Math.max(1, rows));
    y.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
    XYPlot plot = new XYPlot(data, x, y, r);
    plot.setBackgroundPaint(Color.WHITE);
    plot.setDomainGridlinesVisible(false);
    plot.setRangeGridlinesVisible(false);
    JFreeChart c = new JFreeChart(h.title(), JFreeChart.DEFAULT_TITLE_FONT, plot, false);
    NumberAxis z = new NumberAxis(h.zLabel());
    z.setRange(0, h.zMax());
    PaintScaleLegend legend = new PaintScaleLegend(scale, z);
    legend.setPosition(RectangleEdge.RIGHT);
    legend.setMargin(4, 4, 40, 4);
    c.addSubtitle(legend);
    return c;
  }

  /** White (0) to dark blue ({@code max}), as {@link PlotSvg#shade} draws it. */
  private record Shades(double max) implements PaintScale {
    @Override
    public double getLowerBound() {
      return 0;
    }

    @Override
    public double getUpperBound() {
      return max;
    }

    @Override
    public Paint getPaint(double value) {
      int[] rgb = PlotSvg.shade(value, max);
      return new Color(rgb[0], rgb[1], rgb[2]);
    }
  }
}
