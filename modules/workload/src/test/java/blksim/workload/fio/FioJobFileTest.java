package blksim.workload.fio;

import blksim.engine.InputException;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Job-file structure: sections, globals, clones, groups, includes, substitution, options. */
class FioJobFileTest {
  static final FioEnvironment ENV = new FioEnvironment(8, 16384, 4096);

  static List<FioJob> parse(String text) {
    return FioJobFile.parse("t.fio", text, null, ENV, Map.of());
  }

  static FioJob only(String text) {
    List<FioJob> jobs = parse(text);
    assertEquals(1, jobs.size());
    return jobs.get(0);
  }

  static Path resource(String name) throws URISyntaxException {
    return Path.of(FioJobFileTest.class.getResource("/fio/" + name).toURI());
  }

  @Test
  void cpuAffinityAndNice_areParsedAsFioReadsThem() {
    List<FioJob> jobs = parse("[global]\ncpus_allowed=0,5,6-7\n[a]\nnice=-5\n"
        + "[b]\ncpumask=0x5\ncpus_allowed_policy=split\n[c]\n");
    assertArrayEquals(new int[] {0, 5, 6, 7}, jobs.get(0).cpusAllowed());
    assertEquals(-5, jobs.get(0).nice());
    assertFalse(jobs.get(0).cpusAllowedSplit());
    assertArrayEquals(new int[] {0, 2}, jobs.get(1).cpusAllowed(), "cpumask bits 0 and 2");
    assertTrue(jobs.get(1).cpusAllowedSplit());
    assertEquals(0, jobs.get(1).nice());
    assertArrayEquals(new int[] {0, 5, 6, 7}, jobs.get(2).cpusAllowed(), "from [global]");
    assertNull(parse("[d]\n").get(0).cpusAllowed(), "no mask: any CPU");
  }

  @Test
  void emptyJob_hasFioDefaults() {
    FioJob j = only("[j]\n");
    assertEquals("j", j.name());
    assertEquals(FioRw.READ, j.rw());
    assertArrayEquals(new long[] {4096, 4096, 4096}, j.bs());
    assertEquals(FioEngine.PSYNC, j.ioengine());
    assertEquals(1, j.iodepth());
    assertEquals(1, j.iodepthBatchSubmit());
    assertEquals(1, j.iodepthBatchCompleteMin());
    assertEquals(1, j.iodepthBatchCompleteMax());
    assertEquals(50, j.rwmixread());
    assertEquals(1, j.loops());
    assertEquals(1, j.numjobs());
    assertEquals(1, j.thinktimeBlocks());
    assertTrue(j.randrepeat());
    assertEquals(0x89, j.randseed());
    assertFalse(j.randseedSet());
    assertFalse(j.direct());
    assertTrue(j.clatPercentiles());
    assertEquals("random", j.randomDistribution());
    assertArrayEquals(new double[] {1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9,
        99.95, 99.99}, j.percentileList());
    assertNull(j.filename());
    assertEquals(List.of(), j.filenames());
    assertNull(j.description());
    assertEquals("t.fio", j.file());
    assertEquals(1, j.line());
  }

  @Test
  void commentsBlankLinesAndPaddedKeys_areSkipped() {
    FioJob j = only("; leading comment\n\n  # indented comment\n[j]\n  rw  =randwrite\r\n"
        + "\t; another\niodepth=4   \n");
    assertEquals(FioRw.RANDWRITE, j.rw());
    assertEquals(4, j.iodepth());
    assertEquals(4, j.line());
  }

  @Test
  void blanksAfterEquals_areTrimmed() {
    FioJob j = only("[j]\nbs = 8k\nrw = randread\n");
    assertArrayEquals(new long[] {8192, 8192, 8192}, j.bs());
    assertEquals(FioRw.RANDREAD, j.rw());
  }

  @Test
  void global_isInheritedAndOverridden() {
    List<FioJob> jobs = parse("[global]\nrw=randread\nbs=16k\niodepth=8\n"
        + "[a]\n[b]\nbs=4k\nrw=write\n");
    assertEquals(FioRw.RANDREAD, jobs.get(0).rw());
    assertEquals(16384, jobs.get(0).bs()[0]);
    assertEquals(8, jobs.get(0).iodepth());
    assertEquals(FioRw.WRITE, jobs.get(1).rw());
    assertEquals(4096, jobs.get(1).bs()[1]);
    assertEquals(8, jobs.get(1).iodepth());
  }

