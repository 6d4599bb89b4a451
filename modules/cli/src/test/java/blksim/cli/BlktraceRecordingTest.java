package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.workload.trace.TraceFormat;
import blksim.workload.trace.TraceOp;
import blksim.workload.trace.TraceReader;
import blksim.workload.trace.TraceRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run --blktrace DIR} and fio's {@code write_iolog}: recording changes nothing, the
 * recordings parse back through blksim's own readers, and replaying them as fast as possible
 * issues the same I/O sequence.
 */
@Timeout(120)
class BlktraceRecordingTest {
  @TempDir Path tmp;

  private static final String JOB = "[rec]\nioengine=libaio\niodepth=4\ndirect=1\nbs=4k\n"
      + "rw=randrw\nfilename=/dev/nullb0\nsize=1m\nnumber_ios=96\n";

  private Path job(String name, String text) throws IOException {
    Path p = tmp.resolve(name);
    Files.writeString(p, text);
    return p;
  }

  private static String run(String... args) {
    List<String> a = new ArrayList<>(List.of("run"));
    a.addAll(List.of(args));
    a.addAll(List.of("--host", "local"));
    MainTest.Result r = MainTest.cli(a.toArray(String[]::new));
    assertEquals(0, r.code(), r.err());
    // fio's job header carries the wall-clock date; nothing else may differ
    return r.out().replaceAll("(pid=\\d+): .*", "$1");
  }

  /** The data I/Os of a trace, in order: op, offset and length. */
  private static List<String> sequence(Path trace, TraceFormat format) {
    List<String> s = new ArrayList<>();
    try (TraceReader r = TraceFormat.open(trace, format)) {
      for (TraceRecord t = r.next(); t != null; t = r.next()) {
        if (t.op() == TraceOp.READ || t.op() == TraceOp.WRITE || t.op() == TraceOp.TRIM) {
          s.add(t.op() + " " + t.offsetBytes() + " " + t.lengthBytes());
        }
      }
    }
    return s;
  }

  @Test
  void recording_changesNothing_andReplaysToTheSameIoSequence() throws IOException {
    Path iolog = tmp.resolve("rec.iolog");
    Path bt = tmp.resolve("bt");
    String plain = run(job("plain.fio", JOB).toString());
    String recorded = run(job("rec.fio", JOB + "write_iolog=" + iolog + "\n").toString(),
        "--blktrace", bt.toString());
    assertEquals(plain, recorded, "fio's output with and without recording");

    List<String> issued = sequence(iolog, TraceFormat.FIO_IOLOG);
    assertEquals(96, issued.size(), issued.toString());
    assertTrue(issued.stream().anyMatch(s -> s.startsWith("READ"))
        && issued.stream().anyMatch(s -> s.startsWith("WRITE")), issued.toString());
    List<String> lines = Files.readAllLines(iolog);
    assertEquals("fio version 3 iolog", lines.get(0));
    assertEquals("0 /dev/nullb0 add", lines.get(1));
    assertTrue(lines.get(lines.size() - 1).matches("\\d+ /dev/nullb0 close"), lines.toString());

    // The blktrace parses back through the binary and the blkparse readers: the Q events are
    // the I/Os fio queued, in order.
    Path bin = bt.resolve("nullb0.blktrace.0");
    assertTrue(Files.isRegularFile(bin), "per-CPU file of the job's CPU");
    assertEquals(issued, sequence(bin, TraceFormat.BLKTRACE));
    assertEquals(issued, sequence(bt.resolve("nullb0.blkparse.txt"), TraceFormat.BLKPARSE));

    // Replayed as fast as possible, from the iolog and from the blktrace, traced again (a
    // replay job writes no iolog, as in fio): its Q events are the recorded sequence.
    Path again = tmp.resolve("again");
    run(job("replay.fio", "[rp]\nioengine=libaio\niodepth=4\ndirect=1\nread_iolog=" + iolog
        + "\nfilename=/dev/nullb0\nreplay_no_stall=1\nwrite_iolog=" + tmp.resolve("no.iolog")
        + "\n").toString(), "--blktrace", again.toString());
    assertEquals(issued, sequence(again.resolve("nullb0.blktrace.0"), TraceFormat.BLKTRACE),
        "replay of the iolog");
    assertFalse(Files.exists(tmp.resolve("no.iolog")), "read_iolog wins over write_iolog");
    Path fromBt = tmp.resolve("from-blktrace");
    run(job("replay2.fio", "[rb]\nioengine=libaio\niodepth=4\ndirect=1\nread_iolog=" + bin
        + "\nreplay_redirect=/dev/nullb0\nreplay_no_stall=1\n").toString(),
        "--blktrace", fromBt.toString());
    assertEquals(issued, sequence(fromBt.resolve("nullb0.blkparse.txt"), TraceFormat.BLKPARSE),
        "replay of the blktrace");
  }

