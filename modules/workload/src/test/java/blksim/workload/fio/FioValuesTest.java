package blksim.workload.fio;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.workload.fio.FioValues.BadValue;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** fio's value syntax, checked against fio 3.33 ({@code fio --parse-only --debug=parse}). */
class FioValuesTest {
  private static final FioEnvironment ENV = new FioEnvironment(8, 16384, 4096);

  @Test
  void sizeSuffixes_defaultKbBase_kIs1024AndKibIs1000() {
    assertEquals(4096, FioValues.bytes("4k", 1024));
    assertEquals(4096, FioValues.bytes("4K", 1024));
    assertEquals(4096, FioValues.bytes("4kb", 1024));
    assertEquals(4096, FioValues.bytes("4KB", 1024));
    assertEquals(134217728, FioValues.bytes("128m", 1024));
    assertEquals(3L << 30, FioValues.bytes("3g", 1024));
    assertEquals(1L << 40, FioValues.bytes("1t", 1024));
    assertEquals(1L << 50, FioValues.bytes("1p", 1024));
    assertEquals(4000, FioValues.bytes("4kib", 1024));
    assertEquals(4000, FioValues.bytes("4KiB", 1024));
    assertEquals(1_000_000, FioValues.bytes("1MiB", 1024));
    assertEquals(4096, FioValues.bytes("4096b", 1024));
    assertEquals(4096, FioValues.bytes("4096B", 1024));
    assertEquals(512, FioValues.bytes("512", 1024));
  }

  @Test
  void bareIecSuffix_anyKbBase_countsLikeThePlainLetter() {
    // fio's __get_mult_bytes() only knows "kib" etc.; "4ki" falls through to "k" (fio #1618).
    assertEquals(4096, FioValues.bytes("4ki", 1024));
    assertEquals(4000, FioValues.bytes("4ki", 1000));
    assertEquals(1L << 30, FioValues.bytes("1Gi", 1024));
  }

  @Test
  void sizeSuffixes_kbBase1000_followSiAndIec() {
    assertEquals(4000, FioValues.bytes("4k", 1000));
    assertEquals(4000, FioValues.bytes("4kB", 1000));
    assertEquals(4096, FioValues.bytes("4kib", 1000));
    assertEquals(1_048_576, FioValues.bytes("1MiB", 1000));
    assertEquals(1_000_000_000L, FioValues.bytes("1g", 1000));
  }

  @Test
  void hexPrefix_isBase16() {
    assertEquals(16, FioValues.bytes("0x10", 1024));
    assertEquals(0xABCDEF, FioValues.bytes("0XabCdeF", 1024));
  }

  @Test
  void percent_onlyWhereAllowed() {
    assertEquals(new FioValues.Size(20, true), FioValues.size("20%", 1024, true));
    assertEquals(new FioValues.Size(65536, false), FioValues.size("64k", 1024, true));
    assertThrows(BadValue.class, () -> FioValues.size("20%", 1024, false));
  }

  @Test
  void arithmetic_inParentheses_usesFioPrecedence() {
    assertEquals(4096, FioValues.bytes("(4*1024)", 1024));
    assertEquals(4096, FioValues.bytes("( 4 * 1024 )", 1024));
    assertEquals(8192, FioValues.bytes("(2*4k)", 1024));
    assertEquals(4097, FioValues.bytes("(1+4k)", 1024));
    // a unit binds looser than '/': yacc reduces 8/2 first, then applies k
    assertEquals(4096, FioValues.bytes("(8/2k)", 1024));
    assertEquals(1024, FioValues.bytes("(2^10)", 1024));
    assertEquals(30, FioValues.bytes("(10*7%4)", 1024)); // '%' binds tighter than '*'
    assertEquals(1000, FioValues.bytes("(1kib)", 1024));
    assertEquals(1 << 20, FioValues.bytes("(1m)", 1024)); // m is MiB outside times
    assertEquals(1024, FioValues.bytes("(1k)", 1000)); // expressions ignore kb_base
  }

  @Test
  void arithmetic_unitlessResultBeyond32Bits_isRejected() {
    BadValue e = assertThrows(BadValue.class, () -> FioValues.bytes("(4*1024*1024*1024)", 1024));
    assertTrue(e.getMessage().contains("32-bit"), e.getMessage());
    assertEquals(4L << 30, FioValues.bytes("(4g)", 1024));
  }

