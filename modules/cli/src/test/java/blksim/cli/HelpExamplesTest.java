package blksim.cli;

import static blksim.cli.MainTest.cli;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.cli.MainTest.Result;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The examples at the end of a command's --help can be pasted into a shell: picocli wraps a
 * footer line longer than the usage width (80) onto a new unindented line, which splits a
 * command in the middle of an argument ("--vary kernel.preempt=none," then "full").
 */
@Timeout(60)
class HelpExamplesTest {
  @ParameterizedTest
  @ValueSource(strings = {"sweep", "node", "validate", "tls-keys"})
  void everyExampleLine_isAShellLine(String command) {
    Result r = cli(command, "--help");
    assertEquals(0, r.code(), r.err());
    String out = r.out().replace("\r", "");
    int at = out.indexOf("\nExample");
    assertTrue(at >= 0, "no examples in " + command + " --help");
    String[] lines = out.substring(at + 1).split("\n");
    for (int i = 1; i < lines.length; i++) {
      // picocli's wrap of a footer line starts at column 0; an example line starts indented.
      assertTrue(lines[i].isEmpty() || lines[i].startsWith(" "),
          command + " --help: example line " + i + " is a wrapped fragment: '" + lines[i] + "'");
    }
  }

  @org.junit.jupiter.api.Test
  void nodeHelpsRunExample_isAScenarioThatTakesItsPartitions() {
    String out = cli("node", "--help").out().replace("\r", "").replace("\\\n", " ");
    String run = out.lines().filter(l -> l.strip().startsWith("./blksim run ")).findFirst()
        .orElseThrow().strip();
    java.util.List<String> args = new java.util.ArrayList<>(
        java.util.Arrays.asList(run.split("\\s+")));
    args.remove(0); // ./blksim
    int join = args.indexOf("--join");
    args.remove(join + 1);
    args.remove(join);
    args.set(1, "../../" + args.get(1));
    args.add("--parse-only"); // checks the partitioning as a run would, without running
    Result r = cli(args.toArray(String[]::new));
    assertEquals(0, r.code(), run + ": " + r.err());
  }

  @org.junit.jupiter.api.Test
  void benchHelp_statesEveryDefault_andNamesNoJavaField() {
    String out = cli("bench", "--help").out().replace("\r", "");
    assertTrue(!out.matches("(?s).*<[a-z]+[A-Z][A-Za-z]*>.*"),
        "a Java field name as a parameter label: " + out);
    String repeat = out.substring(out.lastIndexOf("--repeat"), out.lastIndexOf("--replay-records"));
    assertTrue(repeat.contains("default 3"), repeat);
  }
}
