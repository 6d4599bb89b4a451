package blksim.report.plot;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A report directory: every plot as {@code NAME.png} (JFreeChart) and {@code NAME.svg}, and an
 * {@code index.html} that shows the SVGs, links the PNGs and the run's other files.
 */
public final class ReportPage {
  private ReportPage() {}

  /**
   * A file of the report the page links to.
   *
   * @param file name relative to the report directory
   * @param what what it holds
   */
  public record Link(String file, String what) {}

  /**
   * Writes the plots and {@code index.html} into {@code dir} (which exists).
   *
   * @param title page title
   * @param intro one paragraph under the title (plain text)
   * @param plots the plots, in page order
   * @param links other files of the report (written by the caller)
   */
  public static void write(Path dir, String title, String intro, List<Plot> plots,
      List<Link> links) throws IOException {
    StringBuilder b = new StringBuilder();
    b.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
        .append(PlotSvg.escape(title)).append("</title>\n<style>body{font-family:sans-serif;"
            + "max-width:960px;margin:1em auto}img{max-width:100%;border:1px solid #ddd}"
            + "figure{margin:1.5em 0}</style>\n</head>\n<body>\n<h1>")
        .append(PlotSvg.escape(title)).append("</h1>\n<p>").append(PlotSvg.escape(intro))
        .append("</p>\n");
    if (!links.isEmpty()) {
      b.append("<ul>\n");
      for (Link l : links) {
        b.append("<li><a href=\"").append(PlotSvg.escape(l.file())).append("\">")
            .append(PlotSvg.escape(l.file())).append("</a>: ").append(PlotSvg.escape(l.what()))
            .append("</li>\n");
      }
      b.append("</ul>\n");
    }
    for (Plot p : plots) {
      if (!p.name().matches("[a-z0-9_-]+")) {
        throw new IllegalArgumentException("plot name must be [a-z0-9_-]+, was " + p.name());
      }
      PlotPng.write(p, dir.resolve(p.name() + ".png"));
      PlotSvg.write(p, dir.resolve(p.name() + ".svg"));
      b.append("<figure id=\"").append(p.name()).append("\">\n<img src=\"").append(p.name())
          .append(".svg\" alt=\"").append(PlotSvg.escape(p.title())).append("\">\n<figcaption>")
          .append(PlotSvg.escape(p.title())).append(" (<a href=\"").append(p.name())
          .append(".png\">PNG</a>, <a href=\"").append(p.name())
          .append(".svg\">SVG</a>)</figcaption>\n</figure>\n");
    }
    b.append("</body>\n</html>\n");
    Files.writeString(dir.resolve("index.html"), b.toString(), StandardCharsets.UTF_8);
  }
}
