package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.InputException;
import blksim.engine.LocalRunner;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.RunOutcome;
import blksim.workload.fio.VerifyAlgorithm;
import blksim.workload.fio.stats.JobStats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * fio's {@code verify} (HOWTO "Verification"; backend.c {@code thread_main()} and
 * {@code do_verify()}, io_u.c {@code check_get_verify()}): a writing job reads back every block
 * it wrote once its writes are done, or every {@code verify_backlog} writes; the checksum costs
 * user time on both sides. Data is not simulated: nothing ever fails to verify.
 */
@Timeout(60)
class VerifyTest {
  @TempDir Path dir;

  JobStats run(String job) throws IOException {
    Path p = dir.resolve("v.conf");
    Files.writeString(p, "blksim {\n  machine { cores-per-llc = 2, threads-per-core = 1 }\n"
        + "  devices = [ { type = brd, name = ram0, size = 64M } ]\n"
        + "  fio.jobs = [\"\"\"\n[j]\nfilename=/dev/ram0\ndirect=1\nbs=4k\n" + job
        + "\n\"\"\"]\n}\n");
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    RunOutcome out = LocalRunner.run(new ScenarioModelFactory().build(s.spec()), Partitioning.ONE,
        1, ProgressListener.NONE);
    return ScenarioResults.toRunResult(out, 0).jobs().get(0);
  }

  @Test
  void writeThenVerify_readsBackEveryWrittenBlock_once() throws IOException {
    JobStats plain = run("rw=randwrite\nsize=1m");
    assertEquals(0, plain.totalIos(0));
    JobStats v = run("rw=randwrite\nsize=1m\nverify=crc32c");
    assertEquals(256, v.totalIos(1), "the write phase: 1 MiB in 4 KiB blocks");
    assertEquals(256, v.totalIos(0), "the verify phase reads each written block back");
    assertEquals(1 << 20, v.ioBytes(0));
    assertEquals(0, v.error(), "data is not simulated: verification never fails");
    JobStats aio = run("rw=write\nsize=1m\nverify=md5\nioengine=libaio\niodepth=8");
    assertEquals(256, aio.totalIos(0), "libaio drains its writes, then reads them back");
    // norandommap: fio sorts the blocks by offset and keeps the newest of a rewritten one, so
    // fewer than 256 distinct blocks are read back.
    JobStats nrm = run("rw=randwrite\nsize=1m\nnorandommap\nverify=crc32c");
    assertEquals(256, nrm.totalIos(1));
    assertTrue(nrm.totalIos(0) < 256 && nrm.totalIos(0) > 100,
        "each distinct block once: " + nrm.totalIos(0));
  }

  @Test
  void experimentalVerify_replaysEveryWrite_overlapsIncluded_andHasNoBacklog()
      throws IOException {
    // fio's experimental_verify logs nothing: do_verify() re-generates the write sequence, so a
    // norandommap job reads back every write, rewritten blocks as often as they were written.
    JobStats logged = run("rw=randwrite\nsize=1m\nnorandommap\nverify=crc32c");
    JobStats replayed = run("rw=randwrite\nsize=1m\nnorandommap\nverify=crc32c\n"
        + "experimental_verify=1");
    assertTrue(logged.totalIos(0) < 256, "the log drops overwritten blocks");
    assertEquals(256, replayed.totalIos(1));
    assertEquals(256, replayed.totalIos(0), "every write is replayed");
    // Nothing in io_hist: check_get_verify() finds no block to verify while writing.
    JobStats timed = run("rw=randwrite\nverify=crc32c\nverify_backlog=16\nruntime=2ms\n"
        + "time_based\nexperimental_verify=1");
    assertTrue(timed.totalIos(1) > 32);
    assertEquals(0, timed.totalIos(0));
  }

