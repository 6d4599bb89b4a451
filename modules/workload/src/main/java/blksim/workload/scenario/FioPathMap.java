package blksim.workload.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code blksim.fio.map} ({@code run --map PATH=TARGET}): the paths a fio job file names, mapped
 * to what the scenario has, so a user's job file runs unchanged. {@code PATH=NAME} (a target
 * without a slash) maps a block device path to the scenario's device {@code /dev/NAME};
 * {@code PATH=/DIR} maps a path, and everything under it, to another path (a directory on a
 * mounted filesystem). The mapping rewrites the values of {@code filename=},
 * {@code directory=} and {@code replay_redirect=} in the job file's text before it is parsed:
 * each of fio's {@code :}-separated names (an escaped {@code \:} is part of a name) that is
 * {@code PATH} or lies under it; a line keeps its number, so errors still point at the user's
 * line. The longest matching {@code PATH} wins.
 */
public final class FioPathMap {
  /** The options whose values are paths. */
  static final Set<String> KEYS = Set.of("filename", "directory", "replay_redirect");

  private final List<String[]> entries = new ArrayList<>();

  /**
   * @param list the entries, {@code PATH=TARGET}
   * @throws IllegalArgumentException naming the entry and the rule
   */
  public FioPathMap(List<String> list) {
    for (String e : list) {
      int eq = e.indexOf('=');
      if (eq <= 0 || eq == e.length() - 1) {
        throw new IllegalArgumentException("entry '" + e + "' is not PATH=TARGET (e.g."
            + " /dev/sdb=nullb0 or /mnt/test=/data)");
      }
      String path = strip(e.substring(0, eq).trim());
      String target = e.substring(eq + 1).trim();
      if (!path.startsWith("/")) {
        throw new IllegalArgumentException("entry '" + e + "': PATH must be absolute");
      }
      if (!target.startsWith("/")) {
        if (target.contains("/") || target.contains(":")) {
          throw new IllegalArgumentException("entry '" + e + "': TARGET is a device name"
              + " (nullb0) or an absolute path (/data)");
        }
        target = "/dev/" + target;
      }
      for (String[] o : entries) {
        if (o[0].equals(path)) {
          throw new IllegalArgumentException("entry '" + e + "': " + path + " is mapped twice");
        }
      }
      entries.add(new String[] {path, strip(target)});
    }
    entries.sort((a, b) -> Integer.compare(b[0].length(), a[0].length()));
  }

  private static String strip(String p) {
    return p.length() > 1 && p.endsWith("/") ? p.substring(0, p.length() - 1) : p;
  }

  public boolean isEmpty() {
    return entries.isEmpty();
  }

  /** One path mapped (a path a trace names, as {@link #apply} maps the job file's). */
  public String map(String path) {
    return name(path);
  }

  /** The job file's text with its path values mapped. */
  public String apply(String text) {
    if (entries.isEmpty()) {
      return text;
    }
    String[] lines = text.split("\n", -1);
    StringBuilder b = new StringBuilder(text.length());
    for (int i = 0; i < lines.length; i++) {
      if (i > 0) {
        b.append('\n');
      }
      b.append(line(lines[i]));
    }
    return b.toString();
  }

  private String line(String l) {
    int eq = l.indexOf('=');
    if (eq < 0) {
      return l;
    }
    String key = l.substring(0, eq).trim().toLowerCase(Locale.ROOT);
    if (!KEYS.contains(key)) {
      return l;
    }
    String value = l.substring(eq + 1);
    String comment = "";
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\s+[#;].*$").matcher(value);
    if (m.find()) {
      comment = value.substring(m.start());
      value = value.substring(0, m.start());
    }
    StringBuilder out = new StringBuilder();
    int start = 0;
    for (int i = 0; i <= value.length(); i++) {
      boolean end = i == value.length();
      if (end || value.charAt(i) == ':' && (i == 0 || value.charAt(i - 1) != '\\')) {
        if (start > 0) {
          out.append(':');
        }
        out.append(name(value.substring(start, i)));
        start = i + 1;
      }
    }
    return l.substring(0, eq + 1) + out + comment;
  }

  private String name(String raw) {
    String t = raw.trim();
    for (String[] e : entries) {
      if (t.equals(e[0])) {
        return raw.replace(t, e[1]);
      }
      if (t.startsWith(e[0] + "/") || e[0].equals("/")) {
        String rest = e[0].equals("/") ? t : t.substring(e[0].length());
        return raw.replace(t, (e[1].equals("/") ? "" : e[1]) + rest);
      }
    }
    return raw;
  }
}
