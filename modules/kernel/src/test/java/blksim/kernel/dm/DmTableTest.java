package blksim.kernel.dm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.kernel.device.BrdParams;
import blksim.kernel.device.DeviceParams;
import blksim.kernel.device.IrqMode;
import blksim.kernel.device.NullBlkParams;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DmTableTest {
  static final long GIB = 1L << 30;

  static DmTableException bad(String table) {
    return assertThrows(DmTableException.class, () -> DmTable.parse(table));
  }

  @Test
  void parse_theExperimentsTables() {
    DmTable zero = DmTable.parse("0 2097152 zero");
    assertEquals(1, zero.entries().size());
    assertEquals(new DmTargetArgs.Zero(), zero.entries().get(0).args());
    assertEquals(GIB, zero.sizeBytes());
    assertEquals(List.of(), zero.underlyingDevices());

    DmTable delay = DmTable.parse("0 2097152 delay /dev/mapper/dm-zeros 0 1");
    DmTargetArgs.Delay d = (DmTargetArgs.Delay) delay.entries().get(0).args();
    assertEquals(new DmTargetArgs.DelayClassArgs("/dev/mapper/dm-zeros", 0, 1), d.read());
    assertEquals(d.read(), d.write(), "3 arguments: every class uses the first set");
    assertEquals(d.read(), d.flush());
    assertEquals(3, d.argc());
    assertEquals(List.of("dm-zeros"), delay.underlyingDevices());
    assertEquals("0 2097152 delay /dev/mapper/dm-zeros 0 1\n", delay.toString());
  }

  @Test
  void parse_delayWith6And9Arguments_setsTheClasses() {
    DmTargetArgs.Delay six = (DmTargetArgs.Delay) DmTable.parse(
        "0 100 delay /dev/a 10 5 /dev/b 20 7").entries().get(0).args();
    assertEquals(new DmTargetArgs.DelayClassArgs("/dev/a", 10, 5), six.read());
    assertEquals(new DmTargetArgs.DelayClassArgs("/dev/b", 20, 7), six.write());
    assertEquals(six.write(), six.flush(), "6 arguments: flushes use the write set");
    assertEquals(7, six.maxDelayMs());
    assertEquals(5, six.minNonZeroDelayMs());

    DmTargetArgs.Delay nine = (DmTargetArgs.Delay) DmTable.parse(
        "0 100 delay a 0 0 b 0 60 c 0 3").entries().get(0).args();
    assertEquals(new DmTargetArgs.DelayClassArgs("c", 0, 3), nine.flush());
    assertEquals(60, nine.maxDelayMs());
    assertEquals(3, nine.minNonZeroDelayMs(), "zero delays do not count as the minimum");
    assertEquals("0 100 delay a 0 0 b 0 60 c 0 3\n", DmTable.parse(
        "0 100 delay a 0 0 b 0 60 c 0 3").toString());
  }

  @Test
  void parse_severalLines_commentsAndBlankLines() {
    DmTable t = DmTable.parse("# two halves\n\n0 1000 linear /dev/nullb0 0\n"
        + "  1000   24\tlinear /dev/nullb0 5000  \n1024 1024 zero\n");
    assertEquals(3, t.entries().size());
    assertEquals(3, t.entries().get(0).line(), "line numbers count comment and blank lines");
    assertEquals(new DmTargetArgs.Linear("/dev/nullb0", 5000), t.entries().get(1).args());
    assertEquals(1000, t.entries().get(1).beginSectors());
    assertEquals(2048, t.lengthSectors());
    assertEquals(List.of("nullb0"), t.underlyingDevices());
  }

  @Test
  void parse_badLines_nameTheLineAndField() {
    DmTableException e = bad("0 100 zero\n100 0 zero");
    assertEquals(2, e.line());
    assertEquals("len", e.field());
    assertEquals("table line 2, len: must be a positive number of sectors (zero-length"
        + " target), was 0", e.getMessage());

    e = bad("0 100 zero\n101 10 zero");
    assertEquals("start", e.field());
    assertEquals("table line 2, start: must be 100, where the previous line ends (a table has"
        + " no gaps), was 101", e.getMessage());

    e = bad("8 100 zero");
    assertEquals("table line 1, start: must be 0, where the table begins (the first target"
        + " starts at sector 0), was 8", e.getMessage());

    e = bad("0 100 stripe a 0");
    assertEquals("target", e.field());
    assertEquals("table line 1, target: unknown target type 'stripe'; known types: linear,"
        + " zero, delay, zoned", e.getMessage());

    e = bad("0 100");
    assertEquals("target", e.field());
    e = bad("0 1x zero");
    assertEquals("table line 1, len: must be a positive number of sectors (an integer in [0, "
        + DmTargetArgs.MAX_SECTOR + "]), was '1x'", e.getMessage());
    e = bad("-1 10 zero");
    assertEquals("start", e.field());

    e = bad("0 100 linear /dev/a");
    assertEquals("table line 1, args: linear needs exactly 2 arguments, <dev> <offset>, got 1",
        e.getMessage());
    e = bad("0 100 linear /dev/a 1.5");
    assertEquals("offset", e.field());
    e = bad("0 100 zero x");
    assertEquals("args", e.field());
    e = bad("0 100 delay /dev/a 0 1 /dev/b");
    assertTrue(e.getMessage().contains("delay needs exactly 3, 6 or 9 arguments"),
        e.getMessage());
    assertTrue(e.getMessage().endsWith("got 4"), e.getMessage());
    e = bad("0 100 delay /dev/a 0 1 /dev/b 0 2ms");
    assertEquals(1, e.line());
    assertEquals("write delay", e.field());
    assertEquals("table line 1, write delay: must be a whole number of milliseconds in [0,"
        + " 4294967295], was '2ms'", e.getMessage());
    e = bad("0 100 delay /dev/a 0 1 /dev/b 0 2 /dev/c x 3");
    assertEquals("flush offset", e.field());
    e = bad("0 100 delay /dev/a 0 4294967296");
    assertEquals("delay", e.field());
    e = bad("0 100 linear 253:0 0");
    assertEquals("device", e.field());
    assertTrue(e.getMessage().contains("major:minor"), e.getMessage());

    assertEquals("table", bad("").field());
    assertEquals("table", bad("# nothing\n\n").field());
  }

  @Test
  void deviceName_acceptsMapperDevAndBareNames() {
    assertEquals("dm-zeros", DmTable.deviceName("/dev/mapper/dm-zeros"));
    assertEquals("nullb0", DmTable.deviceName("/dev/nullb0"));
    assertEquals("ram0", DmTable.deviceName("ram0"));
    assertThrows(IllegalArgumentException.class, () -> DmTable.deviceName("/dev/disk/by-id/x"));
  }

  static DeviceParams nullb(String name, long bytes, int bs) {
    return new NullBlkParams(name, bytes, bs, 64, IrqMode.NONE, 0, 100, 100);
  }

  @Test
  void checkDevices_missingAndTooSmallDevicesAreTableErrors() {
    Map<String, DeviceParams> devs = Map.of("nullb0", nullb("nullb0", 1 << 20, 512));
    DmTable ok = DmTable.parse("0 1024 linear /dev/nullb0 1024");
    ok.checkDevices(devs::get);

    DmTableException e = assertThrows(DmTableException.class,
        () -> DmTable.parse("0 1024 linear /dev/nullb0 1025").checkDevices(devs::get));
    assertEquals("table line 1, device: nullb0 too small for target: start=1025, len=1024,"
        + " dev_size=2048", e.getMessage());
    e = assertThrows(DmTableException.class, () -> DmTable.parse(
        "0 8 zero\n8 8 delay /dev/nullb0 0 1 /dev/mapper/later 0 1").checkDevices(devs::get));
    assertEquals(2, e.line());
    assertEquals("write device", e.field());
    assertTrue(e.getMessage().contains("no device 'later'"), e.getMessage());
  }

  @Test
  void dmParams_of_takesTheLargestBlockSizeAndRefusesItself() {
    Map<String, DeviceParams> devs = Map.of("a", nullb("a", 1 << 20, 512),
        "b", nullb("b", 1 << 20, 4096));
    DmParams p = DmParams.of("mix", "0 8 linear a 0\n8 8 linear /dev/b 0",
        DmParams.DEFAULT_DELAY_VERSION, 0, DmCostParams.DEFAULTS, devs::get);
    assertEquals(4096, p.blockSize());
    assertEquals(16 * 512, p.sizeBytes());
    assertEquals(512, DmParams.of("z", "0 8 zero", DelayVersion.V6_7, 0, DmCostParams.DEFAULTS,
        devs::get).blockSize());
    DmTableException e = assertThrows(DmTableException.class, () -> DmParams.of("self",
        "0 8 linear /dev/mapper/self 0", DelayVersion.V6_7, 0, DmCostParams.DEFAULTS,
        n -> BrdParams.defaults(n, 1 << 20)));
    assertTrue(e.getMessage().contains("no device 'self'"), e.getMessage());
    IllegalArgumentException ie = assertThrows(IllegalArgumentException.class,
        () -> new DmParams("d", DmTable.parse("0 8 zero"), 512, DelayVersion.V6_7, -1,
            DmCostParams.DEFAULTS));
    assertEquals("pollBatchNs must be in [0, 1000000000] ns, was -1", ie.getMessage());
    assertFalse(p.table().entries().isEmpty());
  }

  @Test
  void dmParams_genericNewQueue_refusesBecauseItNeedsItsDevices() {
    DmParams p = new DmParams("z", DmTable.parse("0 8 zero"), 512, DelayVersion.V6_7, 0,
        DmCostParams.DEFAULTS);
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> p.newQueue(null, null, new java.util.SplittableRandom(1)));
    assertTrue(e.getMessage().contains("newQueue(cpu, blockLayer, timers, devices)"),
        e.getMessage());
  }

  @Test
  void costParams_rejectBadValuesNamingTheField() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new DmCostParams(-1, 0, 0, 0, 0, 1, 0, 0, 0));
    assertEquals("coreNs must be in [0, 1000000000] ns, was -1", e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> new DmCostParams(0, 0, 0, 0, 0, 0, 0, 0, 0));
    assertTrue(e.getMessage().startsWith("delayPollNs must be > 0"), e.getMessage());
  }
}