  @Test
  void severalGlobals_addUpAndAffectOnlyJobsBelow() {
    List<FioJob> jobs = parse("[a]\n[global]\nbs=16k\n[b]\n[global-more]\niodepth=4\n[c]\n"
        + "[globalx]\nbs=8k\n[d]\n");
    assertEquals(List.of("a", "b", "c", "d"), jobs.stream().map(FioJob::name).toList());
    assertEquals(4096, jobs.get(0).bs()[0]);
    assertEquals(16384, jobs.get(1).bs()[0]);
    assertEquals(1, jobs.get(1).iodepth());
    assertEquals(16384, jobs.get(2).bs()[0]); // first global still applies
    assertEquals(4, jobs.get(2).iodepth());
    assertEquals(8192, jobs.get(3).bs()[0]); // "[globalx]" is global too (6-char compare)
    assertEquals(4, jobs.get(3).iodepth());
  }

  @Test
  void bs_perDirectionLists_followFioCarryOverRule() {
    assertArrayEquals(new long[] {8192, 32768, 32768}, only("[j]\nbs=8k,32k\n").bs());
    assertArrayEquals(new long[] {8192, 32768, 4096}, only("[j]\nbs=8k,32k,\n").bs());
    assertArrayEquals(new long[] {4096, 8192, 8192}, only("[j]\nbs=,8k\n").bs());
    assertArrayEquals(new long[] {8192, 4096, 16384}, only("[j]\nbs=8k,,16k\n").bs());
    assertArrayEquals(new long[] {512, 1024, 2048}, only("[j]\nbs=512,1k,2k\n").bs());
    // an empty direction keeps the inherited value, not the built-in default
    assertArrayEquals(new long[] {65536, 8192, 8192},
        only("[global]\nbs=64k\n[j]\nbs=,8k\n").bs());
  }

  @Test
  void kbBase_appliesToItsWholeSectionAndIsInherited() {
    FioJob late = only("[j]\nsize=1m\nkb_base=1000\n"); // written after size, applies anyway
    assertEquals(1_000_000, late.sizeBytes());
    assertEquals(1000, late.kbBase());
    FioJob inherited = only("[global]\nkb_base=1000\n[j]\nsize=8kib\noffset=4k\n");
    assertEquals(8192, inherited.sizeBytes());
    assertEquals(4000, inherited.offsetBytes());
    // a global value was converted with the global's kb_base, as fio converts it there
    FioJob j = only("[global]\nsize=1m\n[j]\nkb_base=1000\noffset=1m\n");
    assertEquals(1 << 20, j.sizeBytes());
    assertEquals(1_000_000, j.offsetBytes());
  }

  @Test
  void sizes_bytesPercentOffsetAndIoSize() {
    FioJob bytes = only("[j]\nsize=128m\noffset=0x100000\nio_limit=1g\n");
    assertEquals(128L << 20, bytes.sizeBytes());
    assertEquals(0, bytes.sizePercent());
    assertEquals(1 << 20, bytes.offsetBytes());
    assertEquals(1L << 30, bytes.ioSizeBytes());
    FioJob pct = only("[j]\nsize=25%\n");
    assertEquals(0, pct.sizeBytes());
    assertEquals(25.0, pct.sizePercent());
    assertEquals(2 << 20, only("[j]\nsize=(2*1024*1024)\n").sizeBytes());
  }