  @Test
  void nullEngine_verifies_asFioFakesIt_writesPayTheChecksum_readsDoNot() throws IOException {
    // engines/null.c is FIO_FAKEIO: verify_io_u() passes every read without checking it.
    JobStats none = run("ioengine=null\nrw=write\nsize=1m");
    JobStats md5 = run("ioengine=null\nrw=write\nsize=1m\nverify=md5");
    JobStats noRead = run("ioengine=null\nrw=write\nsize=1m\nverify=md5\ndo_verify=0");
    assertEquals(256, md5.totalIos(1));
    assertEquals(256, md5.totalIos(0), "the verify phase still reads every block");
    assertEquals(0, md5.error());
    assertEquals(VerifyAlgorithm.MD5.costNs(4096) * 256, noRead.usrNs() - none.usrNs(), 256.0);
    // verify_async's threads have nothing to check either: the job runs as without them.
    JobStats async = run("ioengine=null\nrw=write\nsize=1m\nverify=md5\nverify_async=2");
    assertEquals(256, async.totalIos(0));
    assertEquals(md5.usrNs(), async.usrNs());
    JobStats reads = run("ioengine=null\nrw=read\nsize=1m");
    assertEquals(noRead.usrNs() + reads.usrNs(), md5.usrNs(), 0.02 * md5.usrNs(),
        "a verify read costs a plain read's user time, no checksum");
  }

  @Test
  void nullEngine_withFilesizeAndNoSize_takesItsSizeFromFilesize() throws IOException {
    // setup_files(): a FIO_DISKLESSIO | FIO_FAKEIO file's real_file_size is filesize, and the
    // job's size the sum of its files'.
    assertEquals(256, runAlone("ioengine=null\nrw=write\nfilesize=1m").totalIos(1));
    assertEquals(512, runAlone("ioengine=null\nrw=write\nfilesize=1m\nnrfiles=2").totalIos(1));
    assertEquals(64, runAlone("ioengine=null\nrw=write\nfilesize=1m\nsize=256k").totalIos(1),
        "size= wins");
    InputException e = assertThrows(InputException.class,
        () -> runAlone("ioengine=null\nrw=write\nfilesize=1m-2m"));
    assertTrue(e.getMessage().contains("filesize"), e.getMessage());
  }

  @Test
  void doVerify0_writesTheChecksumButReadsNothing_andRuntimeEndsBeforeTheVerifyPhase()
      throws IOException {
    JobStats off = run("rw=write\nsize=1m\nverify=crc32c\ndo_verify=0");
    assertEquals(0, off.totalIos(0));
    // A write phase that ends by runtime is terminated: fio skips do_verify().
    JobStats timed = run("rw=randwrite\nverify=crc32c\nruntime=2ms\ntime_based");
    assertTrue(timed.totalIos(1) > 10);
    assertEquals(0, timed.totalIos(0));
  }

  @Test
  void verifyBacklog_interleavesBatchesOfReads_withTheWrites() throws IOException {
    // Every 16 writes, 16 verify reads of the oldest ones: a run cut by runtime has read back
    // all but the last partial batch.
    JobStats b = run("rw=randwrite\nverify=crc32c\nverify_backlog=16\nruntime=2ms\ntime_based");
    long w = b.totalIos(1);
    long r = b.totalIos(0);
    assertTrue(w > 32, "writes " + w);
    assertTrue(r >= w - 16 && r <= w, "reads " + r + " within a batch of writes " + w);
    JobStats half = run("rw=randwrite\nverify=crc32c\nverify_backlog=16\n"
        + "verify_backlog_batch=8\nruntime=2ms\ntime_based");
    long hw = half.totalIos(1);
    assertTrue(Math.abs(2 * half.totalIos(0) - hw) <= 16,
        "8 reads per 16 writes: " + half.totalIos(0) + " / " + hw);
    JobStats sized = run("rw=write\nsize=1m\nverify=crc32c\nverify_backlog=16");
    assertEquals(256, sized.totalIos(0), "what the backlog left is verified at the end");
  }

  @Test
  void verifyOnly_readsTheWritePattern_withoutWriting() throws IOException {
    JobStats v = run("rw=write\nsize=1m\nverify=crc32c\nverify_only");
    assertEquals(0, v.totalIos(1));
    assertEquals(256, v.totalIos(0));
  }

