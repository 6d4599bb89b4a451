package blksim.engine;

import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

/**
 * How components are grouped into partitions: a pure function of the components' localities and
 * the user's choice, so every node of a cluster computes the same placement.
 *
 * <ul>
 *   <li>{@code one}: everything in one partition (the default on one machine);
 *   <li>{@code node}, {@code llc}, {@code cpu}: one partition per NUMA node, LLC or CPU;
 *   <li>{@code N} (a number): CPUs split into N contiguous blocks.
 * </ul>
 *
 * Components without a CPU follow their node (the lowest partition holding a CPU of that node);
 * machine-wide components go to partition 0. Results never depend on the choice.
 */
public record Partitioning(Kind kind, int count) {

  /** The user's choice. */
  public enum Kind {
    ONE,
    NODE,
    LLC,
    CPU,
    COUNT
  }

  public static final Partitioning ONE = new Partitioning(Kind.ONE, 1);

  /** Parses {@code one|node|llc|cpu|N}; throws {@link IllegalArgumentException} otherwise. */
  public static Partitioning parse(String s) {
    String v = s.trim().toLowerCase(Locale.ROOT);
    switch (v) {
      case "one":
        return ONE;
      case "node":
        return new Partitioning(Kind.NODE, 0);
      case "llc":
        return new Partitioning(Kind.LLC, 0);
      case "cpu":
        return new Partitioning(Kind.CPU, 0);
      default:
        try {
          int n = Integer.parseInt(v);
          if (n < 1) {
            throw new IllegalArgumentException("partitions must be one|node|llc|cpu or N >= 1, was " + s);
          }
          return n == 1 ? ONE : new Partitioning(Kind.COUNT, n);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(
              "partitions must be one|node|llc|cpu or a number N >= 1, was '" + s + "'");
        }
    }
  }

  @Override
  public String toString() {
    return kind == Kind.COUNT ? Integer.toString(count) : kind.name().toLowerCase(Locale.ROOT);
  }

  /**
   * The partition of each component, indexed like {@code components}. Partition numbers are dense
   * from 0; their count is {@code max + 1}.
   */
  public int[] place(List<Component> components) {
    int n = components.size();
    int[] out = new int[n];
    if (kind == Kind.ONE) {
      return out;
    }
    int maxCpu = -1;
    for (Component c : components) {
      maxCpu = Math.max(maxCpu, c.locality().cpu());
    }
    int nCpus = maxCpu + 1;
    // Raw key per component, then renumbered densely in key order.
    long[] key = new long[n];
    TreeMap<Long, Integer> nodeFirstKey = new TreeMap<>();
    for (int i = 0; i < n; i++) {
      Locality l = components.get(i).locality();
      if (l.cpu() < 0) {
        key[i] = Long.MIN_VALUE;
        continue;
      }
      long k;
      switch (kind) {
        case NODE:
          k = l.node();
          break;
        case LLC:
          k = l.llc();
          break;
        case CPU:
          k = l.cpu();
          break;
        default:
          k = (long) l.cpu() * count / Math.max(1, nCpus);
          break;
      }
      key[i] = k;
      nodeFirstKey.merge((long) l.node(), (int) k, Math::min);
    }
    TreeMap<Long, Integer> dense = new TreeMap<>();
    for (long k : key) {
      if (k != Long.MIN_VALUE) {
        dense.putIfAbsent(k, 0);
      }
    }
    int next = 0;
    for (var e : dense.entrySet()) {
      e.setValue(next++);
    }
    for (int i = 0; i < n; i++) {
      if (key[i] != Long.MIN_VALUE) {
        out[i] = dense.get(key[i]);
      } else {
        Locality l = components.get(i).locality();
        Integer k = l.node() >= 0 ? nodeFirstKey.get((long) l.node()) : null;
        out[i] = k == null ? 0 : dense.get((long) k);
      }
    }
    return out;
  }
}
