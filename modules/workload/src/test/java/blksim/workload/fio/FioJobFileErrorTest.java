package blksim.workload.fio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.InputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad job files fail at load with file, line, option and rule. */
class FioJobFileErrorTest {

  /** Parses {@code text} as bad.fio and checks where the error points and what it says. */
  private static InputException rejects(String text, int line, String key, String rule) {
    return rejects(text, line, key, rule, true);
  }

  /**
   * {@link #rejects(String, int, String, String)}; {@code keyOnce} false for a rule that lists
   * the key's own name among the values ("rw: must be one of read, ..., rw, ...").
   */
  private static InputException rejects(String text, int line, String key, String rule,
      boolean keyOnce) {
    InputException e = assertThrows(InputException.class,
        () -> FioJobFile.parse("bad.fio", text, null, FioJobFileTest.ENV, Map.of()));
    assertEquals("bad.fio", e.file(), e.getMessage());
    assertEquals(line, e.line(), e.getMessage());
    assertEquals(key, e.key(), e.getMessage());
    assertTrue(e.rule().contains(rule), e.getMessage());
    String where = line > 0 ? "bad.fio:" + line + ": " : "bad.fio: ";
    boolean named = key == null || e.rule().startsWith(key + "=")
        || e.rule().startsWith(key + " ");
    assertTrue(e.getMessage().startsWith(where + (named ? "" : key + ": ")),
        e.getMessage());
    if (key != null && keyOnce) {
      // The option once: a doubled key ("bs: bs must be ...") fails here.
      assertEquals(1, e.getMessage().split("(?<![\\w-])" + java.util.regex.Pattern.quote(key)
          + "(?![\\w-])", -1).length - 1, e.getMessage());
    }
    return e;
  }

  @Test
  void optionBeforeFirstSection_isRejected() {
    rejects("; a comment\nbs=4k\n[j]\n", 2, "bs", "outside of a [section]");
  }

  @Test
  void malformedSectionHeader_isRejected() {
    rejects("[j]\n[broken\n", 2, null, "[name]");
    rejects("[]\n", 1, null, "non-empty name");
  }

  @Test
  void unknownOption_isRejected() {
    InputException e = rejects("[j]\nrw=read\nxyzzy=1\n", 3, "xyzzy",
        "xyzzy=1 is an unknown fio option");
    // No fio option is within half its length: fio prints no "Did you mean".
    assertEquals("bad.fio:3: xyzzy=1 is an unknown fio option (fio refuses it too: Bad option)",
        e.getMessage());
    assertEquals("bad.fio:2: xyzzy is an unknown fio option (fio refuses it too: Bad option)",
        rejects("[j]\nxyzzy\n", 2, "xyzzy", "unknown fio option").getMessage());
    rejects("[j]\nBs=4k\n", 2, "Bs", "unknown fio option"); // fio's names are case-sensitive
  }

  @Test
  void anUnsetVariable_leavesAnEmptyValue_asInFio_andTheMessageNamesIt() {
    // examples/sprandom.fio: bs=${FIO_BS}; fio_option_dup_subs() drops an unset ${VAR}, and
    // the empty bs fails to parse in fio too.
    InputException e = rejects("[j]\nbs=${FIO_BS}\n", 2, "bs", "needs a value");
    assertTrue(e.rule().contains("${FIO_BS} is empty: FIO_BS is not set in the environment; fio"
        + " fails the same way)"), e.getMessage());
    assertEquals(List.of(8192L, 8192L, 8192L), java.util.Arrays.stream(FioJobFile.parse("ok.fio",
        "[j]\nbs=${FIO_BS}\n", null, FioJobFileTest.ENV, Map.of("FIO_BS", "8192")).get(0)
        .bs()).boxed().toList());
  }

  @Test
  void errorHandlingOptions_areCheckedAndAccepted_asNoErrorIsSimulated() {
    // examples/enospc-pressure.fio: continue_on_error=write, ignore_error=,ENOSPC, error_dump=0.
    assertEquals(1, FioJobFile.parse("ok.fio", "[j]\nfilename=/dev/sdb\ncontinue_on_error=write\n"
        + "ignore_error=,ENOSPC:EIO:0x5\nerror_dump=0\n", null, FioJobFileTest.ENV, Map.of())
        .size());
    rejects("[j]\ncontinue_on_error=some\n", 2, "continue_on_error", "must be one of none, read,"
        + " write, io, verify, all, 0, 1");
    rejects("[j]\nignore_error=,nospace\n", 2, "ignore_error", "unknown error nospace");
    rejects("[j]\nignore_error=EIO,EIO,EIO,EIO\n", 2, "ignore_error", "at most three lists");
  }

