package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.InputException;
import blksim.engine.LocalRunner;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.workload.fio.stats.JobStats;
import blksim.workload.fio.stats.RunResult;
import blksim.workload.replay.ReplayStats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** fio's read_iolog replay in a simulated job: timing modes, redirect, wrap, skip, clones. */
@Timeout(120)
class ReplayTest {
  @TempDir Path dir;

  static final int N = 50;
  static final long GAP_NS = 2_000_000;

  /** A v3 iolog of N 4 KiB records 2 ms apart on /dev/sdb, the first at 1 ms. */
  Path log(String name, String op) throws IOException {
    StringBuilder b = new StringBuilder("fio version 3 iolog\n0 /dev/sdb add\n0 /dev/sdb open\n");
    for (int i = 0; i < N; i++) {
      b.append(1000 + i * GAP_NS / 1000).append(" /dev/sdb ").append(op).append(' ')
          .append(i * 8192L).append(" 4096\n");
    }
    Path p = dir.resolve(name);
    Files.writeString(p, b.toString());
    return p;
  }

  RunResult run(String job) throws IOException {
    return run(job, Partitioning.ONE, "{ type = brd, name = ram0, size = 64M }");
  }

  RunResult run(String job, Partitioning part, String device) throws IOException {
    Path p = dir.resolve("t.conf");
    Files.writeString(p, "blksim {\n  machine { cores-per-llc = 4, threads-per-core = 1 }\n"
        + "  devices = [ " + device + " ]\n"
        + "  fio.jobs = [\"\"\"\n" + job + "\n\"\"\"]\n}\n");
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    RunOutcome out = LocalRunner.run(new ScenarioModelFactory().build(s.spec()), part,
        part == Partitioning.ONE ? 1 : 2, ProgressListener.NONE);
    return ScenarioResults.toRunResult(out, 0);
  }

  JobStats one(String job) throws IOException {
    return run(job).jobs().get(0);
  }

  String job(Path log, String extra) {
    return "[r]\nread_iolog=" + log + "\nreplay_redirect=/dev/ram0\ndirect=1\n" + extra;
  }

  @Test
  void openLoop_issuesAtTheRecordedTimes_noStallIsFaster_timeScaleDividesTheGaps()
      throws IOException {
    Path log = log("a.log", "read");
    JobStats timed = one(job(log, "ioengine=psync"));
    assertEquals(N, timed.totalIos(0));
    long span = (N - 1) * GAP_NS;
    // Each delay counts from the previous issue and each nanosleep is late by the timer slack
    // (50 us), as in fio: a little over the recorded span.
    assertTrue(timed.runtimeNs() >= span && timed.runtimeNs() < span * 1.05,
        "runtime " + timed.runtimeNs() + " for a recorded span of " + span);
    JobStats fast = one(job(log, "ioengine=psync\nreplay_no_stall=1"));
    assertEquals(N, fast.totalIos(0));
    assertTrue(fast.runtimeNs() < span / 20, "no stall: " + fast.runtimeNs());
    JobStats twice = one(job(log, "ioengine=psync\nreplay_time_scale=200"));
    assertTrue(Math.abs(twice.runtimeNs() - span / 2.0) < 0.05 * span,
        "replay_time_scale=200: " + twice.runtimeNs() + " vs " + span / 2);
  }

  /**
   * fio's iolog_delay() (since fio-3.36) polls the gap away instead of sleeping: a sync engine
   * has nothing in flight, so the job spins in user time without a context switch, and each
   * record issues within a microsecond or two of its time (no timer slack to make up).
   */
  @Test
  void psync_pollsEachGapInUserTime_withoutSleeping() throws IOException {
    Path log = log("p.log", "read");
    JobStats j = one(job(log, "ioengine=psync"));
    assertEquals(N, j.totalIos(0));
    long span = (N - 1) * GAP_NS; // the first record issues at once
    assertTrue(j.runtimeNs() >= span && j.runtimeNs() < span + N * 3_000L,
        "runtime " + j.runtimeNs() + " against the records' " + span);
    assertTrue(j.usrNs() > 0.95 * span, "usr " + j.usrNs() + " of " + j.runtimeNs());
    assertEquals(0, j.ctx(), "context switches");
  }

