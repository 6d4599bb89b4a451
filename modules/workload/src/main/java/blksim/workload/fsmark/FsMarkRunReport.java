package blksim.workload.fsmark;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * One fs_mark instance's results as its parent reports them at the end of a run, encoded so that
 * they can cross JVMs: the command line, the iterations, and when the run started and ended in
 * virtual time (fs_mark's elapsed time is {@code endNs - startNs}).
 */
public record FsMarkRunReport(int instance, List<String> argv, List<FsMarkIteration> iterations,
    long startNs, long endNs) {

  /** The run as the reporters take it (the command line parsed again). */
  public FsMarkRunResult result() {
    return new FsMarkRunResult(FsMarkOptions.parse(String.join(" ", argv), null), iterations);
  }

  /** Simulated elapsed time of the whole fs_mark run, ns. */
  public long elapsedNs() {
    return endNs - startNs;
  }

  public byte[] encode() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(instance);
      out.writeInt(argv.size());
      for (String a : argv) {
        out.writeUTF(a);
      }
      out.writeInt(iterations.size());
      for (FsMarkIteration it : iterations) {
        out.writeInt(it.fsUsePercent());
        out.writeLong(it.count());
        out.writeLong(it.sizeBytes());
        FsMarkStats s = it.stats();
        out.writeLong(s.fileCount());
        out.writeFloat(s.filesPerSec());
        out.writeLong(s.appOverheadUsec());
        for (FsMarkStats.SyscallTimes t : List.of(s.creat(), s.write(), s.fsync(), s.sync(),
            s.close(), s.unlink())) {
          out.writeLong(t.minUsec());
          out.writeLong(t.avgUsec());
          out.writeLong(t.maxUsec());
        }
      }
      out.writeLong(startNs);
      out.writeLong(endNs);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  public static FsMarkRunReport decode(byte[] payload) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload))) {
      int instance = in.readInt();
      int na = in.readInt();
      List<String> argv = new ArrayList<>(na);
      for (int i = 0; i < na; i++) {
        argv.add(in.readUTF());
      }
      int ni = in.readInt();
      List<FsMarkIteration> its = new ArrayList<>(ni);
      for (int i = 0; i < ni; i++) {
        int use = in.readInt();
        long count = in.readLong();
        long size = in.readLong();
        long files = in.readLong();
        float fps = in.readFloat();
        long overhead = in.readLong();
        FsMarkStats.SyscallTimes[] t = new FsMarkStats.SyscallTimes[6];
        for (int k = 0; k < 6; k++) {
          t[k] = new FsMarkStats.SyscallTimes(in.readLong(), in.readLong(), in.readLong());
        }
        its.add(new FsMarkIteration(use, count, size, new FsMarkStats(files, fps, overhead, t[0],
            t[1], t[2], t[3], t[4], t[5])));
      }
      return new FsMarkRunReport(instance, argv, its, in.readLong(), in.readLong());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