  @Test
  void sequenceDistribution_takesItsCommasAsElements_andChecksThem() {
    rejects("[j]\nrandom_distribution=sequence:2,-1\n", 2, "random_distribution",
        "invalid or negative element <-1>");
    rejects("[j]\nrandom_distribution=sequence\n", 2, "random_distribution",
        "missing pattern");
    rejects("[j]\nrandom_distribution=sequence:" + "1,".repeat(64) + "1\n", 2,
        "random_distribution", "up to 64 elements (got 65)");
  }

  @Test
  void threads_isNotAnAliasOfThread_fioRefusesIt_andSuggestsThread() {
    // fio's o_match() compares name and alias exactly (no prefixes): examples/steadystate.fio
    // and waitfor.fio have threads=1, which fio itself rejects ("Bad option <threads=1>",
    // "Did you mean thread?", "fio: job global dropped").
    InputException e = rejects("[global]\nthreads=1\n[j]\nrw=read\n", 2, "threads",
        "threads=1 is an unknown fio option");
    assertTrue(e.rule().endsWith("(fio refuses it too: Bad option; did you mean thread?)"),
        e.getMessage());
    rejects("[j]\nthre\n", 2, "thre", "did you mean thread?"); // distance 2 <= (4+1)/2
    assertEquals(1, FioOptions.distance("threads", "thread"));
    assertEquals(3, FioOptions.distance("kitten", "sitting"));
    assertEquals("thread", FioOptions.closest("threads"));
    assertEquals(null, FioOptions.closest("qqqqqqqqqqqq"));
  }

  @Test
  void vsync_isModelledAtIodepth1_itsCoalescingAtHigherDepthsIsRefused() {
    rejects("[j]\nioengine=vsync\nrw=read\niodepth=4\n", 4, "iodepth",
        "coalesces contiguous I/Os into one readv()/writev()");
    assertEquals("bad.fio:2: iodepth=2 with ioengine=vsync coalesces contiguous I/Os into one"
        + " readv()/writev() (fio_vsyncio_queue()), which blksim does not model; a depth of 1"
        + " (one iovec a call) is modelled",
        rejects("[global]\niodepth=2\n[j]\nioengine=vsync\n", 2, "iodepth", "a depth of 1")
            .getMessage());
    assertEquals(FioEngine.VSYNC, FioJobFile.parse("t.fio", "[j]\nioengine=vsync\n", null,
        FioJobFileTest.ENV, java.util.Map.of()).get(0).ioengine());
  }

  @Test
  void histogramLogAndHipriPercentage_areAccepted_withTheirValuesChecked() {
    FioJobFile.parse("t.fio", "[j]\nwrite_hist_log=h\nlog_hist_msec=100\n"
        + "log_hist_coarseness=3\nioengine=pvsync2\nhipri_percentage=50\n", null,
        FioJobFileTest.ENV, java.util.Map.of());
    rejects("[j]\nlog_hist_coarseness=7\n", 2, "log_hist_coarseness", "7");
    rejects("[j]\nioengine=pvsync2\nhipri_percentage=101\n", 3, "hipri_percentage", "101");
  }

  @Test
  void closest_breaksDistanceTies_byTheLongestSharedRun() {
    // use_thread is 4 edits from both thread and pre_read; fio's first-in-order rule would pick
    // pre_read, which shares only "read"; thread shares "thread".
    assertEquals(4, FioOptions.distance("use_thread", "thread"));
    assertEquals(4, FioOptions.distance("use_thread", "pre_read"));
    assertEquals(6, FioOptions.longestCommonRun("use_thread", "thread"));
    rejects("[j]\nuse_thread=1\n", 2, "use_thread", "did you mean thread?");
    // an alias's spelling counts for its option: blocksizes is 1 from the alias blocksize
    assertEquals("bs", FioOptions.closest("blocksizes"));
  }

