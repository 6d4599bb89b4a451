package blksim.cli;

import blksim.engine.InputException;
import blksim.kernel.blktrace.BlkparseWriter;
import blksim.kernel.device.DeviceParams;
import blksim.workload.scenario.Scenario;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * {@code run --blktrace DIR}: the scenario key that makes the model trace every device
 * ({@code trace.blktrace-dir}), the directory made ready before the run (per-CPU files of an
 * earlier run of the same devices removed, as blktrace overwrites its own), and after it each
 * device's per-CPU files turned into blkparse's default text, {@code DIR/<dev>.blkparse.txt}.
 */
final class BlktraceFiles {
  private BlktraceFiles() {}

  /** The scenario override for {@code dir} (made absolute: partitions may run elsewhere). */
  static String override(Path dir) {
    String abs = dir.toAbsolutePath().normalize().toString();
    return "blksim.trace.blktrace-dir=\"" + abs.replace("\\", "\\\\").replace("\"", "\\\"")
        + "\"";
  }

  /** Makes {@code dir} and removes the per-CPU files its devices' traces will be written to. */
  static void prepare(Path dir, Scenario s) {
    try {
      Files.createDirectories(dir);
      for (DeviceParams d : s.devices()) {
        for (Path p : BlkparseWriter.cpuFiles(dir, d.name())) {
          Files.delete(p);
        }
        Files.deleteIfExists(dir.resolve(d.name() + ".blkparse.txt"));
      }
    } catch (IOException e) {
      throw new InputException(null, 0, "--blktrace", "cannot use directory " + dir + ": "
          + e.getMessage());
    }
  }

  /** Writes each traced device's text; returns the number of devices that had events. */
  static int writeText(Path dir, Scenario s) {
    int n = 0;
    try {
      for (DeviceParams d : s.devices()) {
        List<Path> files = BlkparseWriter.cpuFiles(dir, d.name());
        if (files.isEmpty()) {
          continue;
        }
        Path txt = dir.resolve(d.name() + ".blkparse.txt");
        Path tmp = dir.resolve("." + d.name() + ".blkparse.txt.tmp");
        try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
          BlkparseWriter.write(files, w, d.name());
        }
        Files.move(tmp, txt, StandardCopyOption.REPLACE_EXISTING,
            StandardCopyOption.ATOMIC_MOVE);
        n++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("--blktrace: writing the text into " + dir, e);
    }
    return n;
  }
}
