package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Buffered writes take the inode's i_rwsem exclusively (xfs_file_buffered_write()): two fio
 * jobs writing one file wait for each other on it, and {@code run --threads} shows the lock.
 */
@Timeout(120)
class InodeLockRunTest {
  @TempDir Path tmp;

  /** {@code name} of the lock's last entry: the per-lock sum after the threads' entries. */
  static long field(String json, String lock, String name) {
    Matcher m = Pattern.compile("\"lock\"\\s*:\\s*\"" + Pattern.quote(lock) + "\"[^}]*\""
        + name + "\"\\s*:\\s*(\\d+)").matcher(json);
    long v = -1;
    while (m.find()) {
      v = Long.parseLong(m.group(1));
    }
    return v;
  }

  @Test
  void twoJobsOneFile_contendOnItsInodeRwsem_oneJobAloneNever() throws IOException {
    Path two = tmp.resolve("two.fio");
    Files.writeString(two, "[global]\nfilename=shared.dat\nrw=write\nbs=64k\nsize=8m\n"
        + "\n[a]\n[b]\n");
    MainTest.Result text = MainTest.cli("run", two.toString(), "--host", "local", "--threads");
    assertEquals(0, text.code(), text.err());
    assertTrue(text.out().contains("Sleeping locks"), text.out());
    assertTrue(text.out().contains("i_rwsem xfs"), text.out());
    MainTest.Result json = MainTest.cli("run", two.toString(), "--host", "local",
        "--output-format=json");
    assertEquals(0, json.code(), json.err());
    Matcher m = Pattern.compile("\"lock\"\\s*:\\s*\"(i_rwsem [^\"]+)\"").matcher(json.out());
    assertTrue(m.find(), json.out());
    String lock = m.group(1);
    // Two jobs of 128 writes each, every write under the lock.
    long acq = field(json.out(), lock, "acquisitions");
    assertTrue(acq >= 256, "acquisitions " + acq);
    assertTrue(field(json.out(), lock, "contended") > 0, json.out());

    Path one = tmp.resolve("one.fio");
    Files.writeString(one, "[a]\nfilename=alone.dat\nrw=write\nbs=64k\nsize=8m\n");
    MainTest.Result alone = MainTest.cli("run", one.toString(), "--host", "local",
        "--output-format=json");
    assertEquals(0, alone.code(), alone.err());
    Matcher a = Pattern.compile("\"lock\"\\s*:\\s*\"(i_rwsem [^\"]+)\"").matcher(alone.out());
    assertTrue(a.find(), alone.out());
    assertEquals(0, field(alone.out(), a.group(1), "contended"), "one writer never waits");
  }
}
