package blksim.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * A plain-text table whose column widths come from its contents, so that any two columns are
 * separated by at least {@link #GAP} spaces however long a scenario name or label is. A line
 * split on runs of two or more spaces gives back its cells, as long as no cell holds two spaces
 * in a row (cells such as {@code PASS (calibration)} hold single spaces only).
 */
final class TextTable {
  /** The separation between two columns. */
  static final String GAP = "  ";

  private final List<String> header;
  private final boolean[] rightAligned;
  private final List<List<String>> rows = new ArrayList<>();

  /**
   * @param header the column names
   * @param rightAligned which columns are right-aligned (numbers); the others are left-aligned
   */
  TextTable(List<String> header, boolean... rightAligned) {
    if (rightAligned.length != header.size()) {
      throw new IllegalArgumentException("rightAligned must have one entry per column ("
          + header.size() + "), had " + rightAligned.length);
    }
    this.header = List.copyOf(header);
    this.rightAligned = rightAligned.clone();
  }

  /** Adds a row; it must have one cell per column. */
  void add(String... cells) {
    if (cells.length != header.size()) {
      throw new IllegalArgumentException("a row must have " + header.size() + " cells, had "
          + cells.length);
    }
    rows.add(List.of(cells));
  }

  /** Prints the header and the rows; the last column is not padded when left-aligned. */
  void print(PrintWriter out) {
    int[] width = new int[header.size()];
    for (int c = 0; c < width.length; c++) {
      width[c] = header.get(c).length();
      for (List<String> r : rows) {
        width[c] = Math.max(width[c], r.get(c).length());
      }
    }
    out.println(line(header, width));
    for (List<String> r : rows) {
      out.println(line(r, width));
    }
  }

  private String line(List<String> cells, int[] width) {
    StringBuilder sb = new StringBuilder();
    for (int c = 0; c < cells.size(); c++) {
      String cell = cells.get(c);
      boolean last = c == cells.size() - 1;
      if (c > 0) {
        sb.append(GAP);
      }
      String pad = " ".repeat(width[c] - cell.length());
      if (rightAligned[c]) {
        sb.append(pad).append(cell);
      } else {
        sb.append(cell).append(last ? "" : pad);
      }
    }
    return sb.toString();
  }
}
