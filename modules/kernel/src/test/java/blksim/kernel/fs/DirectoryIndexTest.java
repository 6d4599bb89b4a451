package blksim.kernel.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The compact name index against a TreeMap doing the same puts and removes. */
class DirectoryIndexTest {

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void randomPutsAndRemoves_agreeWithAReferenceMap_throughRehashAndCompaction() {
    DirectoryIndex d = new DirectoryIndex(0);
    TreeMap<String, Integer> ref = new TreeMap<>();
    List<String> names = new ArrayList<>();
    SplittableRandom r = new SplittableRandom(99);
    for (int step = 0; step < 200_000; step++) {
      boolean remove = !names.isEmpty() && r.nextInt(100) < 45;
      if (remove) {
        String n = names.remove(r.nextInt(names.size()));
        assertEquals((int) ref.remove(n), d.remove(b(n)), n);
      } else {
        // short names from a small alphabet collide often in the table's low bits
        String n = Integer.toString(r.nextInt(1 << 20), 36) + "-" + step;
        d.put(b(n), step);
        ref.put(n, step);
        names.add(n);
      }
      if (step % 10_000 == 0) {
        for (String n : names) {
          assertEquals((int) ref.get(n), d.get(b(n)), n);
        }
      }
    }
    assertEquals(ref.size(), d.size());
    for (String n : names) {
      assertEquals((int) ref.get(n), d.get(b(n)), n);
    }
    assertEquals(-1, d.get(b("absent")));
    assertEquals(-1, d.remove(b("absent")));
    // Removing everything shrinks the table and leaves nothing behind.
    for (String n : names) {
      d.remove(b(n));
    }
    assertEquals(0, d.size());
    assertEquals(-1, d.get(b(names.get(0))));
  }

  @Test
  void namesOfEveryLength_upToNameMax_roundTrip() {
    DirectoryIndex d = new DirectoryIndex(0);
    for (int len = 1; len <= Filesystem.NAME_MAX; len++) {
      d.put(b("n".repeat(len)), len);
    }
    for (int len = 1; len <= Filesystem.NAME_MAX; len++) {
      assertEquals(len, d.get(b("n".repeat(len))));
    }
    // slots above 2^24 survive the 4-byte packing
    d.put(b("big"), Integer.MAX_VALUE - 1);
    assertEquals(Integer.MAX_VALUE - 1, d.get(b("big")));
  }
}