  @Test
  void checksumCpu_perByte_isTheAlgorithms_onBothSides() throws IOException {
    JobStats none = run("rw=write\nsize=1m");
    JobStats crc = run("rw=write\nsize=1m\nverify=crc32c\ndo_verify=0");
    JobStats md5 = run("rw=write\nsize=1m\nverify=md5\ndo_verify=0");
    long bytes = 1 << 20;
    assertEquals(VerifyAlgorithm.CRC32C.costNs(4096) * 256, crc.usrNs() - none.usrNs(), 256.0);
    assertEquals(VerifyAlgorithm.MD5.costNs(4096) * 256, md5.usrNs() - none.usrNs(), 256.0);
    // md5 at 661 MB/s: 1.513 ns of user time per byte checksummed.
    assertEquals(1.513, (md5.usrNs() - none.usrNs()) / (double) bytes, 0.01);
    // A verify read is checked again: twice the checksum time of do_verify=0.
    JobStats both = run("rw=write\nsize=1m\nverify=md5");
    JobStats reads = run("rw=read\nsize=1m");
    long checked = both.usrNs() - none.usrNs() - reads.usrNs();
    assertEquals(2 * VerifyAlgorithm.MD5.costNs(4096) * 256, checked, 0.05 * checked);
  }

  @Test
  void crc64_costsEveryByte_metaOnlyTheHeaderOfEachInterval() throws IOException {
    JobStats none = run("rw=write\nsize=1m");
    JobStats crc64 = run("rw=write\nsize=1m\nverify=crc64\ndo_verify=0");
    long bytes = 1 << 20;
    // fio_crc64() is a byte-at-a-time table CRC: 5.4 cycles per byte at 3.2 GHz.
    assertEquals(5.4 / 3.2, (crc64.usrNs() - none.usrNs()) / (double) bytes, 0.01);
    // verify=meta (VERIFY_HDR_ONLY): verify_header()'s crc32c over the 44 bytes before the
    // header's crc32 field, one header per verify_interval (the block size by default), and no
    // checksum of the data (populate_hdr() does nothing for it).
    JobStats meta = run("rw=write\nsize=1m\nverify=meta\ndo_verify=0");
    assertEquals(256 * VerifyAlgorithm.CRC32C.costNs(44), meta.usrNs() - none.usrNs(), 256.0);
    JobStats meta512 = run("rw=write\nsize=1m\nverify=meta\ndo_verify=0\nverify_interval=512");
    assertEquals(256 * 8 * 44 * VerifyAlgorithm.CRC32C.nsPerByte(),
        meta512.usrNs() - none.usrNs(), 256.0);
    assertTrue(meta512.usrNs() - none.usrNs() > 4 * (meta.usrNs() - none.usrNs()));
    // fixup_options(): an interval above the write block size is cut to it.
    JobStats metaBig = run("rw=write\nsize=1m\nverify=meta\ndo_verify=0\nverify_interval=64k");
    assertEquals(meta.usrNs(), metaBig.usrNs(), 256.0);
  }

  @Test
  void pattern_costsAMemcmpPerReadByte_scalingWithBs_andNothingPerWrite() throws IOException {
    // verify=pattern (VERIFY_PATTERN_NO_HDR): cmp_pattern() memcmp()s every byte of a read
    // block; a write reuses the buffer filled with the pattern once: no per-I/O cost.
    String p = "\nverify=pattern\nverify_pattern=0xdeadbeef";
    JobStats none = run("rw=write\nsize=1m");
    JobStats w = run("rw=write\nsize=1m\ndo_verify=0" + p);
    assertEquals(none.usrNs(), w.usrNs(), 256.0);
    JobStats r4 = run("rw=read\nsize=1m");
    JobStats p4 = run("rw=read\nsize=1m" + p);
    JobStats r64 = run("rw=read\nsize=1m\nbs=64k");
    JobStats p64 = run("rw=read\nsize=1m\nbs=64k" + p);
    double perByte = 1.0 / 32 / 3.2;
    assertEquals(256 * VerifyAlgorithm.PATTERN.costNs(4096), p4.usrNs() - r4.usrNs(), 256.0);
    assertEquals(16 * VerifyAlgorithm.PATTERN.costNs(65536), p64.usrNs() - r64.usrNs(), 16.0);
    assertEquals(Math.round(65536 * perByte), VerifyAlgorithm.PATTERN.costNs(65536));
    assertEquals(16.0, VerifyAlgorithm.PATTERN.costNs(65536)
        / (double) VerifyAlgorithm.PATTERN.costNs(4096), 0.1, "per byte: scales with bs");
    InputException e = assertThrows(InputException.class,
        () -> run("rw=read\nsize=1m\nverify=pattern"));
    assertTrue(e.getMessage().contains("verify=pattern needs verify_pattern"), e.getMessage());
  }