  /**
   * With I/Os in flight the poll reaps them as they complete (io_u_queued_complete(td, 0) in
   * iolog_delay()'s loop): on a device that takes 200 us, a record's completion latency is the
   * device's, not the 2 ms gap to the next record as when fio-3.35 slept through it.
   */
  @Test
  void asyncEngines_reapDuringTheGap() throws IOException {
    Path log = log("n.log", "read");
    for (String engine : List.of("io_uring", "libaio")) {
      JobStats j = run(job(log, "ioengine=" + engine + "\niodepth=8").replace(
          "replay_redirect=/dev/ram0", "replay_redirect=/dev/nullb0"), Partitioning.ONE,
          "{ type = null_blk, name = nullb0, size = 1G, irqmode = timer,"
              + " completion-nsec = 200us }").jobs().get(0);
      assertEquals(N, j.totalIos(0), engine);
      double clat = j.clat(JobStats.DDIR_READ).mean();
      assertTrue(clat >= 200_000 && clat < 260_000, engine + ": clat mean " + clat);
      long span = (N - 1) * GAP_NS;
      assertTrue(j.runtimeNs() >= span && j.runtimeNs() < span + 400_000, engine + ": "
          + j.runtimeNs());
      // The poll never sleeps: the 200 us in flight of each record are spun in system time
      // (getevents in a loop), the rest of the gap in user time; only the wait for the last
      // I/O, after the trace's end, sleeps.
      assertTrue(j.ctx() <= 1, engine + ": context switches " + j.ctx());
      assertTrue(j.sysNs() > N * 150_000L && j.usrNs() > span / 2, engine + ": sys " + j.sysNs()
          + ", usr " + j.usrNs());
    }
  }

  @Test
  void asyncEngines_replayWithTheSameTiming() throws IOException {
    Path log = log("w.log", "write");
    for (String engine : List.of("io_uring", "libaio")) {
      JobStats j = one(job(log, "ioengine=" + engine + "\niodepth=8"));
      assertEquals(N, j.totalIos(1), engine);
      long span = (N - 1) * GAP_NS;
      assertTrue(j.runtimeNs() >= span && j.runtimeNs() < span * 1.05, engine + ": "
          + j.runtimeNs());
      assertEquals(N, j.replay().issued());
    }
  }

  @Test
  void withoutRedirect_filenameIsTheDevice_andBeyondItsEndRecordsWrap() throws IOException {
    Path p = dir.resolve("wrap.log");
    Files.writeString(p, "fio version 2 iolog\n/dev/sdb add\n/dev/sdb read 0 4096\n"
        + "/dev/sdb read 100663296 4096\n/dev/sdb write 67104768 8192\n");
    JobStats j = one("[r]\nread_iolog=" + p + "\nfilename=/dev/ram0\ndirect=1\n");
    ReplayStats s = j.replay();
    assertEquals(2, j.totalIos(0));
    assertEquals(1, j.totalIos(1));
    assertEquals(2, s.wrapped(), "96 MiB and 64 MiB - 4 KiB + 8 KiB lie beyond the 64 MiB ram0");
    assertEquals(4, s.recordsRead());
    assertEquals(2, s.devices().get("/dev/sdb")[ReplayStats.DEV_WRAPPED]);
    // The replay block travels with the job's statistics, byte for byte.
    byte[] bytes = j.encode();
    JobStats back = JobStats.decode(bytes);
    assertTrue(java.util.Arrays.equals(bytes, back.encode()));
    assertEquals(2, back.replay().wrapped());
    assertEquals(p.toString(), back.replay().file());
  }

  @Test
  void withoutFilename_theLogsAddedFileIsTheDevice_asFioTakesIt() throws IOException {
    Path p = dir.resolve("v2.iolog");
    Files.writeString(p, "fio version 2 iolog\n/dev/ram0 add\n/dev/ram0 open\n"
        + "/dev/ram0 write 0 4096\n/dev/ram0 read 8192 4096\n/dev/ram0 write 16384 8192\n"
        + "/dev/ram0 close\n");
    JobStats j = one("[r]\nread_iolog=" + p + "\n");
    assertEquals(1, j.totalIos(0));
    assertEquals(2, j.totalIos(1));
    assertEquals(3, j.replay().issued());
    assertEquals(3, j.replay().devices().get("/dev/ram0")[ReplayStats.DEV_ISSUED]);
  }

