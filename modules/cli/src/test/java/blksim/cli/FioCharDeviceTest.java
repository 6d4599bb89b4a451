package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * fio jobs on {@code /dev/null} and {@code /dev/zero} (issue 10), against drivers/char/mem.c and
 * fio's filesetup.c/backend.c: each I/O is its system call's own work (no block layer), a read of
 * /dev/zero clears the buffer page by page, a read of /dev/null is end of file, a char device
 * needs size=; and fio's {@code nowait} and {@code uncached}.
 */
@Timeout(180)
class FioCharDeviceTest {
  @TempDir Path tmp;

  private MainTest.Result run(String name, String job, String... more) throws IOException {
    Path f = tmp.resolve(name + ".fio");
    Files.writeString(f, job);
    String[] args = new String[3 + more.length];
    args[0] = "run";
    args[1] = f.toString();
    args[2] = "--output-format=json";
    System.arraycopy(more, 0, args, 3, more.length);
    return MainTest.cli(args);
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> jobs(MainTest.Result r) {
    assertEquals(0, r.code(), r.err());
    Map<String, Object> doc = (Map<String, Object>) blksim.report.json.JsonReader.parse(r.out());
    return (List<Map<String, Object>>) doc.get("jobs");
  }

  @SuppressWarnings("unchecked")
  private static double num(Map<String, Object> job, String... path) {
    Object o = job;
    for (String p : path) {
      o = ((Map<String, Object>) o).get(p);
    }
    return ((Number) o).doubleValue();
  }

  private static String job(String file, String engine, String rw, String bs, String extra) {
    return "[j]\nfilename=" + file + "\nioengine=" + engine + "\nrw=" + rw + "\nbs=" + bs
        + "\nsize=16m\n" + extra;
  }

  @Test
  void zeroRead_costsSystemTimePerPage_nullWriteOnlyTheCall() throws IOException {
    Map<String, Object> z4 = jobs(run("z4", job("/dev/zero", "psync", "read", "4k", ""))).get(0);
    Map<String, Object> z64 = jobs(run("z64", job("/dev/zero", "psync", "read", "64k", "")))
        .get(0);
    // The call: entry 500 ns + 400 ns a page (costs.chardev.zero-read-per-page) + return 300 ns.
    assertEquals(1200, num(z4, "read", "clat_ns", "mean"), 1e-6);
    assertEquals(500 + 16 * 400 + 300, num(z64, "read", "clat_ns", "mean"), 1e-6);
    assertEquals(16 << 20, num(z64, "read", "io_bytes"), 0);
    assertTrue(num(z64, "sys_cpu") > num(z4, "sys_cpu") + 10,
        "bigger blocks, more of the time clearing: " + num(z4, "sys_cpu") + " -> "
            + num(z64, "sys_cpu"));
    Map<String, Object> n4 = jobs(run("n4", job("/dev/null", "psync", "write", "4k", ""))).get(0);
    Map<String, Object> n64 = jobs(run("n64", job("/dev/null", "psync", "write", "64k", "")))
        .get(0);
    assertEquals(0, num(n4, "error"), 0);
    assertEquals(16 << 20, num(n4, "write", "io_bytes"), 0);
    // write_iter_null() discards: no cost per byte, the call alone.
    assertEquals(800, num(n4, "write", "clat_ns", "mean"), 1e-6);
    assertEquals(800, num(n64, "write", "clat_ns", "mean"), 1e-6);
    // A /dev/zero write is a /dev/null write.
    Map<String, Object> zw = jobs(run("zw", job("/dev/zero", "psync", "write", "64k", ""))).get(0);
    assertEquals(800, num(zw, "write", "clat_ns", "mean"), 1e-6);
  }

  @Test
  void queuedEngines_completeInsideTheSubmitCall() throws IOException {
    Map<String, Object> uring = jobs(run("u", job("/dev/zero", "io_uring", "randread", "64k",
        "iodepth=1\n"))).get(0);
    Map<String, Object> aio = jobs(run("a", job("/dev/zero", "libaio", "randread", "64k",
        "iodepth=8\n"))).get(0);
    assertEquals(16 << 20, num(uring, "read", "io_bytes"), 0);
    assertEquals(16 << 20, num(aio, "read", "io_bytes"), 0);
    // io_uring at depth 1: the whole read (16 pages cleared) is in the submit call's slat, the
    // CQE is in the ring when the call returns (FMODE_NOWAIT: no io-wq punt).
    double slat = num(uring, "read", "slat_ns", "mean");
    assertTrue(slat > 16 * 400, "slat " + slat);
    assertTrue(num(uring, "read", "clat_ns", "mean") < slat, "reaped from the ring at once");
    assertTrue(num(aio, "sys_cpu") > 80, "libaio: " + num(aio, "sys_cpu"));
  }

  @Test
  void nullRead_isEndOfFile_syncFailsTheJob_queuedCountsEmptyIos() throws IOException {
    Map<String, Object> sync = jobs(run("ns", job("/dev/null", "psync", "read", "4k", "")))
        .get(0);
    // backend.c io_queue_event(): "zero read, fail" -> EIO, the one io_u counted at queue time.
    assertEquals(5, num(sync, "error"), 0);
    assertEquals(1, num(sync, "read", "total_ios"), 0);
    assertEquals(0, num(sync, "read", "io_bytes"), 0);
    Map<String, Object> q = jobs(run("nq", job("/dev/null", "io_uring", "read", "4k",
        "iodepth=4\n"))).get(0);
    // io_completed(): a 0-byte completion is an I/O of 0 bytes; the job issues its size.
    assertEquals(0, num(q, "error"), 0);
    assertEquals(4096, num(q, "read", "total_ios"), 0);
    assertEquals(0, num(q, "read", "io_bytes"), 0);
  }

  @Test
  void aCharDevice_needsSize_andRefusesODirect() throws IOException {
    MainTest.Result none = run("nosize", "[j]\nfilename=/dev/zero\nrw=read\n");
    assertEquals(2, none.code(), none.err());
    assertTrue(none.err().contains("nosize.fio:1: job 'j': size is needed on /dev/")
        && none.err().contains("you need to specify it"), none.err());
    // size= is the whole region: fio's real_file_size is -1 (unlimited) until size= sets it.
    Map<String, Object> sized = jobs(run("sized", "[j]\nfilename=/dev/zero\nrw=read\nsize=3m\n"
        + "offset=1t\n")).get(0);
    assertEquals(3 << 20, num(sized, "read", "io_bytes"), 0);
    MainTest.Result direct = run("direct", job("/dev/null", "psync", "write", "4k",
        "direct=1\n"));
    assertEquals(2, direct.code(), direct.err());
    assertTrue(direct.err().contains("direct.fio:7: job '")
        && direct.err().contains("': direct=1 on /dev/")
        && direct.err().contains("EINVAL"), direct.err());
  }

  /** A scenario with a null_blk of 8 tags and a brd without nowait support. */
  private Path scenario(String jobs) throws IOException {
    Files.writeString(tmp.resolve("j.fio"), jobs);
    Path p = tmp.resolve("s.conf");
    Files.writeString(p, """
        blksim {
          description = "nowait"
          seed = 1
          machine { sockets = 1, cores-per-llc = 4, threads-per-core = 1 }
          devices = [
            { type = null_blk, name = nullb0, size = 1G, irqmode = timer, completion-nsec = 10us,
              submit-queues = 1, hw-queue-depth = 4 }
            { type = brd, name = ram0, size = 1G, nowait = false }
          ]
          fio.job-files = ["j.fio"]
        }
        """);
    return p;
  }

  private static final String NOWAIT_JOBS = """
      [tags]
      filename=/dev/nullb0
      direct=1
      rw=randread
      size=4m
      ioengine=io_uring
      iodepth=16
      nowait=%1$s
      [nonowait]
      stonewall
      filename=/dev/ram0
      direct=1
      rw=randread
      size=4m
      ioengine=libaio
      iodepth=4
      nowait=%1$s
      [zero]
      stonewall
      filename=/dev/zero
      rw=read
      size=4m
      ioengine=io_uring
      iodepth=4
      nowait=%1$s
      """;

  @Test
  void nowait_failsWhatWouldBlock_andAScenarioJobRunsOnDevZero() throws IOException {
    List<Map<String, Object>> on = jobs(MainTest.cli("run",
        scenario(NOWAIT_JOBS.formatted(1)).toString(), "--output-format=json"));
    // No free tag: -EAGAIN (11) instead of io-wq; no nowait support: -EOPNOTSUPP (95).
    assertEquals(11, num(on.get(0), "error"), 0);
    assertTrue(num(on.get(0), "read", "total_ios") < 1024, "stopped early");
    assertEquals(95, num(on.get(1), "error"), 0);
    assertEquals(0, num(on.get(2), "error"), 0, "/dev/zero never blocks");
    assertEquals(4 << 20, num(on.get(2), "read", "io_bytes"), 0);
    List<Map<String, Object>> off = jobs(MainTest.cli("run",
        scenario(NOWAIT_JOBS.formatted(0)).toString(), "--output-format=json"));
    for (Map<String, Object> j : off) {
      assertEquals(0, num(j, "error"), 0, j.get("jobname").toString());
      assertEquals(4 << 20, num(j, "read", "io_bytes"), 0);
    }
    MainTest.Result buffered = run("nwbuf", "[j]\nfilename=/dev/nullb0\nsize=4m\n"
        + "ioengine=libaio\nnowait=1\n");
    assertEquals(2, buffered.code(), buffered.err());
    assertTrue(buffered.err().contains("nwbuf.fio:5: job 'j': nowait=1"), buffered.err());
  }

  @Test
  void uncached_changesNothingWithODirect_isRefusedBuffered() throws IOException {
    String base = "[j]\nfilename=/dev/nullb0\nrw=randread\nsize=4m\nioengine=io_uring\n";
    Map<String, Object> with = jobs(run("uc1", base + "direct=1\nuncached=1\n")).get(0);
    Map<String, Object> without = jobs(run("uc0", base + "direct=1\n")).get(0);
    assertEquals(num(without, "read", "clat_ns", "mean"), num(with, "read", "clat_ns", "mean"),
        0);
    MainTest.Result buffered = run("ucb", base + "uncached=1\n");
    assertEquals(2, buffered.code(), buffered.err());
    assertTrue(buffered.err().contains("ucb.fio:6: uncached") && buffered.err()
        .contains("EOPNOTSUPP"), buffered.err());
  }
}