  @Test
  void realFioOptionNotModelled_isRejected() {
    rejects("[j]\ncreate_fsync=1\n", 2, "create_fsync",
        "create_fsync is not modelled by blksim");
    // An alias of an unmodelled option names the canonical one too.
    rejects("[j]\nblocksize_unaligned=1\n", 2, "blocksize_unaligned",
        "blocksize_unaligned (bs_unaligned) is not modelled");
    // Options of fio's engines (engines/*.c) are known to fio, so never "unknown".
    rejects("[j]\nioengine=libaio\nuserspace_reap\n", 3, "userspace_reap",
        "is not modelled by blksim");
    // ... but under an engine whose table lacks them fio itself refuses them (Bad option).
    rejects("[j]\nuserspace_reap\n", 2, "userspace_reap", "userspace_reap is an option of"
        + " ioengine=libaio, not of ioengine=psync (fio refuses it too: Bad option)");
    rejects("[global]\nmd_per_io_size=64\n[j]\nioengine=libaio\n", 2, "md_per_io_size",
        "md_per_io_size=64 is an option of ioengine=io_uring/xnvme, not of ioengine=psync (fio"
        + " refuses it too: Bad option)");
    // fdp=1 needs an engine with fdp_fetch_ruhs (fdp.c): fio fails the job's file setup.
    rejects("[j]\nioengine=libaio\nfdp=1\n", 3, "fdp", "fio fails the same way: engine"
        + " (libaio) lacks fetch ruhs");
    rejects("[j]\nhttp_host=x\n", 2, "http_host", "http_host=x is an option of ioengine=http");
    // Options added to fio after 3.33 are in the generated table as well.
    rejects("[j]\nverify_policy=x\n", 2, "verify_policy", "not modelled");
    rejects("[global]\nblock_error_percentiles=1\n[j]\n", 2, "block_error_percentiles",
        "not modelled");
    rejects("[j]\npercentage_sequential=50\n", 2, "percentage_sequential", "not modelled");
    rejects("[j]\nexec_prerun=true\n", 2, "exec_prerun", "not modelled");
    rejects("[j]\nlockfile=exclusive\n", 2, "lockfile", "not modelled");
  }

  @Test
  void cpuAffinityAndNice_checkTheirRules_likeFio() {
    int n = FioJobFileTest.ENV.ncpus();
    rejects("[j]\ncpus_allowed=0-" + n + "\n", 2, "cpus_allowed",
        "CPU " + n + " too large (max=" + (n - 1) + ")");
    rejects("[j]\ncpus_allowed=3-1\n", 2, "cpus_allowed", "invalid range 3-1");
    rejects("[j]\ncpus_allowed=a\n", 2, "cpus_allowed", "CPU numbers and ranges");
    rejects("[j]\ncpumask=0\n", 2, "cpumask", "allows no CPU");
    rejects("[j]\ncpumask=zz\n", 2, "cpumask", "bit mask");
    rejects("[j]\ncpus_allowed_policy=spread\n", 2, "cpus_allowed_policy",
        "must be one of shared, split");
    rejects("[j]\nnice=-21\n", 2, "nice", "must be in [-20, 19]");
    rejects("[j]\nnice=20\n", 2, "nice", "must be in [-20, 19]");
  }

  @Test
  void blockSize_mustBePositiveMultipleOf512() {
    rejects("[j]\nbs=100\n", 2, "bs", "bs must be a positive multiple of 512, was 100");
    rejects("[j]\nbs=4k,1000\n", 2, "bs", "was 1000");
    rejects("[j]\nbs=0\n", 2, "bs", "positive multiple of 512");
    rejects("[j]\nbs=4k,4k,4k,4k\n", 2, "bs", "at most three");
    rejects("[j]\nbs=,\n", 2, "bs", "needs a value");
  }

  @Test
  void integerRanges_areChecked() {
    rejects("[j]\nrwmixread=101\n", 2, "rwmixread", "[0, 100]");
    rejects("[j]\nrwmixwrite=-5\n", 2, "rwmixwrite", "negative");
    rejects("[j]\niodepth=0\n", 2, "iodepth", "[1, ");
    rejects("[j]\nnumjobs=0\n", 2, "numjobs", "[1, ");
    rejects("[j]\niodepth=3000000000\n", 2, "iodepth", "was 3000000000");
  }