  /** A job named {@code name} (its verify state file's name) with the default options. */
  JobStats runNamed(String name, String job) throws IOException {
    Path p = dir.resolve("s.conf");
    Files.writeString(p, "blksim {\n  machine { cores-per-llc = 2, threads-per-core = 1 }\n"
        + "  devices = [ { type = brd, name = ram0, size = 64M } ]\n"
        + "  fio.jobs = [\"\"\"\n[" + name + "]\nfilename=/dev/ram0\ndirect=1\nbs=4k\n" + job
        + "\n\"\"\"]\n}\n");
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    RunOutcome out = LocalRunner.run(new ScenarioModelFactory().build(s.spec()), Partitioning.ONE,
        1, ProgressListener.NONE);
    return ScenarioResults.toRunResult(out, 0).jobs().get(0);
  }

  /** fio's verify state file (verify.c write_thread_list_state(), version 7, x86-64 layout). */
  static byte[] stateFile(long numberio, long... inflight) {
    java.nio.ByteBuffer l = java.nio.ByteBuffer.allocate(144 + 8 * inflight.length)
        .order(java.nio.ByteOrder.LITTLE_ENDIAN);
    l.putInt(0, inflight.length).putLong(8, numberio);
    for (int i = 0; i < inflight.length; i++) {
      l.putLong(144 + 8 * i, inflight[i]);
    }
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(l.array());
    java.nio.ByteBuffer f = java.nio.ByteBuffer.allocate(24 + l.capacity())
        .order(java.nio.ByteOrder.LITTLE_ENDIAN);
    f.putLong(7).putLong(l.capacity()).putLong(~crc.getValue() & 0xffffffffL).put(l.array());
    return f.array();
  }

  @Test
  void verifyStateLoad_boundsTheReads_byTheSavedState_andAssumesACompletedRunWithout()
      throws IOException {
    String name = "vstate-" + ProcessHandle.current().pid();
    Path state = Path.of("").toAbsolutePath().resolve("local-" + name + "-0-verify.state");
    String job = "rw=read\nsize=1m\nverify=md5\nverify_state_load=1\niodepth=4";
    try {
      // No state file: the write job that saves it is taken to have completed: every read.
      Files.deleteIfExists(state);
      assertEquals(256, runNamed(name, job).totalIos(0));
      // fio's verify_state_should_stop(): reads 0..numberio-1, and none from an in-flight one.
      Files.write(state, stateFile(100, -1L, -1L, -1L, -1L));
      JobStats bounded = runNamed(name, job);
      assertEquals(100, bounded.totalIos(0));
      assertEquals(100L * 4096, bounded.ioBytes(0));
      Files.write(state, stateFile(100, 97L, 98L, 99L, -1L));
      assertEquals(97, runNamed(name, job).totalIos(0), "stops at the first in-flight write");
      Files.write(state, stateFile(1000));
      assertEquals(256, runNamed(name, job).totalIos(0), "never beyond the job's own size");
      Files.write(state, stateFile(0));
      assertEquals(0, runNamed(name, job).totalIos(0));
      // loops: fio numbers the reads across loops (io_issues is reset only by reset_all_stats).
      Files.write(state, stateFile(300));
      assertEquals(300, runNamed(name, job + "\nloops=4").totalIos(0));
      byte[] bad = stateFile(100);
      bad[40] ^= 1;
      Files.write(state, bad);
      InputException e = assertThrows(InputException.class, () -> runNamed(name, job));
      assertTrue(e.getMessage().contains("verify_state_load")
          && e.getMessage().contains("crc32c does not match"), e.getMessage());
      Files.write(state, stateFile(10));
      e = assertThrows(InputException.class,
          () -> runNamed(name, job.replace("rw=read", "rw=write")));
      assertTrue(e.getMessage().contains("bounds a job that only reads"), e.getMessage());
    } finally {
      Files.deleteIfExists(state);
    }
  }

