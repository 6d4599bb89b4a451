package blksim.workload.replay;

import blksim.kernel.block.ReqOp;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * fio's {@code write_iolog=FILE}: the job's I/O as a version 3 iolog, written as fio 3.31 and
 * later write it ({@code iolog.c}): opened in append mode ({@code fopen(..., "a")}, as fio: a
 * second run appends a second log), the line {@code fio version 3 iolog}, then
 * {@code <t> <file> add} and {@code <t> <file> open} when the job starts
 * ({@code init_iolog_write()} logging every file, {@code td_io_open_file()}), {@code <t> <file> <action> <offset> <length>}
 * for each I/O as it is queued ({@code log_io_u()} from {@code td_io_queue()}), and
 * {@code <t> <file> close} when the job ends. {@code <t>} is {@code utime_since_now()} of the log's
 * start: whole microseconds, truncated. Actions are {@code io_ddir_name()}'s: {@code read},
 * {@code write}, {@code trim}, {@code sync}, {@code datasync} (the job's own {@code fsync=N},
 * {@code fdatasync=N} and {@code end_fsync} syncs, with the psync engines that issue them).
 *
 * <p>As in fio's {@code init_iolog()}, a job that replays a log ({@code read_iolog}) writes
 * none.
 *
 * <p>Simplified: the log starts with the job's clock (fio starts it a little earlier, when the
 * job is set up), and an I/O is logged when the job takes it from its pattern, which in blksim is
 * just before it is queued.
 */
public final class IologWriter {
  /** fio's {@code iolog_ver3}. */
  public static final String HEADER_V3 = "fio version 3 iolog";

  private final Path path;
  private final String fileName;
  /** A job on regular files: fio's names of its files, each opened and closed on its own. */
  private final List<String> files;
  private final boolean[] open;
  private int cur;
  private Writer out;
  private long startNs;

  /**
   * @param path the log file ({@code write_iolog}), relative to the working directory as fio
   *     takes it
   * @param fileName the job's file as fio names it in the log ({@code /dev/nullb0})
   */
  public IologWriter(Path path, String fileName) {
    this.path = path;
    this.fileName = fileName;
    this.files = null;
    this.open = null;
  }

  /**
   * The log of a job on regular files: {@code init_iolog_write()} logs an {@code add} for each
   * of {@code fileNames} (fio's {@code f->file_name}: the name as the job gave it, relative
   * names relative, or the {@code directory=} path) when the job starts; each file's
   * {@code open} and {@code close} are logged as the job opens and closes it
   * ({@link #opened}, {@link #closed}), and each I/O names the file of {@link #use}.
   */
  public IologWriter(Path path, List<String> fileNames) {
    this.path = path;
    this.fileName = fileNames.get(0);
    this.files = List.copyOf(fileNames);
    this.open = new boolean[fileNames.size()];
  }

  /** The file the next logged I/Os are on (a job on regular files). */
  public void use(int file) {
    cur = file;
  }

  /** File {@code file} was opened at {@code nowNs} ({@code td_io_open_file()}). */
  public void opened(long nowNs, int file) {
    if (out == null || files == null || open[file]) {
      return;
    }
    open[file] = true;
    action(nowNs, files.get(file), "open");
  }

  /** File {@code file} was closed at {@code nowNs} ({@code td_io_close_file()}). */
  public void closed(long nowNs, int file) {
    if (out == null || files == null || !open[file]) {
      return;
    }
    open[file] = false;
    action(nowNs, files.get(file), "close");
  }

  /** The job starts at {@code nowNs}: the header, the file's add and open. */
  public void open(long nowNs) {
    startNs = nowNs;
    try {
      out = new BufferedWriter(Files.newBufferedWriter(path, StandardCharsets.UTF_8,
          StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND),
          1 << 16);
      out.write(HEADER_V3);
      out.write('\n');
    } catch (IOException e) {
      throw failed(e);
    }
    if (files != null) {
      for (String f : files) {
        action(nowNs, f, "add");
      }
      return;
    }
    fileAction(nowNs, "add");
    fileAction(nowNs, "open");
  }

  /** An I/O queued at {@code nowNs}. */
  public void io(long nowNs, ReqOp op, long offset, long length) {
    if (out == null) {
      return;
    }
    String act = switch (op) {
      case READ -> "read";
      case WRITE -> "write";
      case DISCARD -> "trim";
      case FLUSH -> "sync";
      // zone management is no io_u of fio's (zbd.c resets zones by ioctl): not logged
      case ZONE_RESET, ZONE_FINISH, ZONE_OPEN, ZONE_CLOSE -> null;
    };
    if (act == null) {
      return;
    }
    try {
      out.write(Long.toString(micros(nowNs)));
      out.write(' ');
      out.write(files != null ? files.get(cur) : fileName);
      out.write(' ');
      out.write(act);
      out.write(' ');
      out.write(Long.toString(offset));
      out.write(' ');
      out.write(Long.toString(length));
      out.write('\n');
    } catch (IOException e) {
      throw failed(e);
    }
  }

  /**
   * A sync the job queued at {@code nowNs} ({@code fsync=N}, {@code fdatasync=N},
   * {@code end_fsync}): {@code sync} or {@code datasync}, offset and length 0 (fio prints the
   * sync io_u's, which it leaves as its last use set them; its replay ignores them).
   */
  public void sync(long nowNs, boolean data) {
    if (out == null) {
      return;
    }
    try {
      out.write(micros(nowNs) + " " + (files != null ? files.get(cur) : fileName) + " "
          + (data ? "datasync" : "sync") + " 0 0\n");
    } catch (IOException e) {
      throw failed(e);
    }
  }

  /** The job ends at {@code nowNs}: the file's close, and the log is written out. */
  public void close(long nowNs) {
    if (out == null) {
      return;
    }
    if (files != null) {
      for (int i = 0; i < files.size(); i++) {
        closed(nowNs, i); // a file still open when the job ends (max-time)
      }
    } else {
      fileAction(nowNs, "close");
    }
    try {
      out.close();
    } catch (IOException e) {
      throw failed(e);
    }
    out = null;
  }

  private void fileAction(long nowNs, String act) {
    action(nowNs, fileName, act);
  }

  private void action(long nowNs, String name, String act) {
    try {
      out.write(micros(nowNs) + " " + name + " " + act + "\n");
    } catch (IOException e) {
      throw failed(e);
    }
  }

  private long micros(long nowNs) {
    return (nowNs - startNs) / 1000;
  }

  private UncheckedIOException failed(IOException e) {
    return new UncheckedIOException("write_iolog: " + path + ": " + e.getMessage(), e);
  }
}