  @Test
  void badNumbers_areRejected() {
    rejects("[j]\nsize=-1\n", 2, "size", "must not be negative");
    rejects("[j]\nsize=4q\n", 2, "size", "unknown unit suffix 'q'");
    rejects("[j]\nsize=2*1024\n", 2, "size", "put arithmetic in parentheses");
    rejects("[j]\nsize=(3\n", 2, "size", "missing ')'");
    rejects("[j]\nsize=101%\n", 2, "size", "[1, 100]");
    rejects("[j]\noffset=101%\n", 2, "offset", "[0, 100]");
    rejects("[j]\nbs=\n", 2, "bs", "needs a value");
    rejects("[j]\niodepth=$ncpus*k\n", 2, "iodepth", "bad arithmetic");
  }

  @Test
  void badTimes_areRejected() {
    rejects("[j]\nruntime=10sec\n", 2, "runtime", "'sec'");
    rejects("[j]\nthinktime=1.5\n", 2, "thinktime", "not a time");
    rejects("[j]\nramp_time=5min\n", 2, "ramp_time", "unknown time unit 'min'");
    rejects("[j]\nstartdelay=1-5x\n", 2, "startdelay", "unknown time unit");
  }

  @Test
  void badRw_isRejected() {
    rejects("[j]\nrw=randomread\n", 2, "rw", "must be one of read, write", false);
    rejects("[j]\nreadwrite=randread:0\n", 2, "readwrite", "must be in [1, ");
  }

  @Test
  void badIoengine_isRejected() {
    InputException e = rejects("[j]\nioengine=splice\n", 2, "ioengine",
        "ioengine=splice is not modelled by blksim (the vmsplice()");
    // The form: FILE:LINE: ioengine=NAME is not modelled by blksim (REASON)
    assertTrue(e.getMessage().matches(
        "bad\\.fio:2: ioengine=splice is not modelled by blksim \\(.+\\)"), e.getMessage());
    for (String eng : List.of("net", "sg", "io_uring_cmd", "splice",
        "libpmem", "exec", "external:/tmp/x.so")) {
      InputException r = rejects("[j]\nioengine=" + eng + "\n", 2, "ioengine",
          "ioengine=" + eng + " is not modelled by blksim (");
      assertTrue(r.getMessage().endsWith(")"), r.getMessage());
    }
    rejects("[j]\nioengine=turbo\n", 2, "ioengine", "ioengine=turbo is unknown");
  }

  @Test
  void engineOptionWithWrongEngine_pointsAtTheOption() {
    rejects("[j]\nioengine=libaio\nhipri\n", 3, "hipri", "io_uring or pvsync2");
    rejects("[global]\nfixedbufs\n[j]\nioengine=psync\n", 2, "fixedbufs",
        "fixedbufs is an option of ioengine=io_uring, ioengine is psync");
  }

  @Test
  void badBooleans_areRejected() {
    rejects("[j]\ndirect\n", 2, "direct", "needs a value");
    rejects("[j]\ndirect=2\n", 2, "direct", "0 or 1");
    rejects("[j]\ngroup_reporting=yes\n", 2, "group_reporting", "0 or 1");
    rejects("[j]\nrw=write\nfill_device=maybe\n", 3, "fill_device", "0 or 1");
    rejects("[j]\nrw=write\natomic=2\n", 3, "atomic", "0 or 1");
  }

  @Test
  void verifyThatCanNeverStart_getsFiosNotice() {
    String none = "[j]\nrw=write\nverify=md5\nruntime=1s\n";
    FioJobSettings s = FioJobFile.parse("t.fio", none + "time_based\n", null,
        FioJobFileTest.ENV, java.util.Map.of()).get(0).settings();
    assertTrue(s.verifyNeverStarts().contains("t.fio:3: fio: verification read phase will"
        + " never start"), s.verifyNeverStarts());
    for (String ok : List.of(none, none + "time_based\nverify_backlog=16\n",
        "[j]\nrw=randrw\nverify=md5\nruntime=1s\ntime_based\n")) {
      assertEquals(null, FioJobFile.parse("t.fio", ok, null, FioJobFileTest.ENV,
          java.util.Map.of()).get(0).settings().verifyNeverStarts(), ok);
    }
  }

  @Test
  void anIecBlockSize_thatFioReadsAsPowersOf1000_saysSo() {
    // parse.c __get_mult_bytes(): with kb_base=1024 (the default) "KiB" is 1000 bytes.
    rejects("[j]\nbs=4KiB\n", 2, "bs", "4KiB is 4000 bytes: with its default kb_base=1024");
    rejects("[j]\nbsrange=1KiB-4k\n", 2, "bsrange", "1KiB is 1000 bytes");
    rejects("[j]\nbs=1000\n", 2, "bs", "multiple of 512, was 1000");
    assertEquals(4096, FioJobFile.parse("t.fio", "[j]\nkb_base=1000\nbs=4KiB\n", null,
        FioJobFileTest.ENV, java.util.Map.of()).get(0).bs()[0]);
  }

