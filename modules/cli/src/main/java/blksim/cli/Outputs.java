package blksim.cli;

import blksim.engine.InputException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes result files atomically: each file is written to a temporary name in the target
 * directory and moved into place only when all of them were written, so a failed run never
 * leaves a half-written result.
 */
final class Outputs {
  private Outputs() {}

  /** A file to write: its name in the output directory and its text. */
  record File(String name, String text) {}

  /**
   * Temporary files are created owner-only (0600); a result file is an ordinary file, so it gets
   * 0644 like one written by a shell with the usual umask.
   */
  private static void readableByAll(Path p) throws IOException {
    if (p.getFileSystem().supportedFileAttributeViews().contains("posix")) {
      Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-r--r--"));
    }
  }

  /**
   * Refuses, before a run, an output directory that cannot be made: a path that is a file, or one
   * whose nearest existing ancestor is not a writable directory.
   */
  static void checkDir(Path dir, String option) {
    Path abs = dir.toAbsolutePath().normalize();
    if (Files.exists(abs) && !Files.isDirectory(abs)) {
      throw new InputException(null, 0, option, dir + " exists and is not a directory");
    }
    Path p = abs;
    while (p != null && !Files.exists(p)) {
      p = p.getParent();
    }
    if (p == null || !Files.isDirectory(p)) {
      throw new InputException(null, 0, option, "cannot create " + dir + ": " + p
          + " is not a directory");
    }
    if (!Files.isWritable(p)) {
      throw new InputException(null, 0, option, "cannot create " + dir + ": " + p
          + " is not writable");
    }
    // Permission bits do not tell everything (/proc, a read-only mount): try a file there.
    try {
      Files.delete(Files.createTempFile(p, ".blksim-probe", ".tmp"));
    } catch (IOException | UnsupportedOperationException e) {
      throw new InputException(null, 0, option, "cannot create " + dir + ": cannot write in "
          + p + " (" + e.getMessage() + ")");
    }
  }

  static void writeAll(Path dir, List<File> files) throws IOException {
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      throw new InputException(null, 0, "--output", dir + " exists and is not a directory");
    }
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new InputException(null, 0, "--output", "cannot create " + dir + ": " + e);
    }
    List<Path> temps = new ArrayList<>();
    try {
      for (File f : files) {
        Path tmp = Files.createTempFile(dir, "." + f.name(), ".tmp");
        temps.add(tmp);
        Files.writeString(tmp, f.text(), StandardCharsets.UTF_8);
        readableByAll(tmp);
      }
      for (int i = 0; i < files.size(); i++) {
        Path target = dir.resolve(files.get(i).name());
        try {
          Files.move(temps.get(i), target, StandardCopyOption.ATOMIC_MOVE,
              StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
          Files.move(temps.get(i), target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    } finally {
      for (Path t : temps) {
        Files.deleteIfExists(t);
      }
    }
  }
}
