package blksim.workload.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** blksim.fio.map: the job file's path values rewritten, lines and comments kept. */
class FioPathMapTest {
  @Test
  void mapsDevicesAndDirectories_eachColonSeparatedName_longestPathFirst() {
    FioPathMap m = new FioPathMap(List.of("/dev/sdb=nullb0", "/mnt=/data",
        "/mnt/fast/=/ssd"));
    String in = "[a]\nfilename=/dev/sdb:/dev/sdc\ndirectory = /mnt/fast/x ; comment\n"
        + "bs=4k\nreplay_redirect=/dev/sdb\n[b]\ndirectory=/mnt/slow\nfilename=a\\:b\n"
        + "description=/dev/sdb stays\n";
    String out = m.apply(in);
    assertEquals("[a]\nfilename=/dev/nullb0:/dev/sdc\ndirectory = /ssd/x ; comment\n"
        + "bs=4k\nreplay_redirect=/dev/nullb0\n[b]\ndirectory=/data/slow\nfilename=a\\:b\n"
        + "description=/dev/sdb stays\n", out);
    assertEquals(in.split("\n", -1).length, out.split("\n", -1).length);
    assertEquals(in, new FioPathMap(List.of()).apply(in));
  }

  @Test
  void badEntries_nameTheEntryAndTheRule() {
    for (String[] c : new String[][] {{"/dev/sdb", "PATH=TARGET"}, {"sdb=nullb0", "absolute"},
        {"/dev/sdb=a/b", "device name"}, {"/dev/sdb=x", ""}}) {
      if (c[1].isEmpty()) {
        new FioPathMap(List.of(c[0]));
        continue;
      }
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> new FioPathMap(List.of(c[0])));
      assertTrue(e.getMessage().contains(c[1]), e.getMessage());
    }
    IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
        () -> new FioPathMap(List.of("/dev/sdb=a", "/dev/sdb/=b")));
    assertTrue(twice.getMessage().contains("twice"), twice.getMessage());
  }
}
