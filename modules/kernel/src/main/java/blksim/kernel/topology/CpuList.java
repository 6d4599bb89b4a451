package blksim.kernel.topology;

import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A CPU list as the kernel's {@code cpulist_parse()} and fio's {@code cpus_allowed} read it:
 * CPU numbers and ranges separated by commas ({@code 0,5,8-15}).
 */
public final class CpuList {
  private static final Pattern PART = Pattern.compile("(\\d{1,9})(?:-(\\d{1,9}))?");

  private CpuList() {}

  /**
   * The CPUs of {@code list}, ascending and without repeats, each below {@code nCpus}.
   *
   * @throws IllegalArgumentException with the rule broken, in fio's words
   */
  public static int[] parse(String list, int nCpus) {
    TreeSet<Integer> cpus = new TreeSet<>();
    for (String part : list.split(",")) {
      String p = part.trim();
      Matcher m = PART.matcher(p);
      if (!m.matches()) {
        throw new IllegalArgumentException("must be CPU numbers and ranges such as 0,5,8-15,"
            + " was " + list);
      }
      int a = Integer.parseInt(m.group(1));
      int b = m.group(2) == null ? a : Integer.parseInt(m.group(2));
      if (b < a) {
        throw new IllegalArgumentException("invalid range " + p
            + " (the first CPU must not exceed the last)");
      }
      if (b >= nCpus) {
        throw new IllegalArgumentException("CPU " + b + " too large (max=" + (nCpus - 1) + ")");
      }
      for (int c = a; c <= b; c++) {
        cpus.add(c);
      }
    }
    return cpus.stream().mapToInt(Integer::intValue).toArray();
  }
}
