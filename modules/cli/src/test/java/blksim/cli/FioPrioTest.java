package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * fio's cmdprio options end to end: under mq-deadline (dd_per_prio) the 20% RT reads of an
 * otherwise IDLE job wait much less than the IDLE ones; under scheduler none (no priority
 * handling in blk-mq) both see the same latency; fio's per-priority lines print in both cases
 * (fio-3.36 stat.c).
 */
@Timeout(180)
class FioPrioTest {
  @TempDir Path tmp;

  private MainTest.Result run(String scheduler) throws IOException {
    Path f = tmp.resolve(scheduler + ".conf");
    Files.writeString(f, "blksim {\n  seed = 1\n  machine { sockets = 1, nodes-per-socket = 1,"
        + " llcs-per-node = 1, cores-per-llc = 4, threads-per-core = 1, memory = 4G }\n"
        + "  devices = [ { type = ssd, name = sdb, size = 8G, scheduler = " + scheduler
        + " } ]\n  fio.jobs = [\"\"\"\n[j]\nfilename=/dev/sdb\ndirect=1\nrw=randread\nbs=128k\n"
        + "ioengine=libaio\niodepth=64\nprioclass=3\ncmdprio_percentage=20\ncmdprio_class=1\n"
        + "time_based\nruntime=200ms\n\"\"\"]\n}\n");
    MainTest.Result r = MainTest.cli("run", f.toString());
    assertEquals(0, r.code(), r.err());
    return r;
  }

  /** {class, avg usec, share %} of each "clat prio" line pair, in print order. */
  private static List<double[]> prios(String out) {
    List<double[]> l = new ArrayList<>();
    Matcher m = Pattern.compile("clat prio (\\d)/0/0 \\(usec\\): min=\\d+, max=\\d+,"
        + " avg=([0-9.]+)").matcher(out);
    while (m.find()) {
      l.add(new double[] {Integer.parseInt(m.group(1)), Double.parseDouble(m.group(2)), 0});
    }
    Matcher s = Pattern.compile("clat prio (\\d)/0/0 \\(([0-9.]+)% of IOs\\)").matcher(out);
    int i = 0;
    while (s.find() && i < l.size()) {
      l.get(i++)[2] = Double.parseDouble(s.group(2));
    }
    return l;
  }

  @Test
  void rtBeatsIdleUnderMqDeadline_butNotUnderNone() throws IOException {
    MainTest.Result dl = run("mq-deadline");
    MainTest.Result none = run("none");
    List<double[]> a = prios(dl.out());
    List<double[]> b = prios(none.out());
    assertEquals(2, a.size(), dl.out());
    assertEquals(2, b.size(), none.out());
    // fio's order: the job's own priority (IDLE, 3) first, then the cmdprio class (RT, 1).
    assertEquals(3, a.get(0)[0]);
    assertEquals(1, a.get(1)[0]);
    assertEquals(20.0, a.get(1)[2], 5.0, dl.out());
    assertTrue(a.get(1)[1] < 0.5 * a.get(0)[1], "RT avg " + a.get(1)[1] + " IDLE " + a.get(0)[1]);
    double ratio = b.get(1)[1] / b.get(0)[1];
    assertTrue(ratio > 0.85 && ratio < 1.15, "none: RT/IDLE clat " + ratio + "\n" + none.out());
  }

  @Test
  void prioOnAFile_isRefusedWithFileLineAndOption() throws IOException {
    Path job = tmp.resolve("file.fio");
    Files.writeString(job, "[j]\nrw=randread\nsize=16m\nioengine=libaio\ndirect=1\nprio=2\n");
    MainTest.Result r = MainTest.cli("run", job.toString(), "--set", "max-time=100ms");
    assertEquals(2, r.code(), r.out() + r.err());
    assertTrue(r.err().contains("file.fio:6: job 'j': prio on files"), r.err());
  }
}
