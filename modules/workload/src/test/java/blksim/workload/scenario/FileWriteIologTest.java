package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.LocalRunner;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code write_iolog} of a job on regular files, against fio's iolog v3 format
 * ({@code iolog.c}: {@code init_iolog_write()} logs {@code <t> <file> add} for every file of the
 * job, {@code log_file()} an {@code open} / {@code close} as each file is opened and closed,
 * {@code log_io_u()} {@code <t> <file> <action> <offset> <length>} for each I/O, naming
 * {@code f->file_name}: the {@code directory=} path).
 */
@Timeout(120)
class FileWriteIologTest {
  @TempDir Path dir;

  private List<String> run(String job) throws IOException {
    Path log = dir.resolve("w.log");
    Path p = dir.resolve("s.conf");
    Files.writeString(p, "blksim {\n"
        + "  machine { cores-per-llc = 2, threads-per-core = 1, memory = 512M }\n"
        + "  devices = [ { type = ssd, name = sdb, size = 4G } ]\n"
        + "  filesystems = [ { type = xfs, device = sdb, mount = /mnt/t } ]\n"
        + "  fio.jobs = [\"\"\"\n[j]\ndirectory=/mnt/t/d\nwrite_iolog=" + log + "\n" + job
        + "\n\"\"\"]\n}\n");
    Scenario s = ScenarioLoader.load(p, List.of(), Map.of());
    ScenarioModelFactory.Machine m = new ScenarioModelFactory().machine(s);
    LocalRunner.run(m.model(), Partitioning.ONE, 1, ProgressListener.NONE);
    return Files.readAllLines(log);
  }

  @Test
  void everyFileIsAdded_eachIoNamesAnOpenFile_andEveryOpenIsClosed() throws IOException {
    List<String> log = run("rw=write\nbs=4k\nsize=32k\nnrfiles=2\nioengine=psync");
    assertEquals("fio version 3 iolog", log.get(0));
    assertEquals("0 /mnt/t/d/j.0.0 add", log.get(1));
    assertEquals("0 /mnt/t/d/j.0.1 add", log.get(2));
    Set<String> open = new HashSet<>();
    Set<String> everOpened = new HashSet<>();
    int writes = 0;
    long lastT = 0;
    for (String line : log.subList(3, log.size())) {
      String[] f = line.split(" ");
      long t = Long.parseLong(f[0]);
      assertTrue(t >= lastT, "times in order: " + line);
      lastT = t;
      switch (f[2]) {
        case "open" -> assertTrue(open.add(f[1]) && everOpened.add(f[1]), line);
        case "close" -> assertTrue(open.remove(f[1]), "closes an open file: " + line);
        case "write" -> {
          assertTrue(open.contains(f[1]), "the I/O's file is open: " + line);
          assertEquals(5, f.length, line);
          assertEquals(4096, Long.parseLong(f[4]));
          assertTrue(Long.parseLong(f[3]) < 16384, "within the file's 16 KiB: " + line);
          writes++;
        }
        default -> throw new AssertionError("unexpected action: " + line);
      }
    }
    assertEquals(8, writes, "32 KiB in 4 KiB writes");
    assertEquals(Set.of("/mnt/t/d/j.0.0", "/mnt/t/d/j.0.1"), everOpened);
    assertTrue(open.isEmpty(), "every file closed at the end: " + open);
  }

  @Test
  void libaioOnAFile_logsEachIocbAsQueued() throws IOException {
    List<String> log = run("rw=randread\nbs=8k\nsize=64k\nioengine=libaio\niodepth=4"
        + "\ndirect=1");
    long reads = log.stream().filter(l -> l.contains(" read ")).count();
    assertEquals(8, reads);
    assertTrue(log.get(log.size() - 1).endsWith("/mnt/t/d/j.0.0 close"), log.toString());
  }
}
