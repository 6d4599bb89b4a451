package blksim.cli;

import static blksim.cli.MainTest.cli;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.cli.MainTest.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every bad input of issue 16 item 5: exit code 2, one line on stderr naming the file, line, key
 * or option and the rule, no stack trace, and no run started.
 */
@Timeout(120)
class BadInputTest {
  @TempDir Path tmp;

  private static Path resource(String name) {
    return Path.of("../../scenarios/quickstart/" + name);
  }

  /**
   * Exit 2 with one error line on stderr, which contains every fragment. A fio job file run
   * alone first says what it assumed ("blksim: X is a fio job file ..." and its device lines).
   */
  private static void refused(Result r, String... fragments) {
    assertEquals(2, r.code(), r.err());
    String err = r.err().strip();
    String[] lines = err.split("\n");
    int first = 0;
    if (lines[0].contains("is a fio job file")) {
      first = 1;
      while (first < lines.length && lines[first].startsWith("blksim:   ")) {
        first++;
      }
    }
    assertEquals(lines.length - 1, first, "one error line expected: " + err);
    err = lines[lines.length - 1];
    assertFalse(err.contains("Exception") && err.contains("\tat "), err);
    for (String f : fragments) {
      assertTrue(err.contains(f), "'" + f + "' missing from: " + err);
    }
  }

  private Path write(String name, String text) throws IOException {
    Path p = tmp.resolve(name);
    Files.writeString(p, text);
    return p;
  }

  @Test
  void kernelModeGivenAsAVersion_namesTheModeThatCoversIt() {
    refused(cli("run", resource("nullblk-psync.conf").toString(), "--set", "kernel.mode=V6_6"),
        "blksim.kernel.mode must be one of", "was 'V6_6'", "V6_6 is V6_5_TO_6_8");
  }

  @Test
  void numjobsTotalledOverAJobFile_above4096() throws IOException {
    Path f = write("many.fio", "[global]\nfilename=/dev/nullb0\nrw=read\ndirect=1\n"
        + "[a]\nnumjobs=3000\n[b]\nnumjobs=3000\n");
    refused(cli("run", f.toString(), "--parse-only"), "many.fio", "4096");
  }

  @Test
  void iodepthAbove65536() throws IOException {
    Path f = write("deep.fio", "[a]\nfilename=/dev/nullb0\nrw=read\ndirect=1\niodepth=65537\n");
    refused(cli("run", f.toString(), "--parse-only"), "deep.fio:5: iodepth", "65536");
    Path ok = write("ok.fio", "[a]\nfilename=/dev/nullb0\nrw=read\ndirect=1\niodepth=65536\nsize=1m\n");
    assertEquals(0, cli("run", ok.toString(), "--parse-only").code());
  }

  @Test
  void morePartitionsThanCpus() {
    refused(cli("run", resource("nullblk-psync.conf").toString(), "--partitions=100",
        "--parse-only"), "--partitions", "100 partitions", "CPUs");
  }

  @Test
  void undefinedSubstitution_namesFileAndLine() throws IOException {
    Path f = write("sub.conf", "blksim {\n  seed = ${nope}\n}\n");
    refused(cli("run", f.toString()), "sub.conf:2", "${nope}");
  }

  @Test
  void deepNesting_isOneLine() throws IOException {
    Path f = write("nest.conf", "blksim { a = " + "{ b = ".repeat(5000) + "1" + "}".repeat(5000)
        + "}\n");
    refused(cli("run", f.toString()), "nest.conf", "nested too deeply");
  }

  @Test
  void outputNamingAFileOrAnUnwritablePlace_isRefusedBeforeTheRun() throws IOException {
    // (An existing file is fio's --output FILE: MainTest.)
    Path file = write("afile", "x");
    refused(cli("run", resource("nullblk-psync.conf").toString(), "--output",
        file.resolve("sub").toString()), "--output", "not a directory");
    refused(cli("run", resource("nullblk-psync.conf").toString(), "--output",
        file.resolve("res.json").toString()), "--output", "not a directory");
    assertEquals("x", Files.readString(file));
    refused(cli("sweep", resource("nullblk-psync.conf").toString(), "--vary", "seed=1,2",
        "--output", tmp.toString()), "--output", "is a directory");
  }

  @Test
  void directoryOrBinaryFile_isNamedAsSuch() throws IOException {
    refused(cli("run", tmp.toString()), "is a directory");
    Path bin = tmp.resolve("bin.conf");
    Files.write(bin, new byte[] {0x7f, 'E', 'L', 'F', 0, 0, 1, 2, (byte) 0xff});
    refused(cli("run", bin.toString()), "bin.conf", "not a UTF-8 text file");
    Path dirProfile = write("dp.conf", "blksim {\n  profile = \".\"\n  seed = 1\n}\n");
    refused(cli("run", dirProfile.toString()), "blksim.profile", "is a directory");
    Files.createDirectory(tmp.resolve("jobs.fio"));
    Path dirJob = write("dj.conf", "blksim {\n  fio.job-files = [\"jobs.fio\"]\n}\n");
    refused(cli("run", dirJob.toString()), "blksim.fio.job-files", "is a directory");
    Path binProfile = tmp.resolve("bp.conf");
    Files.write(binProfile, new byte[] {1, 0, 2, 0});
    Path withBinProfile = write("wbp.conf", "blksim {\n  profile = \"bp.conf\"\n}\n");
    refused(cli("run", withBinProfile.toString()), "bp.conf", "binary file");
  }

