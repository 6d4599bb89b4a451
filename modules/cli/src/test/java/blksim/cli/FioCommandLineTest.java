package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.InputException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** fio's job options on the command line ({@code blksim run --name=a --rw=read ...}). */
@Timeout(120)
class FioCommandLineTest {
  @Test
  void options_becomeAJobFile_asFiosParseCmdLine() {
    FioCommandLine c = FioCommandLine.parse(List.of("--direct=1", "--eta=never", "--name=a",
        "--rw=randread", "--time_based", "--name=b", "--bs=8k", "--name=global", "--iodepth=4",
        "--name=c"));
    assertEquals("[global]\ndirect=1\n[a]\nrw=randread\ntime_based\n[b]\nbs=8k\n[global]\n"
        + "iodepth=4\n[c]\n", c.text(), "options before the first --name are global; --eta"
        + " is dropped");
    assertFalse(c.minimal());
    assertTrue(FioCommandLine.parse(List.of("--name=a", "--minimal")).minimal());
  }

  @Test
  void noJob_orNotAnOption_areRefused() {
    InputException none = assertThrows(InputException.class,
        () -> FioCommandLine.parse(List.of("--rw=read", "--name=global")));
    assertTrue(none.getMessage().contains("--name=JOB"), none.getMessage());
    InputException bare = assertThrows(InputException.class,
        () -> FioCommandLine.parse(List.of("--name=a", "-x")));
    assertTrue(bare.getMessage().startsWith("-x: not an option"), bare.getMessage());
    assertThrows(InputException.class, () -> FioCommandLine.parse(List.of("--name=")));
  }