  JobStats runOnFile(String job) throws IOException {
    Path p = dir.resolve("f.conf");
    Files.writeString(p, "blksim {\n  machine { cores-per-llc = 2, threads-per-core = 1 }\n"
        + "  devices = [ { type = brd, name = ram0, size = 64M } ]\n"
        + "  filesystems = [ { type = xfs, device = ram0, mount = /mnt/t } ]\n"
        + "  fio.jobs = [\"\"\"\n[j]\nfilename=/mnt/t/f\ndirect=1\nbs=4k\n" + job
        + "\n\"\"\"]\n}\n");
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    RunOutcome out = LocalRunner.run(new ScenarioModelFactory().build(s.spec()), Partitioning.ONE,
        1, ProgressListener.NONE);
    return ScenarioResults.toRunResult(out, 0).jobs().get(0);
  }

  @Test
  void fileJobs_payTheChecksum_writingWithDoVerify0_andReading() throws IOException {
    JobStats none = runOnFile("rw=write\nsize=1m");
    JobStats crc = runOnFile("rw=write\nsize=1m\nverify=crc32c\ndo_verify=0");
    assertEquals(256, crc.totalIos(1));
    assertEquals(0, crc.totalIos(0), "do_verify=0: no read-back phase");
    assertEquals(VerifyAlgorithm.CRC32C.costNs(4096) * 256, crc.usrNs() - none.usrNs(), 256.0);
    JobStats read = runOnFile("rw=read\nsize=1m");
    JobStats checked = runOnFile("rw=read\nsize=1m\nverify=md5\ndo_verify=1");
    assertEquals(256, checked.totalIos(0));
    assertEquals(VerifyAlgorithm.MD5.costNs(4096) * 256, checked.usrNs() - read.usrNs(),
        256.0);
  }

  /** The measured I/Os of direction {@code ddir}, {offset...} in completion order. */
  private static List<Long> offsets(JobStats st, int ddir) {
    List<Long> out = new java.util.ArrayList<>();
    for (int i = 0; i < st.samples().size(); i++) {
      if (st.samples().ddir(i) == ddir) {
        out.add(st.samples().offset(i));
      }
    }
    return out;
  }

  @Test
  void fileWriter_doVerify_readsBackTheLoggedBlocks_afterItsWrites() throws IOException {
    // write_lat_log keeps every I/O's sample (offsets included); no log is written here.
    JobStats v = runOnFile("rw=randwrite\nsize=1m\nverify=crc32c\nwrite_lat_log=lat");
    assertEquals(256, v.totalIos(1));
    assertEquals(256, v.totalIos(0), "each written block is read back once");
    assertEquals(1 << 20, v.ioBytes(0));
    assertEquals(0, v.error());
    List<Long> w = offsets(v, 1);
    List<Long> r = offsets(v, 0);
    // Without an overlap risk fio verifies in write order (io_hist_list, a FIFO).
    assertEquals(w, r);
    // ... and only after the last write (do_verify() follows do_io()).
    long lastWrite = 0;
    long firstRead = Long.MAX_VALUE;
    for (int i = 0; i < v.samples().size(); i++) {
      long t = v.samples().completionNs(i) - v.samples().clatNs(i);
      if (v.samples().ddir(i) == 1) {
        lastWrite = Math.max(lastWrite, v.samples().completionNs(i));
      } else {
        firstRead = Math.min(firstRead, t);
      }
    }
    assertTrue(firstRead >= lastWrite, firstRead + " < " + lastWrite);
    // libaio: the writes drain, then the reads go at the job's depth.
    JobStats aio = runOnFile("rw=write\nsize=1m\nverify=md5\nioengine=libaio\niodepth=8\n"
        + "write_lat_log=lat");
    assertEquals(256, aio.totalIos(0));
    assertEquals(new java.util.TreeSet<>(offsets(aio, 1)),
        new java.util.TreeSet<>(offsets(aio, 0)));
    // verify_backlog: batches of verify reads between the writes, the rest at the end.
    JobStats backlog = runOnFile("rw=randwrite\nsize=1m\nverify=crc32c\nverify_backlog=16\n"
        + "verify_backlog_batch=8\nioengine=libaio\niodepth=4\nwrite_lat_log=lat");
    assertEquals(256, backlog.totalIos(0));
    List<Integer> dirs = new java.util.ArrayList<>();
    for (int i = 0; i < backlog.samples().size(); i++) {
      dirs.add(backlog.samples().ddir(i));
    }
    assertTrue(dirs.subList(0, dirs.size() / 2).contains(0), "reads among the first writes");
    // do_verify=0 reads nothing (fileJobs_payTheChecksum...); verify_only reads without writing.
    JobStats only = runOnFile("rw=write\nsize=1m\nverify=crc32c\nverify_only");
    assertEquals(0, only.totalIos(1));
    assertEquals(256, only.totalIos(0));
  }