  @Test
  void times_haveTheRightDefaultUnitPerOption() {
    FioJob j = only("[j]\nruntime=1m\nramp_time=5\nstartdelay=250ms\nthinktime=10\n"
        + "thinktime_spin=4\nthinktime_blocks=8\n");
    assertEquals(60_000_000_000L, j.runtimeNs());
    assertEquals(5_000_000_000L, j.rampTimeNs());
    assertEquals(250_000_000L, j.startDelayNs());
    assertEquals(10_000L, j.thinktimeNs());
    assertEquals(4_000L, j.thinktimeSpinNs());
    assertEquals(8, j.thinktimeBlocks());
    assertEquals(90_000_000_000L, only("[j]\ntimeout=(1m+30s)\n").runtimeNs());
    assertTrue(j.thinktimeBlocksSet());
    FioJob io = only("[j]\nthinktime=10\nthinktime_iotime=9\nthinktime_blocks_type=issue\n");
    assertEquals(9_000_000_000L, io.thinktimeIotimeNs(), "thinktime_iotime: seconds (is_seconds)");
    assertTrue(io.thinktimeBlocksIssue());
    assertFalse(io.thinktimeBlocksSet());
    assertFalse(only("[j]\nthinktime=10\n").thinktimeBlocksIssue(), "complete by default");
    org.junit.jupiter.api.Assertions.assertThrows(blksim.engine.InputException.class,
        () -> only("[j]\nthinktime=10\nthinktime_blocks_type=submit\n"));
  }

  @Test
  void rw_withSequencerPostfix() {
    FioJob random = only("[j]\nrw=randread:8\n");
    assertEquals(FioRw.RANDREAD, random.rw());
    assertEquals(8, random.rwSequencer());
    FioJob hole = only("[j]\nreadwrite=write:4k\n");
    assertEquals(FioRw.WRITE, hole.rw());
    assertEquals(4096, hole.rwSequencer());
    assertEquals(-4096, only("[j]\nrw=read:-4k\n").rwSequencer());
    assertEquals(FioRw.RW, only("[j]\nrw=readwrite\n").rw());
    // a job's own rw resets the postfix inherited from [global]
    assertEquals(0, only("[global]\nrw=randrw:16\n[j]\nrw=randrw\n").rwSequencer());
  }

  @Test
  void rwmixAndDirectBuffered_laterWins() {
    assertEquals(40, only("[j]\nrw=randrw\nrwmixread=30\nrwmixwrite=60\n").rwmixread());
    assertEquals(70, only("[j]\nrw=randrw\nrwmixwrite=10\nrwmixread=70\n").rwmixread());
    assertEquals(25, only("[global]\nrwmixread=90\n[j]\nrwmixwrite=75\n").rwmixread());
    assertTrue(only("[j]\nbuffered=0\n").direct());
    assertFalse(only("[j]\ndirect=1\nbuffered=1\n").direct());
    assertTrue(only("[j]\nbuffered=1\ndirect=1\n").direct());
  }

  @Test
  void engineOptions_andFixups() {
    FioJob j = only("[j]\nioengine=io_uring\niodepth=32\niodepth_batch_submit=0\n"
        + "iodepth_batch_complete=4\nhipri\nfixedbufs\nregisterfiles=1\nsqthread_poll\n"
        + "nonvectored=0\n");
    assertEquals(FioEngine.IO_URING, j.ioengine());
    assertFalse(j.ioengine().isSync());
    assertEquals(32, j.iodepthBatchSubmit()); // 0 means iodepth
    assertEquals(4, j.iodepthBatchCompleteMin());
    assertEquals(4, j.iodepthBatchCompleteMax()); // fio: at least the minimum
    assertTrue(j.hipri() && j.fixedbufs() && j.registerfiles() && j.sqthreadPoll());
    assertFalse(j.nonvectored());
    FioJob clamped = only("[j]\nioengine=libaio\niodepth=4\niodepth_batch=16\n"
        + "iodepth_batch_complete_max=64\nthinktime=5\nthinktime_spin=10\n");
    assertEquals(4, clamped.iodepthBatchSubmit());
    assertEquals(64, clamped.iodepthBatchCompleteMax());
    assertEquals(5_000, clamped.thinktimeSpinNs());
    assertTrue(only("[j]\nioengine=pvsync2\nhipri=1\n").hipri());
    assertTrue(FioEngine.SYNC.isSync() && FioEngine.PVSYNC.isSync());
    assertEquals("io_uring", FioEngine.IO_URING.fioName());
  }

