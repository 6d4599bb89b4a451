package blksim.workload.trace;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;

/** Sample files and helpers shared by the trace tests. */
final class TraceTestFiles {
  private TraceTestFiles() {}

  /** The test resource {@code trace/name}. */
  static Path resource(String name) {
    try {
      return Path.of(TraceTestFiles.class.getResource("/trace/" + name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Every record of {@code path}. */
  static List<TraceRecord> readAll(Path path, TraceFormat format, TraceOptions options) {
    List<TraceRecord> out = new ArrayList<>();
    try (TraceReader r = TraceFormat.open(path, format, options)) {
      TraceRecord rec;
      while ((rec = r.next()) != null) {
        out.add(rec);
      }
    }
    return out;
  }

  /** Every record of {@code path}, format detected, default options. */
  static List<TraceRecord> readAll(Path path) {
    return readAll(path, null, TraceOptions.defaults());
  }

  /** Writes {@code source} gzip-compressed to {@code target}. */
  static Path gzip(Path source, Path target) throws IOException {
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(target))) {
      Files.copy(source, out);
    }
    return target;
  }
}
