package blksim.workload.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.InputException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The byte-level line and field splitting of the replay's hot path against the text-level
 * definitions they replace: lines of the UTF-8 decoded text cut at {@code \n} with one trailing
 * {@code \r} removed, fields cut at blanks, integers parsed from the decoded field.
 */
class LineSourceTest {
  /** The lines of {@code bytes} as a text-level reader sees them (decode, then cut). */
  private static List<String> referenceLines(byte[] bytes) throws IOException {
    StringBuilder all = new StringBuilder();
    try (Reader r = new InputStreamReader(new ByteArrayInputStream(bytes),
        StandardCharsets.UTF_8)) {
      char[] b = new char[4096];
      int n;
      while ((n = r.read(b)) > 0) {
        all.append(b, 0, n);
      }
    }
    List<String> out = new ArrayList<>();
    int start = 0;
    for (int i = 0; i <= all.length(); i++) {
      if (i == all.length() || all.charAt(i) == '\n') {
        if (i == all.length() && start == i) {
          break; // no final line after a last newline
        }
        String s = all.substring(start, i);
        out.add(s.endsWith("\r") ? s.substring(0, s.length() - 1) : s);
        start = i + 1;
      }
    }
    return out;
  }

  private static final String[] PIECES = {"read", "write", "/dev/sdb", " ", "\t", "  ", "0",
      "4096", "00000000000000000000012", "18446744073709551616", "\r", "é", "€", "😀", "x",
      "-1", "\u000b", "\f", "\u2003"};

