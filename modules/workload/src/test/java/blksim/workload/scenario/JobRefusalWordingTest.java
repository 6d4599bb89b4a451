package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.InputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every job-level refusal of the loader reads {@code FILE:LINE: job 'NAME': RULE}: the job it is
 * about first (a file has several jobs, and a {@code [global]} line can be shared by all of
 * them), then its option once, as the rule's first word or as a {@code KEY: } prefix.
 */
class JobRefusalWordingTest {
  @TempDir Path dir;

  /** A bad job file, the option the refusal is about and a word of the rule it breaks. */
  record Case(String job, String key, String rule) {}

  static final List<Case> CASES = List.of(
      new Case("[trims]\nfilename=/dev/sdb\nrw=trim\nsize=1m\n", "rw", "discards"),
      new Case("[paio]\nfilename=/dev/sdb\nrw=read\nsize=1m\nioengine=posixaio\ndirect=1\n",
          "ioengine", "regular files only"),
      new Case("[nosize]\ndirectory=/mnt/t\nrw=read\n", "size", "is needed"),
      new Case("[numa]\nfilename=/dev/sdb\nrw=read\nsize=1m\nnuma_cpu_nodes=5\n",
          "numa_cpu_nodes", "does not exist"),
      new Case("[zero]\nfilename=/dev/zero\nrw=read\n", "size", "character device"),
      new Case("[zerod]\nfilename=/dev/zero\nrw=read\nsize=1m\ndirect=1\n", "direct", "EINVAL"),
      new Case("[zerom]\nfilename=/dev/zero\nrw=read\nsize=1m\nioengine=mmap\n", "ioengine",
          "character device"),
      new Case("[nw]\nfilename=/dev/sdb\nrw=read\nsize=1m\nnowait=1\n", "nowait", "buffered"),
      new Case("[at]\nfilename=/dev/sdb\nrw=write\nsize=1m\natomic=1\nioengine=psync\ndirect=1\n",
          "atomic", "RWF_ATOMIC"),
      new Case("[nodev]\nfilename=/dev/sdx\nrw=read\nsize=1m\n", "filename",
          "not a simulated device"),
      new Case("[zbd]\nfilename=/dev/sdb\nrw=read\nzonemode=zbd\nsize=1m\ndirect=1\n",
          "zonemode", "zoned block device"),
      new Case("[off]\nfilename=/dev/sdb\nrw=read\nsize=1m\noffset=8g\n", "offset",
          "beyond the end"),
      new Case("[ro]\ndirectory=/mnt/ro\nrw=write\nsize=1m\n", "directory", "read-only"),
      new Case("[nofs]\ndirectory=/mnt/none\nrw=write\nsize=1m\n", "directory",
          "in no filesystem"),
      new Case("[mmap]\nfilename=/dev/sdb\nrw=read\nsize=1m\nioengine=mmap\n", "ioengine",
          "page cache"),
      new Case("[null]\nioengine=null\nrw=read\n", "size", "is needed"),
      new Case("[poll]\ndirectory=/mnt/t\nrw=read\nsize=1m\nhipri=1\nioengine=io_uring\n"
          + "direct=1\n", "hipri", "on files"),
      new Case("[pct]\ndirectory=/mnt/t\nrw=read\nfilesize=1m\nsize=50%\n", "size", "percentage"),
      new Case("[sched]\nfilename=/dev/sdb\nrw=read\nsize=1m\nioscheduler=bfq\n", "ioscheduler",
          "not modelled"),
      new Case("[osync]\nfilename=/dev/sdb\nrw=write\nsize=1m\nsync=1\n", "sync", "O_SYNC"),
      new Case("[bpoll]\nfilename=/dev/sdb\nrw=read\nsize=1m\nhipri=1\nioengine=io_uring\n",
          "hipri", "EOPNOTSUPP"),
      new Case("[offl]\nfilename=/dev/sdb\nrw=write\nsize=1m\nio_submit_mode=offload\n"
          + "ioengine=libaio\n", "io_submit_mode", "buffered"),
      new Case("[big]\ndirectory=/mnt/t\nrw=write\nsize=100g\ndirect=1\n", "size", "ENOSPC"),
      new Case("[mis]\ndirectory=/mnt/t\nrw=read\nsize=1m\noffset=100\ndirect=1\n", "offset",
          "512"),
      new Case("[two]\nfilename=/dev/sdb:/dev/sdc\nrw=read\nsize=1m\n", "filename",
          "several block devices"),
      new Case("[pf]\nioengine=page_fault\nrw=read\n", "size", "anonymous memory"),
      new Case("[cpu]\nioengine=cpuio\ncpuload=50\n", "ioengine", "runtime="),
      new Case("[global]\nioengine=posixaio\nfilename=/dev/sdb\nrw=read\nsize=1m\ndirect=1\n\n"
          + "[fromglobal]\n", "ioengine", "regular files only"));

