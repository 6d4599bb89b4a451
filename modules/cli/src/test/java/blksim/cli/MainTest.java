package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(120)
class MainTest {
  @TempDir Path tmp;

  record Result(int code, String out, String err) {}

  static Result cli(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.execute(args, new PrintWriter(out), new PrintWriter(err));
    return new Result(code, out.toString(), err.toString());
  }

  static Path resource(String name) {
    try {
      return Path.of(MainTest.class.getResource("/scenarios/" + name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void run_printsFioNormalOutput() {
    Result r = cli("run", resource("selfcheck/small.conf").toString(), "--host", "local");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().startsWith("j: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B,"
        + " (T) 4096B-4096B, ioengine=psync, iodepth=1\nfio-3.36\nStarting 1 process\n\n"
        + "j: (groupid=0, jobs=1): err= 0"), r.out());
    assertTrue(r.out().contains("Run status group 0 (all jobs):"), r.out());
    assertTrue(r.out().contains("Disk stats (read/write):"), r.out());
  }

  @Test
  void run_aFioJobFileAlone_writesFilesIntoADefaultFilesystem() throws IOException {
    // Issue 9 item 12: a buffered-write job into a directory, given without a scenario.
    Path job = tmp.resolve("bufwrite.fio");
    Files.writeString(job, "[global]\nbs=64k\nsize=16m\n\n[seqwrite]\ndirectory=/mnt/test\n"
        + "rw=write\nend_fsync=1\n");
    Result r = cli("run", job.toString(), "--host", "local");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("WRITE: bw="), r.out());
    assertTrue(r.out().contains("io=16.0MiB"), r.out());
    assertTrue(r.err().contains("is a fio job file") && r.err().contains("mounted at /"),
        r.err());
    // end_fsync: every dirtied page was written before the job ended.
    Result j = cli("run", job.toString(), "--host", "local", "--output-format=json");
    assertEquals(0, j.code(), j.err());
    assertTrue(j.out().trim().startsWith("{"), "stdout holds only the JSON document");
    assertTrue(j.out().contains("\"nr_written\" : 4096"), j.out());
  }

  @Test
  void run_aJobWithNoFilenameOrDirectory_usesFiosFilesInTheWorkingDirectory() throws IOException {
    // fio's add_job(): no filename= and no directory= means nrfiles files named
    // $jobname.$jobnum.$filenum in the working directory (here / of the default filesystem).
    Path job = tmp.resolve("nofile.fio");
    Files.writeString(job, "[w]\nrw=write\nbs=64k\nsize=4m\nnrfiles=2\nnumjobs=2\n"
        + "group_reporting\n");
    Result r = cli("run", job.toString(), "--host", "local");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.err().contains("job 'w' names no filename= or directory=")
        && r.err().contains("/w.0.0, ...") && r.err().contains("mounted at /"), r.err());
    assertTrue(r.out().contains("w: Laying out IO files (2 files / total 4MiB)"), r.out());
    assertTrue(r.out().contains("io=8192KiB"), r.out()); // two clones of 4 MiB each
  }

  @Test
  void run_aFioJobFileAlone_putsRegularFilesOnTheDefaultFilesystem() throws IOException {
    Path job = tmp.resolve("file.fio");
    Files.writeString(job, "[r]\nfilename=data.bin\nrw=read\nbs=64k\nsize=8m\n");
    Result r = cli("run", job.toString(), "--host", "local");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("READ: bw=") && r.out().contains("io=8192KiB"), r.out());
    assertTrue(r.err().contains("mounted at /"), r.err());
  }

  @Test
  void reportOptions_diskUtilOff_dropsTheDiskStats_andClocksourceIsAccepted() throws IOException {
    Path job = tmp.resolve("du.fio");
    Files.writeString(job, "[global]\nclocksource=cpu\nio_submit_mode=inline\n[r]\n"
        + "filename=/dev/nullb0\ndirect=1\nrw=randread\nsize=4m\n");
    Result with = cli("run", job.toString(), "--host", "local");
    assertEquals(0, with.code(), with.err());
    assertTrue(with.out().contains("Disk stats (read/write):"), with.out());
    Files.writeString(job, Files.readString(job) + "disk_util=0\n");
    Result without = cli("run", job.toString(), "--host", "local");
    assertEquals(0, without.code(), without.err());
    assertFalse(without.out().contains("Disk stats"), without.out());
    Files.writeString(job, "[r]\nfilename=/dev/nullb0\nio_submit_mode=offload\nsize=4m\n");
    Result off = cli("run", job.toString(), "--host", "local");
    assertEquals(2, off.code(), off.err());
    assertTrue(off.err().contains("du.fio:3:") && off.err().contains("offload"), off.err());
  }