  @Test
  void theText_hasBlkparsesColumns_forTheFirstIo() throws IOException {
    Path bt = tmp.resolve("bt");
    run(job("seq.fio", "[seq]\nioengine=psync\ndirect=1\nbs=4k\nrw=write\n"
        + "filename=/dev/nullb0\nsize=8k\n").toString(), "--blktrace", bt.toString());
    List<String> text = Files.readAllLines(bt.resolve("nullb0.blkparse.txt"));
    // Written by hand: null_blk is 252,0 here; the job's pid is 1000 on CPU 0; a direct write
    // is REQ_SYNC (WS); null_blk's default scheduler is none: Q, G, D, C, no I.
    assertEquals("252,0    0        1     0.000000000  1000  Q  WS 0 + 8 [seq]", text.get(0));
    assertTrue(text.get(1).matches("252,0    0        2     0\\.000000000  1000  G  WS 0 \\+ 8"
        + " \\[seq\\]"), text.get(1));
    assertTrue(text.get(2).matches("252,0    0        3     0\\.000000000  1000  D  WS 0 \\+ 8"
        + " \\[seq\\]"), text.get(2));
    assertTrue(text.get(3).matches("252,0    0        4     0\\.\\d{9}  +\\d+  C  WS 0 \\+ 8"
        + " \\[0\\]"), text.get(3));
    assertEquals("CPU0 (nullb0):", text.get(8), "two writes, four events each, then the summary");
    assertTrue(text.contains(" Reads Queued:           0,        0KiB\t Writes Queued:"
        + "           2,        8KiB"), text.toString());
    assertEquals("Events (nullb0): 8 entries", text.get(text.size() - 2));
    assertFalse(text.stream().anyMatch(l -> l.contains(" I ")), "no scheduler: no insert");
  }

  @Test
  void theFiles_areTheSameWhateverThePartitioning() throws IOException {
    Path j = job("two.fio", "[t]\nioengine=libaio\niodepth=2\ndirect=1\nbs=4k\nrw=randrw\n"
        + "filename=/dev/nullb0\nsize=256k\nnumber_ios=40\nnumjobs=3\n");
    Path one = tmp.resolve("one");
    Path split = tmp.resolve("split");
    String a = run(j.toString(), "--blktrace", one.toString(), "--partitions", "one");
    String b = run(j.toString(), "--blktrace", split.toString(), "--partitions", "cpu");
    assertEquals(a, b);
    List<String> names = new ArrayList<>();
    try (var s = Files.list(one)) {
      s.forEach(p -> names.add(p.getFileName().toString()));
    }
    names.sort(null);
    assertTrue(names.containsAll(List.of("nullb0.blktrace.0", "nullb0.blktrace.1",
        "nullb0.blktrace.2", "nullb0.blkparse.txt")), names.toString());
    for (String n : names) {
      assertTrue(java.util.Arrays.equals(Files.readAllBytes(one.resolve(n)),
          Files.readAllBytes(split.resolve(n))), n);
    }
  }

  /** The lines of {@code text} with the time column made {@code T}. */
  private static List<String> untimed(Path text) throws IOException {
    List<String> out = new ArrayList<>();
    for (String l : Files.readAllLines(text)) {
      out.add(l.replaceFirst(" +\\d+\\.\\d{9} ", " T "));
    }
    return out;
  }

  @Test
  void deviceMapper_remapsAndSplits_andTheSchedulerInserts() throws IOException {
    Files.writeString(tmp.resolve("dm.fio"), "[lin]\nioengine=psync\ndirect=1\nbs=12k\n"
        + "rw=write\nfilename=/dev/mapper/dm-lin\nsize=48k\n");
    Path conf = job("dm.conf", String.join("\n", "blksim {",
        "  machine { sockets = 1, nodes-per-socket = 1, llcs-per-node = 1, cores-per-llc = 2,"
            + " threads-per-core = 1, memory = 1G }",
        "  devices = [",
        "    { type = null_blk, name = nullb0, size = 1G, scheduler = mq-deadline }",
        "    { type = dm, name = dm-lin, table = \"0 64 linear /dev/nullb0 0\\n"
            + "64 1984 linear /dev/nullb0 1000\" }",
        "  ]",
        "  fio.job-files = [\"dm.fio\"]", "}", ""));
    Path bt = tmp.resolve("bt");
    run(conf.toString(), "--blktrace", bt.toString());
    // The third 12 KiB write (sectors 48-71) crosses the first target's end at sector 64: dm
    // traces X on dm-lin (253,0); each clone is remapped (A) onto nullb0 (252,0), then queued,
    // gets a request and is inserted into mq-deadline; kblockd's worker issues them (D).
    List<String> dm = untimed(bt.resolve("dm-lin.blkparse.txt"));
    assertEquals("253,0    0        5 T  1000  Q  WS 48 + 24 [lin]", dm.get(4));
    assertEquals("253,0    0        6 T  1000  X  WS 48 / 64 [lin]", dm.get(5));
    assertEquals("253,0    0        7 T     0  C  WS 48 + 24 [0]", dm.get(6));
    List<String> nb = untimed(bt.resolve("nullb0.blkparse.txt"));
    assertEquals(List.of(
        "252,0    0       13 T  1000  A  WS 48 + 16 <- (253,0) 48",
        "252,0    0       14 T  1000  Q  WS 48 + 16 [lin]",
        "252,0    0       15 T  1000  G  WS 48 + 16 [lin]",
        "252,0    0       16 T  1000  I  WS 48 + 16 [lin]",
        "252,0    0       17 T  1000  A  WS 1000 + 8 <- (253,0) 64",
        "252,0    0       18 T  1000  Q  WS 1000 + 8 [lin]",
        "252,0    0       19 T  1000  G  WS 1000 + 8 [lin]",
        "252,0    0       20 T  1000  I  WS 1000 + 8 [lin]"), nb.subList(12, 20));
    assertTrue(nb.get(20).matches("252,0    0       21 T +\\d+  D  WS 48 \\+ 16 \\[kworker/.*\\]"),
        nb.get(20));
  }

