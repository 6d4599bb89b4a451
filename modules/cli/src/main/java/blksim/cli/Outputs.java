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
  /** Extensions that make a new {@code --output} path a file ({@link #isFile}). */
  static final List<String> FILE_EXTENSIONS = List.of("json", "txt", "log", "out", "csv",
      "terse");

  /**
   * Whether {@code --output PATH} names a file, as fio's {@code --output} always does, rather
   * than blksim's directory: an existing regular file, or a path that does not exist and whose
   * name ends in one of {@link #FILE_EXTENSIONS} ({@code res.json}, {@code out.txt}; a new
   * {@code run-1.5} or {@code job.fio} is still a directory).
   */
  static boolean isFile(Path path) {
    if (Files.isRegularFile(path)) {
      return true;
    }
    if (Files.exists(path) || path.getFileName() == null) {
      return false;
    }
    String name = path.getFileName().toString();
    int dot = name.lastIndexOf('.');
    return dot > 0 && FILE_EXTENSIONS.contains(
        name.substring(dot + 1).toLowerCase(java.util.Locale.ROOT));
  }

  /** Refuses, before anything runs, an output file whose directory is missing or read-only. */
  static void checkFile(Path file, String option) {
    Path parent = file.toAbsolutePath().normalize().getParent();
    if (parent == null || !Files.isDirectory(parent)) {
      throw new InputException(null, 0, option, "cannot write " + file + ": " + parent
          + " is not a directory");
    }
    checkDir(parent, option);
  }

  /** Writes {@code text} into {@code file} atomically (a temporary file moved over it). */
  static void writeFile(Path file, String text) throws IOException {
    Path parent = file.toAbsolutePath().normalize().getParent();
    Path tmp = Files.createTempFile(parent, "." + file.getFileName(), ".tmp");
    try {
      Files.writeString(tmp, text, StandardCharsets.UTF_8);
      readableByAll(tmp);
      moveOver(tmp, file);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /** Moves {@code tmp} over {@code target}, atomically where the file system can. */
  private static void moveOver(Path tmp, Path target) throws IOException {
    try {
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
    }
  }

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
        moveOver(temps.get(i), dir.resolve(files.get(i).name()));
      }
    } finally {
      for (Path t : temps) {
        Files.deleteIfExists(t);
      }
    }
  }
}
