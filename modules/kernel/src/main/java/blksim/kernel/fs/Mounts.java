package blksim.kernel.fs;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * The mount table: which filesystem serves a path. Mirrors the result of the VFS path walk
 * crossing mount points ({@code follow_managed()} / {@code lookup_mnt()}): a path belongs to the
 * mount whose mount point is its longest prefix, compared component by component, so
 * {@code /mnt/test2} is not under {@code /mnt/test}.
 *
 * <p>Simplified: paths are resolved lexically ({@code ..} drops the previous component without
 * following symbolic links, which the model does not have); there is no root filesystem, so a
 * path outside every mount point is an error; a mount point need not exist as a directory of the
 * filesystem under it; one filesystem is mounted at one place (no bind mounts).
 */
public final class Mounts {
  /** Mount point -> filesystem; a TreeMap so listings are in path order. */
  private final TreeMap<String, Filesystem> byPoint = new TreeMap<>();

  /**
   * A path resolved to a filesystem.
   *
   * @param fs the filesystem serving the path
   * @param mountPoint where it is mounted
   * @param relativePath the rest of the path inside it, without a leading '/' ("" for its root)
   */
  public record Resolved(Filesystem fs, String mountPoint, String relativePath) {}

  /**
   * {@code mount()}: mounts {@code fs} at {@code mountPoint}, read-only when {@code readOnly}.
   *
   * @throws IllegalArgumentException if the path is not absolute or something is mounted there
   *     already, or the filesystem is mounted elsewhere
   */
  public void mount(String mountPoint, Filesystem fs, boolean readOnly) {
    String p = normalise(mountPoint);
    if (p == null) {
      throw new IllegalArgumentException("mount point must be an absolute path, was '"
          + mountPoint + "'");
    }
    if (byPoint.containsKey(p)) {
      throw new IllegalArgumentException(p + " is already a mount point");
    }
    if (fs.mounted()) {
      throw new IllegalArgumentException("the " + fs.type() + " filesystem on " + fs.device()
          + " is already mounted");
    }
    fs.mount(readOnly);
    byPoint.put(p, fs);
  }

  /**
   * {@code umount()}: 0, {@code -EBUSY} if the filesystem has inodes held open, {@code -EINVAL}
   * if nothing is mounted at {@code mountPoint}.
   */
  public int unmount(String mountPoint) {
    String p = normalise(mountPoint);
    Filesystem fs = p == null ? null : byPoint.get(p);
    if (fs == null) {
      return -Filesystem.EINVAL;
    }
    int r = fs.unmount();
    if (r == 0) {
      byPoint.remove(p);
    }
    return r;
  }

  /**
   * The first step of {@code umount()} ({@code do_umount()}: the busy check, then
   * {@code umount_tree()}): takes the filesystem at {@code mountPoint} out of the namespace, so
   * no path reaches it any more, and leaves it mounted for the caller's
   * {@code sync_filesystem()} and final {@link Filesystem#unmount}. 0, {@code -EBUSY} if it has
   * inodes held open, {@code -EINVAL} if nothing is mounted at {@code mountPoint}.
   */
  public int detach(String mountPoint) {
    String p = normalise(mountPoint);
    Filesystem fs = p == null ? null : byPoint.get(p);
    if (fs == null) {
      return -Filesystem.EINVAL;
    }
    if (fs.hasOpenInodes()) {
      return -Filesystem.EBUSY;
    }
    byPoint.remove(p);
    return 0;
  }

  /** The filesystem mounted at {@code mountPoint}, or {@code null}. */
  public Filesystem at(String mountPoint) {
    String p = normalise(mountPoint);
    return p == null ? null : byPoint.get(p);
  }

  /** The mount points, in path order. */
  public List<String> mountPoints() {
    return new ArrayList<>(byPoint.keySet());
  }

  /**
   * The filesystem serving {@code path} and the path inside it, or {@code null} when the path
   * is not absolute or is outside every mount point.
   */
  public Resolved find(String path) {
    String p = normalise(path);
    if (p == null) {
      return null;
    }
    // Walk from the whole path to shorter prefixes: the first mount point found is the longest.
    String prefix = p;
    while (true) {
      Filesystem fs = byPoint.get(prefix);
      if (fs != null) {
        String rest = prefix.equals("/") ? p.substring(1)
            : p.length() == prefix.length() ? "" : p.substring(prefix.length() + 1);
        return new Resolved(fs, prefix, rest);
      }
      if (prefix.equals("/")) {
        return null;
      }
      int slash = prefix.lastIndexOf('/');
      prefix = slash == 0 ? "/" : prefix.substring(0, slash);
    }
  }

  /**
   * As {@link #find}, but a path outside every mount is an error.
   *
   * @throws IllegalArgumentException naming the path and the mount points
   */
  public Resolved resolve(String path) {
    Resolved r = find(path);
    if (r == null) {
      if (normalise(path) == null) {
        throw new IllegalArgumentException("path '" + path + "' is not absolute");
      }
      throw new IllegalArgumentException("path " + path + " is outside every mounted filesystem"
          + (byPoint.isEmpty() ? " (none is mounted)" : " (" + String.join(", ",
              byPoint.keySet()) + ")"));
    }
    return r;
  }

  /**
   * {@code path} made canonical: absolute, single slashes, no trailing slash, {@code .} and
   * {@code ..} applied lexically ({@code ..} of the root is the root); {@code null} if it is not
   * absolute.
   */
  public static String normalise(String path) {
    if (path == null || !path.startsWith("/")) {
      return null;
    }
    List<String> parts = new ArrayList<>();
    for (String c : path.split("/")) {
      if (c.isEmpty() || c.equals(".")) {
        continue;
      }
      if (c.equals("..")) {
        if (!parts.isEmpty()) {
          parts.remove(parts.size() - 1);
        }
        continue;
      }
      parts.add(c);
    }
    return "/" + String.join("/", parts);
  }
}
