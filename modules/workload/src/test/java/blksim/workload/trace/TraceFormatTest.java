package blksim.workload.trace;

import static blksim.workload.trace.TraceTestFiles.readAll;
import static blksim.workload.trace.TraceTestFiles.resource;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.InputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Recognition of each format from content, gzip by magic, refusal of non-traces. */
class TraceFormatTest {

  @ParameterizedTest
  @CsvSource({
    "iolog-v2.log, FIO_IOLOG", "iolog-v3.log, FIO_IOLOG", "blkparse-q.txt, BLKPARSE",
    "blkparse-dc.txt, BLKPARSE", "blkparse-c.txt, BLKPARSE", "msr.csv, MSR", "spc.spc, SPC",
    "alibaba.csv, ALIBABA", "tencent.csv, TENCENT", "systor.csv, SYSTOR",
    "disksim.trace, DISKSIM"})
  void sample_isDetectedFromContent(String name, TraceFormat expected, @TempDir Path dir)
      throws IOException {
    assertEquals(expected, TraceFormat.detect(resource(name)));
    // The same content under a neutral name, and gzip-compressed under a name without .gz:
    Path plain = Files.copy(resource(name), dir.resolve("data"));
    assertEquals(expected, TraceFormat.detect(plain));
    Path gz = TraceTestFiles.gzip(resource(name), dir.resolve("data2"));
    assertEquals(expected, TraceFormat.detect(gz));
    assertEquals(readAll(resource(name)).size(), readAll(gz).size());
  }

  @Test
  void gzipped_recordsEqualThePlainOnes(@TempDir Path dir) throws IOException {
    Path gz = TraceTestFiles.gzip(resource("msr.csv"), dir.resolve("hm_0.csv.gz"));
    List<TraceRecord> plain = readAll(resource("msr.csv"));
    assertEquals(plain, readAll(gz));
  }

  @Test
  void headerlessSystorAndHeadedTencent_areDetectedByShape(@TempDir Path dir)
      throws IOException {
    Path s = dir.resolve("s");
    Files.writeString(s, "1487894400.5,0.001,R,1,4096,512\n");
    assertEquals(TraceFormat.SYSTOR, TraceFormat.detect(s));
    Path t = dir.resolve("t");
    Files.writeString(t, "Timestamp,Offset,Size,IOType,VolumeID\n1538323199,8,8,0,5\n");
    assertEquals(TraceFormat.TENCENT, TraceFormat.detect(t));
    assertEquals(1, readAll(t).size());
  }

  @Test
  void notATrace_isRefusedNamingFileAndExpectation(@TempDir Path dir) throws IOException {
    Path p = dir.resolve("notes.txt");
    Files.writeString(p, "hello, world\n");
    InputException e = assertThrows(InputException.class, () -> TraceFormat.detect(p));
    assertEquals(p.toString(), e.file());
    assertTrue(e.getMessage().startsWith(p + ": is not a trace in any supported format: expected"
        + " a fio iolog ('fio version 2 iolog'"), e.getMessage());
    assertTrue(e.getMessage().endsWith("its first line is 'hello, world'"), e.getMessage());
    assertThrows(InputException.class, () -> TraceFormat.open(p, null));
  }

  @Test
  void emptyOrMissingFile_isRefused(@TempDir Path dir) throws IOException {
    Path empty = Files.createFile(dir.resolve("empty"));
    InputException e = assertThrows(InputException.class, () -> TraceFormat.detect(empty));
    assertTrue(e.getMessage().startsWith(empty + ": is empty: expected"), e.getMessage());
    Path missing = dir.resolve("missing");
    assertEquals(missing + ": file not found",
        assertThrows(InputException.class, () -> TraceFormat.detect(missing)).getMessage());
  }

  @Test
  void brokenGzip_isRefused(@TempDir Path dir) throws IOException {
    Path p = dir.resolve("x");
    Files.write(p, new byte[] {0x1f, (byte) 0x8b, 0, 0, 0});
    InputException e = assertThrows(InputException.class, () -> TraceFormat.detect(p));
    assertTrue(e.getMessage().startsWith(p + ": "), e.getMessage());
  }

  @Test
  void keys_roundTrip() {
    for (TraceFormat f : TraceFormat.values()) {
      assertEquals(f, TraceFormat.ofKey(f.key()));
    }
    assertEquals(TraceFormat.FIO_IOLOG, TraceFormat.ofKey("fio-iolog"));
  }
}