  @Test
  void flagsAndReportingOptions() {
    FioJob j = only("[j]\ntime_based\nruntime=10\ngroup_reporting\nnorandommap\nthread\n"
        + "exitall\ninvalidate=0\ngtod_reduce=0\nclat_percentiles=0\nlat_percentiles=1\n"
        + "slat_percentiles=1\nallrandrepeat=1\nrandrepeat=0\nrandseed=1234\n"
        + "percentile_list=50:99:99.99\nrandom_distribution=random\nrw_sequencer=sequential\n"
        + "description=warm cache, then measure\nloops=3\n");
    assertTrue(j.timeBased() && j.groupReporting() && j.norandommap() && j.thread());
    assertTrue(j.exitall() && !j.gtodReduce() && j.latPercentiles() && j.slatPercentiles());
    assertFalse(j.invalidate() || j.clatPercentiles() || j.randrepeat());
    // allrandrepeat is an alias of randrepeat in fio 3.42 (options.c): the later one wins.
    assertFalse(j.allrandrepeat());
    assertEquals(1234, j.randseed());
    assertTrue(j.randseedSet());
    assertArrayEquals(new double[] {50, 99, 99.99}, j.percentileList());
    assertEquals("warm cache, then measure", j.description());
    assertEquals(3, j.loops());
    assertFalse(only("[j]\ntime_based=0\n").timeBased());
  }

  @Test
  void gtodReduce_disablesEveryLatency_asFiosCallbackAtParseTime() {
    FioJob g = only("[j]\ngtod_reduce=1\nlat_percentiles=1\n");
    assertTrue(g.gtodReduce() && g.disableLat() && g.disableClat() && g.disableSlat());
    // fixup_options(): disable_lat turns lat_percentiles off even when set after gtod_reduce.
    assertFalse(g.latPercentiles() || g.clatPercentiles() || g.slatPercentiles());
    FioJob back = only("[j]\ngtod_reduce=1\ndisable_clat=0\n");
    assertFalse(back.disableClat(), "a later disable_clat=0 turns clat back on");
    assertTrue(back.disableLat());
    FioJob before = only("[j]\ndisable_clat=0\ngtod_reduce=1\n");
    assertTrue(before.disableClat(), "gtod_reduce=1 after it wins");
    assertFalse(only("[j]\ngtod_reduce=0\n").disableLat());
    assertTrue(only("[j]\ndisable_lat=1\n").disableLat());
    assertFalse(only("[j]\ndisable_lat=1\nlat_percentiles=1\n").latPercentiles());
  }

  @Test
  void memAndIomemAlign_acceptOrdinaryPages_refuseHugeAndOffPage() {
    only("[j]\nmem=malloc\niomem_align=4k\n");
    only("[j]\niomem=mmap:/tmp/buf\nmem_align=8192\n");
    only("[j]\nmem=shm\n");
    InputException huge = assertThrows(InputException.class, () -> only("[j]\nmem=mmaphuge\n"));
    assertTrue(huge.getMessage().contains("t.fio:2") && huge.getMessage().contains("huge"),
        huge.getMessage());
    InputException bad = assertThrows(InputException.class, () -> only("[j]\nmem=nosuch\n"));
    assertTrue(bad.getMessage().contains("must be one of malloc"), bad.getMessage());
    InputException align = assertThrows(InputException.class,
        () -> only("[j]\niomem_align=512\n"));
    assertTrue(align.getMessage().contains("iomem_align"), align.getMessage());
  }

  @Test
  void reportOptions_parseFiosValuesAndAliases() {
    FioJob d = only("[j]\n");
    assertEquals(0, d.unifiedRwReporting());
    assertEquals(500, d.bwAvgTimeMs());
    assertEquals(500, d.iopsAvgTimeMs());
    assertEquals(4, d.significantFigures());
    assertEquals(8, d.unitBase());
    // options.c posval: none/mixed/both and the former booleans 0/1 (and 2)
    String[][] unified = {{"none", "0"}, {"0", "0"}, {"mixed", "1"}, {"1", "1"}, {"both", "2"},
        {"2", "2"}};
    for (String[] u : unified) {
      assertEquals(Integer.parseInt(u[1]),
          only("[j]\nunified_rw_reporting=" + u[0] + "\n").unifiedRwReporting(), u[0]);
    }
    FioJob j = only("[global]\nbwavgtime=250\n[j]\niopsavgtime=1000\nsignificant_figures=10\n"
        + "unit_base=1\n");
    assertEquals(250, j.bwAvgTimeMs());
    assertEquals(1000, j.iopsAvgTimeMs());
    assertEquals(10, j.significantFigures());
    assertEquals(1, j.unitBase());
    assertEquals(8, only("[j]\nunit_base=0\n").unitBase(), "auto: bytes for blksim's engines");
    assertEquals(8, only("[j]\nunit_base=8\n").unitBase());
    // init.c: write_bw_log makes log_avg_msec the bw window unless bwavgtime is set
    FioJob logged = only("[j]\nwrite_bw_log=x\nwrite_iops_log=y\nlog_avg_msec=100\n");
    assertEquals(100, logged.bwAvgTimeMs());
    assertEquals(100, logged.iopsAvgTimeMs());
    assertEquals(500, only("[j]\nwrite_lat_log=x\nlog_avg_msec=100\n").bwAvgTimeMs());
    assertEquals(300, only("[j]\nwrite_bw_log=x\nlog_avg_msec=100\nbwavgtime=300\n")
        .bwAvgTimeMs());
  }

