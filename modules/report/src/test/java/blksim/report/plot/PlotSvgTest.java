package blksim.report.plot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

/** {@link PlotSvg} and {@link ReportPage}: well-formed, data-driven, the same bytes each time. */
class PlotSvgTest {
  @TempDir Path tmp;

  private static Document parse(String svg) throws Exception {
    return DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void linesBarsAndHeat_areWellFormed_andFollowTheData() throws Exception {
    Plot lines = new Plot.Lines("l", "IOPS <&> \"x\"", "t", "y", List.of(
        new Plot.Series("a", new double[] {1, 2, 3}, new double[] {10, 20, 15}),
        new Plot.Series("b", new double[] {1, 2, 3}, new double[] {5, 5, 5})), false);
    Document d = parse(PlotSvg.render(lines));
    assertEquals(2, d.getElementsByTagName("polyline").getLength(), "one line per series");
    assertEquals(6, d.getElementsByTagName("circle").getLength(), "a marker per point");
    assertEquals(PlotSvg.render(lines), PlotSvg.render(lines));

    Plot bars = new Plot.Bars("b", "hist", "lat", "%", List.of("<1us", "<2us"),
        List.of(new Plot.Series("read", new double[2], new double[] {25, 75})));
    String svg = PlotSvg.render(bars);
    parse(svg);
    assertTrue(svg.contains("&lt;2us"), "labels escaped");

    double[][] z = {{0, 50}, {100, 0}};
    Document h = parse(PlotSvg.render(new Plot.Heat("h", "heat", "t", "cpu", "%", 0, 1, z, 100)));
    // two non-zero cells, the frame, and the 50 steps of the colour scale
    assertEquals(2 + 1 + 50, h.getElementsByTagName("rect").getLength() - 1);
    assertEquals(List.of(255, 255, 255), List.of(PlotSvg.shade(0, 100)[0],
        PlotSvg.shade(0, 100)[1], PlotSvg.shade(0, 100)[2]));
  }

  @Test
  void reportPage_writesEveryPlotTwice_andRefusesABadName() throws Exception {
    Plot p = new Plot.Lines("cpu-over-time", "cpu", "t", "%", List.of(
        new Plot.Series("all", new double[] {0, 1}, new double[] {10, 90})), false);
    ReportPage.write(tmp, "t", "intro", List.of(p), List.of(new ReportPage.Link("x.json", "x")));
    for (String f : List.of("index.html", "cpu-over-time.png", "cpu-over-time.svg")) {
      assertTrue(Files.size(tmp.resolve(f)) > 0, f);
    }
    String html = Files.readString(tmp.resolve("index.html"));
    assertTrue(html.contains("src=\"cpu-over-time.svg\"") && html.contains("href=\"x.json\""),
        html);
    Plot bad = new Plot.Lines("../x", "t", "x", "y", List.of(), false);
    assertThrows(IllegalArgumentException.class,
        () -> ReportPage.write(tmp, "t", "i", List.of(bad), List.of()));
  }
}
