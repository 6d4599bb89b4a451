package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.InputException;
import blksim.kernel.device.BrdParams;
import blksim.kernel.device.IrqMode;
import blksim.kernel.device.NullBlkParams;
import blksim.kernel.device.ZramParams;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScenarioLoaderTest {
  @TempDir Path dir;

  static final String JOB = "[global]\nioengine=psync\nfilename=/dev/nullb0\nbs=4k\n"
      + "rw=randread\nruntime=10ms\ntime_based\n[j]\nnumjobs=2\n";

  Path write(String name, String text) throws IOException {
    Path p = dir.resolve(name);
    Files.writeString(p, text);
    return p;
  }

  Path scenario(String body) throws IOException {
    write("job.fio", JOB);
    return write("s.conf", "blksim {\n"
        + "  machine { cores-per-llc = 2, threads-per-core = 1 }\n"
        + "  devices = [ { type = null_blk, name = nullb0, size = 1G } ]\n"
        + "  fio.job-files = [\"job.fio\"]\n"
        + body + "\n}\n");
  }

  static InputException fails(Path p, String... sets) {
    return assertThrows(InputException.class, () -> ScenarioLoader.load(p, List.of(sets),
        Map.of()));
  }

  @Test
  void schedulerAuto_followsTheKernelMode() {
    // EEVDF replaced CFS in 6.6: every mode from 6.9 on is EEVDF, 4.3 and up to 6.4 are CFS.
    for (String mode : List.of("V6_9_RC", "V6_9", "V6_13")) {
      assertEquals(blksim.kernel.sched.SchedParams.SchedClass.EEVDF,
          ScenarioLoader.schedClass("auto", mode), mode);
    }
    for (String mode : List.of("V4_3_RC1", "PRE_6_5", "V6_5_TO_6_8")) {
      assertEquals(blksim.kernel.sched.SchedParams.SchedClass.CFS,
          ScenarioLoader.schedClass("auto", mode), mode);
    }
  }

  @Test
  void validScenario_loadsWithDefaultsAndJobs() throws IOException {
    Scenario s = ScenarioLoader.load(scenario(""), List.of(), Map.of());
    assertEquals(2, s.topology().cpuCount());
    assertEquals(2, s.jobs().size());
    assertEquals(IrqMode.SOFTIRQ, ((NullBlkParams) s.devices().get(0)).irqmode(), "null_blk's default irqmode");
    assertEquals(10_000, ((NullBlkParams) s.devices().get(0)).completionNs());
    assertEquals(1500, s.sched().ctxSwitchNs());
    assertEquals(1, s.seed());
  }

  @Test
  void specText_isSelfContained_andReadsBackToTheSameScenario() throws IOException {
    Scenario s = ScenarioLoader.load(scenario("seed = 9"), List.of(), Map.of());
    Files.delete(dir.resolve("job.fio"));
    Scenario back = ScenarioLoader.fromSpec(s.spec());
    assertEquals(9, back.seed());
    assertEquals(s.jobs().size(), back.jobs().size());
    assertEquals(s.devices(), back.devices());
    assertEquals(s.spec(), back.spec());
  }

  @Test
  void setOverrides_winOverTheFile_withOrWithoutPrefix() throws IOException {
    Scenario s = ScenarioLoader.load(scenario("seed = 3"),
        List.of("seed=5", "blksim.devices.0.irqmode=timer", "costs.sched.ctx-switch=2us"),
        Map.of());
    assertEquals(5, s.seed());
    assertEquals(IrqMode.TIMER, ((NullBlkParams) s.devices().get(0)).irqmode());
    assertEquals(2000, s.sched().ctxSwitchNs());
  }

  @Test
  void profile_suppliesCosts_andTheScenarioOverridesIt() throws IOException {
    write("p.conf", "blksim.costs.sched { idle-exit = 7us, ctx-switch = 3us }\n");
    Scenario s = ScenarioLoader.load(scenario("profile = \"p.conf\"\n"
        + "costs.sched.ctx-switch = 1us"), List.of(), Map.of());
    assertEquals(7000, s.sched().idleExitNs());
    assertEquals(1000, s.sched().ctxSwitchNs());
  }

  @Test
  void schedTunables_autoScalesByCpuCount_andAValueIsTakenAsInForce() throws IOException {
    Scenario auto = ScenarioLoader.load(scenario(""), List.of(), Map.of());
    // Two CPUs: factor 1 + ilog2(2) = 2.
    assertEquals(12_000_000, auto.sched().schedLatencyNs());
    assertEquals(1_500_000, auto.sched().minGranularityNs());
    assertEquals(2_000_000, auto.sched().wakeupGranularityNs());
    Scenario set = ScenarioLoader.load(scenario(""), List.of("kernel.sched-latency=30ms",
        "kernel.sched-min-granularity=10ms", "kernel.sched-wakeup-granularity=15ms"), Map.of());
    assertEquals(30_000_000, set.sched().schedLatencyNs());
    assertEquals(10_000_000, set.sched().minGranularityNs());
    assertEquals(15_000_000, set.sched().wakeupGranularityNs());
    assertEquals(3, set.sched().schedNrLatency(), "DIV_ROUND_UP(30 ms, 10 ms)");
    Scenario zero = ScenarioLoader.load(scenario("kernel.sched-wakeup-granularity = 0"),
        List.of(), Map.of());
    assertEquals(0, zero.sched().wakeupGranularityNs());
    assertEquals(12_000_000, zero.sched().schedLatencyNs(), "the others stay auto");
  }

  @Test
  void schedLatencyBelowMinGranularity_isRefusedWithBothValues() throws IOException {
    InputException e = fails(scenario("kernel.sched-latency = 1ms"));
    assertEquals("blksim.kernel.sched-latency", e.key());
    assertTrue(e.getMessage().contains("1000000 ns") && e.getMessage().contains("1500000 ns"),
        e.getMessage());
    InputException unit = fails(scenario("kernel.sched-min-granularity = 3"));
    assertEquals("blksim.kernel.sched-min-granularity", unit.key());
    assertTrue(unit.getMessage().contains("needs a unit"), unit.getMessage());
  }

  @Test
  void unknownKey_namesFileLineAndKey() throws IOException {
    InputException e = fails(scenario("machine.coress = 4"));
    assertTrue(e.file().endsWith("s.conf"), e.getMessage());
    assertEquals(5, e.line());
    assertEquals("blksim.machine.coress", e.key());
    assertTrue(e.getMessage().contains("unknown scenario key"), e.getMessage());
  }

  @Test
  void unknownTopLevelKey_isRejected() throws IOException {
    Path p = scenario("");
    Files.writeString(p, Files.readString(p) + "akka { x = 1 }\n");
    InputException e = fails(p);
    assertEquals("akka", e.key());
  }

  @Test
  void valueOutOfRange_statesTheRule() throws IOException {
    InputException e = fails(scenario("machine.threads-per-core = 9"));
    assertEquals("blksim.machine.threads-per-core", e.key());
    assertTrue(e.getMessage().contains("must be in [1, 8], was 9"), e.getMessage());
  }

  @Test
  void durationWithoutUnit_isRejected() throws IOException {
    InputException e = fails(scenario("costs.sched.ctx-switch = 1500"));
    assertTrue(e.getMessage().contains("needs a unit"), e.getMessage());
  }

  @Test
  void wrongEnumValue_listsTheChoices() throws IOException {
    InputException e = fails(scenario("kernel.mode = V7"));
    assertTrue(e.getMessage().contains("V4_3_RC1|PRE_6_5|V6_5_TO_6_8|V6_9_RC|V6_9|V6_13"), e.getMessage());
  }

  @Test
  void unknownDeviceKeyOrType_isRejected() throws IOException {
    InputException e = fails(scenario(""), "devices.0.queue-depth=4");
    assertTrue(e.getMessage().contains("unknown key for a null_blk device"), e.getMessage());
    Path p = scenario("devices = [ { type = floppy, name = fd0 } ]");
    e = fails(p);
    assertTrue(e.getMessage().contains("unknown device type 'floppy'"), e.getMessage());
  }

  @Test
  void jobOnAMissingDevice_namesTheJobFile() throws IOException {
    InputException e = fails(scenario(""), "devices.0.name=nullb1");
    assertTrue(e.file().endsWith("job.fio"), e.getMessage());
    assertEquals("filename", e.key());
  }

  @Test
  void optionNotModelledYet_isAClearError() throws IOException {
    // hipri (IORING_SETUP_IOPOLL) takes O_DIRECT only; the job is buffered (direct=0).
    write("job.fio", JOB.replace("psync", "io_uring") + "hipri\n");
    Path p = dir.resolve("s.conf");
    Files.writeString(p, "blksim { devices = [ { type = null_blk, name = nullb0 } ]\n"
        + " fio.job-files = [\"job.fio\"] }\n");
    InputException e = assertThrows(InputException.class,
        () -> ScenarioLoader.load(p, List.of(), Map.of()));
    assertEquals("hipri", e.key());
    assertEquals(10, e.line(), e.getMessage());
  }

  @Test
  void hoconSyntaxError_namesFileAndLine() throws IOException {
    Path p = write("bad.conf", "blksim {\n  seed = \n  machine { \n");
    InputException e = fails(p);
    assertTrue(e.file().endsWith("bad.conf"), e.getMessage());
    assertTrue(e.line() > 0, e.getMessage());
  }

  @Test
  void missingScenarioFile_isAnInputError() {
    InputException e = fails(dir.resolve("nope.conf"));
    assertTrue(e.getMessage().contains("not found"), e.getMessage());
  }

  @Test
  void badSetSyntax_isAnInputError() throws IOException {
    InputException e = fails(scenario(""), "seed");
    assertEquals("--set", e.file());
  }

  @Test
  void envVariables_expandInJobFiles() throws IOException {
    write("job.fio", JOB.replace("bs=4k", "bs=${BS}"));
    Path p = dir.resolve("s.conf");
    Files.writeString(p, "blksim { devices = [ { type = null_blk, name = nullb0 } ]\n"
        + " fio.job-files = [\"job.fio\"] }\n");
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of("BS", "8k"));
    assertEquals(8192, s.jobs().get(0).bs()[0]);
  }

  @Test
  void brdAndZramDevices_takeTheirKeysAndTheProfileCosts() throws IOException {
    write("job.fio", JOB.replace("/dev/nullb0", "/dev/ram0"));
    Path p = write("s.conf", "blksim {\n"
        + "  devices = [ { type = brd, name = ram0, size = 64M, nowait = true }\n"
        + "    { type = zram, name = zram0, size = 1G, huge-fraction = 0.25 } ]\n"
        + "  costs.brd.per-page-read = 6us\n"
        + "  fio.job-files = [\"job.fio\"]\n}\n");
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    BrdParams brd = (BrdParams) s.devices().get(0);
    assertTrue(brd.nowait());
    assertEquals(6_000, brd.perPageReadNs());
    assertEquals(BrdParams.DEFAULT_FIXED_COST_NS, brd.fixedCostNs());
    ZramParams zram = (ZramParams) s.devices().get(1);
    assertEquals(0.25, zram.hugeFraction());
    assertTrue(!zram.nowait(), "zram had no nowait in May 2023: off by default");
  }

  @Test
  void zramWithoutSize_andBadFraction_areRejected() throws IOException {
    InputException e = fails(scenario("devices = [ { type = zram, name = zram0 } ]"));
    assertTrue(e.getMessage().contains("required key is missing"), e.getMessage());
    e = fails(scenario("devices = [ { type = zram, name = z, size = 1G, huge-fraction = 2 } ]"));
    assertTrue(e.getMessage().contains("huge-fraction must be in [0, 1]"), e.getMessage());
    e = fails(scenario("devices = [ { type = brd, name = r, nowait = maybe } ]"));
    assertTrue(e.getMessage().contains("must be true or false"), e.getMessage());
  }

  @Test
  void bufferedWrites_runThroughThePageCache_withLibaioAndIoUring() throws IOException {
    write("job.fio", JOB.replace("rw=randread", "rw=randwrite"));
    Path p = dir.resolve("s.conf");
    Files.writeString(p, "blksim { devices = [ { type = null_blk, name = nullb0 } ]\n"
        + " fio.job-files = [\"job.fio\"] }\n");
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    assertTrue(s.usesPageCacheWrites(), "a direct=0 writer uses the page cache");
    write("job.fio", JOB.replace("rw=randread", "rw=randwrite") + "ioengine=libaio\n");
    assertTrue(ScenarioLoader.load(p, List.of(), Map.of()).usesPageCacheWrites(),
        "a buffered libaio writer uses the page cache");
    write("job.fio", JOB.replace("rw=randread", "rw=randwrite") + "ioengine=io_uring\n");
    assertTrue(ScenarioLoader.load(p, List.of(), Map.of()).usesPageCacheWrites(),
        "a buffered io_uring writer uses the page cache (its io-wq workers write there)");
    // Still refused: an engine whose buffered device path is not modelled, on its line.
    write("job.fio", JOB.replace("rw=randread", "rw=randwrite") + "ioengine=posixaio\n");
    InputException e = assertThrows(InputException.class,
        () -> ScenarioLoader.load(p, List.of(), Map.of()));
    assertEquals("ioengine", e.key(), "the engine makes buffered I/O unmodelled: its line");
    assertTrue(e.getMessage().contains("posixaio"), e.getMessage());
  }

  @Test
  void jobErrors_nameTheOptionLine_andCheckEverySize() throws IOException {
    // nullb0 with 4 KiB logical blocks; bssplit on line 4 of the job file has a 2 KiB size.
    Path conf = scenario("");
    write("job.fio", "[global]\ndirect=1\nfilename=/dev/nullb0\nbssplit=4k/50:2k/50\n"
        + "[j]\nrw=randread\nsize=1m\n");
    InputException e = fails(conf, "devices.0.bs=4096");
    assertEquals(4, e.line());
    assertEquals("bssplit", e.key());
    write("job.fio", "[j]\ndirect=1\nfilename=/dev/nullb0\nrw=randread\nsize=1m\n"
        + "blockalign=1k\n");
    e = fails(conf, "devices.0.bs=4096");
    assertEquals(6, e.line());
    assertEquals("blockalign", e.key());
  }
}
