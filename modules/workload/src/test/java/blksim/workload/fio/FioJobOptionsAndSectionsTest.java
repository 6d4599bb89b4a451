package blksim.workload.fio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.InputException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** fio's "job options" (the section's own, no [global]) and --section (init.c skip_this_section()). */
class FioJobOptionsAndSectionsTest {
  private static final String FILE = "[global]\nbs=8k\nfilename=/dev/sda\n"
      + "[a]\nrw=randread\nbs=4k\n"
      + "[b]\nstonewall\nrw=write\nnumjobs=2\n"
      + "[global-late]\niodepth=4\n"
      + "[c]\nrw=read\n";

  private static List<FioJob> parse(Set<String> sections) {
    return FioJobFile.parse("t.fio", FILE, null, FioJobFileTest.ENV, Map.of(), sections);
  }

  @Test
  void jobOptions_areTheSectionsOwn_optionsStillIncludeTheGlobals() {
    List<FioJob> jobs = parse(null);
    FioJob a = jobs.get(0);
    LinkedHashMap<String, String> own = new LinkedHashMap<>();
    own.put("rw", "randread");
    own.put("bs", "4k");
    assertEquals(own, a.jobOptions());
    assertEquals(List.of("bs", "filename", "rw"), List.copyOf(a.options().keySet()),
        "options(): globals first, a job's value replacing the global one in place");
    assertEquals("4k", a.options().get("bs"));
    assertEquals(Map.of("bs", "8k", "filename", "/dev/sda"), a.globalOptions());
    assertEquals(List.of("rw"), List.copyOf(jobs.get(3).jobOptions().keySet()));
    assertEquals("4", jobs.get(3).options().get("iodepth"), "a later [global] applies below it");
  }

  @Test
  void sections_keepOnlyTheNamedJobs_globalsAlwaysApply() {
    List<FioJob> jobs = parse(Set.of("c"));
    assertEquals(1, jobs.size());
    assertEquals("c", jobs.get(0).name());
    assertEquals(4, jobs.get(0).iodepth(), "[global-late] still applies");
    assertEquals(8192, jobs.get(0).bs()[0]);
    assertEquals(0, jobs.get(0).groupId());

    List<FioJob> bc = parse(Set.of("b", "c"));
    assertEquals(List.of("b", "b", "c"), bc.stream().map(FioJob::name).toList());
    assertEquals(0, bc.get(0).groupId(), "the first kept job opens group 0 despite its stonewall");
    assertEquals(List.of("a", "b", "c"), FioJobFile.sectionNames(FILE));
    assertEquals(List.of(), parse(Set.of("nope")), "the caller decides whether nothing is an error");
  }

  @Test
  void skippedSections_areNotParsed_asFioSkipsTheirLines() {
    String bad = FILE + "[d]\nno_such_option=1\n";
    InputException e = assertThrows(InputException.class,
        () -> FioJobFile.parse("t.fio", bad, null, FioJobFileTest.ENV, Map.of()));
    assertTrue(e.getMessage().contains("no_such_option"), e.getMessage());
    assertEquals(1, FioJobFile.parse("t.fio", bad, null, FioJobFileTest.ENV, Map.of(), Set.of("a"))
        .size());
  }
}
