package blksim.cli;

import blksim.engine.InputException;
import blksim.engine.SimulationException;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code blksim} command line: {@code run}, {@code validate}, {@code describe}, {@code bench}.
 *
 * <p>Exit codes: 0 success, 1 a failed run or validation, 2 bad input (a scenario key, a fio
 * option, a value out of range, a usage error), always with one clear message on stderr.
 *
 * <pre>
 * ./blksim run scenarios/quickstart/nullblk-psync.conf
 * </pre>
 */
@Command(name = "blksim", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
    description = {"Discrete-event simulator of the Linux block I/O stack.",
        "Runs fio job files on a simulated machine and prints fio's output."},
    subcommands = {RunCommand.class, SweepCommand.class, ValidateCommand.class,
        DescribeCommand.class, BenchCommand.class, NodeCommand.class, TlsKeysCommand.class,
        CommandLine.HelpCommand.class})
public final class Main implements Runnable {
  /** Exit code of bad input. */
  public static final int EXIT_INPUT = 2;
  /** Exit code of a failed run. */
  public static final int EXIT_FAILED = 1;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** Entry point. */
  public static void main(String[] args) {
    // Initialise logging before Pekko or Kryo log anything, so SLF4J has nothing to replay.
    SweepTrace.mark("main");
    org.slf4j.LoggerFactory.getILoggerFactory();
    PrintWriter err = new PrintWriter(System.err, true);
    // SIGINT/SIGTERM run the shutdown hooks; a command still running then was interrupted, and
    // says so (its result files are written atomically at its end, so none was half-written).
    java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
    Thread hook = new Thread(() -> {
      if (args.length > 0 && args[0].equals("node")) {
        if (done.get() && !NodeCommand.STARTED.get()) {
          return; // --help, or refused its options
        }
        // A node runs until it is stopped and writes no result file: stopping is its end. (Its
        // main thread may already have returned: a signal terminates its actor system first.)
        err.println("blksim: node stopped");
      } else if (!done.get()) {
        err.println("blksim: interrupted: " + (args.length > 0 ? args[0] : "blksim")
            + " stopped before it finished; no result file was written");
      }
    }, "blksim-interrupted");
    Runtime.getRuntime().addShutdownHook(hook);
    int rc = execute(args, new PrintWriter(System.out, true), err);
    done.set(true);
    SweepTrace.mark("exit " + rc);
    System.exit(rc);
  }

  /** Runs the command line and returns the exit code (used by tests). */
  public static int execute(String[] args, PrintWriter out, PrintWriter err) {
    CommandLine cl = new CommandLine(new Main());
    DescribeCommand.footer(cl.getSubcommands().get("describe"));
    cl.setOut(out);
    cl.setErr(err);
    cl.setExitCodeExceptionMapper(e -> e instanceof CommandLine.ParameterException
        || e instanceof InputException ? EXIT_INPUT : EXIT_FAILED);
    cl.setParameterExceptionHandler((ex, a) -> {
      err.println("blksim: " + ex.getMessage());
      err.println("Try 'blksim " + (ex.getCommandLine() == cl ? "" : ex.getCommandLine()
          .getCommandName() + " ") + "--help' for the options.");
      return EXIT_INPUT;
    });
    cl.setExecutionExceptionHandler((ex, c, parseResult) -> {
      if (ex instanceof InputException) {
        err.println("blksim: " + ex.getMessage());
        return EXIT_INPUT;
      }
      if (ex instanceof SimulationException) {
        err.println("blksim: run failed: " + ex.getMessage());
        return EXIT_FAILED;
      }
      err.println("blksim: internal error: " + ex);
      ex.printStackTrace(err);
      return EXIT_FAILED;
    });
    return cl.execute(args);
  }

  /** The version shown by {@code --version}. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"blksim " + blksim.workload.scenario.ScenarioResults.VERSION,
          "Java " + System.getProperty("java.version")};
    }
  }
}