  @Test
  void run_aFioJobFileAlone_refusesWhatNeedsAScenario() throws IOException {
    Path job = tmp.resolve("bad.job");
    Files.writeString(job, "[x]\nfilename=/dev/zero\nrw=read\n");
    Result r = cli("run", job.toString(), "--host", "local");
    assertEquals(2, r.code(), r.err());
    // /dev/zero is a character device: as fio on Linux, a job on it needs size=.
    assertTrue(r.err().contains("bad.job:1: job 'x': size is needed on /dev/zero")
        && r.err().contains("you need to specify it"), r.err());
    Files.writeString(job, "[global]\nrw=read\nfilename=/dev/mapper/x\n\n[x]\nsize=1m\n");
    Result g = cli("run", job.toString(), "--host", "local");
    assertEquals(2, g.code(), g.err());
    assertTrue(g.err().contains("bad.job:3: job 'x': filename=/dev/mapper/x needs a scenario"), g.err());
    Path dev = tmp.resolve("dev.fio");
    Files.writeString(dev, "[r]\nfilename=/dev/nvme0n1\nrw=randread\ndirect=1\nbs=4k\n"
        + "size=4m\n");
    Result ok = cli("run", dev.toString(), "--host", "local");
    assertEquals(0, ok.code(), ok.err());
    assertTrue(ok.err().contains("/dev/nvme0n1 = { type = nvme"), ok.err());
    assertTrue(ok.out().contains("READ: bw="), ok.out());
  }

  @Test
  void run_onTheClusterHost_givesTheSameJsonAsLocal() {
    String scen = resource("selfcheck/small.conf").toString();
    Result local = cli("run", scen, "--host", "local", "--output-format=json");
    Result cluster = cli("run", scen, "--output-format=json");
    assertEquals(0, cluster.code(), cluster.err());
    assertEquals(blksim.report.fio.FioJsonReporter.withoutWallClock(local.out()),
        blksim.report.fio.FioJsonReporter.withoutWallClock(cluster.out()));
  }

  @Test
  void runWithOutput_writesJsonTextAndScenarioAtomically() throws IOException {
    Path dir = tmp.resolve("out");
    Result r = cli("run", resource("selfcheck/small.conf").toString(), "--host", "local",
        "--output", dir.toString(), "--output-format=json");
    assertEquals(0, r.code(), r.err());
    assertTrue(Files.readString(dir.resolve("fio.json")).contains("\"jobs\""));
    assertTrue(Files.readString(dir.resolve("fio.txt")).contains("Run status group 0"));
    assertTrue(Files.readString(dir.resolve("scenario.conf")).contains("nullb0"));
    try (Stream<Path> s = Files.list(dir)) {
      assertEquals(List.of("fio.json", "fio.txt", "scenario.conf"),
          s.map(p -> p.getFileName().toString()).sorted().toList(), "no temporary files left");
    }
  }

  @Test
  void runWithOutputFile_writesWhatStdoutWouldGet_asFiosOutputDoes() throws IOException {
    String scen = resource("selfcheck/small.conf").toString();
    Result plain = cli("run", scen, "--host", "local", "--output-format=json");
    Path file = tmp.resolve("res.json");
    Result r = cli("run", scen, "--host", "local", "--output=" + file, "--output-format=json");
    assertEquals(0, r.code(), r.err());
    assertEquals("", r.out(), "nothing on stdout");
    assertTrue(Files.isRegularFile(file));
    assertEquals(blksim.report.fio.FioJsonReporter.withoutWallClock(plain.out()),
        blksim.report.fio.FioJsonReporter.withoutWallClock(Files.readString(file)));
    // An existing file without an extension is a file too, and is replaced.
    Path existing = tmp.resolve("results");
    Files.writeString(existing, "old");
    r = cli("run", scen, "--host", "local", "--output", existing.toString());
    assertEquals(0, r.code(), r.err());
    assertTrue(Files.readString(existing).contains("Run status group 0"));
    try (Stream<Path> s = Files.list(tmp)) {
      assertTrue(s.noneMatch(p -> p.getFileName().toString().endsWith(".tmp")),
          "no temporary files left");
    }
    // A new name with another extension is a directory, as before.
    Path dir = tmp.resolve("run-1.5");
    r = cli("run", scen, "--host", "local", "--output", dir.toString());
    assertEquals(0, r.code(), r.err());
    assertTrue(Files.isRegularFile(dir.resolve("fio.json")));
    // A file in a directory that does not exist: refused before the run.
    r = cli("run", scen, "--host", "local", "--output", tmp.resolve("no/such/res.json").toString());
    assertEquals(2, r.code());
    assertTrue(r.err().contains("--output") && r.err().contains("not a directory"), r.err());
  }

  @Test
  void failedRun_leavesNoOutputBehind() {
    Path dir = tmp.resolve("never");
    Result r = cli("run", resource("selfcheck/small.conf").toString(), "--host", "local",
        "--output", dir.toString(), "--set", "machine.sockets=0");
    assertEquals(2, r.code());
    assertFalse(Files.exists(dir.resolve("fio.json")));
  }