  private static byte[] randomText(SplittableRandom rnd, int lines, int maxPieces) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int l = 0; l < lines; l++) {
      int n = rnd.nextInt(maxPieces + 1);
      for (int k = 0; k < n; k++) {
        if (rnd.nextInt(50) == 0) {
          out.write(0x80 | rnd.nextInt(0x80)); // an invalid byte: U+FFFD
        } else {
          out.writeBytes(PIECES[rnd.nextInt(PIECES.length)].getBytes(StandardCharsets.UTF_8));
        }
      }
      if (l < lines - 1 || rnd.nextBoolean()) {
        out.write('\n');
      }
    }
    return out.toByteArray();
  }

  @Test
  void lines_sameAsTheDecodedTextCutAtNewlines_acrossBufferEnds() throws IOException {
    SplittableRandom rnd = new SplittableRandom(11);
    for (int round = 0; round < 6; round++) {
      // Long enough to cross the 64 KiB buffer several times, lines up to ~2 KiB.
      byte[] text = randomText(rnd, 2_000, round % 2 == 0 ? 12 : 300);
      List<String> want = referenceLines(text);
      LineSource src = new LineSource("t", new ByteArrayInputStream(text));
      for (int i = 0; i < want.size(); i++) {
        assertTrue(src.nextLine(), "line " + (i + 1));
        assertEquals(want.get(i), src.string(), "line " + (i + 1));
        assertEquals(want.get(i).isBlank(), src.blank(), "blank, line " + (i + 1));
        assertEquals(i + 1, src.lineNo());
      }
      assertNull(src.next());
    }
  }

  @Test
  void fields_bytesSplitAndParseLikeTheText() throws IOException {
    SplittableRandom rnd = new SplittableRandom(12);
    byte[] text = randomText(rnd, 5_000, 8);
    LineSource src = new LineSource("t", new ByteArrayInputStream(text));
    Fields byBytes = new Fields("t");
    Fields byText = new Fields("t");
    while (src.nextLine()) {
      String line = src.string();
      byBytes.splitBlanks(src.bytes(), src.start(), src.end(), src.lineNo());
      byText.splitBlanks(line, src.lineNo());
      assertEquals(byText.count(), byBytes.count(), line);
      for (int i = 0; i < byText.count(); i++) {
        assertEquals(byText.get(i), byBytes.get(i), line);
        for (String a : new String[] {"read", "write", "4096"}) {
          assertEquals(byText.get(i).equals(a), byBytes.equalsAscii(i, a), line);
        }
        assertEquals(byText.get(i).equals("/dev/sdb") ? "/dev/sdb" : byText.get(i),
            byBytes.getOr(i, "/dev/sdb"), line);
        assertEquals(outcome(byText, i), outcome(byBytes, i), line);
      }
    }
  }

  private static String outcome(Fields f, int i) {
    try {
      return "value " + f.nonNegativeLong(i, "offset");
    } catch (InputException e) {
      return "error " + e.getMessage();
    }
  }

  @Test
  void fioIolog_onePassShape_sameRecordsAsFieldByField(@org.junit.jupiter.api.io.TempDir
      java.nio.file.Path dir) throws IOException {
    String[] shapes = {"%d /dev/sdb read %d 4096", "%d /dev/sdb write %d 4096",
        "%d  /dev/sdb read %d 4096", "%d\t/dev/sdb write %d 4096", "%d /dev/sdb read %d 4096 ",
        "%d /dev/sdb read %d 4096 extra", "%d /dev/sdc read %d 4096", "%d /dev/sdb trim %d 512",
        "%d /dev/sdb read 0000000000000000000%d 8", "%d /dev/sdb write %d 1234567890123456",
        "%d /dev/sd read %d 1", "%d /dev/sdbx read %d 1", "%d /dev/sdb sync %d 0",
        "0%d /dev/sdb read %d 4096", "%d /dev/sdb read %d 4096\r", " %d /dev/sdb read %d 1",
        "%d /dev/sdb readx %d 1", "%d /dev/sdb close", "%d /dev/sdb open"};
    for (int version : new int[] {2, 3}) {
      SplittableRandom rnd = new SplittableRandom(version);
      StringBuilder text = new StringBuilder("fio version " + version + " iolog\n");
      text.append(version == 3 ? "0 " : "").append("/dev/sdb add\n");
      for (int i = 0; i < 3_000; i++) {
        String line = String.format(java.util.Locale.ROOT, shapes[rnd.nextInt(shapes.length)],
            rnd.nextLong(1L << 40), rnd.nextLong(1L << 45));
        if (version == 2) {
          line = line.substring(line.indexOf(' ') + 1).stripLeading(); // no time
        }
        text.append(line).append('\n');
      }
      java.nio.file.Path f = dir.resolve("v" + version + ".log");
      java.nio.file.Files.writeString(f, text);
      List<String> lines = referenceLines(text.toString().getBytes(StandardCharsets.UTF_8));
      try (FioIologTraceReader fast = new FioIologTraceReader(f);
          FioIologTraceReader slow = new FioIologTraceReader(f)) {
        assertEquals(fast.next(), slow.next()); // the header and the add
        for (int i = 2; i < lines.size(); i++) {
          String line = lines.get(i);
          assertEquals(recordOrError(() -> slow.parse(line, 0)),
              recordOrError(fast::next).replaceAll(", line=[0-9]+\\]", ", line=0]"), line);
        }
      }
    }
  }

  private static String recordOrError(java.util.function.Supplier<TraceRecord> s) {
    try {
      return String.valueOf(s.get());
    } catch (InputException e) {
      return "error " + e.rule();
    }
  }

  @Test
  void parseUnsigned_bytesLikeText() {
    for (String s : new String[] {"", "0", "9223372036854775807", "9223372036854775808",
        "00000000000000000000000000009223372036854775807", "000000000000000000000000",
        "12345678901234567890", "1x", "+1", "0000000000000000000001x"}) {
      byte[] b = ("  " + s + " ").getBytes(StandardCharsets.US_ASCII);
      assertEquals(Fields.parseUnsigned(s), Fields.parseUnsigned(b, 2, 2 + s.length()), s);
    }
  }

  @Test
  void tooLongLine_refusedWithItsNumber_evenWhenItCrossesTheBuffer() {
    byte[] head = "ok\n".getBytes(StandardCharsets.US_ASCII);
    byte[] text = new byte[head.length + LineSource.MAX_LINE_CHARS + 10];
    System.arraycopy(head, 0, text, 0, head.length);
    java.util.Arrays.fill(text, head.length, text.length, (byte) 'a');
    LineSource src = new LineSource("t", new ByteArrayInputStream(text));
    assertEquals("ok", src.next());
    InputException e = assertThrows(InputException.class, src::nextLine);
    assertEquals(2, e.line());
    assertTrue(e.getMessage().contains("longer than " + LineSource.MAX_LINE_CHARS), e.getMessage());
  }

  @Test
  void lineOfMaxCharsInMultiByteText_accepted() {
    // 65,536 chars of 3 bytes each: more bytes than the limit, not more chars.
    String s = "€".repeat(LineSource.MAX_LINE_CHARS);
    byte[] text = (s + "\nnext\n").getBytes(StandardCharsets.UTF_8);
    LineSource src = new LineSource("t", new ByteArrayInputStream(text));
    assertEquals(s, src.next());
    assertEquals("next", src.next());
    assertNull(src.next());
  }
}