  @Test
  void reportOptions_outOfRange_nameFileLineAndKey() {
    String[][] bad = {{"significant_figures=0", "[1, 10]"}, {"significant_figures=11", "[1, 10]"},
        {"unit_base=2", "must be one of 0, 8, 1"}, {"unit_base", "needs a value"},
        {"unified_rw_reporting=3", "must be one of none, mixed, both"},
        {"bwavgtime=0", "0 is not modelled"}, {"iopsavgtime=-5", "must not be negative"},
        {"bwavgtime=abc", "bwavgtime"}};
    for (String[] b : bad) {
      InputException e = assertThrows(InputException.class, () -> only("[j]\n" + b[0] + "\n"),
          b[0]);
      String key = b[0].contains("=") ? b[0].substring(0, b[0].indexOf('=')) : b[0];
      assertTrue(e.getMessage().contains("t.fio:2") && e.getMessage().contains(key)
          && e.getMessage().contains(b[1]), b[0] + ": " + e.getMessage());
    }
    InputException log = assertThrows(InputException.class,
        () -> only("[j]\nwrite_bw_log=x\nlog_avg_msec=1000\nbwavgtime=500\n"));
    assertTrue(log.getMessage().contains("bwavgtime") && log.getMessage().contains("log_avg_msec"),
        log.getMessage());
  }

  @Test
  void filename_splitsOnColonsWithEscapes() {
    FioJob j = only("[j]\nfilename=/dev/nullb0:/dev/dsk/foo@3,0\\:c::/dev/nullb1\n");
    assertEquals("/dev/nullb0", j.filename());
    assertEquals(List.of("/dev/nullb0", "/dev/dsk/foo@3,0:c", "/dev/nullb1"), j.filenames());
  }

  @Test
  void nameOption_overridesTheDisplayName() {
    FioJob j = only("[section-1]\nname=pretty\n");
    assertEquals("pretty", j.name());
    assertEquals("section-1", j.sectionName());
  }

  @Test
  void numjobs_givesClonesWithSameNameInFileOrder() {
    List<FioJob> jobs = parse("[a]\nnumjobs=3\nbs=8k\n[b]\n");
    assertEquals(4, jobs.size());
    for (int k = 0; k < 3; k++) {
      assertEquals("a", jobs.get(k).name());
      assertEquals(k, jobs.get(k).jobIndex());
      assertEquals(3, jobs.get(k).numjobs());
      assertEquals(8192, jobs.get(k).bs()[0]);
      assertEquals(1, jobs.get(k).line());
    }
    assertEquals("b", jobs.get(3).name());
    assertEquals(0, jobs.get(3).jobIndex());
    assertEquals(4, jobs.get(3).line());
  }

  @Test
  void groupIds_followStonewallAndNewGroup() {
    // the same layout fio 3.33 reported as g=0,1,1,1,2,2 for this file
    List<FioJob> jobs = parse("[a]\n[b]\nstonewall\n[c]\nnumjobs=2\n[d]\nnew_group\n[e]\n");
    assertEquals(List.of(0, 1, 1, 1, 2, 2), jobs.stream().map(FioJob::groupId).toList());
    // a stonewall on the very first job does not open group 1
    assertEquals(List.of(0, 0), parse("[a]\nwait_for_previous\n[b]\n").stream()
        .map(FioJob::groupId).toList());
    // a stonewall in [global] applies to every job
    assertEquals(List.of(0, 1, 2), parse("[global]\nstonewall\n[a]\n[b]\n[c]\n").stream()
        .map(FioJob::groupId).toList());
    assertEquals(7, parse("[a]\n").get(0).withGroupId(7).groupId());
  }

