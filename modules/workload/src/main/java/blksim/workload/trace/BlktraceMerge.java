package blksim.workload.trace;

import blksim.engine.InputException;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * fio's {@code merge_blktrace_file}: several blktrace binaries ({@code read_iolog=a:b:...}, each
 * one file as {@code blkparse -d} writes it) merged by time into one, which is then replayed in
 * their place ({@code blktrace.c merge_blktrace_iologs()}).
 *
 * <p>As fio does it: from each input only queue events ({@code __BLK_TA_QUEUE}) of a read, write
 * or discard ({@code t_get_ddir()}) are kept; each kept event's time becomes
 * {@code (time + iter * length) * scalar / 100} in unsigned 64-bit arithmetic, where
 * {@code scalar} is the file's {@code merge_blktrace_scalars} entry (default 100),
 * {@code iter} the file's current iteration (from 0 to {@code merge_blktrace_iters} - 1, default
 * one iteration) and {@code length} the time field of the last event read from the file in its
 * first iteration (fio's {@code bc->length}); the earliest event of all files is written next
 * (ties to the lowest cursor, where a finished file's cursor is replaced by the last one, as
 * fio's {@code memmove()} does) as a bare 48-byte {@code struct blk_io_trace} with
 * {@code pdu_len = 0} in the input's byte order made native (little-endian, the byte order of
 * the hosts fio runs on here).
 *
 * <p>One difference, on purpose: when a file starts its next iteration, fio rewinds it without
 * reading its first event, so its last event of the previous iteration is written a second time
 * (and its payload length is skipped at the start of the file); blksim reads the first event of
 * the new iteration, as the option's documentation describes ("run each trace for the specified
 * number of iterations").
 *
 * <p>The output is written to a temporary file beside it and moved into place, so clones that
 * merge the same inputs at once never see a half-written file.
 */
public final class BlktraceMerge {
  private BlktraceMerge() {}

  /** {@code BLK_TC_READ}. */
  private static final int TC_READ = 1;

  /**
   * Merges {@code inputs} into {@code out}.
   *
   * @param scalars per input, percent (fio's default 100)
   * @param iters per input, iterations (fio's default 1)
   * @return the number of events written
   */
  public static long merge(List<Path> inputs, int[] scalars, int[] iters, Path out) {
    List<Cursor> active = new ArrayList<>();
    Path tmp;
    try {
      Path dir = out.toAbsolutePath().getParent();
      Files.createDirectories(dir);
      tmp = Files.createTempFile(dir, "." + out.getFileName(), ".tmp");
    } catch (IOException e) {
      throw new InputException(out.toString(), 0, "merge_blktrace_file", "cannot write: " + e);
    }
    long written = 0;
    try (OutputStream os = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 17)) {
      for (int i = 0; i < inputs.size(); i++) {
        Cursor c = new Cursor(inputs.get(i), scalars[i], iters[i]);
        if (c.next()) {
          active.add(c);
        } else {
          c.close();
        }
      }
      byte[] rec = new byte[BlktraceTraceReader.EVENT_BYTES];
      ByteBuffer w = ByteBuffer.wrap(rec).order(ByteOrder.LITTLE_ENDIAN);
      while (!active.isEmpty()) {
        int idx = 0;
        for (int i = 1; i < active.size(); i++) {
          if (Long.compareUnsigned(active.get(i).time, active.get(idx).time) < 0) {
            idx = i;
          }
        }
        Cursor c = active.get(idx);
        c.writeTo(w);
        os.write(rec);
        written++;
        if (!c.next()) {
          c.close();
          // fio keeps the active cursors contiguous by moving the last into the hole.
          Cursor last = active.remove(active.size() - 1);
          if (idx < active.size()) {
            active.set(idx, last);
          }
        }
      }
    } catch (IOException e) {
      deleteQuietly(tmp);
      throw new InputException(out.toString(), 0, "merge_blktrace_file", "cannot write: " + e);
    } catch (RuntimeException e) {
      deleteQuietly(tmp);
      throw e;
    } finally {
      for (Cursor c : active) {
        c.close();
      }
    }
    try {
      try {
        Files.move(tmp, out, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      deleteQuietly(tmp);
      throw new InputException(out.toString(), 0, "merge_blktrace_file", "cannot write: " + e);
    }
    return written;
  }

  private static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException e) {
      // best effort: the run fails with the first error anyway
    }
  }

  /** One input file, read event by event (fio's {@code struct blktrace_cursor}). */
  private static final class Cursor {
    final Path path;
    final int scalar;
    final int nrIter;
    int iter;
    long length;
    InputStream in;
    ByteOrder order;
    final ByteBuffer buf = ByteBuffer.allocate(BlktraceTraceReader.EVENT_BYTES);
    long events;
    /** The current event's time, scaled; the rest of it is in {@link #buf}. */
    long time;
    /** The time field of the last event read, as fio's {@code bc->t.time} holds it. */
    long lastTime;

    Cursor(Path path, int scalar, int nrIter) {
      this.path = path;
      this.scalar = scalar;
      this.nrIter = nrIter;
      this.in = TraceInput.open(path);
    }

    /** The next kept event, across iterations; false when the file is done. */
    boolean next() {
      while (true) {
        if (readKept()) {
          return true;
        }
        if (length == 0) {
          length = lastTime;
        }
        iter++;
        if (iter >= nrIter) {
          return false;
        }
        close();
        in = TraceInput.open(path);
        events = 0;
      }
    }

    /** fio's {@code read_trace()}: the next queue event of a read, write or discard. */
    private boolean readKept() {
      byte[] b = buf.array();
      while (true) {
        int n;
        try {
          n = in.readNBytes(b, 0, b.length);
        } catch (IOException e) {
          throw TraceInput.readError(path.toString(), e);
        }
        if (n == 0) {
          return false;
        }
        events++;
        if (order == null) {
          if (n < 4) {
            throw error("is not a blktrace (fio: file is not a blktrace)");
          }
          int be = buf.order(ByteOrder.BIG_ENDIAN).getInt(0);
          if ((be & 0xffffff00) == BlktraceTraceReader.MAGIC) {
            order = ByteOrder.BIG_ENDIAN;
          } else if ((Integer.reverseBytes(be) & 0xffffff00) == BlktraceTraceReader.MAGIC) {
            order = ByteOrder.LITTLE_ENDIAN;
          } else {
            throw error("is not a blktrace (fio: file is not a blktrace)");
          }
        }
        if (n < b.length) {
          throw error("is truncated: " + n + " of " + b.length + " bytes (fio: iolog short"
              + " read)");
        }
        buf.order(order);
        long t = buf.getLong(8);
        int action = buf.getInt(28);
        int pduLen = Short.toUnsignedInt(buf.getShort(46));
        try {
          in.skipNBytes(pduLen);
        } catch (IOException e) {
          throw error("event " + events + ": pdu_len " + pduLen + " runs past the end of the"
              + " file");
        }
        int cat = action >>> 16;
        boolean ddir = (cat & (TC_READ | BlktraceTraceReader.TC_WRITE
            | BlktraceTraceReader.TC_DISCARD)) != 0;
        if ((action & 0xffff) != BlktraceTraceReader.TA_QUEUE || !ddir) {
          lastTime = t;
          continue;
        }
        // Unsigned 64-bit arithmetic, as fio's __u64 time.
        time = Long.divideUnsigned((t + iter * length) * scalar, 100);
        lastTime = time;
        return true;
      }
    }

    /** The current event as fio's {@code write_trace()} writes it: pdu_len 0, native order. */
    void writeTo(ByteBuffer w) {
      w.putInt(0, buf.getInt(0)).putInt(4, buf.getInt(4)) // magic, sequence
          .putLong(8, time).putLong(16, buf.getLong(16)) // scaled time, sector
          .putInt(24, buf.getInt(24)).putInt(28, buf.getInt(28)) // bytes, action
          .putInt(32, buf.getInt(32)).putInt(36, buf.getInt(36)) // pid, device
          .putInt(40, buf.getInt(40)).putShort(44, buf.getShort(44)) // cpu, error
          .putShort(46, (short) 0); // pdu_len: the payload is not written
    }

    InputException error(String rule) {
      return new InputException(path.toString(), 0, "read_iolog", rule);
    }

    void close() {
      try {
        in.close();
      } catch (IOException e) {
        // reading is over
      }
    }
  }
}
