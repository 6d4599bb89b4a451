package blksim.cli;

import static blksim.cli.MainTest.cli;
import static blksim.cli.MainTest.resource;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code kernel.wq-max-active} from the command line: listed by describe, bad entries exit 2
 * naming the key, an entry that names no workqueue is warned about on stderr.
 */
@Timeout(120)
class WqMaxActiveCliTest {
  static MainTest.Result run(String entries) {
    return cli("run", resource("selfcheck/small.conf").toString(), "--host", "local", "--set",
        "kernel.wq-max-active=" + entries);
  }

  @Test
  void describe_listsTheKeyWithItsClamp() {
    MainTest.Result r = cli("describe");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("blksim.kernel.wq-max-active"), r.out());
    assertTrue(r.out().contains("wq_clamp_max_active()"), "says which clamp applies");
    assertTrue(r.out().contains("blksim.costs.wq.create-worker"), r.out());
  }

  @Test
  void unmatchedName_warnsOnStderr_matchedDoesNot() {
    MainTest.Result r = run("[\"nosuch_*=4\", \"events_unbound=4\"]");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.err().contains("kernel.wq-max-active entry 'nosuch_*=4' matches no workqueue"),
        r.err());
    assertFalse(r.err().contains("events_unbound"), r.err());
  }

  @Test
  void badEntries_exit2NamingTheKey() {
    for (String bad : new String[] {"[\"events\"]", "[\"events=0\"]", "[\"events=x\"]",
        "[\"a*b=3\"]", "[\"btrfs-endio-write=768\"]", "[\"x=4\", \"x=5\"]"}) {
      MainTest.Result r = run(bad);
      assertEquals(2, r.code(), bad + ": " + r.err());
      assertTrue(r.err().contains("blksim.kernel.wq-max-active"), bad + ": " + r.err());
      assertEquals(1, r.err().strip().lines().count(), r.err());
    }
    assertTrue(run("[\"btrfs-endio-write=768\"]").err().contains("clamp it to 512"));
  }
}
