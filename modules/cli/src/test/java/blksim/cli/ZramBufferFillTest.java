package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 10 item 5: a psync write job on zram pays the page kinds its buffer fill makes
 * (buffer_compress_percentage), and refill_buffers costs fio user time per byte.
 */
@Timeout(120)
class ZramBufferFillTest {
  @TempDir Path tmp;

  @SuppressWarnings("unchecked")
  private Map<String, Object> job(String options) throws IOException {
    Path p = tmp.resolve("s.conf");
    Files.writeString(p, """
        blksim {
          seed = 3
          devices = [ { type = zram, name = zram0, size = 64M } ]
          fio.jobs = [\"\"\"
        [w]
        ioengine=psync
        direct=1
        filename=/dev/zram0
        bs=4k
        rw=randwrite
        runtime=20ms
        time_based
        %s
        \"\"\"]
        }
        """.formatted(options));
    MainTest.Result r = MainTest.cli("run", p.toString(), "--host", "local",
        "--output-format=json");
    assertEquals(0, r.code(), r.err());
    Map<String, Object> doc = (Map<String, Object>) blksim.report.json.JsonReader.parse(r.out());
    return (Map<String, Object>) ((List<Object>) doc.get("jobs")).get(0);
  }

  @SuppressWarnings("unchecked")
  private static double clatMean(Map<String, Object> job) {
    Map<String, Object> w = (Map<String, Object>) job.get("write");
    return ((Number) ((Map<String, Object>) w.get("clat_ns")).get("mean")).doubleValue();
  }

  private static double num(Map<String, Object> job, String key) {
    return ((Number) job.get(key)).doubleValue();
  }

  @Test
  void compressPercentage_movesTheWriteCost() throws IOException {
    double random = clatMean(job("buffer_compress_percentage=0"));
    double half = clatMean(job("buffer_compress_percentage=50"));
    double zeros = clatMean(job("buffer_compress_percentage=100"));
    assertTrue(random > half, "huge pages (compress + copy) " + random + " vs " + half);
    assertTrue(half > zeros + 100_000, "same-filled pages are not compressed: " + zeros);
    assertEquals(clatMean(job("")), half, 1e-9,
        "unset: the device's default mix (all compressed), as 50 % makes it");
  }

  @Test
  void refillBuffers_costsUserTimePerWrite() throws IOException {
    Map<String, Object> plain = job("buffer_compress_percentage=100");
    Map<String, Object> refill = job("buffer_compress_percentage=100\nrefill_buffers=1");
    assertTrue(num(refill, "usr_cpu") > num(plain, "usr_cpu"),
        num(refill, "usr_cpu") + " vs " + num(plain, "usr_cpu"));
    assertEquals(clatMean(plain), clatMean(refill), 1e-9, "the device cost is the same");
  }
}
