package blksim.workload.shell;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What the scenario's commands did, as the shell task reports it at the end of a run (encoded
 * so that it can cross JVMs): for each command that started, its virtual start and end, the
 * task's user and system time over it, and its exit status with the message the real tool
 * prints on failure.
 */
public record ShellReport(List<Result> results) {
  /**
   * One command's outcome.
   *
   * @param command the command as written
   * @param timed whether bash's {@code time} prefixed it
   * @param startNs when it started (virtual time)
   * @param endNs when it ended, or -1 if the run ended first
   * @param userNs the task's user time over it
   * @param sysNs the task's system time over it
   * @param status its exit status (0: success)
   * @param message what the tool printed on stderr, or ""
   * @param detailJson what the kernel did for it, as JSON members (an unmount's log stages and
   *     page-cache samples), or ""
   */
  public record Result(String command, boolean timed, long startNs, long endNs, long userNs,
      long sysNs, int status, String message, String detailJson) {
    /** A result with no detail. */
    public Result(String command, boolean timed, long startNs, long endNs, long userNs,
        long sysNs, int status, String message) {
      this(command, timed, startNs, endNs, userNs, sysNs, status, message, "");
    }

    /** Whether the command finished before the run ended. */
    public boolean finished() {
      return endNs >= 0;
    }

    /** Its elapsed (bash's {@code real}) time, ns; 0 if it did not finish. */
    public long elapsedNs() {
      return finished() ? endNs - startNs : 0;
    }
  }

  /** The task report's encoding. */
  public byte[] encode() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(results.size());
      for (Result r : results) {
        out.writeUTF(r.command());
        out.writeBoolean(r.timed());
        out.writeLong(r.startNs());
        out.writeLong(r.endNs());
        out.writeLong(r.userNs());
        out.writeLong(r.sysNs());
        out.writeInt(r.status());
        out.writeUTF(r.message());
        byte[] d = r.detailJson().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        out.writeInt(d.length);
        out.write(d);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /** Decodes {@link #encode}'s bytes. */
  public static ShellReport decode(byte[] payload) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload))) {
      int n = in.readInt();
      List<Result> out = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        String command = in.readUTF();
        boolean timed = in.readBoolean();
        long start = in.readLong();
        long end = in.readLong();
        long user = in.readLong();
        long sys = in.readLong();
        int status = in.readInt();
        String message = in.readUTF();
        byte[] d = new byte[in.readInt()];
        in.readFully(d);
        out.add(new Result(command, timed, start, end, user, sys, status, message,
            new String(d, java.nio.charset.StandardCharsets.UTF_8)));
      }
      return new ShellReport(List.copyOf(out));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
