package blksim.cli;

import blksim.engine.InputException;
import blksim.report.fio.FioTerseReporter;
import blksim.workload.fio.stats.RunResult;

/**
 * fio's {@code --output-format}: a comma-separated list of {@code normal}, {@code json},
 * {@code json+}, {@code terse} (with its synonyms {@code minimal} and {@code csv}), as fio's
 * {@code parse_output_format()} in {@code init.c} takes it. {@code json+} implies {@code json}.
 *
 * <p>When several are given, fio prints its per-format buffers in a fixed order, whatever the
 * order of the list ({@code __show_run_stats()}: terse, then JSON, then normal); only the lines
 * printed before the run (the job lines, the version and {@code Starting ...}) come first, and
 * they belong to the normal format. blksim's own additions to the text ({@code --threads},
 * {@code --timehist}, fs_mark's and the shell's output) belong to the normal format too.
 *
 * @param normal fio's normal (text) output
 * @param json fio's JSON output
 * @param jsonPlus JSON with the latency bins
 * @param terse terse version 3 lines
 */
record OutputFormats(boolean normal, boolean json, boolean jsonPlus, boolean terse) {

  /** Parses fio's {@code --output-format} value; exit 2 naming the bad entry. */
  static OutputFormats parse(String value) {
    boolean normal = false;
    boolean json = false;
    boolean plus = false;
    boolean terse = false;
    for (String f : value.split(",", -1)) {
      switch (f) {
        case "normal" -> normal = true;
        case "json" -> json = true;
        case "json+" -> {
          json = true;
          plus = true;
        }
        case "terse", "minimal", "csv" -> terse = true;
        default -> throw new InputException(null, 0, "--output-format", "invalid output format '"
            + f + "': use normal, json, json+, terse (minimal, csv) or several joined by commas,"
            + " such as normal,json");
      }
    }
    return new OutputFormats(normal, json, plus, terse);
  }

  /**
   * What goes to stdout: the normal output's pre-run lines, then terse, JSON, and the rest of the
   * normal output, each if selected.
   *
   * @param preRun the lines fio prints before the run (normal format), possibly empty
   * @param normalText the rest of the normal output, ending with a newline
   * @param jsonText the JSON document (json+ if selected, with blksim's additions)
   * @param r the run, for terse
   */
  String compose(String preRun, String normalText, String jsonText, RunResult r) {
    StringBuilder out = new StringBuilder();
    if (normal) {
      out.append(preRun);
    }
    if (terse) {
      out.append(FioTerseReporter.render(r));
    }
    if (json) {
      out.append(jsonText);
    }
    if (normal) {
      out.append(normalText);
    }
    return out.toString();
  }
}