  /** The run's outcome for a job on a file of an XFS on a brd. */
  RunOutcome runOnFileOutcome(String job) throws IOException {
    Path p = dir.resolve("fa.conf");
    Files.writeString(p, "blksim {\n  machine { cores-per-llc = 2, threads-per-core = 1 }\n"
        + "  devices = [ { type = brd, name = ram0, size = 64M } ]\n"
        + "  filesystems = [ { type = xfs, device = ram0, mount = /mnt/t } ]\n"
        + "  fio.jobs = [\"\"\"\n[j]\nfilename=/mnt/t/f\ndirect=1\nbs=4k\n" + job
        + "\n\"\"\"]\n}\n");
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    return LocalRunner.run(new ScenarioModelFactory().build(s.spec()), Partitioning.ONE, 1,
        ProgressListener.NONE);
  }

  /** The user time of job 0's verify threads (thread ids pid*1000+999 down), ns. */
  private static long verifyThreadsUsr(blksim.workload.fio.stats.RunResult r, int n) {
    long usr = 0;
    int found = 0;
    for (var t : r.threads()) {
      if (t.tid() > 1000 * 1000 + 999 - n && t.tid() <= 1000 * 1000 + 999) {
        usr += t.utimeNs();
        found++;
      }
    }
    assertEquals(n, found, "verify threads");
    return usr;
  }

  @Test
  void verifyAsync_movesTheReadChecksOffTheJobThread() throws IOException {
    long check = 256 * VerifyAlgorithm.MD5.costNs(4096);
    var inline = ScenarioResults.toRunResult(
        runOnFileOutcome("rw=write\nsize=1m\nverify=md5"), 0);
    var async = ScenarioResults.toRunResult(
        runOnFileOutcome("rw=write\nsize=1m\nverify=md5\nverify_async=2"), 0);
    JobStats in = inline.jobs().get(0);
    JobStats as = async.jobs().get(0);
    assertEquals(256, as.totalIos(0), "the same verify reads");
    assertEquals(256, as.totalIos(1));
    // fio's cpu line is the job thread's own (RUSAGE_THREAD): the read checks leave it ...
    assertEquals(check, in.usrNs() - as.usrNs(), 0.05 * check);
    // ... and are the verify threads' (verify_io_u() in verify_async_thread()).
    assertEquals(check, verifyThreadsUsr(async, 2), 0.01 * check);
    // The write checksums stay with the job thread (populate_verify_io_u()).
    JobStats noVerify = runOnFile("rw=write\nsize=1m\nverify=md5\ndo_verify=0");
    JobStats reads = runOnFile("rw=read\nsize=1m");
    // The job's own time is its checksummed writes plus plain reads.
    assertEquals(noVerify.usrNs() + reads.usrNs(), as.usrNs(), 0.01 * as.usrNs());
    // With io_submit_mode=offload the verify threads are not modelled: refused, not ignored.
    InputException e = assertThrows(InputException.class, () -> run("rw=write\nsize=1m\n"
        + "verify=crc32c\nverify_async=2\nioengine=libaio\nio_submit_mode=offload"));
    assertTrue(e.getMessage().contains("with offload"), e.getMessage());
    // libaio: reads held by the verify threads count against iodepth; all are read back.
    var aio = ScenarioResults.toRunResult(runOnFileOutcome("rw=randwrite\nsize=1m\n"
        + "verify=crc32c\nioengine=libaio\niodepth=4\nverify_async=1"), 0);
    assertEquals(256, aio.jobs().get(0).totalIos(0));
    assertEquals(256 * VerifyAlgorithm.CRC32C.costNs(4096), verifyThreadsUsr(aio, 1),
        0.01 * 256 * VerifyAlgorithm.CRC32C.costNs(4096));
  }

