package blksim.cli;

import blksim.engine.InputException;

import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.engine.synthetic.EngineBench;
import blksim.engine.synthetic.ReferenceLoop;
import blksim.workload.fio.stats.JobStats;
import blksim.workload.fio.stats.RunResult;
import blksim.workload.scenario.Scenario;
import blksim.workload.scenario.ScenarioLoader;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code blksim bench}: the performance figures of the README, measured on this machine.
 *
 * <ol>
 *   <li>engine: events per wall second, 1,000 synthetic components exchanging messages, with 1
 *       and 2 partitions on the Pekko cluster host, and the one-partition rate as a ratio of a
 *       plain {@code PriorityQueue} event loop measured first in the same run
 *       ({@link ReferenceLoop});
 *   <li>scenarios: simulated I/Os per wall second of the 48-CPU, 48-job null_blk psync scenario
 *       and of the brd nowait-on io_uring scenario, with one partition and one per NUMA node (two);
 *   <li>writeback: Dave's fs_mark configuration (1.12e7 files), one run: simulated files per wall
 *       second, wall against simulated time, peak heap;
 *   <li>replay: a written 10-million-record iolog replayed as fast as possible onto a null_blk at
 *       QD 32: records per wall second and per CPU second, the trace read alone as the reference,
 *       and the heap peaks at a tenth of the records and at all of them;
 *   <li>scaling (only with {@code --only=scaling}): wall ns per simulated I/O and heap per CPU
 *       from 64 to 4,096 CPUs, one job per CPU, the same number of I/Os at every size
 *       ({@link #scaling}), and the host's memory latency before and after the runs.
 * </ol>
 * The engine figures are the median of {@code --repeat} runs after two warm-up runs (as the
 * reference loop's), the scenario figures after one.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = {"Measure simulator speed (median of several runs after a warm-up).",
        "Figures depend on the machine; the README records them with the machine they came from."})
final class BenchCommand implements Callable<Integer> {
  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Option(names = "--repeat", paramLabel = "N", defaultValue = "3",
      description = "runs per figure, of which the median is reported (default ${DEFAULT-VALUE})")
  int repeat;

  @Option(names = "--engine-sim-time", defaultValue = "2000000", paramLabel = "NS",
      description = "virtual ns of the synthetic engine run (default ${DEFAULT-VALUE})")
  long engineSimNs;

  @Option(names = "--scenario", paramLabel = "FILE",
      description = "scenario(s) of the I/O benchmark (default scenarios/bench/nullblk-psync-48.conf"
          + " and scenarios/nowait/brd-nowait-on.conf)")
  List<Path> scenarios = new ArrayList<>();

  @Option(names = "--only", paramLabel = "engine|scenario|writeback|replay|scaling",
      description = "run one part only (writeback: Dave's fs_mark configuration, one run of"
          + " 1.12e7 files, about 1.5 minutes; replay: a written 10-million-record iolog"
          + " replayed as fast as possible, scenarios/bench/replay-nullb-qd32.conf; scaling:"
          + " wall ns per simulated I/O from 64 to 4,096 CPUs, scenarios/bench/scaling.conf,"
          + " with the host's memory latency by working-set size before and after, only when"
          + " asked for, about 10 minutes, --quick about one)")
  String only;

  @Option(names = "--scaling-cpus", split = ",", paramLabel = "N[,N...]",
      description = "machine sizes of the scaling benchmark, in CPUs, each 4 x a core count"
          + " (default 64,256,1024,4096; --quick: 64,1024)")
  List<Integer> scalingCpus = new ArrayList<>();

  @Option(names = "--scaling-cpu-time", paramLabel = "DURATION",
      description = "simulated time x CPUs of each scaling run, the same at every size so each"
          + " simulates about the same number of I/Os (default 3200ms: 50 ms at 64 CPUs, 781 us"
          + " at 4,096; --quick: 640ms)")
  String scalingCpuTime;

  @Option(names = "--scaling-engines", split = ",", paramLabel = "io_uring|psync",
      description = "fio ioengines of the scaling benchmark (default io_uring,psync)")
  List<String> scalingEngines = new ArrayList<>();

  @Option(names = "--scaling-set", paramLabel = "KEY=VALUE",
      description = "a scenario key for every run of the scaling benchmark, as run's --set (for"
          + " example blksim.locality-groups=1 to compare with the groups off); repeatable")
  List<String> scalingSets = new ArrayList<>();

  @Option(names = "--quick", description = "a quick scaling benchmark (about a minute): 64 and"
      + " 1,024 CPUs, a fifth of the I/Os")
  boolean quick;

  @Option(names = "--replay-records", defaultValue = "10000000", paramLabel = "N",
      description = "records of the replay benchmark's trace (default ${DEFAULT-VALUE})")
  long replayRecords;

  @Override
  public Integer call() throws Exception {
    try (AutoCloseable node = Simulator.sharedNode()) {
      return bench();
    }
  }

  private int bench() {
    if (only != null
        && !List.of("engine", "scenario", "writeback", "replay", "scaling").contains(only)) {
      throw new InputException(null, 0, "--only", "unknown part '" + only
          + "'; use engine, scenario, writeback, replay or scaling");
    }
    PrintWriter out = spec.commandLine().getOut();
    out.printf("machine: %d CPUs, Java %s, %s%n", Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.version"), System.getProperty("os.name"));
    if (only == null || only.equals("engine")) {
      double[] ref = ReferenceLoop.eventsPerSecond(repeat);
      double refMedian = median(ref);
      out.printf(Locale.ROOT, "reference   PriorityQueue hold model, %d pending: %,.0f events/s"
          + " (median of %d: %s)%n", ReferenceLoop.PENDING, refMedian, repeat, list(ref));
      out.flush();
      for (int parts : new int[] {1, 2}) {
        // Two full-length warm-up runs, as the reference loop has: one quarter-length run left
        // the JIT recompiling the partition's loop during the first measured run.
        for (int w = 0; w < 2; w++) {
          EngineBench.run(1000, parts, EngineBench.Host.CLUSTER, engineSimNs);
        }
        double[] eps = new double[repeat];
        for (int i = 0; i < repeat; i++) {
          EngineBench.Result r = EngineBench.run(1000, parts, EngineBench.Host.CLUSTER,
              engineSimNs);
          eps[i] = r.events() * 1e9 / r.wallNs();
        }
        out.printf(Locale.ROOT, "engine   1000 components, %d partition(s): %,.0f events/s"
            + " (median of %d: %s)%n", parts, median(eps), repeat, list(eps));
        if (parts == 1) {
          out.printf(Locale.ROOT, "engine/reference   %.2f (1 partition against the"
              + " reference loop of this run)%n", median(eps) / refMedian);
        }
        out.flush();
      }
    }
    List<Path> files = scenarios.isEmpty()
        ? List.of(Home.scenarios().resolve("bench/nullblk-psync-48.conf"),
            Home.scenarios().resolve("nowait/brd-nowait-on.conf"))
        : scenarios;
    for (Path file : only == null || only.equals("scenario") ? files : List.<Path>of()) {
      // node, not "2": both scenarios are 2-node machines whose profile's SMT slowdown needs an
      // LLC's CPUs in one partition, which a plain count of partitions does not promise.
      for (String parts : new String[] {"one", "node"}) {
        Scenario s = ScenarioLoader.load(file, List.of("blksim.partitions=\"" + parts + "\""));
        Simulator.run(s, Partitioning.parse(parts), Simulator.Host.CLUSTER,
            ProgressListener.NONE);
        double[] iops = new double[repeat];
        double[] eps = new double[repeat];
        for (int i = 0; i < repeat; i++) {
          RunResult r = Simulator.run(s, Partitioning.parse(parts), Simulator.Host.CLUSTER,
              ProgressListener.NONE);
          long ios = 0;
          for (JobStats j : r.jobs()) {
            ios += j.totalIos(0) + j.totalIos(1) + j.totalIos(2);
          }
          iops[i] = ios * 1e9 / r.engine().wallTimeNs();
          eps[i] = r.engine().eventsPerWallSecond();
        }
        out.printf(Locale.ROOT, "scenario %s, partitions=%s: %,.0f simulated I/Os per wall"
            + " second, %,.0f events/s (median of %d: %s)%n", file.getFileName(), parts,
            median(iops), median(eps), repeat, list(iops));
        out.flush();
      }
    }
    if (only == null || only.equals("writeback")) {
      writeback(out);
    }
    if (only == null || only.equals("replay")) {
      replay(out);
    }
    if ("scaling".equals(only)) {
      scaling(out);
    }
    return 0;
  }

  /**
   * Issue 11 item 7: a fio v3 iolog of {@code --replay-records} 4 KiB random reads and writes,
   * 1 µs apart (written here from a fixed seed, in a temporary directory deleted afterwards),
   * replayed as fast as possible onto a null_blk at QD 32
   * ({@code scenarios/bench/replay-nullb-qd32.conf}): records per wall second, median of
   * {@code --repeat} runs after a warm-up on a tenth of it. The machine is shared and noisy, so
   * each run also gives its records per second of the process's CPU time (all its threads: the
   * simulation, GC, JIT), and the reference measured in the same run is the trace read alone
   * (the reader, no simulation). Memory: the heap pools' peaks (the largest pool, and the old
   * generation, which holds what survives) of the warm-up (a tenth of the records) and of the
   * full runs: they stay flat because records are streamed (one ahead).
   */
  private void replay(PrintWriter out) {
    if (replayRecords < 10) {
      throw new InputException(null, 0, "--replay-records", "must be at least 10, was "
          + replayRecords);
    }
    Path dir;
    try {
      dir = java.nio.file.Files.createTempDirectory("blksim-bench-replay");
    } catch (java.io.IOException e) {
      throw new InputException(null, 0, "replay", "cannot make a temporary directory: " + e);
    }
    try {
      Path warm = writeIolog(dir.resolve("warm.iolog"), replayRecords / 10);
      Path big = writeIolog(dir.resolve("trace.iolog"), replayRecords);
      Path file = Home.scenarios().resolve("bench/replay-nullb-qd32.conf");
      long[] warmPeak = new long[2];
      resetPeaks();
      replayRun(file, warm);
      peaks(warmPeak);
      double[] rps = new double[repeat];
      double[] cpuRps = new double[repeat];
      double[] readRps = new double[repeat];
      long[] peak = new long[2];
      for (int i = 0; i < repeat; i++) {
        readRps[i] = readOnly(big);
        resetPeaks();
        long cpu0 = processCpuNs();
        RunResult r = replayRun(file, big);
        long cpuNs = processCpuNs() - cpu0;
        long records = 0;
        for (JobStats j : r.jobs()) {
          records += j.replay() == null ? 0 : j.replay().recordsRead();
        }
        rps[i] = records * 1e9 / r.engine().wallTimeNs();
        cpuRps[i] = cpuNs > 0 ? records * 1e9 / cpuNs : Double.NaN;
        peaks(peak);
      }
      out.printf(Locale.ROOT, "replay %s, %,d records: %,.0f records per wall second (median of"
          + " %d: %s), largest heap pool peak %,d MiB%n", "replay-nullb-qd32.conf",
          replayRecords, median(rps), repeat, list(rps), peak[0] >> 20);
      out.printf(Locale.ROOT, "  per second of process CPU time: %,.0f records (median of %d:"
          + " %s)%n", median(cpuRps), repeat, list(cpuRps));
      out.printf(Locale.ROOT, "  reference, the trace read alone: %,.0f records per wall second"
          + " (median of %d: %s); the replay runs at %.2f of it%n", median(readRps), repeat,
          list(readRps), median(rps) / median(readRps));
      out.printf(Locale.ROOT, "  heap peaks, largest pool / old generation: %,d / %,d MiB at"
          + " %,d records (warm-up), %,d / %,d MiB at %,d%n", warmPeak[0] >> 20,
          warmPeak[1] >> 20, replayRecords / 10, peak[0] >> 20, peak[1] >> 20, replayRecords);
      out.flush();
    } finally {
      try (java.util.stream.Stream<Path> w = java.nio.file.Files.list(dir)) {
        for (Path p : (Iterable<Path>) w::iterator) {
          java.nio.file.Files.deleteIfExists(p);
        }
        java.nio.file.Files.deleteIfExists(dir);
      } catch (java.io.IOException e) {
        // a temporary directory left behind is not worth failing the benchmark for
      }
    }
  }

  /** Records per wall second of reading {@code trace} alone, the replay's reference. */
  private static double readOnly(Path trace) {
    long t0 = System.nanoTime();
    long n = 0;
    try (blksim.workload.trace.TraceReader r = blksim.workload.trace.TraceFormat.open(trace,
        blksim.workload.trace.TraceFormat.FIO_IOLOG)) {
      while (r.next() != null) {
        n++;
      }
    }
    return n * 1e9 / (System.nanoTime() - t0);
  }

  /** CPU time of this process (every thread), ns, or 0 when the JVM does not tell. */
  private static long processCpuNs() {
    if (java.lang.management.ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      return Math.max(0, os.getProcessCpuTime());
    }
    return 0;
  }

  private static void resetPeaks() {
    for (java.lang.management.MemoryPoolMXBean p
        : java.lang.management.ManagementFactory.getMemoryPoolMXBeans()) {
      p.resetPeakUsage();
    }
  }

  /** Raises {@code peak[0]} to the largest heap pool's peak, {@code peak[1]} to the old gen's. */
  private static void peaks(long[] peak) {
    for (java.lang.management.MemoryPoolMXBean p
        : java.lang.management.ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == java.lang.management.MemoryType.HEAP && p.getPeakUsage() != null) {
        long used = p.getPeakUsage().getUsed();
        peak[0] = Math.max(peak[0], used);
        if (p.getName().contains("Old") || p.getName().contains("Tenured")) {
          peak[1] = Math.max(peak[1], used);
        }
      }
    }
  }

  /**
   * Issue 15 item 1: wall cost per simulated I/O against the machine size. Machines of 2 sockets
   * x 1 node x 2 LLCs x C cores x 1 thread ({@code scenarios/bench/scaling.conf} with
   * cores-per-llc = CPUs / 4), one fio job per CPU (io_uring QD 4, then psync; 4k direct random
   * reads) on one null_blk (timer completion after 10 us, hw-queue-depth 4096, 64 GiB), with a
   * runtime of {@code --scaling-cpu-time} / CPUs, so that every size simulates about the same
   * number of I/Os. The figure is {@code blksim.wall_time_ns} / I/Os, the median of
   * {@code --repeat} runs after one warm-up run of the smallest size per engine, printed with its
   * ratio to the smallest size's figure; the heap is the sum of the heap pools' peaks over the
   * runs of a size (an upper bound of what the run needs: it includes garbage not yet collected),
   * also divided by the CPUs. A second line per size gives the process CPU time per I/O (all
   * threads, from before the scenario is loaded to the results, GC and JIT included; steadier
   * than the wall time on a shared machine) with its ratio, and the collectors' time per run.
   */
  private void scaling(PrintWriter out) {
    List<Integer> sizes = !scalingCpus.isEmpty() ? scalingCpus
        : quick ? List.of(64, 1024) : List.of(64, 256, 1024, 4096);
    for (int cpus : sizes) {
      if (cpus < 4 || cpus % 4 != 0 || cpus > 4 * 4096) {
        throw new InputException(null, 0, "--scaling-cpus", "a machine size must be a multiple"
            + " of 4 CPUs (2 sockets x 2 LLCs) from 4 to 16384, was " + cpus);
      }
    }
    List<String> engines = scalingEngines.isEmpty() ? List.of("io_uring", "psync")
        : scalingEngines;
    for (String e : engines) {
      if (!e.equals("io_uring") && !e.equals("psync")) {
        throw new InputException(null, 0, "--scaling-engines", "io_uring or psync, was '" + e
            + "'");
      }
    }
    long cpuTimeNs;
    String ct = scalingCpuTime != null ? scalingCpuTime : quick ? "640ms" : "3200ms";
    java.util.regex.Matcher dm =
        java.util.regex.Pattern.compile("([0-9]{1,9})(us|ms|s)").matcher(ct.trim());
    if (!dm.matches()) {
      throw new InputException(null, 0, "--scaling-cpu-time", "a whole number of us, ms or s"
          + " such as 3200ms, was '" + ct + "'");
    }
    cpuTimeNs = Long.parseLong(dm.group(1))
        * (dm.group(2).equals("us") ? 1_000L : dm.group(2).equals("ms") ? 1_000_000L
        : 1_000_000_000L);
    Path dir;
    try {
      dir = java.nio.file.Files.createTempDirectory("blksim-bench-scaling");
    } catch (java.io.IOException e) {
      throw new InputException(null, 0, "scaling", "cannot make a temporary directory: " + e);
    }
    Path file = Home.scenarios().resolve("bench/scaling.conf");
    memoryLatency(out, "before");
    try {
      for (String engine : engines) {
        double base = 0;
        double cpuBase = 0;
        scalingRun(file, dir, engine, sizes.get(0), cpuTimeNs, scalingSets);
        for (int cpus : sizes) {
          double[] nsPerIo = new double[repeat];
          double[] cpuPerIo = new double[repeat];
          double[] gcMs = new double[repeat];
          long ios = 0;
          long peak = 0;
          for (int i = 0; i < repeat; i++) {
            for (java.lang.management.MemoryPoolMXBean p
                : java.lang.management.ManagementFactory.getMemoryPoolMXBeans()) {
              p.resetPeakUsage();
            }
            long cpu0 = processCpuNs();
            long gc0 = gcMs();
            RunResult r = scalingRun(file, dir, engine, cpus, cpuTimeNs, scalingSets);
            long cpuNs = processCpuNs() - cpu0;
            gcMs[i] = gcMs() - gc0;
            ios = 0;
            for (JobStats j : r.jobs()) {
              ios += j.totalIos(0) + j.totalIos(1) + j.totalIos(2);
            }
            nsPerIo[i] = ios == 0 ? Double.NaN : (double) r.engine().wallTimeNs() / ios;
            cpuPerIo[i] = ios == 0 || cpuNs <= 0 ? Double.NaN : (double) cpuNs / ios;
            long sum = 0;
            for (java.lang.management.MemoryPoolMXBean p
                : java.lang.management.ManagementFactory.getMemoryPoolMXBeans()) {
              if (p.getType() == java.lang.management.MemoryType.HEAP
                  && p.getPeakUsage() != null) {
                sum += p.getPeakUsage().getUsed();
              }
            }
            peak = Math.max(peak, sum);
          }
          double m = median(nsPerIo);
          double c = median(cpuPerIo);
          if (base == 0) {
            base = m;
            cpuBase = c;
          }
          out.printf(Locale.ROOT, "scaling %-8s %5d CPUs, %,d simulated I/Os in %s: %,.0f wall ns"
              + " per I/O (median of %d: %s), x%.2f of %d CPUs; peak heap %,d MiB, %,d KiB per"
              + " CPU%n", engine, cpus, ios, runtimeUs(cpuTimeNs, cpus) + " us", m, repeat,
              list(nsPerIo), m / base, sizes.get(0), peak >> 20, (peak >> 10) / cpus);
          out.printf(Locale.ROOT, "scaling %-8s %5d CPUs: %,.0f process CPU ns per I/O (median of"
              + " %d: %s), x%.2f of %d CPUs; GC %,.0f ms per run (median)%n", engine, cpus, c,
              repeat, list(cpuPerIo), c / cpuBase, sizes.get(0), median(gcMs));
          out.flush();
        }
      }
      memoryLatency(out, "after");
    } finally {
      try (java.util.stream.Stream<Path> w = java.nio.file.Files.list(dir)) {
        for (Path p : (Iterable<Path>) w::iterator) {
          java.nio.file.Files.deleteIfExists(p);
        }
        java.nio.file.Files.deleteIfExists(dir);
      } catch (java.io.IOException e) {
        // a temporary directory left behind is not worth failing the benchmark for
      }
    }
  }

  /**
   * The host's cost of a dependent load at four working-set sizes ({@link MemoryLatency}), printed
   * before and after the scaling runs: the model's live state grows by about 13 KiB per simulated
   * CPU, so 64 CPUs run from the L2 and 1,024 or 4,096 from wherever the host leaves the rest, and
   * the ratios against 64 CPUs follow the step this line shows (about 4 s).
   */
  private static void memoryLatency(PrintWriter out, String when) {
    double[] mib = {1, 4, 16, 64};
    StringBuilder ns = new StringBuilder();
    for (double m : mib) {
      double v = MemoryLatency.nsPerLoad((long) (m * (1 << 20)), 2_000_000L, 3);
      ns.append(ns.length() == 0 ? "" : " / ").append(String.format(Locale.ROOT, "%.0f", v));
    }
    out.printf(Locale.ROOT, "memory   dependent load (%s the runs) at 1 / 4 / 16 / 64 MiB of"
        + " working set: %s ns%n", when, ns);
    out.flush();
  }

  /** Milliseconds the collectors have spent so far (their pauses and concurrent phases). */
  private static long gcMs() {
    long ms = 0;
    for (java.lang.management.GarbageCollectorMXBean g
        : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
      ms += Math.max(0, g.getCollectionTime());
    }
    return ms;
  }

  /** The runtime of one job at {@code cpus} CPUs, in fio's granularity (whole us, at least 1). */
  private static long runtimeUs(long cpuTimeNs, int cpus) {
    return Math.max(1, cpuTimeNs / cpus / 1000);
  }

  /** One scaling run: {@code cpus} CPUs, one {@code engine} job per CPU for cpuTimeNs / cpus. */
  private static RunResult scalingRun(Path scenario, Path dir, String engine, int cpus,
      long cpuTimeNs, List<String> sets) {
    Path job = dir.resolve("scaling-" + engine + "-" + cpus + ".fio");
    String text = "[global]\nioengine=" + engine + "\n"
        + (engine.equals("io_uring") ? "iodepth=4\n" : "")
        + "direct=1\nrw=randread\nbs=4k\nfilename=/dev/nullb0\nruntime="
        + runtimeUs(cpuTimeNs, cpus) + "us\ntime_based\ngroup_reporting\n\n[scaling]\nnumjobs="
        + cpus + "\n";
    try {
      java.nio.file.Files.writeString(job, text);
    } catch (java.io.IOException e) {
      throw new InputException(job.toString(), 0, null, "cannot write the benchmark job: " + e);
    }
    List<String> overrides = new ArrayList<>(List.of(
        "blksim.machine.cores-per-llc=" + cpus / 4,
        "blksim.fio.job-files=[\"" + job.toAbsolutePath().toString().replace("\\", "\\\\")
            + "\"]"));
    overrides.addAll(sets);
    Scenario s = ScenarioLoader.load(scenario, overrides);
    return Simulator.run(s, Partitioning.parse(s.partitions()), Simulator.Host.CLUSTER,
        ProgressListener.NONE);
  }

  private static RunResult replayRun(Path scenario, Path trace) {
    Scenario s = ScenarioLoader.load(scenario, List.of("blksim.replay.trace=\""
        + trace.toAbsolutePath().toString().replace("\\", "\\\\") + "\""));
    return Simulator.run(s, Partitioning.parse(s.partitions()), Simulator.Host.CLUSTER,
        ProgressListener.NONE);
  }

  /** A fio v3 iolog: {@code n} 4 KiB random reads (70 %) and writes over 64 GiB, 1 µs apart. */
  private static Path writeIolog(Path p, long n) {
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(42);
    try (java.io.Writer w = java.nio.file.Files.newBufferedWriter(p)) {
      w.write("fio version 3 iolog\n0 /dev/sdb add\n0 /dev/sdb open\n");
      StringBuilder b = new StringBuilder(64);
      for (long i = 0; i < n; i++) {
        b.setLength(0);
        b.append(i + 1).append(" /dev/sdb ").append(rnd.nextInt(10) < 7 ? "read " : "write ")
            .append(rnd.nextLong(16L << 20) * 4096).append(" 4096\n");
        w.append(b);
      }
      w.write((n + 1) + " /dev/sdb close\n");
    } catch (java.io.IOException e) {
      throw new InputException(p.toString(), 0, null, "cannot write the benchmark trace: " + e);
    }
    return p;
  }

  /**
   * Dave's 4.3-rc1 fs_mark configuration (scenarios/writeback/dave-plug.conf, 1.12e7 files): one
   * run, simulated files per wall second, simulated against wall time, and the peak heap (the sum
   * of the heap pools' peaks, reset before the run).
   */
  private void writeback(PrintWriter out) {
    Path file = Home.scenarios().resolve("writeback/dave-plug.conf");
    Scenario s = ScenarioLoader.load(file, List.of());
    for (java.lang.management.MemoryPoolMXBean p
        : java.lang.management.ManagementFactory.getMemoryPoolMXBeans()) {
      p.resetPeakUsage();
    }
    Simulator.Outcome o = Simulator.runFull(s, Partitioning.parse(s.partitions()),
        Simulator.Host.CLUSTER, ProgressListener.NONE);
    long peak = 0;
    for (java.lang.management.MemoryPoolMXBean p
        : java.lang.management.ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == java.lang.management.MemoryType.HEAP && p.getPeakUsage() != null) {
        peak += p.getPeakUsage().getUsed();
      }
    }
    long files = 0;
    for (blksim.workload.fsmark.FsMarkRunReport r : o.fsMark()) {
      List<blksim.workload.fsmark.FsMarkIteration> its = r.iterations();
      files += its.isEmpty() ? 0 : its.get(its.size() - 1).count();
    }
    double wallS = o.fio().engine().wallTimeNs() / 1e9;
    double simS = o.fio().engine().simulatedTimeNs() / 1e9;
    out.printf(Locale.ROOT, "writeback %s: %,d files in %.1f s simulated, %.1f s wall: %,.0f"
        + " simulated files per wall second, wall/simulated %.2f, peak heap %,d MiB, %,.0f"
        + " events/s%n", file.getFileName(), files, simS, wallS, files / wallS, wallS / simS,
        peak >> 20, o.fio().engine().eventsPerWallSecond());
    out.flush();
  }

  static double median(double[] v) {
    double[] c = v.clone();
    Arrays.sort(c);
    return c.length % 2 == 1 ? c[c.length / 2] : (c[c.length / 2 - 1] + c[c.length / 2]) / 2;
  }

  private static String list(double[] v) {
    List<String> s = new ArrayList<>();
    for (double d : v) {
      s.add(String.format(Locale.ROOT, "%,.0f", d));
    }
    return String.join(", ", s);
  }
}