  @Test
  void malformedNumbers_areRejectedNotTruncated() {
    for (String bad : new String[] {"", "4 k", "4q", "1.5k", "k", "-4k", "2*1024", "4z", "0x10k",
        "(4*", "(4/0)", "(2k", "99999999999999999999"}) {
      assertThrows(BadValue.class, () -> FioValues.bytes(bad, 1024), bad);
    }
  }

  @Test
  void times_defaultUnitDependsOnOption() {
    assertEquals(10_000_000_000L, FioValues.timeNs("10", true)); // runtime: seconds
    assertEquals(10_000L, FioValues.timeNs("10", false)); // thinktime: microseconds
    assertEquals(60_000_000_000L, FioValues.timeNs("1m", true));
    assertEquals(60_000_000_000L, FioValues.timeNs("1m", false));
    assertEquals(500_000_000L, FioValues.timeNs("500ms", true));
    assertEquals(500_000_000L, FioValues.timeNs("500msec", false));
    assertEquals(250_000L, FioValues.timeNs("250us", true));
    assertEquals(2_000_000_000L, FioValues.timeNs("2S", false));
    assertEquals(3_600_000_000_000L, FioValues.timeNs("1h", true));
    assertEquals(86_400_000_000_000L, FioValues.timeNs("1d", true));
  }

  @Test
  void times_inParentheses_areMicrosecondsButSecondsOptionsKeepWholeSeconds() {
    assertEquals(120_000_000_000L, FioValues.timeNs("(2*60)", true));
    assertEquals(90_000_000_000L, FioValues.timeNs("(1m+30s)", true));
    assertEquals(1_000_000_000L, FioValues.timeNs("(1500ms)", true)); // fio truncates to 1 s
    assertEquals(10_000L, FioValues.timeNs("(5*2)", false));
    assertEquals(1_000_000L, FioValues.timeNs("(1ms)", false));
  }

  @Test
  void times_malformed_areRejected() {
    for (String bad : new String[] {"", "1.5s", "-1", "10 s", "5min", "1x"}) {
      assertThrows(BadValue.class, () -> FioValues.timeNs(bad, true), bad);
    }
    BadValue sec = assertThrows(BadValue.class, () -> FioValues.timeNs("10sec", true));
    assertTrue(sec.getMessage().contains("'sec'"), sec.getMessage());
  }

  @Test
  void percentiles_parseAndLimit() {
    assertArrayEquals(new double[] {50, 99.9, .5}, FioValues.percentiles("50:99.9:.5"));
    assertThrows(BadValue.class, () -> FioValues.percentiles("0:50"));
    assertThrows(BadValue.class, () -> FioValues.percentiles("50:100.1"));
    assertThrows(BadValue.class, () -> FioValues.percentiles("50::60"));
    String twenty = "1:2:3:4:5:6:7:8:9:10:11:12:13:14:15:16:17:18:19:20";
    assertEquals(20, FioValues.percentiles(twenty).length);
    assertThrows(BadValue.class, () -> FioValues.percentiles(twenty + ":21"));
  }

  @Test
  void substitute_expandsEnvVarsEmptyWhenUnset() {
    Map<String, String> vars = Map.of("SIZE", "64m", "DEV", "nullb0");
    assertEquals("64m", FioValues.substitute("${SIZE}", vars, ENV));
    assertEquals("/dev/nullb0", FioValues.substitute("/dev/${DEV}", vars, ENV));
    assertEquals("x-", FioValues.substitute("x-${NOPE}", vars, ENV));
    assertEquals("${OPEN", FioValues.substitute("${OPEN", vars, ENV));
  }

  @Test
  void substitute_keywordsComeFromTheSimulatedMachineAndBcDoesTheMath() {
    assertEquals("8", FioValues.substitute("$ncpus", Map.of(), ENV));
    assertEquals("16384", FioValues.substitute("$mb_memory", Map.of(), ENV));
    assertEquals("4096", FioValues.substitute("$pagesize", Map.of(), ENV));
    assertEquals("16", FioValues.substitute("2*$ncpus", Map.of(), ENV));
    assertEquals("1638400000", FioValues.substitute("10*10*1000*$mb_memory", Map.of(), ENV));
    assertEquals("2", FioValues.substitute("$ncpus/3", Map.of(), ENV)); // bc truncates
    // no keyword, no bc: the text stays as written (and a numeric option then rejects it)
    assertEquals("2+3*4", FioValues.substitute("2+3*4", Map.of(), ENV));
    assertEquals("20", FioValues.substitute("(2+3)*$pagesize/1024", Map.of(), ENV));
    assertEquals("16", FioValues.substitute("${N}*$ncpus", Map.of("N", "2"), ENV));
  }
}
