package blksim.workload.fio;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The I/O priorities fio gives a job's I/Os (fio-3.36 engines/cmdprio.c, os/os-linux.h): every
 * I/O has the job's priority ({@code prioclass}/{@code prio}/{@code priohint}, {@code td->ioprio},
 * 0 when unset), except that a share of them, chosen at random per I/O, gets the cmdprio priority:
 * {@code cmdprio_percentage} of each direction's I/Os with {@code cmdprio_class} (default RT, 1),
 * {@code cmdprio} and {@code cmdprio_hint}, or, with {@code cmdprio_bssplit}, per block size the
 * listed shares with their own class/level/hint ({@code fio_cmdprio_set_ioprio()}).
 *
 * <p>Per direction the distinct priorities get indexes in the order fio assigns them
 * ({@code init_cmdprio_values()}: the job's priority at 0, then each cmdprio value as first met),
 * the order of fio's per-priority statistics ({@code ts->clat_prio}).
 *
 * <p>Simplified: the random draw is blksim's seeded stream, not fio's {@code td->prio_state}.
 */
public final class CmdPrio {
  /** {@code IOPRIO_MAX_PRIO}, {@code IOPRIO_MAX_PRIO_HINT}. */
  public static final int IOPRIO_MAX_PRIO = 7;
  public static final int IOPRIO_MAX_PRIO_HINT = (1 << 10) - 1;
  private static final int IOPRIO_CLASS_SHIFT = 13;
  private static final int IOPRIO_HINT_SHIFT = 3;

  /** One {@code cmdprio_bssplit} entry; {@code prio} -1: the implicit cmdprio value. */
  public record Entry(long bs, int perc, int prio) {}

  /** {@code ioprio_value(class, level, hint)}. */
  public static int ioprioValue(int ioClass, int level, int hint) {
    return (ioClass << IOPRIO_CLASS_SHIFT) | (hint << IOPRIO_HINT_SHIFT) | level;
  }

  /** {@code ioprio_class()}, {@code ioprio()}, {@code ioprio_hint()}. */
  public static int ioClass(int ioprio) {
    return ioprio >>> IOPRIO_CLASS_SHIFT;
  }

  public static int level(int ioprio) {
    return ioprio & IOPRIO_MAX_PRIO;
  }

  public static int hint(int ioprio) {
    return (ioprio >>> IOPRIO_HINT_SHIFT) & IOPRIO_MAX_PRIO_HINT;
  }

  /** A bounded integer parser (the settings' own, for its error messages). */
  interface IntParser {
    int parse(String v, int min, int max);
  }

  /**
   * {@code split_parse_prio_ddir()}: {@code bs/perc[/class/level[/hint]]} joined by {@code :};
   * entries with a zero share are dropped, the rest sorted by block size; the shares of one block
   * size may not exceed 100.
   */
  static List<Entry> parseBssplit(String v, java.util.function.ToLongFunction<String> blockSize,
      IntParser ints) {
    List<Entry> out = new ArrayList<>();
    for (String e : v.split(":", -1)) {
      if (e.isEmpty()) {
        break;
      }
      String[] f = e.split("/", -1);
      if (f.length != 2 && f.length != 4 && f.length != 5) {
        throw new FioValues.BadValue("a cmdprio_bssplit entry is bs/percentage"
            + "[/class/level[/hint]], was " + e);
      }
      long bs = blockSize.applyAsLong(f[0]);
      int perc = ints.parse(f[1], 0, 100);
      int prio = -1;
      if (f.length >= 4) {
        prio = ioprioValue(ints.parse(f[2], 0, 3), ints.parse(f[3], 0, IOPRIO_MAX_PRIO),
            f.length == 5 ? ints.parse(f[4], 0, IOPRIO_MAX_PRIO_HINT) : 0);
      }
      if (perc > 0) {
        out.add(new Entry(bs, perc, prio));
      }
    }
    if (out.size() > 64) {
      throw new FioValues.BadValue("at most 64 cmdprio_bssplit entries (BSSPLIT_MAX)");
    }
    out.sort(Comparator.comparingLong(Entry::bs));
    long bs = -1;
    int total = 0;
    for (Entry e : out) {
      total = e.bs() == bs ? total + e.perc() : e.perc();
      bs = e.bs();
      if (total > 100) {
        throw new FioValues.BadValue("cmdprio_bssplit total percentage for bs " + bs
            + " exceeds 100");
      }
    }
    return List.copyOf(out);
  }

  private final int defaultPrio;
  /** Per direction: distinct priorities, index 0 the job's own. */
  private final List<List<Integer>> prios = List.of(new ArrayList<>(), new ArrayList<>());
  /** Per direction: percentage mode's share and priority, or bssplit entries. */
  private final int[] perc = new int[2];
  private final int[] percPrio = new int[2];
  private final List<List<Entry>> bssplit;
  private final boolean active;

  private CmdPrio(FioJobSettings s, boolean[] enabled) {
    defaultPrio = s.ioprioSet ? ioprioValue(s.ioprioClass, s.ioprioLevel, s.ioprioHint) : 0;
    boolean any = false;
    bssplit = s.cmdprioBssplit == null ? null : List.of(new ArrayList<>(), new ArrayList<>());
    for (int d = 0; d < 2; d++) {
      prios.get(d).add(defaultPrio);
      // fio_cmdprio_parse_and_gen(): no cmdprio_class means RT.
      int ioClass = s.cmdprioClass[d] == 0 ? 1 : s.cmdprioClass[d];
      int implicit = ioprioValue(ioClass, s.cmdprioLevel[d], s.cmdprioHint[d]);
      if (!enabled[d]) {
        continue;
      }
      if (bssplit == null) {
        if (s.cmdprioPercentage[d] > 0) {
          perc[d] = s.cmdprioPercentage[d];
          percPrio[d] = implicit;
          index(d, implicit);
          any = true;
        }
      } else {
        for (Entry e : s.cmdprioBssplit[d]) {
          Entry r = new Entry(e.bs(), e.perc(), e.prio() < 0 ? implicit : e.prio());
          bssplit.get(d).add(r);
          index(d, r.prio());
          any = true;
        }
      }
    }
    active = any || s.ioprioSet;
  }

  private int index(int d, int prio) {
    List<Integer> l = prios.get(d);
    int i = l.indexOf(prio);
    if (i < 0) {
      l.add(prio);
      i = l.size() - 1;
    }
    return i;
  }

  /** The job's priorities, or null when it sets none (every I/O without a priority). */
  static CmdPrio of(FioJobSettings s) {
    CmdPrio c = new CmdPrio(s, new boolean[] {s.rw.reads(), s.rw.writes()});
    return c.active ? c : null;
  }

  /** The job's own priority ({@code td->ioprio}). */
  public int defaultPrio() {
    return defaultPrio;
  }

  /** Whether fio keeps per-priority statistics for direction {@code d} (cmdprio in use). */
  public boolean perPrioStats(int d) {
    return d < 2 && prios.get(d).size() > 1;
  }

  /** The distinct priorities of direction {@code d}, index 0 the job's own. */
  public List<Integer> prios(int d) {
    return d < 2 ? List.copyOf(prios.get(d)) : List.of(defaultPrio);
  }

  /** The stats index of {@code ioprio} in direction {@code d}, or 0. */
  public int indexOf(int d, int ioprio) {
    int i = d < 2 ? prios.get(d).indexOf(ioprio) : 0;
    return Math.max(i, 0);
  }

  /**
   * {@code fio_cmdprio_set_ioprio()}: the priority of one I/O of direction {@code d} and
   * {@code buflen} bytes; draws from {@code random} only when a share applies.
   */
  public int pick(int d, long buflen, SplittableRandom random) {
    if (d >= 2) {
      return defaultPrio;
    }
    int p = 0;
    List<Entry> entries = List.of();
    if (bssplit == null) {
      p = perc[d];
    } else {
      List<Entry> l = bssplit.get(d);
      List<Entry> m = new ArrayList<>(2);
      for (Entry e : l) {
        if (e.bs() == buflen) {
          m.add(e);
          p += e.perc();
        }
      }
      entries = m;
    }
    if (p == 0) {
      return defaultPrio;
    }
    int rand = random.nextInt(100);
    if (rand >= p) {
      return defaultPrio;
    }
    if (bssplit == null) {
      return percPrio[d];
    }
    int acc = 0;
    for (Entry e : entries) {
      acc += e.perc();
      if (rand < acc) {
        return e.prio();
      }
    }
    throw new AssertionError("rand < total share must find an entry");
  }
}
