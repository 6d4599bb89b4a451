package blksim.workload.trace;

import blksim.engine.InputException;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * Opens trace files: gzip is recognised by its magic bytes ({@code 1f 8b}, RFC 1952), never by the
 * file name, and decompressed on the fly; concatenated gzip members are read as one stream.
 */
final class TraceInput {
  private static final int BUFFER_BYTES = 1 << 16;

  private TraceInput() {}

  /** Opens {@code path}, decompressing it when it starts with the gzip magic. */
  static InputStream open(Path path) {
    try {
      InputStream in = new BufferedInputStream(Files.newInputStream(path), BUFFER_BYTES);
      in.mark(2);
      int b0 = in.read();
      int b1 = in.read();
      in.reset();
      if (b0 == 0x1f && b1 == 0x8b) {
        in = new BufferedInputStream(new GZIPInputStream(in, BUFFER_BYTES), BUFFER_BYTES);
      }
      return in;
    } catch (NoSuchFileException e) {
      throw new InputException(path.toString(), 0, null, "file not found");
    } catch (ZipException e) {
      throw new InputException(path.toString(), 0, null,
          "starts like gzip but is not a valid gzip stream: " + e.getMessage());
    } catch (IOException e) {
      throw new InputException(path.toString(), 0, null, "cannot be read: " + e);
    }
  }

  /** Reads up to {@code n} bytes from the (decompressed) start of {@code path}. */
  static byte[] head(Path path, int n) {
    try (InputStream in = open(path)) {
      return in.readNBytes(n);
    } catch (IOException e) {
      throw readError(path.toString(), e);
    }
  }

  /** The exception for an I/O error while reading {@code file}. */
  static InputException readError(String file, IOException e) {
    if (e instanceof ZipException || e instanceof java.io.EOFException) {
      return new InputException(file, 0, null, "compressed data is corrupt or truncated: " + e);
    }
    return new InputException(file, 0, null, "cannot be read: " + e);
  }

  /** Closes {@code in}, ignoring errors (the data has been read or an error is on its way). */
  static void closeQuietly(AutoCloseable in) {
    try {
      in.close();
    } catch (Exception ignored) {
      // Nothing left to read; a failure to close a read-only input loses nothing.
    }
  }
}
