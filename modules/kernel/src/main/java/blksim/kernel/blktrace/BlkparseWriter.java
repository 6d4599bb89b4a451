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
 * Simplified: the per-CPU and total summary blkparse prints at the end is not written.
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

  /** Writes blkparse's text of {@code files} to {@code out}; returns the lines written. */
  public static long write(List<Path> files, Writer out) throws IOException {
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
        }
        if (r.advance()) {
          heads.add(r);
        }
      }
      return lines;
    } finally {
      for (Reader r : readers) {
        r.close();
      }
    }
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
    b.append(String.format(java.util.Locale.ROOT, "%3d,%-3d %2d %8d %5d.%09d %5d %2s %3s ",
        device >>> 20,
        device & 0xfffff, r.cpu, r.sequence, t / 1_000_000_000L, t % 1_000_000_000L,
        Integer.toUnsignedLong(r.pid), act, rwbs(r.action, r.bytes)));
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
