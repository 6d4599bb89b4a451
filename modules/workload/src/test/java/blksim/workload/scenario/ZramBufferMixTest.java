package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.InputException;
import blksim.kernel.device.ZramParams;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 10 item 5: fio's buffer_compress_percentage sets the page mix of a zram it writes. */
class ZramBufferMixTest {
  @TempDir Path dir;

  @Test
  void mix_followsFiosFill() {
    assertArrayEquals(new double[] {1, 0}, ZramBufferMix.mix(100, 512, 4096, 4096, false),
        "zero_buffers: every page same-filled");
    assertArrayEquals(new double[] {0, 0}, ZramBufferMix.mix(100, 512, 4096, 4096, true),
        "a pattern instead of zeros: compressed");
    assertArrayEquals(new double[] {0, 1}, ZramBufferMix.mix(0, 512, 4096, 4096, false),
        "all random: huge");
    assertArrayEquals(new double[] {0, 0}, ZramBufferMix.mix(50, 512, 8192, 8192, false),
        "half random in every 512-byte chunk: compressed");
    assertArrayEquals(new double[] {0, 1}, ZramBufferMix.mix(20, 512, 4096, 4096, false),
        "80 % random: 3,276 + 64 bytes >= huge_class_size");
    assertArrayEquals(new double[] {0, 0}, ZramBufferMix.mix(25, 512, 4096, 4096, false));
    assertArrayEquals(new double[] {0.5, 0.5}, ZramBufferMix.mix(50, 65536, 65536, 65536, false),
        "64 KiB chunks: the first 8 pages random, the last 8 zeros");
    assertArrayEquals(new double[] {0, 0}, ZramBufferMix.mix(50, 65536, 4096, 65536, false),
        "the chunk is cut at the smallest write (4 KiB): every page half random");
  }

  private ZramParams loaded(String options) throws IOException {
    Files.writeString(dir.resolve("job.fio"), "[w]\nioengine=psync\nfilename=/dev/zram0\n"
        + "bs=4k\nrw=randwrite\nsize=1M\n" + options);
    Path p = dir.resolve("s.conf");
    Files.writeString(p, "blksim {\n devices = [ { type = zram, name = zram0, size = 64M,"
        + " huge-fraction = 0.25 } ]\n fio.job-files = [\"job.fio\"]\n}\n");
    return (ZramParams) ScenarioLoader.load(p, List.of(), Map.of()).devices().get(0);
  }

  @Test
  void loader_appliesTheJobsMix_onlyWhenSet() throws IOException {
    ZramParams plain = loaded("");
    assertEquals(0.25, plain.hugeFraction(), "unset: the device's own keys");
    assertEquals(0, plain.sameFilledFraction());
    ZramParams zero = loaded("buffer_compress_percentage=100\n");
    assertEquals(1, zero.sameFilledFraction());
    assertEquals(0, zero.hugeFraction());
    ZramParams random = loaded("buffer_compress_percentage=0\n");
    assertEquals(1, random.hugeFraction());
    ZramParams half = loaded("buffer_compress_percentage=50\nbuffer_compress_chunk=8k\nbs=8k\n");
    assertEquals(0.5, half.sameFilledFraction());
    assertEquals(0.5, half.hugeFraction());
  }

  @Test
  void readJob_leavesTheMix() throws IOException {
    ZramParams r = loaded("rw=randread\nbuffer_compress_percentage=100\n");
    assertEquals(0.25, r.hugeFraction(), "a job that only reads fills no buffers");
  }

  @Test
  void twoWritersWithDifferentMixes_areRefused() throws IOException {
    InputException e = assertThrows(InputException.class, () -> loaded(
        "buffer_compress_percentage=100\n[w2]\nioengine=psync\nfilename=/dev/zram0\nbs=4k\n"
        + "rw=randwrite\nsize=1M\nbuffer_compress_percentage=0\n"));
    assertTrue(e.getMessage().contains("buffer_compress_percentage"), e.getMessage());
    assertTrue(e.getMessage().contains("different page mix"), e.getMessage());
  }

  @Test
  void zeroBuffers_sameFilled_unlessScrambled_asFiosFlagsHaveIt() throws IOException {
    ZramParams zero = loaded("zero_buffers=1\n");
    assertEquals(1, zero.sameFilledFraction(), "zero_buffers alone: scramble off, zeros");
    assertEquals(0, zero.hugeFraction());
    ZramParams scrambled = loaded("zero_buffers=1\nscramble_buffers=1\n");
    assertEquals(0, scrambled.sameFilledFraction(), "offset and time in every 512 bytes");
    assertEquals(0, scrambled.hugeFraction(), "192 bytes a page: compressed, not huge");
    ZramParams refilled = loaded("zero_buffers=1\nscramble_buffers=1\nrefill_buffers=1\n");
    assertEquals(1, refilled.sameFilledFraction(), "refilled with zeros before each write");
    ZramParams off = loaded("zero_buffers=0\nscramble_buffers=0\n");
    assertEquals(0.25, off.hugeFraction(), "random buffers: the device's own keys");
    assertEquals(0, off.sameFilledFraction());
    ZramParams compress = loaded("zero_buffers=1\nbuffer_compress_percentage=0\n");
    assertEquals(1, compress.hugeFraction(), "a compress percentage fills the buffer first");
    ZramParams pattern = loaded("zero_buffers=1\nbuffer_pattern=0xdeadbeef\n");
    assertEquals(0.25, pattern.hugeFraction(), "buffer_pattern clears zero_buffers");
  }

  @Test
  void zeroWriterAndRandomMixWriter_areRefusedNamingZeroBuffers() throws IOException {
    InputException e = assertThrows(InputException.class, () -> loaded(
        "buffer_compress_percentage=0\n[w2]\nioengine=psync\nfilename=/dev/zram0\nbs=4k\n"
        + "rw=randwrite\nsize=1M\nzero_buffers=1\n"));
    assertTrue(e.getMessage().contains("zero_buffers"), e.getMessage());
  }
}
