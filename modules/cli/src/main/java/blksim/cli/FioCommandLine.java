package blksim.cli;

import blksim.engine.InputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import blksim.workload.fio.FioCommandLineText;

/**
 * fio's job options given on the command line, as {@code fio --name=a --rw=randread ...} takes
 * them ({@code parse_cmd_line()} in fio's init.c): options before the first {@code --name} go to
 * the global section, each {@code --name=N} starts job N (and {@code --name=global} the global
 * section again), {@code --opt=value} and a bare {@code --opt} are the job file's
 * {@code opt=value} and {@code opt}. They are written out as a job file and run as
 * {@code blksim run JOBFILE} runs one; an error in it names the option as typed.
 *
 * <p>fio's own program options that change nothing simulated ({@code --eta},
 * {@code --eta-newline}, {@code --eta-interval}) are dropped; {@code --minimal} is
 * {@code --output-format=terse}. blksim's {@code run} options of the same name as fio's
 * ({@code --output-format}, {@code --section}, {@code --parse-only}) are blksim's, with fio's
 * meaning. Simplified: only the {@code --opt=value} form (not {@code --opt value}).
 */
final class FioCommandLine {
  /** fio program options dropped: they change only fio's progress display. */
  private static final List<String> DROPPED = List.of("eta", "eta-newline", "eta-interval");

  /** The job options as job-file text, each line with the option it came from. */
  private FioCommandLineText text;
  private boolean minimal;
  private Path dir;
  private Path file;

  private FioCommandLine() {}

  /**
   * The job file of {@code args}, the options picocli did not take.
   *
   * @throws InputException for an argument that is not an option ({@code --opt[=value]})
   */
  static FioCommandLine parse(List<String> args) {
    FioCommandLine c = new FioCommandLine();
    List<String> jobOptions = new ArrayList<>();
    for (String a : args) {
      if (!a.startsWith("--") || a.length() == 2 || a.charAt(2) == '=') {
        throw new InputException(null, 0, a, "not an option: give a SCENARIO or fio JOBFILE, or"
            + " fio's job options as --name=JOB --option=value ... (fio's command line)");
      }
      int eq = a.indexOf('=');
      String key = (eq < 0 ? a.substring(2) : a.substring(2, eq)).trim();
      if (DROPPED.contains(key)) {
        continue;
      }
      if (key.equals("terse-version") && eq >= 0) {
        checkTerseVersion(a);
        continue;
      }
      if (key.equals("minimal")) {
        c.minimal = true;
        continue;
      }
      jobOptions.add(a);
    }
    c.text = FioCommandLineText.of(jobOptions);
    if (!c.text.hasJob()) {
      throw new InputException(null, 0, "--name", "fio's options on the command line need a"
          + " job: add --name=JOB (fio: \"No job(s) defined\")");
    }
    return c;
  }

  /**
   * Whether {@code arg} is one of fio's program options that {@link #parse} takes without a
   * job: {@code --minimal} or one of {@link #DROPPED}. With a job file, fio takes them as well
   * ({@code fio --minimal JOB.fio}).
   */
  static boolean programOption(String arg) {
    if (!arg.startsWith("--")) {
      return false;
    }
    int eq = arg.indexOf('=');
    String key = eq < 0 ? arg.substring(2) : arg.substring(2, eq);
    return key.equals("minimal") && eq < 0 || DROPPED.contains(key)
        || key.equals("terse-version") && eq > 0;
  }

  /**
   * Checks fio's {@code --terse-version=N}: blksim prints version 3, fio's default, so 3 is
   * taken and any other version is refused (fio knows 2 to 5).
   *
   * @throws InputException for a version other than 3
   */
  static void checkTerseVersion(String arg) {
    if (arg.startsWith("--terse-version=") && !arg.substring(16).trim().equals("3")) {
      throw new InputException(null, 0, arg, "blksim prints fio's terse version 3 only (fio's"
          + " default); terse versions 2, 4 and 5 are not modelled");
    }
  }

  /** Whether fio's {@code --minimal} (terse output) was given. */
  boolean minimal() {
    return minimal;
  }

  /** Writes the job file (in a temporary directory of its own) and returns it. */
  Path write() throws IOException {
    dir = Files.createTempDirectory("blksim-cmdline-");
    file = dir.resolve("fio-command-line");
    Files.writeString(file, text());
    return file;
  }

  /** The job file's text (for tests). */
  String text() {
    return text.text();
  }

  /**
   * {@code e}, when it names a line of the written job file, restated as the command-line
   * option that made the line; otherwise {@code e} itself. The option typed stands for the key:
   * a rule that starts with the key loses it ("--bs=100: must be a positive multiple of 512"),
   * one that starts with {@code KEY=VALUE} starts with the option instead ("--bsx=1 is an unknown
   * fio option"), so that the message names the option once.
   */
  InputException translate(InputException e) {
    if (file == null || e.file() == null
        || !Path.of(e.file()).toAbsolutePath().normalize().equals(file.toAbsolutePath()
            .normalize())) {
      return e;
    }
    return text.restateLine(e);
  }

  /** Removes the written job file and its directory. */
  void delete() {
    try {
      if (file != null) {
        Files.deleteIfExists(file);
      }
      if (dir != null) {
        Files.deleteIfExists(dir);
      }
    } catch (IOException ignored) {
      // a temporary file left behind in the temporary directory
    }
  }
}
