package blksim.workload.fio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.InputException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** fio's job options given with a job file: fio's parse_cmd_line() before parse_jobs_ini(). */
class FioCommandLineTextTest {
  private static final String FILE = "[global]\nfilename=/dev/nullb0\nrw=randread\n\n[r]\n";

  private static List<FioJob> parse(List<String> options, String file) {
    FioCommandLineText cl = FioCommandLineText.of(options);
    return FioJobFile.parseAfterCommandLine(FioCommandLineText.NAME, cl.text(), "a.fio", file,
        null, FioJobFileTest.ENV, Map.of(), null);
  }

  @Test
  void leadingOptions_areTheFilesDefaults_whichItsGlobalAndJobsOverride() {
    FioJob plain = FioJobFileTest.only(FILE);
    FioJob r = parse(List.of("--runtime=5ms", "--time_based", "--bs=8k"), FILE).get(0);
    assertEquals(5_000_000L, r.runtimeNs());
    assertFalse(plain.runtimeNs() == r.runtimeNs(), "the command line set the runtime");
    FioJob own = parse(List.of("--runtime=5ms", "--rw=write"),
        "[global]\nfilename=/dev/nullb0\nruntime=7ms\n[r]\nrw=randread\n").get(0);
    assertEquals(7_000_000L, own.runtimeNs(), "the file's [global] wins over the command line");
    assertEquals(FioRw.RANDREAD, own.rw(), "and so does its job section");
  }

  @Test
  void namedJobs_comeBeforeTheFilesJobs_inTheSameGroup() {
    List<FioJob> jobs = parse(List.of("--bs=8k", "--name=first", "--filename=/dev/nullb1",
        "--rw=read"), FILE);
    assertEquals(List.of("first", "r"), jobs.stream().map(FioJob::name).toList());
    assertEquals(jobs.get(0).groupId(), jobs.get(1).groupId(), "no implicit stonewall");
    assertFalse(jobs.get(1).stonewall());
  }

  @Test
  void sections_pickCommandLineJobsToo() {
    FioCommandLineText cl = FioCommandLineText.of(List.of("--name=first",
        "--filename=/dev/nullb1"));
    List<FioJob> jobs = FioJobFile.parseAfterCommandLine(FioCommandLineText.NAME, cl.text(),
        "a.fio", FILE, null, FioJobFileTest.ENV, Map.of(), java.util.Set.of("first"));
    assertEquals(List.of("first"), jobs.stream().map(FioJob::name).toList());
    assertEquals(List.of("first"), FioJobFile.sectionNames(cl.text()));
  }

  @Test
  void anErrorOnALine_namesTheOptionTyped() {
    FioCommandLineText cl = FioCommandLineText.of(List.of("--bs=100"));
    InputException e = assertThrows(InputException.class, () -> {
      try {
        parse(List.of("--bs=100"), FILE);
      } catch (InputException x) {
        throw cl.restate(x);
      }
    });
    assertTrue(e.getMessage().startsWith("fio command line: --bs=100: "), e.getMessage());
    InputException bad = assertThrows(InputException.class,
        () -> FioCommandLineText.of(List.of("runtime=5")));
    assertEquals("runtime=5", bad.key());
  }
}
