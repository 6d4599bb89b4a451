package blksim.kernel.blktrace;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What {@code blkparse -i DEV} prints for a device's per-CPU files, in its default format
 * ({@code blkparse_fmt.c process_default()}): events merged by time (then CPU, then order in the
 * CPU's file), times relative to the first event, process names from the
 * {@code BLK_TN_PROCESS} notes (which are not printed). Each line is
 * {@code "%3d,%-3d %2d %8d %5d.%09lu %5u %2s %3s "} (device, CPU, sequence, seconds.nanoseconds,
 * pid, action, RWBS) and the action's tail:
 * <ul>
 *   <li>Q, I, D, B: {@code sector + blocks [process]}, or {@code [process]} with no data;
 *   <li>C, R: {@code sector + blocks [error]}, or {@code sector [error]};
 *   <li>M, F, G, S: {@code sector + blocks [process]}, or {@code [process]};
 *   <li>P: {@code [process]}; U, UT: {@code [process] depth};
 *   <li>A: {@code sector + blocks <- (major,minor) from_sector}, its device the remap's target;
 *   <li>X: {@code sector / new_sector [process]}.
 * </ul>
 * RWBS is {@code fill_rwbs()}'s: F (flush), then D, W, R or N, then F (FUA), A, S, M.
 *
 * <p>After the events, the summary of {@code show_device_and_cpu_stats()}: a block per CPU with
 * events ({@code dump_io_stats()}: queued, dispatched, requeued, completed and merged reads and
 * writes with their KiB, the device's deepest read and write depth at the driver, I/O and timer
 * unplugs), a total block when more than one CPU had events, then the throughput, the event count
 * and the skips (none: the files have no gaps). Numbers are grouped by thousands as blkparse's
 * {@code %'} prints them in an English locale, and {@code size_cnv()} turns counts over a million
 * into K, M, G.
 */
public final class BlkparseWriter {
  private static final Pattern PER_CPU = Pattern.compile("(.*)\\.blktrace\\.(\\d+)");

  private BlkparseWriter() {}

  /** The per-CPU files of device {@code name} in {@code dir}, by CPU number. */
  public static List<Path> cpuFiles(Path dir, String name) throws IOException {
    List<long[]> found = new ArrayList<>();
    List<Path> paths = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        Matcher m = PER_CPU.matcher(p.getFileName().toString());
        if (m.matches() && m.group(1).equals(name)) {
          found.add(new long[] {Long.parseLong(m.group(2)), paths.size()});
          paths.add(p);
        }
      }
    }
    found.sort(Comparator.comparingLong(a -> a[0]));
    List<Path> out = new ArrayList<>();
    for (long[] f : found) {
      out.add(paths.get((int) f[1]));
    }
    return out;
  }

  /** Writes blkparse's text of device {@code dev}'s {@code files}, summary included. */
  public static long write(List<Path> files, Writer out, String dev) throws IOException {
    return write(files, out, dev, true);
  }

  /**
   * Writes blkparse's text of {@code files} to {@code out}, with the summary of device
   * {@code dev} if {@code summary}; returns the event lines written.
   */
  public static long write(List<Path> files, Writer out, String dev, boolean summary)
      throws IOException {
    List<Reader> readers = new ArrayList<>();
    PriorityQueue<Reader> heads = new PriorityQueue<>(Comparator
        .comparingLong((Reader r) -> r.time).thenComparingInt(r -> r.index)
        .thenComparingLong(r -> r.ordinal));
    long genesis = Long.MAX_VALUE;
    try {
      for (Path f : files) {
        Reader r = new Reader(f, readers.size());
        readers.add(r);
        if (r.advance()) {
          heads.add(r);
          genesis = Math.min(genesis, r.time);
        }
      }
      Map<Integer, String> names = new HashMap<>();
      java.util.TreeMap<Integer, Stats> cpus = new java.util.TreeMap<>();
      int[] depth = new int[2];
      int[] maxDepth = new int[2];
      long first = -1;
      long last = 0;
      StringBuilder b = new StringBuilder(160);
      long lines = 0;
      while (!heads.isEmpty()) {
        Reader r = heads.poll();
        int cat = r.action >>> BlkTrace.TC_SHIFT;
        if ((cat & BlkTrace.TC_NOTIFY) != 0) {
          if ((r.action & 0xff) == BlkTrace.TN_PROCESS) {
            names.put(r.pid, comm(r.pdu));
          }
        } else {
          b.setLength(0);
          line(b, r, r.time - genesis, names.get(r.pid));
          out.write(b.toString());
          lines++;
          account(cpus.computeIfAbsent(r.cpu, k -> new Stats()), r, depth, maxDepth);
          if (first < 0) {
            first = r.time - genesis;
          }
          last = r.time - genesis;
        }
        if (r.advance()) {
          heads.add(r);
        }
      }
      if (summary) {
        out.write(summary(dev, cpus, maxDepth, lines, first < 0 ? 0 : last - first));
      }
      return lines;
    } finally {
      for (Reader r : readers) {
        r.close();
      }
    }
  }

  /** One CPU's {@code struct io_stats}. */
  static final class Stats {
    final long[] queued = new long[2];
    final long[] queuedKb = new long[2];
    final long[] issued = new long[2];
    final long[] issuedKb = new long[2];
    final long[] requeued = new long[2];
    final long[] completed = new long[2];
    final long[] completedKb = new long[2];
    final long[] merged = new long[2];
    final long[] mergedKb = new long[2];
    long ioUnplugs;
    long timerUnplugs;

    void add(Stats o) {
      for (int w = 0; w < 2; w++) {
        queued[w] += o.queued[w];
        queuedKb[w] += o.queuedKb[w];
        issued[w] += o.issued[w];
        issuedKb[w] += o.issuedKb[w];
        requeued[w] += o.requeued[w];
        completed[w] += o.completed[w];
        completedKb[w] += o.completedKb[w];
        merged[w] += o.merged[w];
        mergedKb[w] += o.mergedKb[w];
      }
      ioUnplugs += o.ioUnplugs;
      timerUnplugs += o.timerUnplugs;
    }
  }

  /** {@code dump_trace_fs()}'s accounting of one event. */
  private static void account(Stats s, Reader r, int[] depth, int[] maxDepth) {
    int w = (r.action >>> BlkTrace.TC_SHIFT & BlkTrace.TC_WRITE) != 0 ? 1 : 0;
    long kb = r.bytes >> 10;
    switch (r.action & 0xffff) {
      case BlkTrace.TA_QUEUE -> {
        s.queued[w]++;
        s.queuedKb[w] += kb;
      }
      case BlkTrace.TA_BACKMERGE, BlkTrace.TA_FRONTMERGE -> {
        s.merged[w]++;
        s.mergedKb[w] += kb;
      }
      case BlkTrace.TA_REQUEUE -> {
        if (depth[w] > 0) {
          depth[w]--;
        }
        s.requeued[w]++;
        s.issuedKb[w] -= kb;
      }
      case BlkTrace.TA_ISSUE -> {
        s.issued[w]++;
        s.issuedKb[w] += kb;
        maxDepth[w] = Math.max(maxDepth[w], ++depth[w]);
      }
      case BlkTrace.TA_COMPLETE -> {
        if (depth[w] > 0) {
          depth[w]--;
        }
        s.completed[w]++;
        s.completedKb[w] += kb;
      }
      case BlkTrace.TA_UNPLUG_IO -> s.ioUnplugs++;
      case BlkTrace.TA_UNPLUG_TIMER -> s.timerUnplugs++;
      default -> { }
    }
  }

  /** {@code %'8Lu}: at least 8 wide, thousands grouped with commas. */
  private static String grouped(long v, int width) {
    String g = String.format(java.util.Locale.ROOT, "%,d", v);
    return g.length() >= width ? g : " ".repeat(width - g.length()) + g;
  }

  /** {@code size_cnv()}: K, M, G... above a million; {@code inKb} starts at K. */
  static String sizeCnv(long num, boolean inKb) {
    String suff = "\0KMGP";
    int i = inKb ? 1 : 0;
    while (num > 1000L * 1000 && i < suff.length() - 1) {
      i++;
      num /= 1000;
    }
    return grouped(num, 8) + (i == 0 ? "" : String.valueOf(suff.charAt(i)));
  }

  private static void ioStats(StringBuilder b, String msg, Stats s, int[] maxDepth) {
    b.append(msg).append('\n');
    b.append(" Reads Queued:    ").append(sizeCnv(s.queued[0], false)).append(", ")
        .append(sizeCnv(s.queuedKb[0], true)).append("iB\t");
    b.append(" Writes Queued:    ").append(sizeCnv(s.queued[1], false)).append(", ")
        .append(sizeCnv(s.queuedKb[1], true)).append("iB\n");
    b.append(" Read Dispatches: ").append(sizeCnv(s.issued[0], false)).append(", ")
        .append(sizeCnv(s.issuedKb[0], true)).append("iB\t");
    b.append(" Write Dispatches: ").append(sizeCnv(s.issued[1], false)).append(", ")
        .append(sizeCnv(s.issuedKb[1], true)).append("iB\n");
    b.append(" Reads Requeued:  ").append(sizeCnv(s.requeued[0], false)).append("\t\t");
    b.append(" Writes Requeued:  ").append(sizeCnv(s.requeued[1], false)).append('\n');
    b.append(" Reads Completed: ").append(sizeCnv(s.completed[0], false)).append(", ")
        .append(sizeCnv(s.completedKb[0], true)).append("iB\t");
    b.append(" Writes Completed: ").append(sizeCnv(s.completed[1], false)).append(", ")
        .append(sizeCnv(s.completedKb[1], true)).append("iB\n");
    b.append(" Read Merges:     ").append(sizeCnv(s.merged[0], false)).append(", ")
        .append(sizeCnv(s.mergedKb[0], true)).append("iB\t");
    b.append(" Write Merges:     ").append(sizeCnv(s.merged[1], false)).append(", ")
        .append(sizeCnv(s.mergedKb[1], true)).append("iB\n");
    if (maxDepth != null) {
      b.append(" Read depth:      ").append(grouped(maxDepth[0], 8)).append("        \t");
      b.append(" Write depth:      ").append(grouped(maxDepth[1], 8)).append('\n');
    }
    b.append(" IO unplugs:      ").append(grouped(s.ioUnplugs, 8)).append("        \t");
    b.append(" Timer unplugs:    ").append(grouped(s.timerUnplugs, 8)).append('\n');
  }

  /** {@code show_device_and_cpu_stats()} for one device. */
  private static String summary(String dev, java.util.TreeMap<Integer, Stats> cpus,
      int[] maxDepth, long events, long spanNs) {
    StringBuilder b = new StringBuilder();
    Stats total = new Stats();
    for (Map.Entry<Integer, Stats> e : cpus.entrySet()) {
      total.add(e.getValue());
      ioStats(b, "CPU" + e.getKey() + " (" + dev + "):", e.getValue(), maxDepth);
    }
    if (cpus.size() > 1) {
      b.append('\n');
      ioStats(b, "Total (" + dev + "):", total, null);
    }
    long msec = spanNs / 1_000_000;
    long rrate = msec == 0 ? 0 : 1000 * total.completedKb[0] / msec;
    long wrate = msec == 0 ? 0 : 1000 * total.completedKb[1] / msec;
    b.append("\nThroughput (R/W): ").append(String.format(java.util.Locale.ROOT, "%,d", rrate))
        .append("KiB/s / ").append(String.format(java.util.Locale.ROOT, "%,d", wrate))
        .append("KiB/s\n");
    b.append("Events (").append(dev).append("): ")
        .append(String.format(java.util.Locale.ROOT, "%,d", events)).append(" entries\n");
    b.append("Skips: 0 forward (0 -   0.0%)\n");
    return b.toString();
  }

  private static String comm(byte[] pdu) {
    int n = 0;
    while (n < pdu.length && pdu[n] != 0) {
      n++;
    }
    return new String(pdu, 0, n, StandardCharsets.UTF_8);
  }

  /** The action's letters, as {@code blkparse.c dump_trace_fs()} names them. */
  static String act(int action) {
    return switch (action & 0xff) {
      case BlkTrace.TA_QUEUE -> "Q";
      case BlkTrace.TA_BACKMERGE -> "M";
      case BlkTrace.TA_FRONTMERGE -> "F";
      case BlkTrace.TA_GETRQ -> "G";
      case BlkTrace.TA_SLEEPRQ -> "S";
      case BlkTrace.TA_REQUEUE -> "R";
      case BlkTrace.TA_ISSUE -> "D";
      case BlkTrace.TA_COMPLETE -> "C";
      case BlkTrace.TA_PLUG -> "P";
      case BlkTrace.TA_UNPLUG_IO -> "U";
      case BlkTrace.TA_UNPLUG_TIMER -> "UT";
      case BlkTrace.TA_INSERT -> "I";
      case BlkTrace.TA_SPLIT -> "X";
      case BlkTrace.TA_BOUNCE -> "B";
      case BlkTrace.TA_REMAP -> "A";
      default -> throw new IllegalArgumentException("unknown blktrace action " + action);
    };
  }

  /** {@code fill_rwbs()}. */
  static String rwbs(int action, long bytes) {
    int c = action >>> BlkTrace.TC_SHIFT;
    StringBuilder s = new StringBuilder(4);
    if ((c & BlkTrace.TC_FLUSH) != 0) {
      s.append('F');
    }
    if ((c & BlkTrace.TC_DISCARD) != 0) {
      s.append('D');
    } else if ((c & BlkTrace.TC_WRITE) != 0) {
      s.append('W');
    } else if (bytes != 0) {
      s.append('R');
    } else {
      s.append('N');
    }
    if ((c & BlkTrace.TC_FUA) != 0) {
      s.append('F');
    }
    if ((c & BlkTrace.TC_AHEAD) != 0) {
      s.append('A');
    }
    if ((c & BlkTrace.TC_SYNC) != 0) {
      s.append('S');
    }
    if ((c & BlkTrace.TC_META) != 0) {
      s.append('M');
    }
    return s.toString();
  }

  private static void line(StringBuilder b, Reader r, long t, String name) {
    String act = act(r.action);
    String proc = String.valueOf(name); // blkparse prints "(null)" for an unknown pid
    if (name == null) {
      proc = "(null)";
    }
    int device = r.device;
    long fromDev = 0;
    long fromSector = 0;
    if (act.equals("A")) {
      ByteBuffer p = ByteBuffer.wrap(r.pdu).order(ByteOrder.BIG_ENDIAN);
      fromDev = Integer.toUnsignedLong(p.getInt(0));
      device = p.getInt(4);
      fromSector = p.getLong(8);
    }
    long sec = r.bytes >>> 9;
    // "%3d,%-3d %2d %8d %5d.%09lu %5u %2s %3s "
    pad(b, Integer.toString(device >>> 20), 3).append(',');
    String minor = Integer.toString(device & 0xfffff);
    b.append(minor);
    for (int i = minor.length(); i < 3; i++) {
      b.append(' ');
    }
    b.append(' ');
    pad(b, Integer.toString(r.cpu), 2).append(' ');
    pad(b, Long.toString(r.sequence), 8).append(' ');
    pad(b, Long.toString(t / 1_000_000_000L), 5).append('.');
    String ns = Long.toString(t % 1_000_000_000L);
    for (int i = ns.length(); i < 9; i++) {
      b.append('0');
    }
    b.append(ns).append(' ');
    pad(b, Long.toString(Integer.toUnsignedLong(r.pid)), 5).append(' ');
    pad(b, act, 2).append(' ');
    pad(b, rwbs(r.action, r.bytes), 3).append(' ');
    switch (act.charAt(0)) {
      case 'C', 'R' -> {
        b.append(Long.toUnsignedString(r.sector));
        if (sec != 0) {
          b.append(" + ").append(sec);
        }
        b.append(" [").append(r.error).append("]\n");
      }
      case 'D', 'I', 'Q', 'B', 'M', 'F', 'G', 'S' -> {
        if (sec != 0) {
          b.append(Long.toUnsignedString(r.sector)).append(" + ").append(sec).append(' ');
        }
        b.append('[').append(proc).append("]\n");
      }
      case 'P' -> b.append('[').append(proc).append("]\n");
      case 'U' -> b.append('[').append(proc).append("] ").append(pduInt(r.pdu)).append('\n');
      case 'A' -> b.append(Long.toUnsignedString(r.sector)).append(" + ").append(sec)
          .append(" <- (").append(fromDev >>> 20).append(',').append(fromDev & 0xfffff)
          .append(") ").append(Long.toUnsignedString(fromSector)).append('\n');
      case 'X' -> b.append(Long.toUnsignedString(r.sector)).append(" / ")
          .append(pduInt(r.pdu)).append(" [").append(proc).append("]\n");
      default -> throw new IllegalStateException(act);
    }
  }

  /** {@code s} right-aligned in {@code width} ({@code %Nd}, {@code %Ns}). */
  private static StringBuilder pad(StringBuilder b, String s, int width) {
    for (int i = s.length(); i < width; i++) {
      b.append(' ');
    }
    return b.append(s);
  }

  /** {@code get_pdu_int()}: the payload's big-endian u64, printed as an unsigned int. */
  private static long pduInt(byte[] pdu) {
    return ByteBuffer.wrap(pdu).order(ByteOrder.BIG_ENDIAN).getLong(0) & 0xffffffffL;
  }

  /** One per-CPU file read event by event. */
  private static final class Reader {
    final String file;
    final int index;
    final InputStream in;
    final ByteBuffer head = ByteBuffer.allocate(BlkTrace.EVENT_BYTES)
        .order(ByteOrder.LITTLE_ENDIAN);
    long ordinal;
    long time;
    long sector;
    long sequence;
    long bytes;
    int action;
    int pid;
    int device;
    int cpu;
    int error;
    byte[] pdu;

    Reader(Path f, int index) throws IOException {
      this.file = f.toString();
      this.index = index;
      this.in = new BufferedInputStream(Files.newInputStream(f), 1 << 16);
    }

    boolean advance() throws IOException {
      int n = in.readNBytes(head.array(), 0, BlkTrace.EVENT_BYTES);
      if (n == 0) {
        return false;
      }
      if (n < BlkTrace.EVENT_BYTES
          || (head.getInt(0) & 0xffffff00) != BlkTrace.MAGIC) {
        throw new UncheckedIOException(new IOException(file + ": event " + (ordinal + 1)
            + " is not a blk_io_trace of this machine's byte order"));
      }
      ordinal++;
      sequence = Integer.toUnsignedLong(head.getInt(4));
      time = head.getLong(8);
      sector = head.getLong(16);
      bytes = Integer.toUnsignedLong(head.getInt(24));
      action = head.getInt(28);
      pid = head.getInt(32);
      device = head.getInt(36);
      cpu = head.getInt(40);
      error = Short.toUnsignedInt(head.getShort(44));
      int len = Short.toUnsignedInt(head.getShort(46));
      pdu = in.readNBytes(len);
      if (pdu.length < len) {
        throw new UncheckedIOException(new IOException(file + ": event " + ordinal
            + "'s payload runs past the end of the file"));
      }
      return true;
    }

    void close() {
      try {
        in.close();
      } catch (IOException e) {
        // nothing was written through it
      }
    }
  }
}