  @Test
  void missingIncludeRequired_namesTheIncludingFileAndLine() throws IOException {
    Path f = write("inc.conf", "# parts\ninclude required(\"nothere.conf\")\nblksim { seed = 1 }\n");
    refused(cli("run", f.toString()), "inc.conf:2", "nothere.conf", "not found");
    Path g = write("inc2.conf", "blksim {\n  seed = 1\n}\ninclude required(\"gone.conf\")\n");
    refused(cli("run", g.toString()), "inc2.conf:4", "gone.conf", "not found");
  }

  @Test
  void missingReplayTrace_namesFileColonLine_likeEveryOtherKey() throws IOException {
    Path f = write("rs.conf", "blksim {\n  devices = [ { type = null_blk, name = nullb0 } ]\n"
        + "  replay { trace = \"nope.blkparse\", redirect = nullb0 }\n}\n");
    // The rule's "trace file ..." takes the whole key in its first word's place.
    refused(cli("run", f.toString()), "rs.conf:3: blksim.replay.trace file ",
        "nope.blkparse not found");
  }

  @Test
  void aBadSetOverride_isNamedAsTyped_withoutALineNumberGluedToItsValue() {
    // "--set kernel.hz=7:1:" read as if the value were "7:1".
    String s = resource("nullblk-psync.conf").toString();
    refused(cli("run", s, "--set", "kernel.hz=7"), "--set kernel.hz=7: blksim.kernel.hz must be in [100, 1000] Hz, was 7");
    Result r = cli("run", s, "--set", "kernel.hz=7");
    assertFalse(r.err().contains("kernel.hz=7:1"), r.err());
  }

  @Test
  void missingPlainInclude_isRefusedToo_notSilentlyIgnoredAsHoconWould() throws IOException {
    // HOCON drops a missing non-required include without a word: a typo in a shared part's
    // name would run the scenario without it.
    Path f = write("plain.conf", "blksim {\n  seed = 1\n}\ninclude \"common-typo.conf\"\n");
    refused(cli("run", f.toString()), "plain.conf:4", "common-typo.conf", "not found");
    Path g = write("plainfile.conf", "include file(\"gone.conf\")\nblksim { seed = 1 }\n");
    refused(cli("run", g.toString()), "plainfile.conf:1", "gone.conf", "not found");
  }

  @Test
  void optionErrors_nameTheOptionTyped() {
    String s = resource("nullblk-psync.conf").toString();
    refused(cli("run", s, "--partitions=abc"), "--partitions:", "abc");
    refused(cli("run", s, "--wq-monitor=xyz"), "--wq-monitor:", "xyz");
    refused(cli("run", s, "--timehist=abc"), "--timehist:", "abc");
  }

  @Test
  void rangeError_namesTheKeyOnce_onTheCommandLineAndInAFile() throws IOException {
    String s = resource("nullblk-psync.conf").toString();
    Result set = cli("run", s, "--set", "machine.cores-per-llc=0");
    refused(set, "must be in [1, 4096], was 0");
    assertEquals("blksim: --set machine.cores-per-llc=0: blksim.machine.cores-per-llc must be in"
        + " [1, 4096], was 0", set.err().strip());
    Path f = write("llc.conf", "blksim {\n  machine {\n    cores-per-llc = 0\n  }\n}\n");
    Result file = cli("run", f.toString());
    refused(file, "llc.conf:3: blksim.machine.cores-per-llc must be in [1, 4096], was 0");
    assertEquals(1, file.err().split("cores-per-llc", -1).length - 1, file.err());
  }

  @Test
  void windowEndingBeforeItStarts_namesTheOptionAndItsWindow_notTheKeyBehindIt() {
    String s = resource("nullblk-psync.conf").toString();
    String trace = tmp.resolve("never-written.json").toString();
    for (Result r : List.of(cli("run", s, "--timehist", "2@5ms..1ms"),
        cli("run", s, "--perfetto", trace, "--perfetto-window", "5ms..1ms"))) {
      refused(r, "the end (1ms) must be after the start (5ms)");
      assertFalse(r.err().contains("trace.timehist"), r.err());
    }
    assertTrue(cli("run", s, "--timehist", "2@5ms..1ms").err()
        .contains("blksim: --timehist 2@5ms..1ms: the end"));
    assertTrue(cli("run", s, "--perfetto", trace, "--perfetto-window",
        "5ms..1ms").err().contains("blksim: --perfetto-window 5ms..1ms: the end"));
  }

  @Test
  void describeAndLoaderAgree_aProfileIsOptional() throws IOException {
    Result d = cli("describe", "run");
    assertEquals(0, d.code());
    for (String line : d.out().split("\n")) {
      if (line.contains("(required)")) {
        // A key describe calls required must be refused when missing.
        throw new AssertionError("describe lists a top-level required key the loader does not"
            + " require: " + line);
      }
    }
  }

  @Test
  void unknownKey_suggestsTheClosestSpelling_notEveryKey() {
    String s = resource("nullblk-psync.conf").toString();
    Result r = cli("run", s, "--set", "machin.sockets=1");
    refused(r, "blksim.machin.sockets", "did you mean blksim.machine.sockets?");
    assertTrue(r.err().length() < 600, "a short line, not every key: " + r.err());
    refused(cli("run", s, "--map", "/dev/nullb0"), "--map:", "PATH=TARGET");
    refused(cli("run", s, "--section", "nosuch"), "--section:", "nosuch");
    refused(cli("run", ""), "empty path");
  }

  @Test
  void nodePortOutOfRange_namesThePort() {
    refused(cli("node", "--port", "99999"), "--port:", "65535");
  }
}