  @Test
  void run_fromTheCommandLine_printsFiosOutput() {
    MainTest.Result r = MainTest.cli("run", "--name=cl", "--filename=/dev/nullb0",
        "--rw=randread", "--bs=4k", "--ioengine=libaio", "--iodepth=4", "--direct=1",
        "--runtime=2ms", "--time_based");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("cl: (groupid=0, jobs=1)"), r.out());
    assertTrue(r.out().contains("ioengine=libaio, iodepth=4"), r.out());
    assertTrue(r.err().contains("fio's options on the command line are a fio job file"),
        r.err());
    MainTest.Result terse = MainTest.cli("run", "--name=cl", "--filename=/dev/nullb0",
        "--runtime=1ms", "--minimal");
    assertEquals(0, terse.code(), terse.err());
    assertTrue(terse.out().startsWith("3;fio-"), terse.out());
  }

  @Test
  void numberIos_boundsAJobWithoutSize_asFioStopsAfterThatManyIos() {
    // No size, runtime or io_size on a 250 GiB null_blk: number_ios alone ends the job.
    MainTest.Result r = MainTest.cli("run", "--name=n", "--filename=/dev/nullb0",
        "--rw=randrw", "--bs=4k", "--direct=1", "--number_ios=200", "--output-format=json");
    assertEquals(0, r.code(), r.err());
    java.util.regex.Matcher m = java.util.regex.Pattern.compile(
        "\"(read|write)\"\\s*:\\s*\\{[^{]*?\"total_ios\"\\s*:\\s*(\\d+)").matcher(r.out());
    long ios = 0;
    int dirs = 0;
    while (m.find() && dirs < 2) {
      ios += Long.parseLong(m.group(2));
      dirs++;
    }
    assertEquals(2, dirs, r.out());
    assertEquals(200, ios, r.out());
  }

  @Test
  void badOption_isNamedAsTyped_exit2() {
    MainTest.Result r = MainTest.cli("run", "--name=cl", "--filename=/dev/nullb0", "--bs=4q");
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().startsWith("blksim: fio command line: --bs=4q: "), r.err());
    assertFalse(r.err().contains("fio-command-line"), "no temporary file name: " + r.err());
    MainTest.Result unknown = MainTest.cli("run", "--name=cl", "--filename=/dev/nullb0",
        "--nosuchoption=1");
    assertEquals(2, unknown.code(), unknown.err());
    assertTrue(unknown.err().contains("--nosuchoption=1"), unknown.err());
    // The option as typed stands for the key: named once, not "--bs=100: bs must ...".
    assertTrue(unknown.err().startsWith("blksim: fio command line: --nosuchoption=1 is an"
        + " unknown fio option (fio refuses it too: Bad option"), unknown.err());
    assertEquals(1, unknown.err().split("nosuchoption", -1).length - 1, unknown.err());
    MainTest.Result bs = MainTest.cli("run", "--name=cl", "--filename=/dev/nullb0", "--bs=100");
    assertEquals(2, bs.code(), bs.err());
    assertEquals("blksim: fio command line: --bs=100: must be a positive multiple of 512, was"
        + " 100", bs.err().strip());
    // A job-level refusal keeps its job in front of the option as typed.
    MainTest.Result paio = MainTest.cli("run", "--name=cl", "--filename=/dev/nullb0",
        "--ioengine=posixaio", "--direct=1", "--size=1m");
    assertEquals(2, paio.code(), paio.err());
    assertTrue(paio.err().contains("\nblksim: fio command line: job 'cl': --ioengine=posixaio is"
        + " modelled by blksim on regular files only"), paio.err());
    assertEquals(1, paio.err().split("ioengine", -1).length - 1, paio.err());
  }

  @Test
  void anNvmeName_runsOnTheNvmeModel_andIsToldWhatItIs() {
    MainTest.Result r = MainTest.cli("run", "--name=n", "--filename=/dev/nvme0n1",
        "--rw=randread", "--bs=4k", "--direct=1", "--size=64k");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.err().contains("/dev/nvme0n1 = { type = nvme"), r.err());
    assertTrue(r.err().contains("a PCIe 4.0 NVMe SSD"), r.err());
    assertFalse(r.err().contains("SATA"), r.err());
    MainTest.Result sd = MainTest.cli("run", "--name=s", "--filename=/dev/sdb",
        "--rw=randread", "--bs=4k", "--direct=1", "--size=64k");
    assertEquals(0, sd.code(), sd.err());
    assertFalse(sd.err().contains("NVMe"), sd.err());
  }

  @Test
  void fiosSpacedForm_isNamedWithTheFix_notTakenForAScenario() {
    MainTest.Result r = MainTest.cli("run", "--name=cl", "--filename=/dev/nullb0",
        "--rw=randread", "--time_based", "--bs", "4k", "--runtime=2ms");
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().startsWith("blksim: fio command line: --bs 4k: blksim reads fio's options"
        + " only as --opt=value (write --bs=4k)"), r.err());
    assertFalse(r.err().contains("only when no SCENARIO|JOBFILE is given"), r.err());
  }

  @Test
  void aJobFileWithFioOptions_takesThemAsItsDefaults_asFioDoes(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    java.nio.file.Path job = dir.resolve("a.fio");
    java.nio.file.Files.writeString(job, "[global]\nioengine=psync\ndirect=1\n"
        + "filename=/dev/nullb0\nbs=4k\n\n[r]\nrw=randread\n");
    MainTest.Result shortRun = MainTest.cli("run", job.toString(), "--time_based",
        "--runtime=2ms", "--output-format=terse");
    assertEquals(0, shortRun.code(), shortRun.err());
    MainTest.Result longRun = MainTest.cli("run", "--time_based", "--runtime=6ms",
        job.toString(), "--output-format=terse");
    assertEquals(0, longRun.code(), longRun.err());
    // terse v3: field 5 is the KiB read, so the longer runtime read about three times more
    long shortKb = Long.parseLong(shortRun.out().trim().split(";")[5]);
    long longKb = Long.parseLong(longRun.out().trim().split(";")[5]);
    assertTrue(longKb > 2 * shortKb, shortKb + " KiB against " + longKb + " KiB");
    // an option of the file wins over the command line's default
    java.nio.file.Files.writeString(job, "[global]\nioengine=psync\ndirect=1\n"
        + "filename=/dev/nullb0\nbs=4k\ntime_based\nruntime=2ms\n\n[r]\nrw=randread\n");
    MainTest.Result fileWins = MainTest.cli("run", job.toString(), "--runtime=6ms",
        "--output-format=terse");
    assertEquals(0, fileWins.code(), fileWins.err());
    assertEquals(shortKb, Long.parseLong(fileWins.out().trim().split(";")[5]));
    MainTest.Result bad = MainTest.cli("run", job.toString(), "--bs=100");
    assertEquals(2, bad.code(), bad.err());
    assertTrue(bad.err().contains("blksim: fio command line: --bs=100: must be a positive"
        + " multiple of 512"), bad.err());
  }

  @Test
  void aFileAndFioOptions_orNothing_areUsageErrors() {
    MainTest.Result both = MainTest.cli("run", "scenarios/quickstart/nullblk-psync.conf",
        "--bs=4k");
    assertEquals(2, both.code(), both.err());
    assertTrue(both.err().contains("Unknown option: '--bs=4k' (fio's job options go with a fio"
        + " JOBFILE"), both.err());
    MainTest.Result none = MainTest.cli("run");
    assertEquals(2, none.code(), none.err());
    assertTrue(none.err().contains("Missing required parameter"), none.err());
  }
}
