package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A run spread over two JVMs on loopback (a child JVM started with {@code blksim node}, and this
 * one joining it with {@code run --join}) gives the same results as one partition on one JVM.
 */
class MultiJvmTest {

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Test
  @Timeout(180)
  void runJoinedToANodeInAnotherJvm_givesTheSameResultsAsOneJvm() throws Exception {
    int port = freePort();
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process node = new ProcessBuilder(java.toString(), "-Xmx512m", "-cp",
        System.getProperty("java.class.path"), Main.class.getName(), "node", "--port",
        Integer.toString(port)).redirectErrorStream(true).start();
    try {
      CompletableFuture<String> up = CompletableFuture.supplyAsync(() -> {
        try (BufferedReader r = new BufferedReader(
            new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8))) {
          String line;
          while ((line = r.readLine()) != null) {
            if (line.contains("blksim node up at")) {
              return line;
            }
          }
          return "node exited";
        } catch (IOException e) {
          return e.toString();
        }
      });
      String line = up.get(90, TimeUnit.SECONDS);
      assertTrue(line.contains("blksim node up at pekko://blksim@127.0.0.1:" + port), line);

      String scen = MainTest.resource("det/two-node.conf").toString();
      MainTest.Result multi = MainTest.cli("run", scen, "--join", "127.0.0.1:" + port,
          "--partitions=node", "--output-format=json");
      assertEquals(0, multi.code(), multi.err());
      MainTest.Result local = MainTest.cli("run", scen, "--host", "local",
          "--output-format=json");
      assertEquals(withoutRunFields(local.out()), withoutRunFields(multi.out()));
      assertTrue(multi.out().contains("\"partitions\" : 2"), "two partitions, one per JVM");
      assertTrue(multi.out().contains("\"cluster\" : {") && multi.out().contains(
          "pekko://blksim@127.0.0.1:" + port), "blksim.cluster.nodes names the JVMs used");
    } finally {
      node.destroy();
      if (!node.waitFor(20, TimeUnit.SECONDS)) {
        node.destroyForcibly();
      }
    }
  }

  private static String withoutRunFields(String json) {
    return blksim.report.fio.FioJsonReporter.withoutWallClock(json)
        .replaceAll("(?m)^\\s*\"(windows|partitions|coupling_factor)\" : [0-9.]+,?\\n", "")
        // blksim.cluster.nodes: which JVMs a --join run used, like the wall-clock fields
        .replaceAll("(?m)^\\s*\"cluster\" : \\{\\n\\s*\"nodes\" : \\[[^\\]]*\\]\\n\\s*\\},\\n",
            "");
  }

}