  @Test
  void badScenarioKey_exitsWith2AndOneLineNamingTheKey() throws IOException {
    Path s = tmp.resolve("s.conf");
    Files.writeString(s, Files.readString(resource("selfcheck/small.conf"))
        .replace("blksim {", "blksim {\n  sede = 3"));
    Result r = cli("run", s.toString(), "--host", "local");
    assertEquals(2, r.code());
    assertEquals(1, r.err().strip().lines().count(), r.err());
    assertTrue(r.err().contains("s.conf:3: blksim.sede: unknown scenario key"), r.err());
  }

  @Test
  void unknownFioOption_exitsWith2() throws IOException {
    Path s = tmp.resolve("s.conf");
    Files.writeString(s, Files.readString(resource("selfcheck/small.conf"))
        .replace("bs=4k", "bs=4k\nblock_error_percentiles=1"));
    Result r = cli("run", s.toString(), "--host", "local");
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains("block_error_percentiles"), r.err());
  }

  @Test
  void usageErrors_exitWith2() {
    assertEquals(2, cli("run").code());
    assertEquals(2, cli("run", "x.conf", "--bogus").code());
    Result r = cli("run", "missing.conf");
    assertEquals(2, r.code());
    assertTrue(r.err().contains("missing.conf") && r.err().contains("not found"), r.err());
    assertEquals(2, cli("run", resource("selfcheck/small.conf").toString(),
        "--output-format=xml").code());
    assertEquals(2, cli("run", resource("selfcheck/small.conf").toString(),
        "--partitions=zero").code());
  }

  /**
   * The scenario part runs one partition and one per NUMA node: a machine whose profile has an
   * SMT slowdown refuses a plain count of partitions, which used to end the benchmark there.
   */
  @Test
  void benchScenario_onAnSmtMachine_runsOnePartitionAndOnePerNode() {
    Result r = cli("bench", "--only=scenario", "--scenario="
        + Path.of("../../scenarios/nowait/brd-nowait-off-2jobs.conf"), "--repeat=1");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("scenario brd-nowait-off-2jobs.conf, partitions=one: "), r.out());
    assertTrue(r.out().contains("scenario brd-nowait-off-2jobs.conf, partitions=node: "),
        r.out());
  }

  /**
   * The scaling benchmark on tiny machines: a line per size with the same number of simulated
   * I/Os (within the rounding of the runtime) and the ratio to the first size; the host's
   * memory latency before and after the runs; bad sizes exit 2.
   */
  @Test
  void benchScaling_printsALinePerSizeWithItsRatio() {
    String home = System.getProperty("blksim.home");
    Result r;
    try {
      // the tests run in modules/cli; the benchmark's scenario is the project's
      System.setProperty("blksim.home", Path.of("../..").toAbsolutePath().normalize().toString());
      r = cli("bench", "--only=scaling", "--scaling-cpus=4,8", "--scaling-cpu-time=2ms",
          "--scaling-engines=psync", "--repeat=1");
    } finally {
      if (home == null) {
        System.clearProperty("blksim.home");
      } else {
        System.setProperty("blksim.home", home);
      }
    }
    assertEquals(0, r.code(), r.err());
    java.util.regex.Matcher m = java.util.regex.Pattern.compile(
        "scaling psync +(\\d+) CPUs, ([0-9,]+) simulated I/Os in (\\d+) us: [0-9,]+ wall ns per"
            + " I/O .*x([0-9.]+) of 4 CPUs").matcher(r.out());
    List<String> sizes = new java.util.ArrayList<>();
    List<Long> ios = new java.util.ArrayList<>();
    while (m.find()) {
      sizes.add(m.group(1) + "/" + m.group(3));
      ios.add(Long.parseLong(m.group(2).replace(",", "")));
      if (sizes.size() == 1) {
        assertEquals("1.00", m.group(4));
      }
    }
    assertEquals(List.of("4/500", "8/250"), sizes, r.out());
    java.util.regex.Matcher mem = java.util.regex.Pattern.compile("memory   dependent load \\((before"
        + "|after) the runs\\) at 1 / 4 / 16 / 64 MiB of working set: (\\d+) / (\\d+) / (\\d+) /"
        + " (\\d+) ns\n").matcher(r.out());
    List<String> when = new java.util.ArrayList<>();
    while (mem.find()) {
      when.add(mem.group(1));
      for (int g = 2; g <= 5; g++) {
        assertTrue(Integer.parseInt(mem.group(g)) > 0, mem.group());
      }
    }
    assertEquals(List.of("before", "after"), when, r.out());
    assertTrue(r.out().indexOf("(before") < r.out().indexOf("scaling psync")
        && r.out().indexOf("(after") > r.out().lastIndexOf("scaling psync"), r.out());
    assertTrue(ios.get(0) > 0 && Math.abs(ios.get(0) - ios.get(1)) <= ios.get(0) / 3,
        "about the same I/Os at both sizes: " + ios);
    r = cli("bench", "--only=scaling", "--scaling-cpus=6");
    assertEquals(2, r.code());
    assertTrue(r.err().contains("--scaling-cpus") && r.err().contains("6"), r.err());
  }

  @Test
  void badInputsFoundByTrying_exitWith2AndSayWhy() throws IOException {
    Path broken = tmp.resolve("broken.conf");
    Files.writeString(broken, "# a scenario\nblksim {\n  seed = 1\n");
    Result r = cli("run", broken.toString());
    assertEquals(2, r.code());
    assertTrue(r.err().contains("not valid HOCON") && r.err().contains("broken.conf"), r.err());
    r = cli("bench", "--only=nosuch");
    assertEquals(2, r.code());
    assertTrue(r.err().contains("--only") && r.err().contains("nosuch"), r.err());
    Path many = tmp.resolve("many.fio");
    Files.writeString(many, "[a]\nfilename=/dev/nullb0\nrw=read\ndirect=1\nnumjobs=5000\n");
    r = cli("run", many.toString(), "--parse-only");
    assertEquals(2, r.code());
    assertTrue(r.err().contains("many.fio:5: job 'a': numjobs makes") && r.err().contains("4096"), r.err());
    Path trim = tmp.resolve("trim.fio");
    Files.writeString(trim, "[t]\nfilename=/dev/nullb0\nrw=randtrim\ndirect=1\n");
    r = cli("run", trim.toString(), "--parse-only");
    assertEquals(2, r.code(), "randtrim was issued as writes");
    assertTrue(r.err().contains("trim.fio:3: job 't': rw=randtrim") && r.err().contains("zonemode=zbd"), r.err());
  }

  @Test
  void map_pointsAJobFilesPathsAtTheScenariosDevices_andChoosesDefaultDeviceTypes()
      throws IOException {
    Path job = tmp.resolve("user.fio");
    Files.writeString(job, "[a]\nfilename=/dev/sdb  # the user's disk\nrw=randread\n"
        + "direct=1\nruntime=2ms\ntime_based\n");
    // a job file alone: /dev/sdb becomes a null_blk rather than the default SSD
    Result r = cli("run", job.toString(), "--map", "/dev/sdb=null_blk");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.err().contains("/dev/sdb = { type = null_blk"), r.err());
    // or is renamed to a device the default machine makes by its name
    r = cli("run", job.toString(), "--map", "/dev/sdb=ram0");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.err().contains("/dev/ram0 = { type = brd"), r.err());
    assertTrue(r.out().contains("ram0: ios="), r.out());
    // a scenario: the job's /dev/sdb runs on the scenario's nullb0
    Path sc = tmp.resolve("s.conf");
    Files.writeString(sc, "blksim {\n  machine { cores-per-llc = 2, threads-per-core = 1 }\n"
        + "  devices = [ { type = null_blk, name = nullb0 } ]\n"
        + "  fio.job-files = [\"user.fio\"]\n}\n");
    r = cli("run", sc.toString());
    assertEquals(2, r.code(), "unmapped /dev/sdb is no device of the scenario: " + r.err());
    r = cli("run", sc.toString(), "--map", "/dev/sdb=nullb0");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("nullb0: ios="), r.out());
    r = cli("run", sc.toString(), "--map", "sdb=nullb0");
    assertEquals(2, r.code());
    assertTrue(r.err().contains("--map: ") && r.err().contains("absolute"), r.err());
  }

  @Test
  void json_hasZoneResets_forZbdWritersOnly_asFiosCountZoneResets() throws IOException {
    Path zbd = tmp.resolve("zbd.fio");
    Files.writeString(zbd, "[w]\nfilename=/dev/sdb\nzonemode=zbd\ndirect=1\nrw=write\n"
        + "bs=1M\nsize=4z\nioengine=psync\n");
    Result r = cli("run", zbd.toString(), "--output-format=json", "--set", "max-time=200ms");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("\"zone_resets\" :") || r.out().contains("\"zone_resets\":"),
        r.out());
    Path plain = tmp.resolve("plain.fio");
    Files.writeString(plain, "[w]\nfilename=/dev/nullb0\ndirect=1\nrw=write\nruntime=1ms\n"
        + "time_based\n");
    r = cli("run", plain.toString(), "--output-format=json");
    assertEquals(0, r.code(), r.err());
    assertTrue(!r.out().contains("zone_resets"), "not a zbd job");
  }

  @Test
  void sweep_takesAFioJobFileAlone_asRunDoes() throws IOException {
    Path job = tmp.resolve("j.fio");
    Files.writeString(job, "[a]\nfilename=/dev/nullb0\nrw=randread\ndirect=1\n"
        + "runtime=2ms\ntime_based\n");
    Result r = cli("sweep", job.toString(), "--vary", "seed=1,2");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().lines().count() >= 3, r.out());
    r = cli("sweep", job.toString(), "--vary", "seed=1,2", "--map", "/dev/nullb0=ram0");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.err().contains("/dev/ram0 = { type = brd"), r.err());
  }

  @Test
  void sweep_runsEveryCombination_inOrder_andTheFiguresFollowTheVariedKey() {
    Result r = cli("sweep", resource("selfcheck/small.conf").toString(), "--host", "local",
        "--vary", "devices.0.completion-nsec=10us,40us", "--vary", "kernel.preempt=none,full",
        // the exact difference below needs the timer to fire at its expiry, not after a draw
        "--set", "costs.timer.hrtimer-expiry=0");
    assertEquals(0, r.code(), r.err());
    List<String> lines = r.out().lines().toList();
    assertEquals(5, lines.size(), r.out());
    assertTrue(lines.get(0).startsWith("devices.0.completion-nsec  kernel.preempt")
        && lines.get(0).contains("IOPS") && lines.get(0).contains("clat ns"), lines.get(0));
    assertTrue(lines.get(1).startsWith("10us") && lines.get(1).contains("none"), lines.get(1));
    assertTrue(lines.get(2).startsWith("10us") && lines.get(2).contains("full"), lines.get(2));
    assertTrue(lines.get(4).startsWith("40us") && lines.get(4).contains("full"), lines.get(4));
    double clat10 = lastNumber(lines.get(1));
    double clat40 = lastNumber(lines.get(3));
    assertEquals(30_000, clat40 - clat10, 1, "a psync read waits out the timer: " + r.out());
    assertTrue(r.err().contains("sweep: run 4 of 4 (devices.0.completion-nsec=40us,"
        + " kernel.preempt=full)"), r.err());
  }

  private static double lastNumber(String line) {
    String[] f = line.trim().split("\\s+");
    return Double.parseDouble(f[f.length - 1]);
  }

  @Test
  void sweep_csvWithChosenMetrics_goesToStdoutAndAtomicallyToTheFile() throws Exception {
    Path file = tmp.resolve("out/sweep.csv");
    Result r = cli("sweep", resource("selfcheck/small.conf").toString(), "--host", "local",
        "--vary", "devices.0.irqmode=none,timer", "--format", "csv", "--output", file.toString(),
        "--metric", "iops=jobs.0.read.iops", "--metric", "jobs.0.ctx / jobs.0.read.total_ios",
        "--metric", "p99=jobs.0.read.clat_ns.percentile.99.000000");
    assertEquals(0, r.code(), r.err());
    List<String> lines = r.out().lines().toList();
    assertEquals("devices.0.irqmode,iops,\"jobs.0.ctx / jobs.0.read.total_ios\",p99",
        lines.get(0));
    String[] none = lines.get(1).split(",");
    String[] timer = lines.get(2).split(",");
    assertEquals("none", none[0]);
    assertEquals("0", none[2], "no context switch when null_blk completes inline");
    assertEquals("timer", timer[0]);
    assertEquals("1", timer[2], "one per I/O with timer completions");
    assertTrue(Double.parseDouble(timer[3]) >= 10_000,
        "a percentile key with dots is found; the 10 us timer bounds it: " + lines.get(2));
    assertEquals(r.out(), Files.readString(file));
    try (var s = Files.list(file.getParent())) {
      assertEquals(List.of(file), s.toList(), "no temporary file left behind");
    }
  }

  @Test
  void sweep_badValue_stopsBeforeAnyRun_withExit2_namingTheVaryOption() {
    Result r = cli("sweep", resource("selfcheck/small.conf").toString(), "--host", "local",
        "--vary", "devices.0.irqmode=none,bogus");
    assertEquals(2, r.code());
    assertTrue(r.err().contains("--vary devices.0.irqmode=bogus")
        && r.err().contains("none|softirq|timer"), r.err());
    assertFalse(r.err().contains("sweep: run"), "nothing ran: " + r.err());
    assertEquals("", r.out());
    // run 1 starts while the others load: on the cluster host too, it is stopped, not reported
    Result c = cli("sweep", resource("selfcheck/small.conf").toString(),
        "--vary", "devices.0.irqmode=none,bogus");
    assertEquals(2, c.code(), c.err());
    assertFalse(c.err().contains("sweep: run") || c.err().contains("Exception"), c.err());
    assertEquals("", c.out());
    assertEquals(2, cli("sweep", resource("selfcheck/small.conf").toString(), "--vary",
        "devices.0.irqmode").code());
    assertEquals(2, cli("sweep", resource("selfcheck/small.conf").toString(), "--vary",
        "devices.0.irqmode=none,,timer").code());
    assertEquals(2, cli("sweep", resource("selfcheck/small.conf").toString(), "--host", "local",
        "--vary", "devices.0.irqmode=none", "--metric", "jobs.0.nope").code());
  }

  @Test
  @Timeout(60)
  void sweepJoin_badValue_isRefusedBeforeAnyNodeStarts_withOneLine() {
    // Port 1: nothing listens there, so a join that started would fail slowly, not with exit 2.
    int joins = SweepCommand.JOINS_STARTED.get();
    Result r = cli("sweep", resource("selfcheck/small.conf").toString(), "--vary",
        "devices.0.irqmode=none,softirq,bogus", "--join", "127.0.0.1:1", "--nodes", "3");
    assertEquals(2, r.code(), r.err());
    assertEquals(1, r.err().strip().lines().count(), r.err());
    assertTrue(r.err().contains("--vary devices.0.irqmode=bogus")
        && r.err().contains("none|softirq|timer"), r.err());
    assertEquals(joins, SweepCommand.JOINS_STARTED.get(), "no cluster node was started");
    assertEquals("", r.out());
  }

  @Test
  @Timeout(60)
  void runJoin_nothingListening_exit2_blksimsOneLine_noPekkoLogLinesOnStderr() {
    // Port 1: nothing listens there; the join fails once it has been refused for 10 s.
    java.io.PrintStream saved = System.err;
    java.io.ByteArrayOutputStream sysErr = new java.io.ByteArrayOutputStream();
    Result r;
    System.setErr(new java.io.PrintStream(sysErr, true, java.nio.charset.StandardCharsets.UTF_8));
    try {
      r = cli("run", resource("selfcheck/small.conf").toString(), "--join", "127.0.0.1:1");
    } finally {
      System.setErr(saved);
    }
    assertEquals(2, r.code(), r.err() + sysErr);
    assertEquals(1, r.err().strip().lines().count(), r.err());
    assertTrue(r.err().startsWith("blksim: --join 127.0.0.1:1: this node did not join")
        && r.err().contains("nothing is listening at 127.0.0.1:1"), r.err());
    String logged = sysErr.toString(java.nio.charset.StandardCharsets.UTF_8);
    assertFalse(logged.contains("WARN") || logged.contains("pekko"), logged);
    assertEquals("", r.out());
  }

  @Test
  void help_isAvailableOnEveryCommand() {
    for (String c : new String[] {"run", "sweep", "validate", "describe", "bench"}) {
      Result r = cli(c, "--help");
      assertEquals(0, r.code(), c);
      assertTrue(r.out().contains("Usage: blksim " + c), r.out());
    }
  }

  @Test
  void describe_listsParametersWithDefaults_andRejectsUnknownComponents() {
    Result r = cli("describe", "null_blk");
    assertEquals(0, r.code());
    assertTrue(r.out().contains("blksim.devices.N.hw-queue-depth"), r.out());
    assertTrue(r.out().contains("64"), r.out());
    assertFalse(r.out().contains("ctx-switch"), "only the chosen component");
    assertEquals(2, cli("describe", "floppy").code());
  }

  @Test
  void help_statesTheDefaultsOfSeedPartitionsAndRepeat() {
    // picocli wraps at any space or dot: compare without whitespace
    String run = cli("run", "--help").out().replaceAll("\\s+", "");
    assertTrue(run.contains("blksim.seed,whosedefaultis1"), run);
    assertTrue(run.contains("blksim.partitions,whosedefaultisauto:2partitions"), run);
    String bench = cli("bench", "--help").out().replaceAll("\\s+", "");
    assertTrue(bench.contains("--repeat=Nrunsperfigure,ofwhichthemedianisreported(default3)"),
        bench);
  }

  @Test
  void describeHelp_namesEveryComponentDescribeAccepts() {
    String help = cli("describe", "--help").out();
    String footer = help.substring(help.indexOf("Components:")).replaceAll("\\s+", " ");
    for (String c : new String[] {"run", "ssd", "disk", "zoned-disk", "btrfs", "replay", "cache"}) {
      assertEquals(0, cli("describe", c).code(), c);
      assertTrue(footer.matches(".*[ ,]" + c + "(,.*|\\s*)"), c + " missing from: " + footer);
    }
  }

  @Test
  void describe_listsTheFilesystemKeysAndCosts() {
    Result r = cli("describe", "xfs");
    assertEquals(0, r.code());
    assertTrue(r.out().contains("blksim.filesystems.N.p-contig"), r.out());
    assertTrue(r.out().contains("blksim.filesystems.N.ag-count"), r.out());
    assertTrue(r.out().contains("blksim.costs.xfs.writeback-per-inode"), r.out());
    assertTrue(r.out().contains("25000ns"), "c_wb's default: " + r.out());
  }

  @Test
  void validate_comparesFiguresAndMarksPredictions() {
    Result r = cli("validate", "--host", "local", "--scenarios",
        resource("selfcheck/small.conf").getParent().getParent().toString(), "selfcheck");
    assertEquals(1, r.code(), "one figure is out of tolerance: " + r.out() + r.err());
    List<String> lines = r.out().lines().toList();
    assertEquals(9, lines.size(), r.out());
    assertTrue(lines.get(1).contains("PASS (calibration)"), lines.get(1));
    assertTrue(lines.get(2).contains("PASS"), "one context switch per psync I/O: " + lines.get(2));
    assertTrue(lines.get(3).contains("FAIL"), lines.get(3));
    assertTrue(lines.get(4).contains("(withheld)") && lines.get(4).contains("PREDICTION"),
        lines.get(4));
    assertEquals("", lines.get(5));
    assertEquals("selfcheck: 2 of 3 compared figures within tolerance, 1 prediction",
        lines.get(6));
    assertTrue(lines.get(7).startsWith("  FAIL small.conf never: simulated ")
        && lines.get(7).endsWith(" of published 1.000 (tolerance 1%)"), lines.get(7));
    assertTrue(lines.get(8).endsWith("selfcheck" + java.io.File.separator + "README.md"),
        "points to the experiment's README when a figure fails: " + lines.get(8));
  }

  @Test
  void validate_unknownExperiment_exitsWith2() {
    Result r = cli("validate", "--scenarios",
        resource("selfcheck/small.conf").getParent().getParent().toString(), "nowait");
    assertEquals(2, r.code());
    assertTrue(r.err().contains("selfcheck"), "lists the experiments: " + r.err());
  }

  @Test
  void wqMonitor_printsTheTableAndDump_andAddsThemToTheJson() {
    String scen = resource("det/dm-delay.conf").toString();
    Result text = cli("run", scen, "--host", "local", "--wq-monitor=5ms");
    assertEquals(0, text.code(), text.err());
    assertTrue(text.out().contains("total  infl  CPUtime CPUitsv CMW/RPR  mayday rescued"),
        text.out());
    assertTrue(text.out().contains("kdelayd"), "the dm-delay work queue is listed");
    assertTrue(text.out().contains("Worker Pools"), "wq_dump summary at the end");
    Result json = cli("run", scen, "--host", "local", "--wq-monitor=5ms", "--output-format=json");
    @SuppressWarnings("unchecked")
    java.util.Map<String, Object> m =
        (java.util.Map<String, Object>) blksim.report.json.JsonReader.parse(json.out());
    assertTrue(((List<?>) m.get("wq_monitor")).size() >= 3, "one entry per 5 ms of 20 ms");
    assertTrue(m.containsKey("jobs") && m.containsKey("wq_dump"));
  }

  @Test
  void eachJobPrintsItsOwnPid_theTidOfItsSimulatedTask() throws IOException {
    // fio forks each job (with thread=1 it prints each thread's tid): pids are distinct across
    // sections and clones, and they are the tids run --threads shows for the job.
    Path job = tmp.resolve("pids.fio");
    Files.writeString(job, "[global]\nfilename=/dev/nullb0\nsize=256k\nrw=read\n"
        + "[a]\nnumjobs=2\n[b]\nthread=1\n");
    Result text = cli("run", job.toString(), "--host", "local");
    assertEquals(0, text.code(), text.err());
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\n(\\w+): \\(groupid=\\d+,"
        + " jobs=1\\): err= 0: pid=(\\d+):").matcher("\n" + text.out());
    java.util.Map<Integer, String> printed = new java.util.TreeMap<>();
    while (m.find()) {
      assertEquals(null, printed.put(Integer.parseInt(m.group(2)), m.group(1)), "pid reused: "
          + text.out());
    }
    assertEquals(3, printed.size(), text.out());
    Result json = cli("run", job.toString(), "--host", "local", "--output-format=json");
    @SuppressWarnings("unchecked")
    java.util.Map<String, Object> doc =
        (java.util.Map<String, Object>) blksim.report.json.JsonReader.parse(json.out());
    java.util.Map<Integer, String> tasks = new java.util.TreeMap<>();
    for (Object o : (List<?>) ((java.util.Map<?, ?>) doc.get("blksim")).get("threads")) {
      java.util.Map<?, ?> t = (java.util.Map<?, ?>) o;
      String comm = String.valueOf(t.get("comm"));
      if (comm.equals("a") || comm.equals("b")) {
        tasks.put(((Number) t.get("tid")).intValue(), comm);
      }
    }
    assertEquals(tasks, printed, "pid= of each job block = its task's tid");
  }

  @Test
  void threads_printsEveryThreadGroup_andTheJsonListsEachThread() {
    String scen = resource("det/nowait.conf").toString();
    Result text = cli("run", scen, "--host", "local", "--threads");
    assertEquals(0, text.code(), text.err());
    String table = text.out().substring(text.out().indexOf("\nThreads ("));
    assertTrue(table.contains("iou-wrk-N"), "the io-wq workers fio cannot see: " + table);
    assertTrue(table.contains("wait%"), table);
    Result plain = cli("run", scen, "--host", "local");
    assertFalse(plain.out().contains("\nThreads ("), "only with --threads");
    Result json = cli("run", scen, "--host", "local", "--output-format=json");
    @SuppressWarnings("unchecked")
    java.util.Map<String, Object> m =
        (java.util.Map<String, Object>) blksim.report.json.JsonReader.parse(json.out());
    java.util.Map<?, ?> globals = (java.util.Map<?, ?>) m.get("global options");
    assertEquals("io_uring", globals.get("ioengine"), "fio's [global] section: " + globals);
    assertEquals("5ms", globals.get("runtime"));
    @SuppressWarnings("unchecked")
    java.util.Map<String, Object> b = (java.util.Map<String, Object>) m.get("blksim");
    List<?> threads = (List<?>) b.get("threads");
    assertTrue(threads.stream().anyMatch(t -> String.valueOf(((java.util.Map<?, ?>) t)
        .get("comm")).startsWith("iou-wrk-")), "workers in the JSON: " + threads);
    for (Object o : threads) {
      java.util.Map<?, ?> t = (java.util.Map<?, ?>) o;
      assertTrue(t.keySet().containsAll(List.of("cpu", "tid", "comm", "nice", "usr_ns", "sys_ns",
          "nvcsw", "nivcsw", "run_delay_ns", "pcount")), t.toString());
    }
  }

  @Test
  void timehist_printsTheTracedCpusSwitches_inTheWindow_andAddsThemToTheJson() {
    String scen = resource("det/nowait.conf").toString();
    Result text = cli("run", scen, "--host", "local", "--timehist", "5@1ms..1.1ms");
    assertEquals(0, text.code(), text.err());
    String table = text.out().substring(text.out().indexOf("\nsched timehist"));
    List<String> lines = table.lines().filter(l -> l.matches("\\s+\\d+\\.\\d{9} \\[.*"))
        .toList();
    assertTrue(lines.size() > 5, table);
    for (String l : lines) {
      assertTrue(l.contains("[0005]"), "only CPU 5: " + l);
      double t = Double.parseDouble(l.trim().split(" ")[0]);
      assertTrue(t >= 0.001 && t < 0.0011, "in the window: " + l);
    }
    assertTrue(table.contains("iou-wrk-"), "the io-wq worker's turns: " + table);
    Result json = cli("run", scen, "--host", "local", "--timehist", "4-5@1ms..1.1ms",
        "--output-format=json");
    @SuppressWarnings("unchecked")
    java.util.Map<String, Object> m =
        (java.util.Map<String, Object>) blksim.report.json.JsonReader.parse(json.out());
    java.util.Map<?, ?> th = (java.util.Map<?, ?>) m.get("sched_timehist");
    List<?> sw = (List<?>) th.get("switches");
    assertTrue(sw.size() > lines.size(), "two CPUs record more than one");
    Result bad = cli("run", scen, "--host", "local", "--timehist", "0-99");
    assertEquals(2, bad.code());
    // The error names the option typed, not the scenario key behind it (issue 16 item 5).
    assertTrue(bad.err().contains("--timehist: ") && bad.err().contains("CPU 99"), bad.err());
    Result badWindow = cli("run", scen, "--host", "local", "--timehist", "0@2ms..1ms");
    assertEquals(2, badWindow.code());
    assertTrue(badWindow.err().contains("--timehist 0@2ms..1ms: the end (1ms) must be after the"
        + " start (2ms)"), badWindow.err());
  }

  @Test
  void wakePlacementInTheLlc_refusesPartitioningsThatSplitAnLlc() {
    String scen = resource("det/nowait.conf").toString();
    Result r = cli("run", scen, "--host", "local", "--set", "kernel.wake-placement=llc",
        "--partitions", "cpu");
    assertEquals(2, r.code(), r.out());
    assertTrue(r.err().contains("kernel.wake-placement") && r.err().contains("one, node or llc"),
        r.err());
    Result ok = cli("run", scen, "--host", "local", "--set", "kernel.wake-placement=llc",
        "--partitions", "node");
    assertEquals(0, ok.code(), ok.err());
  }

  @Test
  void dmTableError_namesTheScenarioLineAndTheTableField() throws IOException {
    Path s = tmp.resolve("dm.conf");
    Files.writeString(s, "blksim {\n"
        + "  devices = [\n"
        + "    { type = dm, name = z, table = \"0 2048 zero\" }\n"
        + "    { type = dm, name = d, table = \"0 2048 delay /dev/mapper/z 0 2ms\" }\n"
        + "  ]\n"
        + "  fio.jobs = [\"[j]\\nfilename=/dev/mapper/d\\nrw=read\\nsize=4k\"]\n}\n");
    Result r = cli("run", s.toString(), "--host", "local");
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains("dm.conf:4: blksim.devices.1.table"), r.err());
    assertTrue(r.err().contains("2ms"), r.err());
  }
}
