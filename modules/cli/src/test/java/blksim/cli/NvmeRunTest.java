package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
 * The nvme type on the default machine of a bare job file against the Samsung PM9A3 U.2
 * datasheet its media defaults come from (900K IOPS 4 KiB random read, 6,500 MB/s sequential
 * read). Tolerance 10%: the media model is a closed queue of LBA-striped units, not the drive's
 * firmware, and its parameters were derived to land within it (NvmeParams.DEFAULT_DRIVE).
 */
@Timeout(300)
class NvmeRunTest {
  @TempDir Path dir;

  static double number(String out, String regex) {
    Matcher m = Pattern.compile(regex).matcher(out);
    assertTrue(m.find(), regex + " in\n" + out);
    double v = Double.parseDouble(m.group(1));
    return m.groupCount() > 1 && "k".equals(m.group(2)) ? v * 1000 : v;
  }

  MainTest.Result run(String job, String... extra) throws IOException {
    Path f = dir.resolve("j.fio");
    Files.writeString(f, job);
    String[] args = new String[2 + extra.length];
    args[0] = "run";
    args[1] = f.toString();
    System.arraycopy(extra, 0, args, 2, extra.length);
    MainTest.Result r = MainTest.cli(args);
    assertEquals(0, r.code(), r.err());
    return r;
  }

  @Test
  void randomRead4k_qdHigh_reachesTheDatasheetIops() throws IOException {
    MainTest.Result r = run("[rr]\nfilename=/dev/nvme0n1\nrw=randread\nbs=4k\nioengine=io_uring"
        + "\niodepth=32\nnumjobs=4\ngroup_reporting\ndirect=1\nruntime=20ms\ntime_based\n");
    assertTrue(r.err().contains("/dev/nvme0n1 = { type = nvme"), r.err());
    assertFalse(r.err().contains("no NVMe model"), r.err());
    double iops = number(r.out(), "read: IOPS=([0-9.]+)(k?)");
    assertEquals(900_000, iops, 90_000, r.out());
  }

  @Test
  void sequentialRead1m_reachesTheDatasheetBandwidth() throws IOException {
    MainTest.Result r = run("[sr]\nfilename=/dev/nvme0n1\nrw=read\nbs=1M\nioengine=io_uring"
        + "\niodepth=32\ndirect=1\nruntime=30ms\ntime_based\n");
    double mbs = number(r.out(), "read: IOPS=[0-9.k]+, BW=[0-9.]+MiB/s \\(([0-9.]+)MB/s\\)");
    assertEquals(6500, mbs, 650, r.out());
  }

  @Test
  void qd1Read_takesATlcReadNotADisksSeek() throws IOException {
    MainTest.Result r = run("[q1]\nfilename=/dev/nvme0n1\nrw=randread\nbs=4k\nioengine=psync"
        + "\ndirect=1\nruntime=5ms\ntime_based\n");
    double clatUs = number(r.out(), "clat \\(nsec\\): min=[0-9]+, max=[0-9]+, avg=([0-9.]+)")
        / 1000;
    assertTrue(clatUs > 70 && clatUs < 100, "QD1 4 KiB read " + clatUs + " us\n" + r.out());
  }

  @Test
  void sameRun_twice_givesTheSameJson() throws IOException {
    String job = "[rr]\nfilename=/dev/nvme0n1\nrw=randrw\nbs=4k\nioengine=libaio\niodepth=16"
        + "\nnumjobs=3\ndirect=1\nruntime=2ms\ntime_based\n";
    String a = run(job, "--output-format=json").out();
    String b = run(job, "--output-format=json").out();
    // The wall clock's fields (as RunCommand.comparable drops them).
    String strip = "(?m)^.*\"(time|timestamp|timestamp_ms|wall_time_ns"
        + "|events_per_wall_second)\".*$";
    assertEquals(a.replaceAll(strip, ""), b.replaceAll(strip, ""));
    assertTrue(a.contains("\"nvme0n1\""), a);
  }

  @Test
  void mapOption_choosesNvme_andOtherPartitioningsAreRefused() throws IOException {
    Path f = dir.resolve("m.fio");
    Files.writeString(f, "[m]\nfilename=/dev/sdc\nrw=read\nbs=4k\ndirect=1\nruntime=1ms\n"
        + "time_based\n");
    MainTest.Result r = MainTest.cli("run", f.toString(), "--map", "/dev/sdc=nvme");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.err().contains("/dev/sdc = { type = nvme"), r.err());
    MainTest.Result p = MainTest.cli("run", f.toString(), "--map", "/dev/sdc=nvme",
        "--partitions", "node");
    assertEquals(2, p.code(), p.err());
    assertTrue(p.err().contains("media model"), p.err());
  }
}
