package blksim.workload.fio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import blksim.engine.InputException;
import blksim.workload.fio.FioOptions.Option;
import blksim.workload.fio.FioOptions.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The compatibility table (fio-options.tsv) is what the parser does: every option it accepts
 * has a handler, every option it refuses has none and is refused with the table's reason.
 */
class FioOptionsTableTest {

  @Test
  void everyOptionOfFiosTable_isListed_withItsAliases() {
    long fio = FioOptions.table().stream().filter(o -> o.engines() == null).count();
    assertEquals(251, fio, "options.c fio_options[] names at f5344384f7c7");
    for (String n : List.of("verify", "rate_iops", "write_lat_log", "bssplit", "zonemode",
        "io_submit_mode", "flow_id", "steadystate", "hugepage-size", "sprandom")) {
      assertTrue(FioOptions.option(n) != null && FioOptions.option(n).engines() == null, n);
    }
    assertEquals("bs", FioOptions.canonical("blocksize"));
    assertEquals("steadystate", FioOptions.canonical("ss"));
    assertEquals("runtime", FioOptions.canonical("timeout"));
    assertEquals("stonewall", FioOptions.canonical("wait_for_previous"));
    assertEquals("chunk_size", FioOptions.canonical("chunck_size"));
    assertNull(FioOptions.canonical("Bs"), "fio's names are case-sensitive");
    assertNull(FioOptions.canonical("no_such_option"));
    Option hipri = FioOptions.option("hipri");
    assertTrue(hipri.engines().contains("io_uring") && hipri.engines().contains("pvsync2"),
        hipri.toString());
    assertTrue(FioOptions.engineOption("http_host"));
    assertFalse(FioOptions.engineOption("bs"));
  }

  @Test
  void acceptedOptions_haveAHandler_refusedOnesHaveNone() {
    List<String> wrong = new ArrayList<>();
    for (Option o : FioOptions.table()) {
      boolean handled = handled(o.name());
      if (handled != (o.verdict() != Verdict.REFUSED)) {
        wrong.add(o.name() + " (" + o.verdict().label() + ", handler: " + handled + ")");
      }
    }
    assertEquals(List.of(), wrong, "fio-options.tsv disagrees with FioJobSettings.apply()");
  }

  private static final List<String> MODELLED_ENGINES =
      java.util.Arrays.stream(FioEngine.values()).map(FioEngine::fioName).toList();

  @Test
  void refusedOptions_exitWithTheTablesReason_noEffectOnesHaveOne() {
    for (Option o : FioOptions.table()) {
      if (o.verdict() == Verdict.REFUSED) {
        assertFalse(o.reason().isEmpty(), o.name());
        InputException e = assertThrows(InputException.class, () -> FioJobFile.parse("t.fio",
            "[j]\n" + o.name() + "=1\n", null, FioJobFileTest.ENV, Map.of()), o.name());
        if (o.name().equals("fdp")) {
          continue; // fio fails fdp=1 under psync itself (FioJobFileErrorTest)
        }
        if (o.engines() != null) {
          // An engine's option under fio's default engine (psync, which has no options): fio's
          // fio_options_parse() refuses it itself.
          assertEquals("t.fio:2: " + o.name() + "=1 is an option of ioengine="
              + String.join("/", o.engines()) + ", not of ioengine=psync (fio refuses it too:"
              + " Bad option)", e.getMessage());
          String modelled = o.engines().stream().filter(n -> MODELLED_ENGINES.contains(n))
              .findFirst().orElse(null);
          if (modelled == null) {
            continue; // the engine refusal would come first
          }
          e = assertThrows(InputException.class, () -> FioJobFile.parse("t.fio", "[j]\nioengine="
              + modelled + "\n" + o.name() + "=1\n", null, FioJobFileTest.ENV, Map.of()),
              o.name());
          assertEquals("t.fio:3: " + o.name() + " is not modelled by blksim (" + o.reason()
              + ")", e.getMessage());
          continue;
        }
        assertEquals("t.fio:2: " + o.name() + " is not modelled by blksim (" + o.reason() + ")",
            e.getMessage());
      } else if (o.verdict() == Verdict.NO_EFFECT) {
        assertFalse(o.reason().isEmpty(), "a no-effect option says why: " + o.name());
      }
    }
    InputException alias = assertThrows(InputException.class, () -> FioJobFile.parse("t.fio",
        "[j]\nblocksize_unaligned=1\n", null, FioJobFileTest.ENV, Map.of()));
    assertTrue(alias.getMessage().contains("t.fio:2: blocksize_unaligned (bs_unaligned) is not"
        + " modelled by blksim (not modelled yet"), alias.getMessage());
  }

  /** Whether FioJobSettings.apply() has a case for the option (any value error counts as one). */
  private static boolean handled(String key) {
    FioJobSettings s = new FioJobSettings();
    try {
      s.apply(key, "1", new FioJobFile.Origin("t.fio", 1, key));
      return true;
    } catch (IllegalStateException e) {
      if (e.getMessage() != null && e.getMessage().contains("without a handler")) {
        return false;
      }
      return true;
    } catch (RuntimeException e) {
      return true; // a bad value: the option is handled
    }
  }

  @Test
  void notes_doNotContradictTheTable() {
    // The ioengine note names every modelled engine; a note never calls a modelled option refused.
    String engines = FioOptions.option("ioengine").reason();
    for (FioEngine e : FioEngine.values()) {
      assertTrue(engines.matches("(?s).*\\b" + e.fioName() + "\\b.*"),
          "the ioengine note leaves out " + e.fioName() + ": " + engines);
    }
    for (Option o : FioOptions.table()) {
      for (Option other : FioOptions.table()) {
        if (other.verdict() != Verdict.REFUSED
            && o.reason().contains(other.name() + " is refused")) {
          fail(o.name() + "'s note says " + other.name() + " is refused, but it is "
              + other.verdict().label());
        }
      }
    }
  }

  @Test
  void theTableIsNotEmptyAndHasNoBlankReasonsForRefusals() {
    if (FioOptions.table().size() < 300) {
      fail("expected fio's and its engines' options, got " + FioOptions.table().size());
    }
  }
}