  InputException refused(String job) throws IOException {
    Files.writeString(dir.resolve("job.fio"), job);
    Path p = Files.writeString(dir.resolve("s.conf"), "blksim {\n"
        + "  machine { cores-per-llc = 2, threads-per-core = 1 }\n"
        + "  devices = [ { type = ssd, name = sdb, size = 4G },\n"
        + "              { type = null_blk, name = sdc, size = 1G },\n"
        + "              { type = null_blk, name = sdd, size = 1G } ]\n"
        + "  filesystems = [ { type = xfs, device = sdc, mount = /mnt/t },\n"
        + "                  { type = xfs, device = sdd, mount = /mnt/ro, options = ro } ]\n"
        + "  fio.job-files = [\"job.fio\"]\n}\n");
    return assertThrows(InputException.class, () -> ScenarioLoader.load(p, List.of(), Map.of()),
        job);
  }

  /** How often {@code key} stands as a word of its own (not inside filesize or O_DIRECT). */
  static int mentions(String message, String key) {
    Matcher m = Pattern.compile("(?<![\\w-])" + Pattern.quote(key) + "(?![\\w-])")
        .matcher(message);
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }

  @Test
  void everyJobRefusal_namesTheJobFirst_thenItsOptionOnce() throws IOException {
    List<Executable> checks = new ArrayList<>();
    for (Case c : CASES) {
      InputException e = refused(c.job());
      String name = c.job().substring(c.job().lastIndexOf('[') + 1, c.job().lastIndexOf(']'));
      String msg = e.getMessage();
      checks.add(() -> {
        assertEquals(c.key(), e.key(), msg);
        assertTrue(msg.startsWith(e.file() + ":" + e.line() + ": job '" + name + "': "), msg);
        assertEquals(1, mentions(msg, c.key()), msg);
        assertTrue(msg.contains(c.rule()), msg);
        assertEquals(1, msg.split(Pattern.quote("job '" + name + "'"), -1).length - 1, msg);
      });
    }
    assertAll(checks);
  }

  @Test
  void aSharedGlobalLine_pointsThere_andSaysWhichJob() throws IOException {
    InputException e = refused("[global]\nioengine=posixaio\nfilename=/dev/sdb\nrw=read\n"
        + "size=1m\ndirect=1\n\n[fromglobal]\n");
    assertEquals(2, e.line(), e.getMessage());
    assertTrue(e.getMessage().endsWith("job.fio:2: job 'fromglobal': ioengine=posixaio is"
        + " modelled by blksim on regular files only so far (glibc's helper threads doing"
        + " pread()/pwrite()); on a block device choose psync, libaio or io_uring"),
        e.getMessage());
  }

  @Test
  void aRuleThatDoesNotStartWithItsOption_getsItAfterTheJob() {
    assertEquals("j.fio:3: job 'x': size: must be more", new InputException("j.fio", 3, "size",
        "job 'x': must be more").getMessage());
    assertEquals("j.fio:3: job 'x': size is needed", new InputException("j.fio", 3, "size",
        "job 'x': size is needed").getMessage());
  }
}