  @Test
  void envVarsAndKeywords_areSubstitutedBeforeParsing() {
    List<FioJob> jobs = FioJobFile.parse("t.fio",
        "[j]\nsize=${SIZE}\nfilename=/dev/${DEV}\nnumjobs=$ncpus\niodepth=2*$ncpus\n"
            + "description=x${UNSET}y\n", null, ENV,
        Map.of("SIZE", "64m", "DEV", "nullb0"));
    assertEquals(8, jobs.size());
    FioJob j = jobs.get(0);
    assertEquals(64L << 20, j.sizeBytes());
    assertEquals("/dev/nullb0", j.filename());
    assertEquals(16, j.iodepth());
    assertEquals("xy", j.description());
    assertEquals("16", j.options().get("iodepth"));
  }

  @Test
  void options_areCanonicalGlobalThenJobAsWritten() {
    FioJob j = only("[global]\nblocksize=8k\ngroup_reporting\nreadwrite=randread\n"
        + "[j]\ntimeout=10\nrw=randwrite\niodepth_batch_submit=2\nfileoffset=0x10\n");
    LinkedHashMap<String, String> expected = new LinkedHashMap<>();
    expected.put("bs", "8k");
    expected.put("group_reporting", "");
    expected.put("rw", "randwrite");
    expected.put("runtime", "10");
    expected.put("iodepth_batch", "2");
    expected.put("offset", "0x10");
    assertEquals(expected, j.options());
    assertEquals(List.copyOf(expected.keySet()), List.copyOf(j.options().keySet()));
    j.options().clear();
    assertEquals(6, j.options().size()); // callers get a copy
  }

  @Test
  void include_isRelativeToTheIncludingFileAndMayNest(@TempDir Path dir) throws Exception {
    Files.createDirectories(dir.resolve("inc/deeper"));
    Files.writeString(dir.resolve("inc/base.inc"), "# base\nbs=16k\ninclude deeper/d.inc\n");
    Files.writeString(dir.resolve("inc/deeper/d.inc"), "iodepth=8\n");
    Files.writeString(dir.resolve("job.fio"), "[global]\ninclude inc/base.inc\nrw=randread\n"
        + "[j]\ninclude inc/deeper/d.inc\nbs=4k\n");
    FioJob j = FioJobFile.parse(dir.resolve("job.fio"), ENV, Map.of()).get(0);
    assertEquals(4096, j.bs()[0]);
    assertEquals(8, j.iodepth());
    assertEquals(FioRw.RANDREAD, j.rw());
    assertEquals(List.of("bs", "iodepth", "rw"), List.copyOf(j.options().keySet()));
  }

