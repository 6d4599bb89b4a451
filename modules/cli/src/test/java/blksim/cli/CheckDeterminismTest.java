package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code run --check-determinism} (issue 16 item 2). */
@Timeout(120)
class CheckDeterminismTest {
  @Test
  void aScenarioSplitByCpu_isReportedDeterministic() {
    MainTest.Result r = MainTest.cli("run", "../../scenarios/quickstart/nullblk-psync.conf",
        "--host", "local", "--check-determinism", "--partitions=cpu",
        "--set", "max-time=20ms", "--set", "costs.sched.smt-slowdown=1");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().startsWith("deterministic: partitions=one and partitions=cpu"), r.out());
    MainTest.Result none = MainTest.cli("run", "../../scenarios/quickstart/nullblk-psync.conf",
        "--check-determinism");
    assertEquals(2, none.code(), none.err());
    assertTrue(none.err().contains("--check-determinism"), none.err());
  }

  @Test
  void localityGroups_areComparedWithOnePartitionWithoutThem() {
    MainTest.Result r = MainTest.cli("run", "../../scenarios/quickstart/nullblk-psync.conf",
        "--check-determinism", "--set", "max-time=20ms", "--set", "costs.sched.smt-slowdown=1",
        "--set", "locality-groups=4");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().startsWith("deterministic: partitions=one and partitions=one with"
        + " locality-groups=4"), r.out());
  }

  @Test
  void firstDifference_ignoresWallClockAndPartitioning_namesTheFirstOtherLine() {
    // One field per line, as blksim prints its JSON.
    String a = "{\n  \"timestamp\" : 1,\n  \"jobs\" : [ {\n    \"iops\" : 10\n  } ],\n"
        + "  \"blksim\" : {\n    \"wall_time_ns\" : 5,\n    \"partitions\" : 1,\n"
        + "    \"events\" : 7\n  }\n}\n";
    String b = a.replace("\"timestamp\" : 1", "\"timestamp\" : 2")
        .replace("\"wall_time_ns\" : 5", "\"wall_time_ns\" : 9")
        .replace("\"partitions\" : 1", "\"partitions\" : 8");
    assertNull(RunCommand.firstDifference(a, b, "one", "cpu"));
    String c = a.replace("\"iops\" : 10", "\"iops\" : 11");
    String d = RunCommand.firstDifference(a, c, "one", "cpu");
    assertTrue(d != null && d.contains("\"iops\" : 10") && d.contains("\"iops\" : 11"), d);
  }

  @Test
  @SuppressWarnings("unchecked")
  void clusterNodes_goUnderBlksimCluster_andAreNotPartOfTheComparedResult() {
    String json = "{\n  \"jobs\" : [ ],\n  \"blksim\" : {\n    \"events\" : 7\n  }\n}\n";
    String with = RunCommand.withClusterNodes(json,
        java.util.List.of("pekko://blksim@127.0.0.1:1", "pekko://blksim@127.0.0.1:2"));
    java.util.Map<String, Object> m =
        (java.util.Map<String, Object>) blksim.report.json.JsonReader.parse(with);
    java.util.Map<String, Object> cluster = (java.util.Map<String, Object>)
        ((java.util.Map<String, Object>) m.get("blksim")).get("cluster");
    assertEquals(2, ((java.util.List<?>) cluster.get("nodes")).size());
    assertNull(RunCommand.firstDifference(json.replace("    \"events\" : 7\n",
        "    \"events\" : 7\n"), json, "a", "b"));
  }
}