  @Test
  void theIolog_hasFiosLines_syncsIncluded() throws IOException {
    Path iolog = tmp.resolve("s.iolog");
    run(job("s.fio", "[s]\nioengine=psync\ndirect=1\nbs=4k\nrw=write\nfilename=/dev/nullb0\n"
        + "size=16k\nfsync=2\nwrite_iolog=" + iolog + "\n").toString());
    List<String> lines = new ArrayList<>();
    long last = 0;
    for (String l : Files.readAllLines(iolog).subList(1, 10)) {
      long t = Long.parseLong(l.substring(0, l.indexOf(' ')));
      assertTrue(t >= last, "timestamps (µs since the log started) never go back: " + l);
      last = t;
      lines.add(l.substring(l.indexOf(' ') + 1));
    }
    assertEquals(List.of("/dev/nullb0 add", "/dev/nullb0 open", "/dev/nullb0 write 0 4096",
        "/dev/nullb0 write 4096 4096", "/dev/nullb0 sync 0 0", "/dev/nullb0 write 8192 4096",
        "/dev/nullb0 write 12288 4096", "/dev/nullb0 sync 0 0", "/dev/nullb0 close"), lines);
    assertTrue(last > 0, "the writes take simulated time");
    // fio opens the log in append mode: a second run adds a second log
    run(job("s.fio", Files.readString(tmp.resolve("s.fio"))).toString());
    assertEquals(2, Files.readAllLines(iolog).stream()
        .filter(l -> l.equals("fio version 3 iolog")).count());
  }

  @Test
  void aBioThatWaitsForATag_isQueuedOnce_andGetsItsRequestLater() throws IOException {
    Files.writeString(tmp.resolve("tw.fio"), "[tw]\nioengine=libaio\niodepth=8\ndirect=1\n"
        + "bs=4k\nrw=randread\nfilename=/dev/nullb0\nnumber_ios=50\n");
    Path conf = job("tw.conf", String.join("\n", "blksim {",
        "  machine { sockets = 1, nodes-per-socket = 1, llcs-per-node = 1, cores-per-llc = 1,"
            + " threads-per-core = 1, memory = 1G }",
        "  devices = [ { type = null_blk, name = nullb0, size = 1G, hw-queue-depth = 2,"
            + " irqmode = timer, completion-nsec = 20us } ]",
        "  fio.job-files = [\"tw.fio\"]", "}", ""));
    Path bt = tmp.resolve("bt");
    run(conf.toString(), "--blktrace", bt.toString());
    java.util.Map<String, String> queuedAt = new java.util.HashMap<>();
    int q = 0;
    int waited = 0;
    for (String l : Files.readAllLines(bt.resolve("nullb0.blkparse.txt"))) {
      String[] f = l.trim().split(" +");
      if (f.length > 7 && f[5].equals("Q")) {
        q++;
        queuedAt.put(f[7], f[3]);
      } else if (f.length > 7 && f[5].equals("G") && !f[3].equals(queuedAt.get(f[7]))) {
        waited++;
      }
    }
    assertEquals(50, q, "one Q per I/O, the retries after a tag wait not traced again");
    assertTrue(waited > 0, "with 8 I/Os for 4 requests, some bios waited for a request");
  }

  @Test
  void twoJobsWritingOneIolog_areRefused() throws IOException {
    Path iolog = tmp.resolve("x.iolog");
    Path j = job("two.fio", "[a]\nioengine=psync\ndirect=1\nfilename=/dev/nullb0\nsize=8k\n"
        + "write_iolog=" + iolog + "\nnumjobs=2\n");
    MainTest.Result r = MainTest.cli("run", j.toString(), "--host", "local");
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains("write_iolog"), r.err());
    assertFalse(Files.exists(iolog));
  }
}