  @Test
  void severalFiles_startANewGroupAndKeepGlobalsPrivate(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("1.fio"), "[global]\nbs=8k\n[a]\n[b]\n");
    Files.writeString(dir.resolve("2.fio"), "[c]\n[d]\nstonewall\n");
    List<FioJob> jobs = FioJobFile.parse(List.of(dir.resolve("1.fio"), dir.resolve("2.fio")),
        ENV, Map.of());
    assertEquals(List.of(0, 0, 1, 2), jobs.stream().map(FioJob::groupId).toList());
    assertEquals(8192, jobs.get(1).bs()[0]);
    assertEquals(4096, jobs.get(2).bs()[0]);
    assertTrue(jobs.get(2).file().endsWith("2.fio"));
  }

  @Test
  void resourceOltpMix_parsesAsWritten() throws Exception {
    List<FioJob> jobs = FioJobFile.parse(resource("oltp-mix.fio"), ENV,
        Map.of("OLTP_SIZE", "2g"));
    assertEquals(5, jobs.size());
    for (int k = 0; k < 4; k++) {
      FioJob w = jobs.get(k);
      assertEquals("oltp-rw", w.name());
      assertEquals(k, w.jobIndex());
      assertEquals(0, w.groupId());
      assertEquals(11, w.line());
      assertEquals(FioRw.RANDRW, w.rw());
      assertEquals(70, w.rwmixread());
      assertArrayEquals(new long[] {8192, 8192, 8192}, w.bs());
      assertEquals(FioEngine.LIBAIO, w.ioengine());
      assertEquals(16, w.iodepth());
      assertTrue(w.direct() && w.timeBased() && w.groupReporting());
      assertEquals(30_000_000_000L, w.runtimeNs());
      assertEquals(5_000_000_000L, w.rampTimeNs());
      assertEquals(2L << 30, w.sizeBytes());
      assertEquals("/dev/nvme0n1", w.filename());
      assertArrayEquals(new double[] {50, 90, 99, 99.9}, w.percentileList());
    }
    FioJob log = jobs.get(4);
    assertEquals("log-flush", log.name());
    assertEquals(1, log.groupId());
    assertEquals(20, log.line());
    assertEquals(FioRw.WRITE, log.rw());
    assertArrayEquals(new long[] {4096, 131072, 131072}, log.bs());
    assertEquals(FioEngine.PSYNC, log.ioengine());
    assertTrue(log.ioengine().isSync());
    assertEquals(List.of("filename", "ioengine", "direct", "runtime", "ramp_time", "time_based",
        "group_reporting", "percentile_list", "stonewall", "rw", "bs", "iodepth"),
        List.copyOf(log.options().keySet()));
    assertEquals("psync", log.options().get("ioengine"));
  }

  @Test
  void resourceMemoryScan_usesTheSimulatedMachine() throws Exception {
    List<FioJob> jobs = FioJobFile.parse(resource("memory-scan.fio"), ENV, Map.of());
    assertEquals(2, jobs.size());
    FioJob scan = jobs.get(0);
    assertEquals(16384L << 20 >> 2, scan.sizeBytes()); // a quarter of 16 GiB
    assertEquals(FioEngine.PVSYNC2, scan.ioengine());
    assertTrue(scan.hipri());
    assertEquals(1 << 20, scan.bs()[0]);
    assertEquals(500_000_000L, scan.startDelayNs());
    assertEquals(250_000L, scan.thinktimeNs());
    assertEquals(8, scan.thinktimeBlocks());
    FioJob skip = jobs.get(1);
    assertEquals(1, skip.groupId());
    assertEquals(65536, skip.rwSequencer());
    assertEquals(2, skip.loops());
    assertEquals(0, scan.groupId());
  }

  @Test
  void resourceFilesTogether_runInSuccessiveGroups() throws Exception {
    List<FioJob> jobs = FioJobFile.parse(
        List.of(resource("oltp-mix.fio"), resource("memory-scan.fio")), ENV,
        Map.of("OLTP_SIZE", "1g"));
    assertEquals(List.of(0, 0, 0, 0, 1, 2, 3), jobs.stream().map(FioJob::groupId).toList());
  }

  @Test
  void fioRw_directionsAndNames() {
    assertTrue(FioRw.RANDRW.isRandom() && FioRw.RANDRW.reads() && FioRw.RANDRW.writes());
    assertFalse(FioRw.RW.isRandom() || FioRw.RW.trims());
    assertTrue(FioRw.TRIMWRITE.trims() && FioRw.TRIMWRITE.writes() && !FioRw.TRIMWRITE.reads());
    assertTrue(FioRw.RANDTRIM.isRandom() && FioRw.RANDTRIM.trims());
    assertFalse(FioRw.READ.writes() || FioRw.WRITE.reads());
    assertEquals("rw", FioRw.RW.fioName());
    assertEquals("randtrimwrite", FioRw.RANDTRIMWRITE.fioName());
  }

  @Test
  void inlineComments_cutWhereFioCuts() {
    // strip_blank_end(): the line ends at its first ';', what is left at its first '#',
    // trailing blanks go.
    FioJob j = only("[j] ; the job\nbs=8k   # bigger\ndescription=a;b#c\nrw=randread#x\n"
        + "filename=/dev/nullb0 ;dev\n");
    assertEquals(8192, j.bs()[0]);
    assertEquals("a", j.description());
    assertEquals(FioRw.RANDREAD, j.rw());
    assertEquals("/dev/nullb0", j.filename());
    assertEquals("j", j.sectionName());
    // '#' before ';': cut at '#'.
    assertEquals("x", only("[j]\ndescription=x#y;z\n").description());
    assertEquals("bs=4k", FioJobFile.stripBlankEnd("bs=4k \t# c"));
    assertEquals("", FioJobFile.stripBlankEnd("; all comment"));
  }

  @Test
  void aliases_setTheirCanonicalOption() {
    FioJob j = only("[j]\nreadwrite=randrw\nblocksize=8k\nblockalign=16k\n"
        + "blocksize_range=8k-64k\nfileoffset=1m\ntimeout=2\nio_limit=1g\n"
        + "wait_for_previous\n");
    assertEquals(FioRw.RANDRW, j.rw());
    assertEquals(8192, j.bs()[1]);
    assertEquals(16384, j.blockAlign()[0]);
    assertArrayEquals(new long[] {8192, 8192, 8192}, j.minBs());
    assertArrayEquals(new long[] {65536, 65536, 65536}, j.maxBs());
    assertEquals(1 << 20, j.offsetBytes());
    assertEquals(2_000_000_000L, j.runtimeNs());
    assertEquals(1L << 30, j.ioSizeBytes());
    assertTrue(j.stonewall());
    // thread is fio's own spelling (no alias in options.c); a bare flag.
    assertTrue(only("[j]\nthread\n").thread());
  }

  @Test
  void bssplit_perDirection_sharesAndRemainder() {
    // formats.md 1.2: "4k/50:1k/:32k/" gives 50/25/25; sorted by share (bs_cmp()).
    FioJob j = only("[j]\nbssplit=4k/50:1k/:32k/\n");
    for (int d = 0; d < 3; d++) {
      assertEquals(List.of(new FioJob.BsSplit(1024, 25), new FioJob.BsSplit(32768, 25),
          new FioJob.BsSplit(4096, 50)), j.bssplit(d));
      assertEquals(1024, j.minBs()[d]);
      assertEquals(32768, j.maxBs()[d]);
    }
    // "r,w": trim takes the write value.
    FioJob rw = only("[j]\nbssplit=4k/100,64k/10:8k/90\n");
    assertEquals(List.of(new FioJob.BsSplit(4096, 100)), rw.bssplit(0));
    assertEquals(List.of(new FioJob.BsSplit(65536, 10), new FioJob.BsSplit(8192, 90)),
        rw.bssplit(1));
    assertEquals(rw.bssplit(1), rw.bssplit(2));
  }

  @Test
  void sequencingAndPatternOptions_parse() {
    FioJob j = parse("[other]\n[j]\nrw=randread\nwait_for=other\nexit_what=all\nnumber_ios=1k\n"
        + "random_distribution=zipf:1.1,pareto:0.3\nrandom_generator=lfsr\n"
        + "percentage_random=90,20\nzonemode=strided\nzonerange=1m\nzonesize=256k\n"
        + "zoneskip=2m\noffset_increment=4m\n").get(1);
    assertEquals("other", j.waitFor());
    assertEquals("all", j.exitWhat());
    assertEquals(1024, j.numberIos());
    assertEquals(RandomDistribution.Kind.ZIPF, j.randomDistribution(0).kind());
    assertEquals(1.1, j.randomDistribution(0).param());
    assertEquals(RandomDistribution.Kind.PARETO, j.randomDistribution(1).kind());
    assertEquals("lfsr", j.randomGenerator());
    assertArrayEquals(new int[] {90, 20, 20}, j.percentageRandom());
    assertTrue(j.zonemodeStrided());
    assertEquals(1 << 20, j.zoneRangeBytes());
    assertEquals(256 << 10, j.zoneSizeBytes());
    assertEquals(2 << 20, j.zoneSkipBytes());
    assertEquals(4 << 20, j.offsetIncrementBytes());
    // zoned: an empty io% shares the rest (formats.md 1.2: 50/5:30/15:20/ -> last range 80%).
    RandomDistribution z = only("[j]\nrandom_distribution=zoned:50/5:30/15:20/\n")
        .randomDistribution(0);
    assertEquals(80.0, z.zones().get(2).rangePercent(), 1e-9);
  }
}
