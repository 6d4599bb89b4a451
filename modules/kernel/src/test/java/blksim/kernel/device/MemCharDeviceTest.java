package blksim.kernel.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** drivers/char/mem.c's /dev/null and /dev/zero: what a read or write returns and costs. */
class MemCharDeviceTest {
  @Test
  void nullIsEndOfFile_zeroFillsPerPage_writesAreDiscarded() {
    assertEquals(MemCharDevice.NULL, MemCharDevice.of("/dev/null"));
    assertEquals(MemCharDevice.ZERO, MemCharDevice.of("/dev/zero"));
    assertNull(MemCharDevice.of("/dev/nullb0"));
    assertNull(MemCharDevice.of("null"));
    assertEquals(0, MemCharDevice.NULL.readBytes(4096));
    assertEquals(4096, MemCharDevice.ZERO.readBytes(4096));
    assertEquals(65536, MemCharDevice.NULL.writeBytes(65536));
    assertEquals(65536, MemCharDevice.ZERO.writeBytes(65536));
    // read_iter_zero(): one clear_user() per started page.
    assertEquals(400, MemCharDevice.ZERO.iterNs(true, 4096, 400));
    assertEquals(800, MemCharDevice.ZERO.iterNs(true, 4097, 400));
    assertEquals(16 * 400, MemCharDevice.ZERO.iterNs(true, 65536, 400));
    assertEquals(0, MemCharDevice.ZERO.iterNs(false, 65536, 400));
    assertEquals(0, MemCharDevice.NULL.iterNs(true, 65536, 400));
  }
}