  @Test
  void theLogsAddedFile_isMappedAsAJobFilesPathIs() throws IOException {
    Path log = log("sdb.log", "read"); // adds /dev/sdb
    Path p = dir.resolve("m.conf");
    Files.writeString(p, "blksim {\n  machine { cores-per-llc = 4, threads-per-core = 1 }\n"
        + "  devices = [ { type = brd, name = ram0, size = 64M } ]\n"
        + "  fio.map = [\"/dev/sdb=ram0\"]\n"
        + "  fio.jobs = [\"\"\"\n[r]\nread_iolog=" + log + "\ndirect=1\nreplay_no_stall=1\n"
        + "\"\"\"]\n}\n");
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    RunOutcome out = LocalRunner.run(new ScenarioModelFactory().build(s.spec()), Partitioning.ONE,
        1, ProgressListener.NONE);
    JobStats j = ScenarioResults.toRunResult(out, 0).jobs().get(0);
    assertEquals(N, j.totalIos(0));
    assertEquals("/dev/ram0", j.replay().device());
  }

  @Test
  void aTruncatedLastLine_namesItsLineAndTheSwitchThatSkipsIt() throws IOException {
    Path p = dir.resolve("trunc.iolog");
    Files.writeString(p, "fio version 2 iolog\n/dev/ram0 add\n/dev/ram0 write 0 4096\n"
        + "/dev/ram0 read 4096");
    InputException e = assertThrows(InputException.class,
        () -> one("[r]\nread_iolog=" + p + "\ndirect=1\n"));
    assertTrue(e.getMessage().startsWith(p + ":4: "), e.getMessage());
    assertTrue(e.getMessage().contains("replay_skip_malformed=1"), e.getMessage());
    JobStats j = one("[r]\nread_iolog=" + p + "\ndirect=1\nreplay_skip_malformed=1\n");
    assertEquals(1, j.replay().issued());
  }

  @Test
  void replaySkip_dropsWrites() throws IOException {
    Path p = dir.resolve("mixed.log");
    Files.writeString(p, "fio version 2 iolog\n/dev/sdb add\n/dev/sdb read 0 4096\n"
        + "/dev/sdb write 4096 4096\n/dev/sdb write 8192 4096\n/dev/sdb read 0 4096\n");
    JobStats j = one(job(p, "replay_skip=write"));
    assertEquals(2, j.totalIos(0));
    assertEquals(0, j.totalIos(1));
    assertEquals(2, j.replay().skipped());
  }

  @Test
  void syncRecords_fsyncTheDevice_withEveryEngine() throws IOException {
    Path p = dir.resolve("sync.log");
    Files.writeString(p, "fio version 2 iolog\n/dev/sdb add\n/dev/sdb write 0 4096\n"
        + "/dev/sdb sync 0 0\n/dev/sdb write 4096 4096\n/dev/sdb datasync 0 0\n"
        + "/dev/sdb read 0 4096\n");
    for (String engine : List.of("psync", "libaio", "io_uring")) {
      JobStats j = one(job(p, "ioengine=" + engine + "\niodepth=4"));
      assertEquals(2, j.totalIos(1), engine);
      assertEquals(1, j.totalIos(0), engine);
      assertEquals(5, j.replay().issued(), engine + ": two writes, a read and the two syncs");
      assertEquals(0, j.replay().unsupported(), engine);
    }
  }

  @Test
  void clones_splitTheLogs() throws IOException {
    Path a = log("a.log", "read");
    Path b = dir.resolve("b.log");
    Files.writeString(b, "fio version 2 iolog\n/dev/sdc write 0 4096\n");
    RunResult r = run("[r]\nread_iolog=" + a + ":" + b
        + "\nreplay_redirect=/dev/ram0\ndirect=1\nnumjobs=3\nreplay_no_stall=1\n");
    assertEquals(3, r.jobs().size());
    assertEquals(N, r.jobs().get(0).totalIos(0));
    assertEquals(1, r.jobs().get(1).totalIos(1));
    assertEquals(0, r.jobs().get(1).totalIos(0));
    assertEquals(N, r.jobs().get(2).totalIos(0), "clone 2 takes the first log again");
    assertTrue(r.jobs().get(1).replay().file().endsWith("b.log"));
  }

  @Test
  void v2Wait_sleepsUntilItsValueInMsAfterTheStart() throws IOException {
    Path p = dir.resolve("wait.log");
    Files.writeString(p, "fio version 2 iolog\n/dev/sdb add\n/dev/sdb read 0 4096\n"
        + "/dev/sdb wait 30 0\n/dev/sdb read 4096 4096\n");
    JobStats j = one(job(p, ""));
    assertEquals(2, j.totalIos(0));
    // fio's usec_sleep(): a nanosleep less its granularity, the slack making up most of it, then
    // a spin: the second read issues within a few us of 30 ms, not the 50 us slack late.
    assertTrue(j.runtimeNs() >= 30_000_000 && j.runtimeNs() < 30_020_000, "" + j.runtimeNs());
    assertEquals(1, j.replay().waits());
  }