  @Test
  void fileWriter_severalFiles_verifiesEachFilesBlocks_reopeningClosedFiles() throws IOException {
    Path p = dir.resolve("d.conf");
    Files.writeString(p, "blksim {\n  machine { cores-per-llc = 2, threads-per-core = 1 }\n"
        + "  devices = [ { type = brd, name = ram0, size = 64M } ]\n"
        + "  filesystems = [ { type = xfs, device = ram0, mount = /mnt/t } ]\n"
        + "  fio.jobs = [\"\"\"\n[j]\ndirectory=/mnt/t\nnrfiles=4\nsize=1m\nbs=4k\n"
        + "direct=1\nrw=randwrite\nnorandommap\nverify=crc32c\n\"\"\"]\n}\n");
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    RunOutcome out = LocalRunner.run(new ScenarioModelFactory().build(s.spec()),
        Partitioning.ONE, 1, ProgressListener.NONE);
    JobStats v = ScenarioResults.toRunResult(out, 0).jobs().get(0);
    assertEquals(256, v.totalIos(1));
    // norandommap: fio's tree keeps one block per (file, offset), so rewritten blocks of a
    // file are read once; blocks of different files never drop each other.
    assertTrue(v.totalIos(0) < 256 && v.totalIos(0) > 150, "reads " + v.totalIos(0));
    assertEquals(0, v.error());
  }

  @Test
  void uncostedAlgorithms_areRefused() throws IOException {
    InputException e = assertThrows(InputException.class,
        () -> run("rw=write\nsize=1m\nverify=sha256"));
    assertTrue(e.getMessage().contains("no sourced figure yet"), e.getMessage());
  }

  /** A job with no filename= (its own options only) on the same machine. */
  JobStats runAlone(String job) throws IOException {
    Path p = dir.resolve("n.conf");
    Files.writeString(p, "blksim {\n  machine { cores-per-llc = 2, threads-per-core = 1 }\n"
        + "  devices = [ { type = brd, name = ram0, size = 64M } ]\n"
        + "  fio.jobs = [\"\"\"\n[j]\nbs=4k\n" + job + "\n\"\"\"]\n}\n");
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    RunOutcome out = LocalRunner.run(new ScenarioModelFactory().build(s.spec()), Partitioning.ONE,
        1, ProgressListener.NONE);
    return ScenarioResults.toRunResult(out, 0).jobs().get(0);
  }

  /** The run's outcome for a job on the brd ram0 (its own options after filename=/dev/ram0). */
  RunOutcome runOnDevice(String job) throws IOException {
    Path p = dir.resolve("d.conf");
    Files.writeString(p, "blksim {\n  machine { cores-per-llc = 2, threads-per-core = 1 }\n"
        + "  devices = [ { type = brd, name = ram0, size = 64M } ]\n"
        + "  fio.jobs = [\"\"\"\n[j]\nfilename=/dev/ram0\nbs=4k\n" + job
        + "\n\"\"\"]\n}\n");
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    return LocalRunner.run(new ScenarioModelFactory().build(s.spec()), Partitioning.ONE, 1,
        ProgressListener.NONE);
  }

  /** The actions of a write_iolog (read, write, sync), in order, without offsets. */
  private List<String> iologActions(Path log) throws IOException {
    return Files.readAllLines(log).stream().skip(1).map(l -> l.split(" ")[2])
        .filter(a -> a.equals("read") || a.equals("write") || a.equals("sync")).toList();
  }

  @Test
  void deviceWriter_endFsyncComesBeforeTheVerifyReads_andNoSyncOtherwise() throws IOException {
    // backend.c: do_io() ends with end_fsync's fio_file_fsync(), then thread_main() calls
    // clear_io_state() (the device is closed) and do_verify(), whose fio_io_sync() only syncs
    // files still open: none.
    for (String engine : List.of("psync", "libaio\niodepth=4")) {
      Path log = dir.resolve("e.log");
      Files.deleteIfExists(log);
      RunOutcome out = runOnDevice("direct=1\nrw=write\nsize=64k\nverify=crc32c\nend_fsync=1"
          + "\nwrite_iolog=" + log + "\nioengine=" + engine);
      assertEquals(16, ScenarioResults.toRunResult(out, 0).jobs().get(0).totalIos(0), engine);
      List<String> a = iologActions(log);
      assertEquals(33, a.size(), engine + ": " + a);
      assertEquals(List.of("write"), a.subList(0, 16).stream().distinct().toList(), engine);
      assertEquals("sync", a.get(16), engine + ": end_fsync right after the writes");
      assertEquals(List.of("read"), a.subList(17, 33).stream().distinct().toList(), engine);
      Files.delete(log);
      runOnDevice("direct=1\nrw=write\nsize=64k\nverify=crc32c\nwrite_iolog=" + log
          + "\nioengine=" + engine);
      assertTrue(!iologActions(log).contains("sync"), engine + ": " + iologActions(log));
    }
  }

