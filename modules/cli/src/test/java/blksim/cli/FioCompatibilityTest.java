package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.workload.fio.FioOptions;
import blksim.workload.fio.FioOptions.Verdict;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** `describe fio` prints the parser's table; the README's section is generated from it. */
class FioCompatibilityTest {

  private static Path readme() {
    Path p = Path.of("").toAbsolutePath();
    while (p != null && !Files.isRegularFile(p.resolve("README.md"))
        || p != null && !Files.isDirectory(p.resolve("modules"))) {
      p = p.getParent();
    }
    if (p == null) {
      throw new IllegalStateException("no README.md above " + Path.of("").toAbsolutePath());
    }
    return p.resolve("README.md");
  }

  @Test
  void readmeSection_isTheGeneratedOne() throws IOException {
    String text = Files.readString(readme());
    int b = text.indexOf(FioCompatibility.BEGIN);
    int e = text.indexOf(FioCompatibility.END);
    assertTrue(b >= 0 && e > b, "README.md has the fio-compatibility markers");
    String section = text.substring(b, e + FioCompatibility.END.length()) + "\n";
    assertEquals(FioCompatibility.markdown(), section, "README.md's fio compatibility section is"
        + " stale: replace it with the output of ./blksim describe fio --markdown");
  }

  @Test
  void describeFio_printsEveryOptionWithItsVerdict_andTheEngines() {
    MainTest.Result r = MainTest.cli("describe", "fio");
    assertEquals(0, r.code(), r.err());
    String out = r.out();
    assertTrue(out.contains("blksim.fio.sections"), "the scenario keys come first");
    assertTrue(out.contains("fio compatibility: " + FioOptions.table().size() + " fio options"),
        out);
    List<String> lines = out.lines().toList();
    for (FioOptions.Option o : FioOptions.table()) {
      String head = "  " + o.name() + (o.engines() == null ? " " : " [");
      assertTrue(lines.stream().anyMatch(l -> l.startsWith(head)
          && l.contains(" " + o.verdict().label() + " ")), o.name());
    }
    assertTrue(lines.stream().anyMatch(l -> l.startsWith("  block_error_percentiles ")
        && l.contains("refused") && l.contains("report option")), out);
    assertTrue(lines.stream().anyMatch(l -> l.startsWith("  verify_async ")
        && l.contains("modelled") && l.contains("verify threads")), out);
    assertTrue(lines.stream().anyMatch(l -> l.startsWith("  bs ") && l.contains("blocksize")
        && l.contains("modelled")), out);
    assertTrue(lines.stream().anyMatch(l -> l.startsWith("  splice ") && l.contains("refused")),
        out);
    assertTrue(out.contains("posixaio") && lines.stream().noneMatch(l -> l.startsWith("  posixaio ")
        && l.contains("refused")), out);
    int counted = FioCompatibility.counts().values().stream().mapToInt(Integer::intValue).sum();
    assertEquals(FioOptions.table().size(), counted);
    assertTrue(FioCompatibility.counts().get(Verdict.NO_EFFECT) > 0);

    MainTest.Result md = MainTest.cli("describe", "fio", "--markdown");
    assertEquals(FioCompatibility.markdown(), md.out());
    assertEquals(2, MainTest.cli("describe", "run", "--markdown").code());
  }
}