  @Test
  void aNoteAboutAJobFile_isGivenOnce_thoughARunParsesTheFileAgain() {
    assertTrue(FioJobSettings.note("{}:{}: once", "notes.fio", 7));
    assertFalse(FioJobSettings.note("{}:{}: once", "notes.fio", 7));
    assertTrue(FioJobSettings.note("{}:{}: once", "notes.fio", 8));
  }

  @Test
  void syncEngineAboveDepth1_getsFiosCappedNote() {
    FioJobSettings s = FioJobFile.parse("t.fio", "[global]\niodepth=32\n[j]\nrw=read\n", null,
        FioJobFileTest.ENV, java.util.Map.of()).get(0).settings();
    assertTrue(s.syncDepthNote().startsWith("t.fio:2: iodepth=32 with ioengine=psync: fio says"
        + " \"note: both iodepth >= 1 and synchronous I/O engine are selected, queue depth will be"
        + " capped at 1\""), s.syncDepthNote());
    for (String ok : List.of("[j]\nrw=read\n", "[j]\niodepth=32\nioengine=libaio\n",
        "[j]\niodepth=8\nio_submit_mode=offload\n")) {
      assertEquals(null, FioJobFile.parse("t.fio", ok, null, FioJobFileTest.ENV,
          java.util.Map.of()).get(0).settings().syncDepthNote(), ok);
    }
  }

  @Test
  void timeBasedWithoutRuntime_isTurnedOff_asFiosFixupOptionsDoes() {
    // init.c fixup_options(): fio warns "time_based requires a runtime/timeout setting" and
    // clears time_based; the job then runs to its size.
    FioJob j = FioJobFile.parse("t.fio", "[global]\ntime_based\n[j]\nrw=read\nsize=1m\n", null,
        FioJobFileTest.ENV, java.util.Map.of()).get(0);
    assertFalse(j.timeBased());
    assertEquals(0, j.runtimeNs());
  }

  @Test
  void badPercentileList_isRejected() {
    rejects("[j]\npercentile_list=1:2:3:4:5:6:7:8:9:10:11:12:13:14:15:16:17:18:19:20:21\n", 2,
        "percentile_list", "at most 20");
    rejects("[j]\npercentile_list=0:50\n", 2, "percentile_list", "(0, 100]");
    rejects("[j]\npercentile_list=50:100.5\n", 2, "percentile_list", "(0, 100]");
  }

  @Test
  void unmodelledValues_areRejected() {
    rejects("[j]\nrandom_generator=mt\n", 2, "random_generator", "tausworthe, lfsr");
    rejects("[j]\nzonemode=zoned\n", 2, "zonemode", "none, strided, zbd");
    rejects("[j]\nsize=4z\n", 2, "size", "needs zonesize or zonemode=zbd");
    rejects("[j]\nzonemode=zbd\nzone_reset_threshold=1.5\n", 3, "zone_reset_threshold", "[0, 1]");
    rejects("[j]\nrw_sequencer=identical\n", 2, "rw_sequencer", "not modelled");
    rejects("[j]\nkb_base=512\n", 2, "kb_base", "1024, 1000");
  }

  @Test
  void errorsAfterAnInlineComment_nameTheOptionLine() {
    // fio's strip_blank_end() cuts "iodepth=0 # x" to "iodepth=0": the error is the value's.
    rejects("[j]\nrw=read\niodepth=0 # none\n", 3, "iodepth", "[1, ");
    // "bs=4k;x" is bs=4k; the bad key after the cut is still reported on its own line.
    rejects("[j] ; job\nbs=4k;x\nfoo=1 # bar\n", 3, "foo", "foo=1 is an unknown fio option");
  }

  @Test
  void crossOptionErrors_nameTheOptionLine_notTheSection() {
    // finish(): hipri is checked against ioengine once the section is read; the error is on
    // hipri's line (4), not on the [j] header (1).
    rejects("[j]\nrw=read\nioengine=libaio\nhipri\n", 4, "hipri", "io_uring or pvsync2");
    // Set in [global] (line 2): that line, though the job is on line 4.
    rejects("[global]\nfixedbufs\n\n[j]\nioengine=psync\n", 2, "fixedbufs", "io_uring");
  }

