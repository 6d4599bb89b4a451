package blksim.cli;

import blksim.engine.InputException;
import blksim.kernel.blktrace.BlkTrace;
import blksim.kernel.blktrace.BlkparseWriter;
import blksim.kernel.device.DeviceParams;
import blksim.kernel.sched.SwitchRecord;
import blksim.workload.scenario.Scenario;
import java.io.IOException;
import java.io.InputStream;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code run --perfetto FILE}: the run as Chrome's JSON trace-event format, which
 * ui.perfetto.dev and chrome://tracing open. Process 1 "CPUs" has a track per CPU with the tasks'
 * run slices (from the context switches {@code --timehist} records, here of every CPU) and the
 * idle time between them, and a track per CPU with its hard interrupts; process 2 "block devices"
 * has every device's bios as async slices from Q (queued) to C (completed), read from the
 * blktrace the run records ({@code --blktrace}, into a temporary directory unless given).
 *
 * <p>Simplified: a task still on its CPU when the window (or the run) ends has no closing switch
 * and so no slice for its last stretch; a bio merged into another request has no C of its own
 * and no slice; workqueue items show as their kworker's run slices (named by the kworker), not
 * by work function. Records of the window are kept per CPU until the end of the run (at most
 * {@link #MAX_PER_CPU} switches and as many interrupts per CPU; the rest are counted as dropped);
 * the file is written event by event. The output depends on the run alone, so it is the same in
 * every partitioning.
 */
final class PerfettoTrace {
  /** Most switches (and interrupts) recorded per CPU. */
  static final int MAX_PER_CPU = 1_000_000;
  private static final int PID_CPUS = 1;
  private static final int PID_BLOCK = 2;
  /** Interrupt tracks are CPU tracks offset by this. */
  private static final int IRQ_TID = 100_000;

  private PerfettoTrace() {}

  /** The scenario overrides: every CPU's switches recorded, in the window if given. */
  static List<String> overrides(int nCpus, String window) {
    List<String> o = new ArrayList<>();
    o.add("blksim.trace.timehist-cpus=\"0-" + (nCpus - 1) + "\"");
    o.add("blksim.trace.timehist-max-lines=" + MAX_PER_CPU);
    if (window != null) {
      String[] w = window.split("\\.\\.", -1);
      if (w.length != 2 || w[0].isBlank() || w[1].isBlank()) {
        throw new InputException(null, 0, "--perfetto-window", "the window must be FROM..TO,"
            + " such as 100ms..101ms, was '" + window + "'");
      }
      o.add("blksim.trace.timehist-from=" + w[0].trim());
      o.add("blksim.trace.timehist-to=" + w[1].trim());
    }
    return o;
  }

  /** Refuses an output file whose directory does not exist or that is a directory. */
  static void check(Path file) {
    Path abs = file.toAbsolutePath().normalize();
    if (Files.isDirectory(abs)) {
      throw new InputException(null, 0, "--perfetto", file + " is a directory");
    }
    Path parent = abs.getParent();
    if (parent == null || !Files.isDirectory(parent) || !Files.isWritable(parent)) {
      throw new InputException(null, 0, "--perfetto", "the directory of " + file
          + " does not exist or is not writable");
    }
  }

  /**
   * Writes the trace of window {@code [fromNs, toNs)} ({@code toNs} 0: the end of the run at
   * {@code endNs}) to {@code file}, atomically; returns the number of events written.
   */
  static long write(Path file, Scenario s, Simulator.Outcome o, Path blktraceDir, long fromNs,
      long toNs, long endNs) throws IOException {
    long to = toNs > 0 ? Math.min(toNs, endNs) : endNs;
    Path abs = file.toAbsolutePath().normalize();
    Path tmp = Files.createTempFile(abs.getParent(), "." + abs.getFileName(), ".tmp");
    long n;
    try {
      try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
        Out out = new Out(w);
        w.write("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
        out.meta(PID_CPUS, -1, "process_name", "CPUs");
        out.meta(PID_BLOCK, -1, "process_name", "block devices");
        cpus(out, s.topology().cpuCount(), o, fromNs, to);
        devices(out, s, blktraceDir, fromNs, to);
        w.write("\n]}\n");
        n = out.count;
      }
      if (tmp.getFileSystem().supportedFileAttributeViews().contains("posix")) {
        Files.setPosixFilePermissions(tmp,
            java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
      }
      Files.move(tmp, abs, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(tmp);
    }
    return n;
  }

  private static void cpus(Out out, int nCpus, Simulator.Outcome o, long from, long to)
      throws IOException {
    List<List<SwitchRecord>> byCpu = new ArrayList<>();
    for (int c = 0; c < nCpus; c++) {
      byCpu.add(new ArrayList<>());
    }
    for (SwitchRecord r : o.timehist()) { // in time order
      if (r.cpu() < nCpus) {
        byCpu.get(r.cpu()).add(r);
      }
    }
    for (int c = 0; c < nCpus; c++) {
      out.meta(PID_CPUS, c, "thread_name", "CPU " + c);
      out.sortIndex(PID_CPUS, c, 2 * c);
      long prevEnd = from;
      for (SwitchRecord r : byCpu.get(c)) {
        long start = Math.max(from, r.timeNs() - r.runNs());
        if (start > prevEnd) {
          out.slice(PID_CPUS, c, prevEnd, start - prevEnd, "swapper/" + c, "idle", null);
        }
        start = Math.max(start, prevEnd);
        out.slice(PID_CPUS, c, start, r.timeNs() - start, r.comm() + " [" + r.tid() + "]",
            "sched", "\"tid\":" + r.tid() + ",\"end_state\":\"" + r.state() + "\""
                + ",\"sch_delay_ns\":" + r.schDelayNs());
        prevEnd = r.timeNs();
      }
      long[] irqs = o.irqs().getOrDefault(c, new long[0]);
      if (irqs.length > 0) {
        out.meta(PID_CPUS, IRQ_TID + c, "thread_name", "CPU " + c + " irq");
        out.sortIndex(PID_CPUS, IRQ_TID + c, 2 * c + 1);
        long irqEnd = 0;
        for (int k = 0; k < irqs.length; k += 2) {
          long start = Math.max(irqs[k], irqEnd); // serialised: never overlapping
          long end = Math.min(irqs[k] + irqs[k + 1], to);
          if (start < to && end > start) {
            out.slice(PID_CPUS, IRQ_TID + c, start, end - start, "hardirq", "irq", null);
            irqEnd = end;
          }
        }
      }
    }
  }

  /** One blktrace event: time, sector, bytes, action, CPU file, sequence. */
  private record Ev(long time, long sector, int bytes, int action, int cpu, long seq) {}

  private static void devices(Out out, Scenario s, Path dir, long from, long to)
      throws IOException {
    if (dir == null) {
      return;
    }
    long id = 0;
    List<DeviceParams> devices = s.devices();
    for (int d = 0; d < devices.size(); d++) {
      String name = devices.get(d).name();
      List<Ev> evs = new ArrayList<>();
      List<Path> files = BlkparseWriter.cpuFiles(dir, name);
      for (int f = 0; f < files.size(); f++) {
        read(files.get(f), f, evs);
      }
      evs.sort(Comparator.comparingLong(Ev::time).thenComparingInt(Ev::cpu)
          .thenComparingLong(Ev::seq));
      out.meta(PID_BLOCK, d, "thread_name", name);
      // queued bios by start sector, oldest first (looked up, never iterated)
      Map<Long, ArrayDeque<Ev>> queued = new HashMap<>();
      for (Ev e : evs) {
        int ta = e.action() & 0xff;
        if (ta == BlkTrace.TA_QUEUE && e.time() >= from && e.time() < to) {
          queued.computeIfAbsent(e.sector(), k -> new ArrayDeque<>()).add(e);
        } else if (ta == BlkTrace.TA_COMPLETE) {
          ArrayDeque<Ev> q = queued.get(e.sector());
          Ev start = q == null ? null : q.poll();
          if (start == null) {
            continue;
          }
          boolean write = (e.action() >>> BlkTrace.TC_SHIFT & BlkTrace.TC_WRITE) != 0;
          String args = "\"sector\":" + start.sector() + ",\"bytes\":" + start.bytes()
              + ",\"op\":\"" + (write ? "W" : "R") + "\",\"q_cpu\":" + start.cpu();
          long end = Math.min(e.time(), to);
          out.async(PID_BLOCK, d, id++, name, start.time(), end, args);
        }
      }
    }
  }

  /** Reads a per-CPU blktrace file (little-endian, as {@link BlkTrace} writes it). */
  private static void read(Path file, int cpu, List<Ev> into) throws IOException {
    byte[] head = new byte[BlkTrace.EVENT_BYTES];
    try (InputStream in = new java.io.BufferedInputStream(Files.newInputStream(file))) {
      long seq = 0;
      while (in.readNBytes(head, 0, head.length) == head.length) {
        ByteBuffer b = ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN);
        long time = b.getLong(8);
        long sector = b.getLong(16);
        int bytes = b.getInt(24);
        int action = b.getInt(28);
        int pdu = b.getShort(46) & 0xffff;
        in.skipNBytes(pdu);
        if ((action >>> BlkTrace.TC_SHIFT & BlkTrace.TC_NOTIFY) != 0) {
          continue;
        }
        into.add(new Ev(time, sector, bytes, action, cpu, seq++));
      }
    }
  }

  /** The event writer. */
  private static final class Out {
    private final Writer w;
    long count;

    Out(Writer w) {
      this.w = w;
    }

    private void next() throws IOException {
      if (count++ > 0) {
        w.write(",\n");
      }
    }

    void meta(int pid, int tid, String what, String name) throws IOException {
      next();
      w.write("{\"ph\":\"M\",\"pid\":" + pid + (tid >= 0 ? ",\"tid\":" + tid : "")
          + ",\"name\":\"" + what + "\",\"args\":{\"name\":\"" + esc(name) + "\"}}");
    }

    void sortIndex(int pid, int tid, int index) throws IOException {
      next();
      w.write("{\"ph\":\"M\",\"pid\":" + pid + ",\"tid\":" + tid
          + ",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":" + index + "}}");
    }

    void slice(int pid, int tid, long startNs, long durNs, String name, String cat, String args)
        throws IOException {
      next();
      w.write("{\"ph\":\"X\",\"pid\":" + pid + ",\"tid\":" + tid + ",\"ts\":" + us(startNs)
          + ",\"dur\":" + us(durNs) + ",\"name\":\"" + esc(name) + "\",\"cat\":\"" + cat + "\""
          + (args == null ? "" : ",\"args\":{" + args + "}") + "}");
    }

    void async(int pid, int tid, long id, String name, long startNs, long endNs, String args)
        throws IOException {
      next();
      w.write("{\"ph\":\"b\",\"pid\":" + pid + ",\"tid\":" + tid + ",\"id\":" + id
          + ",\"cat\":\"bio\",\"name\":\"" + esc(name) + "\",\"ts\":" + us(startNs)
          + ",\"args\":{" + args + "}}");
      next();
      w.write("{\"ph\":\"e\",\"pid\":" + pid + ",\"tid\":" + tid + ",\"id\":" + id
          + ",\"cat\":\"bio\",\"name\":\"" + esc(name) + "\",\"ts\":" + us(endNs) + "}");
    }

    /** Microseconds with the nanoseconds kept, as the format's ts and dur are in us. */
    private static String us(long ns) {
      return String.format(Locale.ROOT, "%d.%03d", ns / 1000, ns % 1000);
    }

    private static String esc(String s) {
      StringBuilder b = new StringBuilder();
      for (char c : s.toCharArray()) {
        if (c == '"' || c == '\\') {
          b.append('\\').append(c);
        } else if (c < 0x20) {
          b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
        } else {
          b.append(c);
        }
      }
      return b.toString();
    }
  }
}
