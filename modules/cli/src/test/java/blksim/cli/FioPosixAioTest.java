package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ioengine=posixaio} against fio's engines/posixaio.c and glibc's POSIX AIO
 * (rt/aio_misc.c): requests go to user-space helper threads of the job's process that do
 * {@code pread()}; glibc serves one file descriptor's requests in order by one helper
 * ({@code add_request_to_list()}), so a deep queue on one file runs no faster than psync, and
 * several files run in parallel, one helper each.
 */
@Timeout(180)
class FioPosixAioTest {
  @TempDir Path tmp;

  private MainTest.Result run(String name, String job) throws IOException {
    Path f = tmp.resolve(name + ".fio");
    Files.writeString(f, "[j]\nrw=randread\ndirect=1\nsize=64m\nruntime=20ms\ntime_based\n"
        + job);
    MainTest.Result r = MainTest.cli("run", f.toString(), "--threads");
    assertEquals(0, r.code(), r.err());
    return r;
  }

  private static int iops(String out) {
    Matcher m = Pattern.compile("read: IOPS=([0-9.]+)(k?)").matcher(out);
    assertTrue(m.find(), out);
    double v = Double.parseDouble(m.group(1));
    return (int) (m.group(2).isEmpty() ? v : v * 1000);
  }

  private static int threads(String out) {
    Matcher m = Pattern.compile("(?m)^  j\\s+(\\d+)\\s").matcher(out);
    assertTrue(m.find(), out);
    return Integer.parseInt(m.group(1));
  }

  @Test
  void oneFile_isServedByOneHelper_asFastAsPsync_severalFilesInParallel() throws IOException {
    MainTest.Result posix = run("posix", "ioengine=posixaio\niodepth=16\n");
    MainTest.Result psync = run("psync", "ioengine=psync\n");
    MainTest.Result libaio = run("libaio", "ioengine=libaio\niodepth=16\n");
    MainTest.Result four = run("four", "ioengine=posixaio\niodepth=16\nnrfiles=4\n");
    int p = iops(posix.out());
    int s = iops(psync.out());
    assertTrue(p > 0.8 * s && p < 1.2 * s, "posixaio " + p + " vs psync " + s);
    assertTrue(iops(libaio.out()) > 2 * p, "libaio at depth 16 keeps the SSD busier");
    assertTrue(iops(four.out()) > 2 * p, "four files, four helpers: " + iops(four.out()));
    // The job thread and its helpers: one per file, up to glibc's aio_threads (20).
    assertEquals(1 + 1, threads(posix.out()), posix.out());
    assertEquals(1 + 4, threads(four.out()), four.out());
    assertTrue(posix.out().contains("ioengine=posixaio, iodepth=16"), posix.out());
  }

  @Test
  void onABlockDevice_isRefusedWithItsReason() throws IOException {
    Path f = tmp.resolve("dev.fio");
    Files.writeString(f, "[j]\nfilename=/dev/nullb0\nioengine=posixaio\nsize=4m\n");
    MainTest.Result r = MainTest.cli("run", f.toString(), "--set", "max-time=10ms");
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains("dev.fio:3: job 'j': ioengine=posixaio is modelled"),
        r.err());
  }
}