  @Test
  void jobErrors_nameTheLineOfTheOptionInvolved() {
    FioJob j = FioJobFileTest.only("[j]\nrw=read\n\nbs=8k\n");
    InputException e = j.error("bs", "too big");
    assertEquals(4, e.line());
    assertEquals("bs", e.key());
    // blocksize is written, bs is canonical: the key is shown as written.
    assertEquals("blocksize",
        FioJobFileTest.only("[j]\nblocksize=8k\n").error("bs", "x").key());
    // never set: the section header.
    assertEquals(1, j.error("size", "x").line());
  }

  @Test
  void waitFor_needsExactlyOneEarlierJob() {
    // init.c wait_for_ok(): unknown waitee, waiting for itself, duplicates.
    rejects("[a]\nrw=read\n[b]\nwait_for=c\n[c]\n", 4, "wait_for", "waitee job c unknown");
    rejects("[a]\nwait_for=a\n", 2, "wait_for", "cannot wait for itself");
    rejects("[a]\n[a]\n[b]\nwait_for=a\n", 4, "wait_for", "multiple waitees");
  }

  @Test
  void errorInGlobal_pointsAtTheGlobalLine() {
    rejects("[global]\nrw=read\niodepth=0\n[j]\n", 3, "iodepth", "[1, ");
  }

  @Test
  void noJobSection_isRejected() {
    rejects("[global]\nbs=4k\n", 0, null, "no job section");
  }

  @Test
  void includeErrors_nameTheIncludeLine(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("sections.inc"), "bs=8k\n[oops]\n");
    Files.writeString(dir.resolve("loop.inc"), "include loop.inc\n");
    Files.writeString(dir.resolve("bad.inc"), "# ok\nbs=4k\niodepth=-1\n");
    Files.writeString(dir.resolve("missing.fio"), "[j]\nrw=read\ninclude nope.inc\n");
    InputException missing = assertThrows(InputException.class,
        () -> FioJobFile.parse(dir.resolve("missing.fio"), FioJobFileTest.ENV, Map.of()));
    assertEquals(dir.resolve("missing.fio").toString(), missing.file());
    assertEquals(3, missing.line());
    assertEquals("include", missing.key());
    assertTrue(missing.rule().contains("nope.inc does not exist"), missing.getMessage());

    InputException section = assertThrows(InputException.class, () -> FioJobFile.parse(
        "t.fio", "[j]\ninclude sections.inc\n", dir, FioJobFileTest.ENV, Map.of()));
    assertEquals(dir.resolve("sections.inc").toString(), section.file());
    assertEquals(2, section.line());
    assertTrue(section.rule().contains("may not contain sections"), section.getMessage());

    InputException cycle = assertThrows(InputException.class, () -> FioJobFile.parse(
        "t.fio", "[j]\ninclude loop.inc\n", dir, FioJobFileTest.ENV, Map.of()));
    assertEquals("include", cycle.key());
    assertTrue(cycle.rule().contains("include cycle"), cycle.getMessage());

    InputException value = assertThrows(InputException.class, () -> FioJobFile.parse(
        "t.fio", "[j]\ninclude bad.inc\n", dir, FioJobFileTest.ENV, Map.of()));
    assertEquals(dir.resolve("bad.inc").toString(), value.file());
    assertEquals(3, value.line());
    assertEquals("iodepth", value.key());
  }

  @Test
  void missingJobFile_isAnInputError(@TempDir Path dir) {
    Path nope = dir.resolve("nope.fio");
    InputException e = assertThrows(InputException.class,
        () -> FioJobFile.parse(nope, FioJobFileTest.ENV, Map.of()));
    assertEquals(nope.toString(), e.file());
    assertTrue(e.rule().contains("cannot read job file"), e.getMessage());
  }

  @Test
  void fioEnvironment_checksItsRanges() {
    assertThrows(IllegalArgumentException.class, () -> new FioEnvironment(0, 1024, 4096));
    assertThrows(IllegalArgumentException.class, () -> new FioEnvironment(1, 0, 4096));
    assertThrows(IllegalArgumentException.class, () -> new FioEnvironment(1, 1024, 3000));
  }
}
