package blksim.kernel.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Path resolution by the longest mount-point prefix. */
class MountsTest {
  private static final long GIB = 1L << 30;

  private static XfsFilesystem fs(String dev) {
    return XfsFilesystem.mkfs(dev, GIB, XfsParams.DEFAULTS);
  }

  @Test
  void longestMountPointPrefix_wins_componentByComponent() {
    Mounts m = new Mounts();
    XfsFilesystem test = fs("sdb");
    XfsFilesystem sub = fs("sdc");
    m.mount("/mnt/test", test, false);
    m.mount("/mnt/test/sub", sub, true);
    Mounts.Resolved r = m.resolve("/mnt/test/sub/dir/f");
    assertSame(sub, r.fs());
    assertEquals("/mnt/test/sub", r.mountPoint());
    assertEquals("dir/f", r.relativePath());
    assertTrue(sub.readOnly());
    assertSame(test, m.resolve("/mnt/test/subway/f").fs(), "'subway' is not under 'sub'");
    assertEquals("", m.resolve("/mnt/test/").relativePath());
    assertEquals("a/f", m.resolve("//mnt/./test/x/../a//f").relativePath());
  }

  @Test
  void pathsOutsideEveryMount_areErrors_unlessRootIsMounted() {
    Mounts m = new Mounts();
    m.mount("/mnt/test", fs("sdb"), false);
    assertNull(m.find("/mnt/test2/f"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> m.resolve("/mnt/test2/f"));
    assertTrue(e.getMessage().contains("outside every mounted filesystem (/mnt/test)"),
        e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> m.resolve("mnt/test/f"));
    XfsFilesystem root = fs("sda");
    m.mount("/", root, false);
    Mounts.Resolved r = m.resolve("/mnt/test2/f");
    assertSame(root, r.fs());
    assertEquals("mnt/test2/f", r.relativePath());
  }

  @Test
  void mountingTwiceAtOnePoint_orOneFilesystemTwice_isRefused() {
    Mounts m = new Mounts();
    XfsFilesystem a = fs("sdb");
    m.mount("/mnt/a", a, false);
    assertThrows(IllegalArgumentException.class, () -> m.mount("/mnt/a/", fs("sdc"), false));
    assertThrows(IllegalArgumentException.class, () -> m.mount("/mnt/b", a, false));
    assertThrows(IllegalArgumentException.class, () -> m.mount("relative", fs("sdd"), false));
    assertEquals(0, m.unmount("/mnt/a"));
    assertEquals(-Filesystem.EINVAL, m.unmount("/mnt/a"));
    assertNull(m.find("/mnt/a/f"));
  }
}