  @Test
  void recordedLatencies_areComparedWithTheSimulatedOnes() throws IOException {
    Path p = dir.resolve("sdb.txt");
    Files.writeString(p, String.join("\n",
        "  8,16   0        1     0.000000000  4162  Q   W 2048 + 8 [fio]",
        "  8,16   0        2     0.000100000     0  C   W 2048 + 8 [0]",
        "  8,16   0        3     0.000500000  4162  Q   R 4096 + 8 [fio]",
        "  8,16   0        4     0.000700000     0  C   R 4096 + 8 [0]", ""));
    JobStats j = one(job(p, "ioengine=io_uring"));
    ReplayStats s = j.replay();
    assertEquals("blkparse", s.format());
    assertEquals(2, s.latencySamples());
    assertEquals(150_000, s.recordedMean(), 200);
    assertTrue(s.simulatedMean() > 0 && s.simulatedMean() < 100_000, "" + s.simulatedMean());
  }

  @Test
  void window_replaysOnlyItsRecords() throws IOException {
    Path log = log("a.log", "read");
    JobStats j = one(job(log, "replay_start=20ms\nreplay_end=40ms"));
    assertEquals(10, j.totalIos(0));
    assertTrue(j.runtimeNs() >= 9 * GAP_NS && j.runtimeNs() < 10 * GAP_NS, "" + j.runtimeNs());
  }

  @Test
  void aReplay_isTheSameWhateverThePartitioning() throws IOException {
    Path a = log("a.log", "read");
    Path b = log("b.log", "write");
    String job = "[r]\nread_iolog=" + a + ":" + b + "\nreplay_redirect=/dev/nullb0\ndirect=1\n"
        + "numjobs=4\nioengine=io_uring\niodepth=4\nreplay_time_scale=400\n";
    String dev = "{ type = null_blk, name = nullb0, size = 1G, irqmode = timer,"
        + " completion-nsec = 20us }";
    RunResult one = run(job, Partitioning.ONE, dev);
    RunResult cpu = run(job, Partitioning.parse("cpu"), dev);
    for (int k = 0; k < 4; k++) {
      assertTrue(java.util.Arrays.equals(one.jobs().get(k).encode(), cpu.jobs().get(k).encode()),
          "job " + k);
      assertEquals(N, one.jobs().get(k).replay().issued());
    }
  }

  @Test
  void badInputs_areRefusedWithTheKeyAndTheRule() throws IOException {
    Path notATrace = dir.resolve("x.txt");
    Files.writeString(notATrace, "hello world\n");
    Path log = log("a.log", "read");
    Path noAdd = dir.resolve("noadd.log");
    Files.writeString(noAdd, "fio version 2 iolog\n/dev/ram0 read 0 4096\n");
    Path twoFiles = dir.resolve("two.log");
    Files.writeString(twoFiles, "fio version 2 iolog\n/dev/ram0 add\n/dev/ram1 add\n"
        + "/dev/ram0 read 0 4096\n");
    for (String[] c : new String[][] {
        {"read_iolog=" + dir.resolve("missing.log") + "\nfilename=/dev/ram0", "does not exist"},
        {"read_iolog=" + notATrace + "\nfilename=/dev/ram0", "not a trace"},
        {"read_iolog=" + noAdd, "adds no file"},
        {"read_iolog=" + twoFiles, "adds 2 files (/dev/ram0, /dev/ram1)"},
        {"read_iolog=" + log + "\nfilename=/dev/ram0\nreplay_skip=reads", "replay_skip"},
        {"read_iolog=" + log + "\nfilename=/dev/ram0\nreplay_align=3000", "power of two"},
        {"read_iolog=" + log + "\nfilename=/dev/ram0\nread_iolog_format=csv", "fio-iolog"},
        {"read_iolog=" + log + "\nfilename=/dev/ram0\nreplay_start=2s\nreplay_end=1s",
            "replay_end"},
        {"read_iolog=" + log + "\nreplay_redirect=/dev/sdq", "not a simulated device"},
        // ioengine=null replays (NullReplayTest); cpuio has no I/O to replay onto.
        {"read_iolog=" + log + "\nreplay_redirect=/dev/ram0\nioengine=cpuio\ncpuload=50",
            "ioengine=cpuio"}}) {
      InputException e = assertThrows(InputException.class,
          () -> one("[r]\ndirect=1\n" + c[0] + "\n"), c[0]);
      assertTrue(e.getMessage().contains(c[1]), c[1] + " in " + e.getMessage());
    }
  }
}