  @Test
  void bufferedDeviceWriter_verifyReadsReachTheDevice_afterTheReopensInvalidate()
      throws IOException {
    // td_io_open_file()'s invalidate=1 on a block device is ioctl(BLKFLSBUF): sync_blockdev()
    // then invalidate_bdev(), so the verify reads miss the page cache the writes filled.
    var r = ScenarioResults.toRunResult(
        runOnDevice("direct=0\nrw=write\nsize=1m\nverify=crc32c"), 0);
    assertEquals(256, r.jobs().get(0).totalIos(0));
    var ram0 = r.disks().stream().filter(d -> d.name().equals("ram0")).findFirst().orElseThrow();
    // (readahead's window runs past the 1 MiB region: at least the region is read.)
    assertTrue(ram0.readSectors() >= 2048, "1 MiB read back from the device: "
        + ram0.readSectors());
    assertEquals(2048, ram0.writeSectors(), "1 MiB written back before the reads");
    // invalidate=0: no ioctl, the reads find the pages the writes left (the last close's
    // blkdev_flush_mapping() is not modelled).
    var keep = ScenarioResults.toRunResult(
        runOnDevice("direct=0\nrw=write\nsize=1m\nverify=crc32c\ninvalidate=0"), 0);
    assertEquals(256, keep.jobs().get(0).totalIos(0));
    assertEquals(0, keep.disks().stream().filter(d -> d.name().equals("ram0")).findFirst()
        .orElseThrow().readSectors());
  }

  @Test
  void verifyAsync_onADevice_movesTheReadChecksOffTheJobThread() throws IOException {
    long check = 256 * VerifyAlgorithm.MD5.costNs(4096);
    for (String engine : List.of("psync", "libaio\niodepth=4", "io_uring\niodepth=8")) {
      String job = "direct=1\nrw=randwrite\nsize=1m\nverify=md5\nioengine=" + engine;
      var inline = ScenarioResults.toRunResult(runOnDevice(job), 0);
      var async = ScenarioResults.toRunResult(runOnDevice(job + "\nverify_async=2"), 0);
      JobStats in = inline.jobs().get(0);
      JobStats as = async.jobs().get(0);
      assertEquals(256, as.totalIos(0), engine + ": the same verify reads");
      assertEquals(256, as.totalIos(1), engine);
      assertEquals(check, in.usrNs() - as.usrNs(), 0.05 * check, engine);
      assertEquals(check, verifyThreadsUsr(async, 2), 0.01 * check, engine);
    }
  }

  @Test
  void verifyPhase_hasItsOwnReadRuntime_andTheWritesKeepTheWritePhase() throws IOException {
    // backend.c thread_main(): update_runtime() gives the writes the time of do_io(), and after
    // do_verify() the reads the time of the verify phase alone (the job does not read), so the
    // write and the read rates are each phase's own, not the bytes over the whole job.
    JobStats v = run("rw=write\nsize=16m\nverify=crc32c");
    long total = v.jobRuntimeMs();
    long w = v.runtimeMs(1);
    long r = v.runtimeMs(0);
    assertTrue(total >= 4, "a run long enough to tell the phases apart: " + total + " ms");
    assertTrue(w < total && r < total, "write " + w + " ms, read " + r + " ms of " + total);
    assertTrue(w + r >= total && w + r <= total + 1, "the phases make up the run: " + w + " + "
        + r + " of " + total);
    // A job that also reads in do_io(): its reads' runtime is both phases'.
    JobStats mixed = run("rw=randrw\nsize=16m\nverify=crc32c");
    assertTrue(mixed.runtimeMs(1) < mixed.jobRuntimeMs());
    assertEquals(mixed.jobRuntimeMs(), mixed.runtimeMs(0), 1.0);
  }
}
