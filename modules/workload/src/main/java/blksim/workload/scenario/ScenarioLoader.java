package blksim.workload.scenario;

import blksim.engine.InputException;
import blksim.engine.Partitioning;
import blksim.kernel.block.BlkMqRules;
import blksim.kernel.block.BlockLayerParams;
import blksim.kernel.block.MqDeadlineParams;
import blksim.kernel.block.RequestQueueParams;
import blksim.kernel.device.DiskParams;
import blksim.kernel.device.ZonedDiskParams;
import blksim.kernel.device.ZonedLayout;
import blksim.kernel.device.NcqPolicy;
import blksim.kernel.device.RequestBasedParams;
import blksim.kernel.device.RotationalDiskParams;
import blksim.kernel.device.SsdDeviceParams;
import blksim.kernel.device.SsdParams;
import blksim.kernel.device.WriteCacheParams;
import blksim.kernel.device.BrdParams;
import blksim.kernel.device.DeviceParams;
import blksim.kernel.device.IrqMode;
import blksim.kernel.device.NullBlkDriver;
import blksim.kernel.device.NullBlkParams;
import blksim.kernel.device.ZramParams;
import blksim.kernel.dm.DelayVersion;
import blksim.kernel.dm.DmCostParams;
import blksim.kernel.dm.DmParams;
import blksim.kernel.dm.DmTable;
import blksim.kernel.dm.DmTableException;
import blksim.kernel.fs.FilesystemParams;
import blksim.kernel.fs.Mounts;
import blksim.kernel.fs.XfsGeometry;
import blksim.kernel.fs.XfsParams;
import blksim.kernel.iouring.IoUringParams;
import blksim.kernel.sched.TimehistParams;
import blksim.kernel.sched.PreemptModel;
import blksim.kernel.sched.SchedParams;
import blksim.kernel.topology.Cpu;
import blksim.kernel.topology.CpuList;
import blksim.kernel.topology.Topology;
import blksim.kernel.topology.TopologyParams;
import blksim.workload.fio.FioEngine;
import blksim.workload.fio.FioEnvironment;
import blksim.workload.fio.FioJob;
import blksim.workload.fio.FioCommandLineText;
import blksim.workload.fio.FioJobFile;
import blksim.kernel.fs.Mounts;
import blksim.kernel.mm.DirtyParams;
import blksim.workload.fsmark.FsMarkOptions;
import blksim.workload.shell.ShellCommand;
import com.typesafe.config.ConfigOrigin;
import blksim.kernel.mm.MmParams;
import blksim.kernel.mm.PageCacheParams;
import blksim.kernel.mm.WbPlugPolicy;
import blksim.kernel.mm.WritebackParams;
import blksim.kernel.syscall.SyscallParams;
import blksim.workload.fio.thread.FioCostParams;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigOrigin;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigRenderOptions;
import com.typesafe.config.ConfigSyntax;
import com.typesafe.config.ConfigUtil;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueFactory;
import com.typesafe.config.ConfigValueType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a scenario file (HOCON), applies {@code --set} overrides and the machine profile, rejects
 * every key it does not know and every value that breaks a rule (naming file, line, key and rule),
 * reads the fio job files, and produces a {@link Scenario} with a self-contained spec text.
 *
 * <p>The same code reads the spec text back on every partition ({@link #fromSpec}), so a scenario
 * means the same thing wherever it is built.
 */
public final class ScenarioLoader {
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(ScenarioLoader.class);

  private static final Pattern ENV = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");
  private static final ConfigParseOptions PARSE =
      ConfigParseOptions.defaults().setSyntax(ConfigSyntax.CONF).setAllowMissing(false);

  private ScenarioLoader() {}

  /**
   * Loads {@code file} with {@code overrides} ({@code key=value}, HOCON path syntax, the
   * {@code blksim.} prefix optional) and the process environment for fio's {@code ${VAR}}.
   */
  public static Scenario load(Path file, List<String> overrides) {
    return load(file, overrides, System.getenv());
  }

  /** As {@link #load(Path, List)}, with an explicit environment for fio's {@code ${VAR}}. */
  public static Scenario load(Path file, List<String> overrides, Map<String, String> env) {
    if (file.toString().isEmpty()) {
      throw new InputException(null, 0, "SCENARIO", "an empty path is not a scenario file");
    }
    checkReadable(file, "scenario file");
    Config cfg = parseFile(file);
    for (String o : overrides) {
      cfg = applyOverride(cfg, o);
    }
    checkRoot(cfg);
    Path dir = file.toAbsolutePath().getParent();
    if (cfg.hasPath("blksim.profile") && !string(cfg, "blksim.profile").isEmpty()) {
      String prof = string(cfg, "blksim.profile");
      Path pf = dir.resolve(prof).normalize();
      if (Files.isDirectory(pf)) {
        throw error(cfg, "blksim.profile", "profile " + pf + " is a directory, not a file");
      }
      if (!Files.isRegularFile(pf)) {
        throw error(cfg, "blksim.profile", "profile file " + pf + " not found");
      }
      Config profile = parseFile(pf);
      checkRoot(profile);
      cfg = cfg.withFallback(profile);
    }
    try {
      cfg = cfg.resolve();
    } catch (ConfigException e) {
      // An undefined substitution such as ${nope}: its file and line, not a stack trace.
      throw fromConfigException(file.toString(), e);
    }
    validateKeys(cfg);
    // Inline the fio job files so the spec is self-contained.
    List<String> texts = new ArrayList<>();
    List<String> names = new ArrayList<>();
    if (cfg.hasPath("blksim.fio.jobs")) {
      texts.addAll(cfg.getStringList("blksim.fio.jobs"));
      for (int i = 0; i < texts.size(); i++) {
        names.add(file + " (blksim.fio.jobs[" + i + "])");
      }
    }
    if (cfg.hasPath("blksim.fio.job-files")) {
      for (String jf : stringList(cfg, "blksim.fio.job-files")) {
        Path p = dir.resolve(jf).normalize();
        if (Files.isDirectory(p)) {
          throw error(cfg, "blksim.fio.job-files", p + " is a directory, not a fio job file");
        }
        if (!Files.isRegularFile(p)) {
          throw error(cfg, "blksim.fio.job-files", "fio job file " + p + " not found");
        }
        try {
          texts.add(expandEnv(Files.readString(p, StandardCharsets.UTF_8), env));
        } catch (IOException e) {
          throw error(cfg, "blksim.fio.job-files", "cannot read " + p + ": " + e.getMessage());
        }
        names.add(p.toString());
      }
    }
    Config spec = cfg.withoutPath("blksim.fio.job-files").withoutPath("blksim.profile")
        .withValue("blksim.fio.jobs", ConfigValueFactory.fromIterable(texts))
        .withValue("blksim.fio.job-names", ConfigValueFactory.fromIterable(names));
    if (cfg.hasPath("blksim.replay.trace") && !cfg.getString("blksim.replay.trace").isEmpty()) {
      // The spec is self-contained: the trace's path no longer depends on the scenario's place.
      spec = spec.withValue("blksim.replay.trace", ConfigValueFactory.fromAnyRef(
          dir.resolve(cfg.getString("blksim.replay.trace")).toAbsolutePath().normalize()
              .toString(), cfg.getValue("blksim.replay.trace").origin().description()));
    }
    String text = spec.root().render(ConfigRenderOptions.concise().setFormatted(true));
    return build(spec, text, dir);
  }

  /**
   * {@code blksim.fio.command-line}: fio's job options given with the job files, as job-file
   * text, or {@code null} for none; they need a job file to apply to (without one, {@code run}
   * writes them as a job file of their own).
   */
  private static FioCommandLineText fioCommandLine(Values v, List<String> texts) {
    List<String> options = v.getStringList("fio.command-line");
    if (options.isEmpty()) {
      return null;
    }
    if (texts.isEmpty()) {
      throw v.error("fio.command-line", "fio's options on the command line apply to a job file"
          + " (as fio's first job file's defaults): the scenario has none (blksim.fio.job-files)");
    }
    try {
      return FioCommandLineText.of(options);
    } catch (InputException e) {
      throw new InputException(FioCommandLineText.NAME, 0, e.key(), e.rule());
    }
  }

  /**
   * {@code blksim.fio.sections} (fio's {@code --section}): the job sections to run, or
   * {@code null} for all. Stricter than fio, which runs nothing and says "No job(s) defined" only
   * when no name matches: every name must be a job section of one of the job files.
   */
  private static java.util.Set<String> fioSections(Values v, List<String> texts) {
    List<String> wanted = v.getStringList("fio.sections");
    if (wanted.isEmpty()) {
      return null;
    }
    java.util.Set<String> known = new java.util.LinkedHashSet<>();
    for (String t : texts) {
      known.addAll(FioJobFile.sectionNames(t));
    }
    for (String w : wanted) {
      if (w.equals("global")) {
        throw v.error("fio.sections", "can't use global as only section: [global] sections"
            + " always apply");
      }
      if (!known.contains(w)) {
        throw v.error("fio.sections", "no section [" + w + "] in the fio job files (they have "
            + known + ")");
      }
    }
    return java.util.Set.copyOf(new java.util.LinkedHashSet<>(wanted));
  }

  /** Reads back a spec text made by {@link #load}; used by every partition. */
  public static Scenario fromSpec(String spec) {
    Config cfg = ConfigFactory.parseString(spec,
        ConfigParseOptions.defaults().setOriginDescription("scenario spec"));
    return build(cfg, spec, null);
  }

  /**
   * A device's {@code nr-requests} given as a number (not auto): in [1, 65536]. The one parser of
   * the ssd, nvme and null_blk types.
   */
  static int explicitNrRequests(Values dv, String nr) {
    int n;
    try {
      n = Integer.parseInt(nr);
    } catch (NumberFormatException e) {
      throw dv.error("nr-requests", "nr-requests must be auto or a whole number in [1, 65536],"
          + " was '" + nr + "'");
    }
    if (n < 1 || n > 65536) {
      throw dv.error("nr-requests", "nr-requests must be in [1, 65536], was " + n);
    }
    return n;
  }

  private static final java.util.regex.Pattern INCLUDE_REQUIRED = java.util.regex.Pattern.compile(
      "^\\s*include\\s+(required\\s*\\(\\s*)?(?:file\\s*\\(\\s*)?\"([^\"]+)\"");

  /**
   * Every {@code include required("X")} (or {@code required(file("X"))}) of a file whose X does
   * not exist beside it: the including file, the line and the name, before the HOCON parser
   * reports it without a line (and, for a relative name, as missing from the classpath). A plain
   * {@code include "X"} or {@code include file("X")} too: HOCON would drop it without a word, so
   * a misspelt shared part would silently run the scenario without it.
   */
  public static void checkIncludes(Path file) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException | java.io.UncheckedIOException e) {
      return; // not text: the parser says what it is
    }
    for (int i = 0; i < lines.size(); i++) {
      java.util.regex.Matcher m = INCLUDE_REQUIRED.matcher(lines.get(i));
      if (m.find()) {
        Path inc = file.toAbsolutePath().getParent().resolve(m.group(2)).normalize();
        if (!Files.isRegularFile(inc)) {
          throw new InputException(file.toString(), i + 1, null, "include "
              + (m.group(1) != null ? "required(" : "") + "\"" + m.group(2) + "\""
              + (m.group(1) != null ? ")" : "") + ": " + inc
              + (Files.isDirectory(inc) ? " is a directory" : " not found")
              + (m.group(1) != null ? "" : " (blksim refuses a missing include that HOCON"
                  + " would ignore)"));
        }
      }
    }
  }

  private static Config parseFile(Path file) {
    checkText(file);
    checkIncludes(file);
    try {
      return ConfigFactory.parseFile(file.toFile(), PARSE);
    } catch (ConfigException e) {
      throw fromConfigException(file.toString(), e);
    } catch (StackOverflowError e) {
      // Typesafe Config parses nesting recursively: thousands of nested objects overflow it.
      throw new InputException(file.toString(), 0, null,
          "objects or lists nested too deeply to parse (a scenario needs a handful of levels)");
    }
  }

  /** A scenario path that is a directory or missing, named as such. */
  private static void checkReadable(Path file, String what) {
    if (Files.isDirectory(file)) {
      throw new InputException(file.toString(), 0, null, "is a directory, not a " + what);
    }
    if (!Files.isRegularFile(file)) {
      throw new InputException(file.toString(), 0, null, what + " not found");
    }
  }

  /**
   * A binary file (a NUL byte or bytes that are not UTF-8 in its first 64 KiB) given as a
   * scenario or profile, named as such before the HOCON parser reports a confusing syntax error.
   */
  private static void checkText(Path file) {
    byte[] head;
    try (java.io.InputStream in = Files.newInputStream(file)) {
      head = in.readNBytes(64 * 1024);
    } catch (IOException e) {
      throw new InputException(file.toString(), 0, null, "cannot read: " + e.getMessage());
    }
    boolean binary = false;
    for (byte b : head) {
      if (b == 0) {
        binary = true;
        break;
      }
    }
    if (!binary) {
      java.nio.charset.CharsetDecoder dec = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT);
      java.nio.ByteBuffer bb = java.nio.ByteBuffer.wrap(head);
      java.nio.CharBuffer cb = java.nio.CharBuffer.allocate(head.length + 1);
      java.nio.charset.CoderResult r = dec.decode(bb, cb, head.length < 64 * 1024);
      // A multi-byte character cut at the 64 KiB boundary is underflow, not an error.
      binary = r.isError();
    }
    if (binary) {
      throw new InputException(file.toString(), 0, null,
          "a binary file, not a scenario (HOCON text)");
    }
  }

  private static InputException fromConfigException(String file, ConfigException e) {
    ConfigOrigin o = e.origin();
    String msg = e.getMessage();
    // Typesafe Config prefixes its messages with the origin; keep the rule only.
    if (o != null && msg.startsWith(o.description())) {
      msg = msg.substring(o.description().length()).replaceFirst("^:\\s*", "");
    }
    return new InputException(o != null && o.filename() != null ? o.filename() : file,
        o != null ? Math.max(0, o.lineNumber()) : 0, null, msg);
  }

  /**
   * How an override names itself in errors: {@code "--set " + key=value} is the file part of an
   * {@link InputException} about it.
   */
  public static final String OVERRIDE_ORIGIN_PREFIX = "--set ";

  /**
   * Applies one {@code --set key=value}. Paths may index lists ({@code devices.0.irqmode}), which
   * HOCON paths cannot, so the value is set by walking the tree.
   */
  private static Config applyOverride(Config cfg, String o) {
    int eq = o.indexOf('=');
    if (eq <= 0) {
      throw new InputException("--set", 0, o, "an override is key=value, for example"
          + " --set seed=7 or --set devices.0.irqmode=timer");
    }
    String key = o.substring(0, eq).trim();
    String value = o.substring(eq + 1).trim();
    if (!key.equals("blksim") && !key.startsWith("blksim.")) {
      key = "blksim." + key;
    }
    ConfigParseOptions opts = ConfigParseOptions.defaults().setOriginDescription(OVERRIDE_ORIGIN_PREFIX + o);
    ConfigValue v;
    try {
      v = ConfigFactory.parseString("v = " + value, opts).getValue("v");
    } catch (ConfigException e) {
      // Not HOCON: take the whole value as a string.
      v = ConfigFactory.parseString("v = "
          + ConfigValueFactory.fromAnyRef(value).render(ConfigRenderOptions.concise()), opts)
          .getValue("v");
    }
    List<String> segs;
    try {
      segs = ConfigUtil.splitPath(key);
    } catch (ConfigException e) {
      throw new InputException("--set", 0, key, "not a valid key path: " + e.getMessage());
    }
    return ((ConfigObject) set(cfg.root(), segs, 0, v, key)).toConfig();
  }

  private static ConfigValue set(ConfigValue cur, List<String> segs, int i, ConfigValue v,
      String key) {
    if (i == segs.size()) {
      return v;
    }
    String seg = segs.get(i);
    if (cur instanceof ConfigList list) {
      if (!seg.matches("\\d+")) {
        throw new InputException("--set", 0, key, "'" + String.join(".", segs.subList(0, i))
            + "' is a list: index it with a number, as in devices.0.name");
      }
      int idx = Integer.parseInt(seg);
      if (idx >= list.size()) {
        throw new InputException("--set", 0, key, "index " + idx + " is out of range: '"
            + String.join(".", segs.subList(0, i)) + "' has " + list.size() + " element(s)");
      }
      List<ConfigValue> copy = new ArrayList<>(list);
      copy.set(idx, set(list.get(idx), segs, i + 1, v, key));
      return ConfigValueFactory.fromIterable(copy);
    }
    ConfigObject obj = cur instanceof ConfigObject co ? co : ConfigFactory.empty().root();
    return obj.withValue(seg, set(obj.get(seg), segs, i + 1, v, key));
  }

  private static void checkRoot(Config cfg) {
    for (Map.Entry<String, ConfigValue> e : cfg.root().entrySet()) {
      if (!e.getKey().equals("blksim")) {
        ConfigOrigin o = e.getValue().origin();
        throw new InputException(o.filename() != null ? o.filename() : o.description(),
            Math.max(0, o.lineNumber()), e.getKey(),
            "unknown top-level key: every scenario key lives under 'blksim'");
      }
    }
  }

  private static void validateKeys(Config cfg) {
    if (!cfg.hasPath("blksim")) {
      return;
    }
    Config b = cfg.getConfig("blksim");
    for (Map.Entry<String, ConfigValue> e : b.entrySet()) {
      String path = e.getKey();
      if (path.equals("devices")) {
        continue;
      }
      if (ScenarioSchema.key(path) == null) {
        throw error(cfg, "blksim." + path, "unknown scenario key; "
            + knownNear(path));
      }
    }
    if (b.hasPath("devices")) {
      ConfigValue v = b.getValue("devices");
      if (v.valueType() != ConfigValueType.LIST) {
        throw error(cfg, "blksim.devices", "devices must be a list of objects");
      }
      ConfigList list = (ConfigList) v;
      for (int i = 0; i < list.size(); i++) {
        ConfigValue dv = list.get(i);
        String where = "blksim.devices." + i;
        if (dv.valueType() != ConfigValueType.OBJECT) {
          throw at(dv.origin(), where, "each device must be an object such as"
              + " { type = null_blk, name = nullb0 }");
        }
        Config d = ((ConfigObject) dv).toConfig();
        if (!d.hasPath("type")) {
          throw at(dv.origin(), where + ".type", "a device needs a type; known types: "
              + ScenarioSchema.DEVICE_KEYS.keySet());
        }
        String type = d.getString("type");
        List<Param> keys = ScenarioSchema.DEVICE_KEYS.get(type);
        if (keys == null) {
          throw at(d.getValue("type").origin(), where + ".type", "unknown device type '" + type
              + "'; known types: " + ScenarioSchema.DEVICE_KEYS.keySet());
        }
        for (Map.Entry<String, ConfigValue> de : d.entrySet()) {
          if (keys.stream().noneMatch(p -> p.path().equals(de.getKey()))) {
            TreeSet<String> known = new TreeSet<>();
            keys.forEach(p -> known.add(p.path()));
            throw at(de.getValue().origin(), where + "." + de.getKey(),
                "unknown key for a " + type + " device; known keys: " + known);
          }
        }
      }
    }
  }

  private static String knownNear(String path) {
    String prefix = path.contains(".") ? path.substring(0, path.lastIndexOf('.') + 1) : "";
    TreeSet<String> near = new TreeSet<>();
    for (Param p : ScenarioSchema.KEYS) {
      if (p.path().startsWith(prefix)) {
        near.add("blksim." + p.path());
      }
    }
    if (near.isEmpty() || near.size() > 24) {
      // No section of that name, or a large one: the closest spellings and the sections,
      // rather than a list of every key.
      TreeSet<String> sections = new TreeSet<>();
      List<String> close = new ArrayList<>();
      int best = Integer.MAX_VALUE;
      for (Param p : ScenarioSchema.KEYS) {
        String k = p.path();
        sections.add(k.contains(".") ? "blksim." + k.substring(0, k.indexOf('.')) + ".*"
            : "blksim." + k);
        int d = editDistance(path, k);
        if (d < best) {
          best = d;
          close.clear();
        }
        if (d == best && close.size() < 3) {
          close.add("blksim." + k);
        }
      }
      String hint = best <= Math.max(2, path.length() / 3) ? "did you mean "
          + String.join(" or ", close) + "? " : "";
      return hint + "top-level keys and sections: " + String.join(", ", sections)
          + " (./blksim describe lists every key)";
    }
    return "known keys: " + String.join(", ", near);
  }

  /** Levenshtein distance, for "did you mean". */
  private static int editDistance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        cur[j] = Math.min(sub, Math.min(prev[j] + 1, cur[j - 1] + 1));
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }

  /**
   * Where a job file's relative {@code include}s resolve: as fio does ({@code __parse_jobs_ini()}
   * in {@code init.c}), against the job file's own directory, which {@code job-names} holds for a
   * file of {@code fio.job-files}; inline job text resolves against the scenario's directory.
   */
  private static Path includeDir(String name, Path dir) {
    try {
      Path p = Path.of(name);
      return p.isAbsolute() && Files.isRegularFile(p) ? p.getParent() : dir;
    } catch (java.nio.file.InvalidPathException e) {
      return dir;
    }
  }

  private static Scenario build(Config cfg, String spec, Path dir) {
    Values v = new Values(cfg, "blksim", ScenarioSchema.KEYS);
    long seed = v.getLong("seed");
    String partitions = v.getString("partitions");
    boolean partitionsAuto = partitions.trim().equalsIgnoreCase("auto");
    try {
      if (!partitionsAuto) {
        Partitioning.parse(partitions);
      }
    } catch (IllegalArgumentException e) {
      throw v.error("partitions", "partitions must be auto, one, node, llc, cpu or a number"
          + " N >= 1, was '" + partitions + "'");
    }
    TopologyParams topo;
    try {
      topo = new TopologyParams(v.getInt("machine.sockets"), v.getInt("machine.nodes-per-socket"),
          v.getInt("machine.llcs-per-node"), v.getInt("machine.cores-per-llc"),
          v.getInt("machine.threads-per-core"));
    } catch (IllegalArgumentException e) {
      throw v.error("machine.sockets", e.getMessage());
    }
    if (partitionsAuto) {
      partitions = autoPartitions(cfg, spec, dir, topo);
    }
    Partitioning part = Partitioning.parse(partitions);
    if (part.kind() == Partitioning.Kind.COUNT && part.count() > topo.cpuCount()) {
      throw v.error("partitions", "at most one partition per simulated CPU: " + part.count()
          + " partitions for " + topo.cpuCount() + " CPUs");
    }
    int hz = v.getInt("kernel.hz");
    if (hz != 100 && hz != 250 && hz != 300 && hz != 1000) {
      throw v.error("kernel.hz", "kernel.hz must be 100, 250, 300 or 1000, was " + hz);
    }
    SchedParams sched = SchedParams.forCpus(topo.cpuCount(),
        PreemptModel.parse(v.getString("kernel.preempt")), hz,
        v.getDuration("costs.sched.ctx-switch"), v.getDuration("costs.sched.idle-exit"),
        v.getDuration("costs.sched.wakeup-latency"))
        .withScheduler(schedClass(v.getString("kernel.scheduler"), v.getString("kernel.mode")));
    sched = tunables(v, sched);
    sched = sched.withPlacement(new blksim.kernel.sched.PlacementParams(
        blksim.kernel.sched.PlacementParams.Rule.valueOf(
            v.getString("kernel.wake-placement").toUpperCase(java.util.Locale.ROOT)),
        v.getDouble("costs.sched.smt-slowdown"), v.getDuration("costs.sched.cacheline"),
        v.getDuration("costs.sched.cacheline-remote"), v.getDuration("costs.sched.wake-remote"),
        v.getDuration("costs.sched.wakeup-cross-llc"),
        v.getDuration("costs.sched.wakeup-cross-node")));
    if (v.getDuration("costs.fio.random-map-per-io")
        + v.getDuration("costs.fio.random-draw-per-io") > v.getDuration("costs.fio.user-per-io")) {
      throw v.error("costs.fio.random-draw-per-io", FioCostParams.SHARES_RULE);
    }
    FioCostParams fioCosts = new FioCostParams(v.getDuration("costs.fio.user-per-io"),
        v.getDuration("costs.fio.cpuio-qsort-round"),
        v.getDuration("costs.fio.random-map-per-io"), v.getDuration("costs.fio.random-draw-per-io"),
        v.getDuration("costs.fio.zipf-draw-per-io"), v.getDuration("costs.fio.pareto-draw-per-io"),
        v.getDuration("costs.fio.posixaio-enqueue"), v.getDuration("costs.fio.posixaio-helper"));
    SyscallParams syscalls = new SyscallParams(v.getDuration("costs.fio.syscall"),
        v.getDuration("costs.fio.syscall-return"), v.getDuration("kernel.timer-slack"),
        v.getDuration("costs.mm.dio-pin-page"), v.getDuration("costs.mm.dio-unpin-page"));
    long nbSubmit = v.getDuration("costs.null-blk.submit");
    long nbComplete = v.getDuration("costs.null-blk.complete");
    List<DeviceParams> devices = new ArrayList<>();
    // queue/atomic_write_unit_max_bytes per device name (absent: 0, no atomic writes).
    Map<String, Long> atomicUnitMax = new java.util.TreeMap<>();
    // SCSI hosts named by request-based drives: host -> host-queue-depth.
    Map<String, Integer> scsiHosts = new java.util.TreeMap<>();
    if (cfg.hasPath("blksim.devices")) {
      ConfigList list = cfg.getList("blksim.devices");
      for (int i = 0; i < list.size(); i++) {
        Config d = ((ConfigObject) list.get(i)).toConfig();
        String type = d.getString("type");
        Values dv = new Values(d, null, ScenarioSchema.DEVICE_KEYS.get(type),
            "blksim.devices." + i + ".");
        String name = dv.getString("name");
        if (!name.matches("[A-Za-z0-9_.-]+")) {
          throw dv.error("name", "a device name is letters, digits, '_', '.', '-', was '"
              + name + "'");
        }
        for (DeviceParams prev : devices) {
          if (prev.name().equals(name)) {
            throw dv.error("name", "two devices are named " + name);
          }
        }
        if (type.equals("dm")) {
          devices.add(dmDevice(name, dv, v, d, devices));
          continue;
        }
        if (type.equals("ssd")) {
          long unit = dv.getSize("atomic-write-unit-max");
          if (unit != 0 && Long.bitCount(unit) != 1) {
            throw dv.error("atomic-write-unit-max", "atomic-write-unit-max must be 0 or a power"
                + " of two (the kernel's atomic_write_hw_unit_max is rounded down to one), was "
                + unit);
          }
          atomicUnitMax.put(name, unit);
        }
        if (type.equals("disk") || type.equals("ssd") || type.equals("zoned-disk")) {
          devices.add(requestBasedDevice(type, name, dv, v));
          String host = dv.getString("host").trim();
          if (!host.isEmpty()) {
            int hd = dv.getInt("host-queue-depth");
            Integer prevDepth = scsiHosts.putIfAbsent(host, hd);
            if (prevDepth != null && prevDepth != hd) {
              throw dv.error("host-queue-depth", "drives on host " + host + " share its tags and"
                  + " must agree on host-queue-depth: an earlier drive has " + prevDepth
                  + ", this one " + hd);
            }
          }
          continue;
        }
        try {
          devices.add(device(type, name, dv, v, nbSubmit, nbComplete));
        } catch (IllegalArgumentException e) {
          throw dv.error("size", e.getMessage());
        }
      }
    }
    sharedQueuePartitions(v, partitions, topo, devices);
    // Read here so that a bad value fails at load (ScenarioModelFactory applies them).
    v.getString("kernel.spinlock-contention");
    v.getString("kernel.rwsem-wait-lock");
    v.getString("kernel.btrfs-dio-plug");
    v.getString("kernel.cpuidle");
    v.getDuration("costs.rwsem.wait-lock-hold");
    v.getDuration("costs.rwsem.wait-list-entry");
    for (String k : List.of("dd-lock-hold", "handoff-smt", "handoff-llc", "handoff-node",
        "handoff-remote-node", "handoff-socket")) {
      v.getDuration("costs.spinlock." + k);
    }
    nullBlkPartitions(v, cfg, partitions, topo, devices);
    NvmeDevices.checkNrRequests(cfg, topo.cpuCount(), devices);
    BlockLayerParams blockLayer = new BlockLayerParams(v.getDuration("costs.block.nowait-reject"));
    IoUringParams ioUring = new IoUringParams(v.getDuration("costs.io-uring.enter"),
        v.getDuration("costs.io-uring.sqe-issue"), v.getDuration("costs.io-uring.cqe-post"),
        v.getDuration("costs.io-uring.punt"), v.getDuration("costs.io-uring.worker-create"),
        v.getDuration("costs.io-uring.worker-loop"),
        v.getDuration("kernel.io-wq-idle-timeout"), v.getDuration("costs.aio.iocb-submit"),
        v.getDuration("costs.io-uring.iopoll"));
    FioEnvironment env = new FioEnvironment(topo.cpuCount(), v.getSize("machine.memory") >> 20,
        4096);
    List<String> texts = new ArrayList<>(v.getStringList("fio.jobs"));
    FioPathMap pathMap;
    try {
      pathMap = new FioPathMap(v.getStringList("fio.map"));
    } catch (IllegalArgumentException e) {
      throw v.error("fio.map", e.getMessage());
    }
    texts.replaceAll(pathMap::apply);
    env = env.withPaths(pathMap::map);
    List<String> names = new ArrayList<>(cfg.hasPath("blksim.fio.job-names")
        ? cfg.getStringList("blksim.fio.job-names") : List.of());
    String replayJobs = replayJobs(v, cfg, dir, devices);
    if (replayJobs != null) {
      while (names.size() < texts.size()) {
        names.add("job file " + names.size());
      }
      texts.add(replayJobs);
      names.add(file(cfg.getValue("blksim.replay.trace").origin()) + " (blksim.replay)");
    }
    List<FioJob> jobs = new ArrayList<>();
    int groupBase = 0;
    FioCommandLineText commandLine = fioCommandLine(v, texts);
    List<String> withCommandLine = new ArrayList<>(texts);
    if (commandLine != null) {
      withCommandLine.add(commandLine.text()); // fio's --section picks its --name jobs too
    }
    java.util.Set<String> sections = fioSections(v, withCommandLine);
    for (int i = 0; i < texts.size(); i++) {
      String name = i < names.size() ? names.get(i) : "job file " + i;
      List<FioJob> parsed;
      if (i == 0 && commandLine != null) {
        try {
          parsed = FioJobFile.parseAfterCommandLine(FioCommandLineText.NAME,
              pathMap.apply(commandLine.text()), name, texts.get(i), includeDir(name, dir), env,
              Map.of(), sections);
        } catch (InputException e) {
          throw commandLine.restate(e);
        }
      } else {
        parsed = FioJobFile.parse(name, texts.get(i), includeDir(name, dir), env, Map.of(),
            sections);
      }
      int maxGroup = -1;
      for (FioJob j : parsed) {
        jobs.add(joined(j, groupBase, i > 0 && j == parsed.get(0)));
        maxGroup = Math.max(maxGroup, j.groupId());
      }
      // Several job files run with an implicit stonewall between them (formats.md §1.1).
      groupBase += maxGroup + 1;
    }
    for (FioJob j : jobs) {
      if (j.rw().trims() && !j.zonemodeZbd() && j.ioengine() != FioEngine.NULL
          && !(j.ioengine() == FioEngine.FALLOC
          && !j.rw().writes() && !j.rw().reads()) && !fileTrims(j)) {
        // (ioengine=falloc makes a trim a FALLOC_FL_PUNCH_HOLE fallocate; a pure trim job's
        // I/Os are all trims. On regular files, see fileTrims().)
        // IoPattern has no trim direction: such a job would silently issue writes.
        throw j.error("rw", "rw=" + j.rw().fioName() + " trims, which blksim models only"
            + " with zonemode=zbd, where they reset zones, with ioengine=null, with ioengine=falloc"
            + " (trim or randtrim: hole punches), and as trim or randtrim on regular files"
            + " (an ioctl(BLKDISCARD), which fails with ENOTTY); blksim does not issue discards"
            + " from fio jobs yet");
      }
    }
    if (jobs.size() > FIO_MAX_JOBS) {
      FioJob over = jobs.get(FIO_MAX_JOBS);
      throw over.error("numjobs", "numjobs makes the job files " + jobs.size() + " jobs (clones included),"
          + " more than fio's FIO_MAX_JOBS (" + FIO_MAX_JOBS + "; fio: error: maximum number of"
          + " jobs reached)");
    }
    if (jobs.isEmpty() && sections != null) {
      throw v.error("fio.sections", "no job left: the job files have no section " + sections);
    }
    List<String> fsMarkLines = v.getStringList("fs_mark.command-lines");
    List<ShellCommand> commands = commands(cfg, v.getStringList("commands"), partitions, topo);
    if (jobs.isEmpty() && fsMarkLines.isEmpty() && commands.isEmpty()
        && v.getString("dirty-files.directory").isEmpty()) {
      throw v.error("fio.job-files", "the scenario has no workload: set blksim.fio.job-files,"
          + " blksim.fs_mark.command-lines or blksim.commands");
    }
    int nodes = topo.sockets() * topo.nodesPerSocket();
    for (FioJob j : jobs) {
      int[] nn = j.numaCpuNodes();
      if (nn != null && nn[nn.length - 1] >= nodes) {
        throw j.error("numa_cpu_nodes", "NUMA node "
            + nn[nn.length - 1] + " does not exist; the machine has " + nodes + " (0-"
            + (nodes - 1) + ")");
      }
    }
    boolean bounded = v.getDuration("max-time") > 0;
    List<FilesystemParams> fss = filesystems(cfg, v, devices);
    jobs.replaceAll(j -> zbdZoneUnits(j, devices));
    ZramBufferMix.apply(jobs, devices); // buffer_compress_percentage on zram
    ioSchedulers(cfg, v, jobs, devices, fss, nbSubmit, nbComplete);
    for (FioJob j : jobs) {
      checkSyncIo(j, devices, fss);
    }
    for (FioJob j : jobs) {
      checkAtomic(j, devices, fss, atomicUnitMax);
      checkOffload(j, devices, fss);
      checkPrio(j, devices, fss);
      checkVerifyAsync(j);
      if (!j.ioengine().diskless() && j.filenames().size() > 1 && !regularFiles(j, devices, fss)
          && CharDeviceJobs.of(j, devices) == null) {
        // fio's file_service_type spreads the job's I/O over every file it names; a device job
        // here drives one device, so the others would silently get nothing.
        throw j.error("filename", "filename names " + j.filenames().size()
            + " devices (" + String.join(", ", j.filenames()) + "); one job on several block"
            + " devices is not modelled by blksim (fio spreads its I/O over them by"
            + " file_service_type): give each device a job of its own");
      }
      NowaitJobs.check(j, CharDeviceJobs.of(j, devices) != null,
          !j.ioengine().diskless() && (j.filename() == null || regularFiles(j, devices, fss)));
      if (fileTrims(j) && j.filename() != null && j.directory() == null
          && !regularFiles(j, devices, fss)) {
        throw j.error("rw", "rw=" + j.rw().fioName() + " on a block device is not"
            + " modelled (blksim does not issue discards from fio jobs yet); trims on regular"
            + " files are, with zonemode=zbd, and with ioengine=falloc");
      }
      if (j.ioengine() == FioEngine.POSIXAIO && !(j.filename() == null
          ? j.directory() != null : regularFiles(j, devices, fss))) {
          throw j.error("ioengine", "ioengine=posixaio is modelled by"
              + " blksim on regular files only so far (glibc's helper threads doing pread()/"
              + "pwrite()); on a block device choose psync, libaio or io_uring");
      }
      if (!regularFiles(j, devices, fss)) {
        checkJob(j, devices, bounded);
        if (j.hipri() && j.ioengine() == FioEngine.IO_URING
            && v.getString("kernel.mode").equals("V6_13")) {
          checkPolledDevice(j, devices);
        }
      }
    }
    List<FsMarkOptions> fsMark = fsMark(cfg, fsMarkLines, fss, partitions, topo);
    jobs.replaceAll(j -> existingFileSize(j, devices, fss));
    checkDirectoryJobs(jobs, fss, devices);
    checkSequencing(jobs, partitions, v);
    v.getDuration("trace.sample-interval"); // checked here, read by ScenarioModelFactory
    v.getCost("costs.timer.hrtimer-expiry"); // likewise (ScenarioModelFactory.spread)
    v.getCost("costs.irq.delivery");
    v.getString("kernel.cache-cold"); // likewise (ScenarioModelFactory.CacheCold)
    v.getSize("costs.cache.size");
    v.getCost("costs.cache.cold-page");
    v.getCost("costs.cache.cold-path");
    v.getDuration("costs.null-blk.memory-read-page"); // ScenarioModelFactory.CacheCold
    v.getDuration("costs.null-blk.memory-write-page");
    blksim.workload.umount.DirtyFiles dirtyFiles = dirtyFiles(v, fss, partitions, topo);
    checkOverwriteAlone(v, dirtyFiles, jobs, fsMark, devices, fss);
    int localityGroups = localityGroups(v, cfg, spec, dir, topo);
    return new Scenario(spec, seed, partitions, v.getDuration("max-time"),
        v.getString("description"), topo, v.getSize("machine.memory"), hz,
        v.getString("kernel.preempt"), v.getString("kernel.mode"),
        v.getDuration("kernel.housekeeping-interval"), v.getDuration("kernel.wq-monitor-interval"),
        v.getDuration("costs.sched.housekeeping-work"), sched, fioCosts, syscalls,
        new PageCacheParams(v.getDuration("costs.page-cache.miss"),
            v.getDuration("costs.page-cache.copy")), ioUring,
        blockLayer, List.copyOf(devices), List.copyOf(jobs), timehist(v, topo.cpuCount()),
        wakePlacement(v, partitions, topo.threadsPerCore() > 1),
        v.getDuration("costs.block.kblockd-run"),
        // A job on /dev/null or /dev/zero is buffered but touches no page cache.
        mm(v, jobs.stream().filter(j -> CharDeviceJobs.of(j, devices) == null).toList(),
            partitions, topo), fss, fsMark,
        new Scenario.FsMarkCosts(v.getDuration("costs.fs-mark.user-per-file"),
            v.getDuration("costs.fs-mark.fork")), commands, v.getDuration("costs.shell.exec"),
        dirtyFiles, wqSettings(v, topo), loadBalance(v), localityGroups);
  }

  /**
   * {@code s} with {@code locality-groups = n} (checked as if the scenario file had it): for
   * {@code run --check-determinism}, whose reference run has no groups.
   */
  public static Scenario withLocalityGroups(Scenario s, int n) {
    Config cfg = ConfigFactory.parseString(s.spec(),
        ConfigParseOptions.defaults().setOriginDescription("scenario spec"))
        .withValue("blksim.locality-groups", ConfigValueFactory.fromAnyRef(Integer.toString(n)));
    return build(cfg, cfg.root().render(ConfigRenderOptions.concise().setFormatted(true)), null);
  }

  /** {@code locality-groups = auto} gives one group per this many CPUs. */
  static final int CPUS_PER_LOCALITY_GROUP = 64;

  /** {@code locality-groups = auto} groups machines of at least this many CPUs. */
  static final int LOCALITY_GROUPS_FROM_CPUS = 1024;

  /** {@code partitions = auto} splits machines of at least this many CPUs. */
  static final int AUTO_PARTITIONS_FROM_CPUS = 256;

  /**
   * {@code partitions = auto} uses at most this many partitions: the threads of
   * {@code blksim-dispatcher} (engine reference.conf), which run the partitions of one JVM.
   */
  static final int AUTO_PARTITIONS_MAX = 2;

  /**
   * {@code partitions = auto} resolved: from {@link #AUTO_PARTITIONS_FROM_CPUS} CPUs, as many
   * partitions as the JVM has processors (at most {@link #AUTO_PARTITIONS_MAX}), where the
   * scenario accepts that partitioning (loaded once more with it: any partitioning rule of this
   * loader that refuses it, or {@code sharesKernelState}, leaves {@code one}). Below that size a
   * window of one lookahead holds too few events to pay for the partitions' synchronisation
   * (measured: 64 and 128 CPUs ran slower in 2 partitions, 256 and more faster; DEVELOPERS.md).
   * Results never depend on it; only the run's wall time and its {@code partitions} field do.
   */
  private static String autoPartitions(Config cfg, String spec, Path dir, TopologyParams topo) {
    int n = Math.min(AUTO_PARTITIONS_MAX, Runtime.getRuntime().availableProcessors());
    if (topo.cpuCount() < AUTO_PARTITIONS_FROM_CPUS || n < 2) {
      return "one";
    }
    return splitRefusal(cfg, spec, dir, n) == null ? Integer.toString(n) : "one";
  }

  /**
   * Why the scenario may not run in {@code n} partitions (it is loaded once more with {@code
   * partitions = n} and no locality groups): the refusing rule, or null if it may.
   */
  private static String splitRefusal(Config cfg, String spec, Path dir, int n) {
    Config trial = cfg
        .withValue("blksim.partitions", ConfigValueFactory.fromAnyRef(Integer.toString(n)))
        .withValue("blksim.locality-groups", ConfigValueFactory.fromAnyRef("1"));
    try {
      return build(trial, spec, dir).sharesKernelState() ? "the scenario has a page cache, a"
          + " filesystem or a shared request queue, which every CPU touches" : null;
    } catch (InputException e) {
      return e.rule();
    }
  }

  /**
   * {@code locality-groups} resolved (see {@link blksim.engine.Model#localityGroups()}): N groups
   * run a partition's CPUs as N partitions would, so they are allowed where partitions = N is
   * (the scenario is loaded once more with it, and any of this loader's partitioning rules that
   * refuses it refuses the groups); with several partitions each runs the groups of its own
   * components. {@code auto}: one group per 64 CPUs from 1,024 CPUs, 1 where partitions = N is
   * refused; an explicit N that is refused is an error naming the rule.
   */
  private static int localityGroups(Values v, Config cfg, String spec, Path dir,
      TopologyParams topo) {
    String raw = v.getString("locality-groups").trim().toLowerCase(java.util.Locale.ROOT);
    int cpus = topo.cpuCount();
    int n;
    boolean auto = raw.equals("auto");
    if (auto) {
      n = cpus >= LOCALITY_GROUPS_FROM_CPUS ? cpus / CPUS_PER_LOCALITY_GROUP : 1;
    } else {
      try {
        n = Integer.parseInt(raw);
      } catch (NumberFormatException e) {
        throw v.error("locality-groups", "locality-groups must be auto or a whole number of"
            + " groups from 1 to the CPU count (" + cpus + "), was '" + raw + "'");
      }
      if (n < 1 || n > cpus) {
        throw v.error("locality-groups", "locality-groups must be auto or from 1 to the CPU"
            + " count (" + cpus + "), was " + n);
      }
    }
    if (n <= 1) {
      return 1;
    }
    String refusal = splitRefusal(cfg, spec, dir, n);
    if (refusal == null) {
      return n;
    }
    if (auto) {
      return 1;
    }
    throw v.error("locality-groups", "locality-groups = " + n + " runs the CPUs as " + n
        + " partitions would, which this scenario refuses: " + refusal);
  }

  /**
   * {@code dirty-files.overwrite} places the files an earlier run left (their blocks, and on
   * dm-zoned their chunk mappings) before the first bio reaches the filesystem's device: refused
   * when a fio job or an fs_mark command of the scenario does I/O on that device (by its name or
   * through a file of a filesystem on it) from the start of the run, since its bios could come
   * first and the placement would no longer describe an earlier run.
   */
  private static void checkOverwriteAlone(Values v, blksim.workload.umount.DirtyFiles d,
      List<FioJob> jobs, List<FsMarkOptions> fsMark, List<DeviceParams> devices,
      List<FilesystemParams> fss) {
    if (d == null || d.overwrite() <= 0) {
      return;
    }
    FilesystemParams home = filesystemHolding(d.directory(), fss);
    if (home == null) {
      return;
    }
    String dev = home.device();
    String rule = " with dirty-files.overwrite = " + d.overwrite() + " (files an earlier run left"
        + " on " + dev + ", placed before its first bio) no fio job or fs_mark command may do"
        + " I/O on " + dev + " during the run; ";
    for (FioJob j : jobs) {
      if (j.ioengine().diskless()) {
        continue;
      }
      boolean onDev = false;
      if (regularFiles(j, devices, fss)) {
        for (int i = 0; i < j.filenames().size() && !onDev; i++) {
          FilesystemParams f = filesystemHolding(j.regularFile(i), fss);
          onDev = f != null && f.device().equals(dev);
        }
      } else if (j.filename() != null) {
        for (String n : j.filenames()) {
          String bare = n.startsWith("/dev/") ? n.substring(5) : n;
          onDev |= bare.equals(dev);
        }
      } else if (j.directory() != null) {
        FilesystemParams f = filesystemHolding(j.directory(), fss);
        onDev = f != null && f.device().equals(dev);
      }
      if (onDev) {
        throw v.error("dirty-files.overwrite", "dirty-files.overwrite and fio.job-files:" + rule
            + "fio job '" + j.name() + "' does; drop one of them or set dirty-files.overwrite"
            + " = 0");
      }
    }
    for (FsMarkOptions m : fsMark) {
      for (String dir : m.directories()) {
        FilesystemParams f = filesystemHolding(dir, fss);
        if (f != null && f.device().equals(dev)) {
          throw v.error("dirty-files.overwrite", "dirty-files.overwrite and"
              + " fs_mark.command-lines:" + rule + "fs_mark -d " + dir + " does; drop one of"
              + " them or set dirty-files.overwrite = 0");
        }
      }
    }
  }

  /** {@code kernel.load-balance} and its tunables. */
  private static blksim.kernel.sched.LoadBalanceParams loadBalance(Values v) {
    return new blksim.kernel.sched.LoadBalanceParams(
        v.getString("kernel.load-balance").equals("on"),
        v.getDuration("kernel.sched-migration-cost"),
        blksim.kernel.sched.LoadBalanceParams.DEFAULT_NR_MIGRATE);
  }

  /**
   * {@code dirty-files}: null when its directory is "", else the volume, checked: the directory
   * in a filesystem of the scenario, sizes in whole 4 KiB pages, a stride of at least the
   * extent, the volume within the machine's dirtyable memory (the page cache must hold it), one
   * partition (the page cache is shared).
   */
  private static blksim.workload.umount.DirtyFiles dirtyFiles(Values v,
      List<FilesystemParams> fss, String partitions, TopologyParams topo) {
    String dir = v.getString("dirty-files.directory");
    if (dir.isEmpty()) {
      return null;
    }
    String norm = blksim.kernel.fs.Mounts.normalise(dir);
    boolean inFs = false;
    for (FilesystemParams f : fss) {
      String mp = f.mountPoint();
      if (norm != null && (norm.equals(mp) || norm.startsWith(mp.equals("/") ? "/" : mp + "/"))) {
        inFs = true;
      }
    }
    if (!inFs) {
      throw v.error("dirty-files.directory", "dirty-files.directory must be an absolute path in"
          + " a filesystem of blksim.filesystems, was '" + dir + "'");
    }
    long files = v.getInt("dirty-files.files");
    long size = v.getSize("dirty-files.file-size");
    long extent = v.getSize("dirty-files.dirty-extent");
    long stride = v.getSize("dirty-files.dirty-stride");
    for (String k : List.of("file-size", "dirty-extent", "dirty-stride")) {
      if (v.getSize("dirty-files." + k) % 4096 != 0) {
        throw v.error("dirty-files." + k, "dirty-files." + k + " must be a multiple of 4 KiB,"
            + " was " + v.getSize("dirty-files." + k));
      }
    }
    if (extent == 0 && stride != 0 || extent > 0 && stride < extent) {
      throw v.error("dirty-files.dirty-stride", "dirty-files.dirty-stride must be at least"
          + " dirty-files.dirty-extent (" + extent + "), and 0 when the extent is 0; was "
          + stride);
    }
    blksim.workload.umount.DirtyFiles d = new blksim.workload.umount.DirtyFiles(norm, files,
        size, v.getInt("dirty-files.directories"), extent, stride,
        v.getDouble("dirty-files.overwrite"), v.getDouble("dirty-files.overwrite-random"));
    long dirtyable = v.getSize("machine.memory") - v.getSize("machine.reserved-memory");
    if (d.totalDirtyBytes() > dirtyable) {
      throw v.error("dirty-files.files", "the dirty volume, dirty-files.files x the dirty bytes"
          + " of a file = " + d.totalDirtyBytes() + " bytes, must fit in the page cache: at most"
          + " machine.memory - machine.reserved-memory = " + dirtyable + " bytes");
    }
    if (!onePartition(partitions, topo)) {
      throw v.error("partitions", "dirty-files share the page cache with every CPU: use"
          + " partitions = one, not '" + partitions + "'");
    }
    return d;
  }

  /**
   * {@code kernel.wq-max-active} and the kworker creation costs. An entry must be NAME=N with
   * N in [1, the largest wq_clamp_max_active() limit of the mode on this machine], each NAME
   * once.
   */
  private static Scenario.WqSettings wqSettings(Values v, TopologyParams topo) {
    String key = "kernel.wq-max-active";
    blksim.kernel.workqueue.KernelMode mode =
        blksim.kernel.workqueue.KernelMode.valueOf(v.getString("kernel.mode"));
    int cpus = topo.cpuCount();
    int limit = mode.wqMaxActiveLimit(true, cpus);
    List<blksim.kernel.workqueue.MaxActiveOverride> out = new ArrayList<>();
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (String e : v.getStringList(key)) {
      blksim.kernel.workqueue.MaxActiveOverride o;
      try {
        o = blksim.kernel.workqueue.MaxActiveOverride.parse(e);
      } catch (IllegalArgumentException ex) {
        throw v.error(key, ex.getMessage());
      }
      if (o.maxActive() > limit) {
        throw v.error(key, "entry '" + e + "': max_active " + o.maxActive() + " is above "
            + limit + ", the most wq_clamp_max_active() allows in " + mode + " on " + cpus
            + " CPUs (WQ_MAX_ACTIVE" + (mode.perNodeUnbound()
                ? ", or for an unbound wq WQ_UNBOUND_MAX_ACTIVE = max(512, 4 x CPUs)" : "")
            + "); the kernel would clamp it to " + limit + " with a warning: write " + limit);
      }
      if (!seen.add(o.pattern())) {
        throw v.error(key, "workqueue '" + o.pattern() + "' is given twice");
      }
      out.add(o);
    }
    return new Scenario.WqSettings(List.copyOf(out), v.getDuration("costs.wq.create-worker"),
        v.getDuration("costs.wq.create-worker-cpu"), v.getBoolean("kernel.wq-node-bound-pools"));
  }

  /**
   * {@code commands}: each a command {@link ShellCommand#parse} takes; those that call the VFS
   * (all but sleep) share the page cache with every CPU, so the run must be in one partition.
   */
  private static List<ShellCommand> commands(Config cfg, List<String> lines, String partitions,
      TopologyParams topo) {
    List<ShellCommand> out = new ArrayList<>();
    String key = "blksim.commands";
    for (int i = 0; i < lines.size(); i++) {
      ConfigOrigin o = cfg.getList(key).get(i).origin();
      try {
        out.add(ShellCommand.parse(lines.get(i)));
      } catch (IllegalArgumentException e) {
        throw at(o, "commands[" + i + "]", e.getMessage());
      }
    }
    if (out.stream().anyMatch(c -> c.kind() != ShellCommand.Kind.SLEEP)
        && !onePartition(partitions, topo)) {
      throw at(cfg.hasPath("blksim.partitions") ? cfg.getValue("blksim.partitions").origin()
          : cfg.origin(), "partitions", "commands that call the VFS (sync, umount) share the"
          + " page cache with every CPU: use partitions = one, not '" + partitions + "'");
    }
    return List.copyOf(out);
  }

  /**
   * The vm.dirty_* sysctls (bytes win over ratios, kernel-model.md §9.1), the flusher's plug
   * policy ({@code auto}: 4.3-rc1's plug in V4_3_RC1, the plug with the flush-before-resched fix
   * of 4.3-rc2 in later kernels), the reserved memory and the writeback costs. A scenario whose
   * jobs write through the page cache must run in one partition: the page cache and the dirty
   * accounting are shared by every CPU.
   */
  private static MmParams mm(Values v, List<FioJob> jobs, String partitions,
      TopologyParams topo) {
    int bgRatio = v.getInt("vm.dirty_background_ratio");
    long bgBytes = v.getSize("vm.dirty_background_bytes");
    int ratio = v.getInt("vm.dirty_ratio");
    long bytes = v.getSize("vm.dirty_bytes");
    if (bytes != 0 && bytes < DirtyParams.DIRTY_BYTES_MIN) {
      throw v.error("vm.dirty_bytes", "must be 0 or at least " + DirtyParams.DIRTY_BYTES_MIN
          + " bytes (the kernel's minimum), was " + bytes);
    }
    if (bgBytes != 0 && bytes != 0 && bgBytes > bytes) {
      throw v.error("vm.dirty_background_bytes", "the background threshold "
          + bgBytes + " is above the limit vm.dirty_bytes = " + bytes);
    }
    if (bgBytes == 0 && bytes == 0 && bgRatio > ratio) {
      throw v.error("vm.dirty_background_ratio", "the background threshold " + bgRatio
          + "% is above the limit vm.dirty_ratio = " + ratio + "%");
    }
    DirtyParams dirty;
    try {
      dirty = new DirtyParams(bgRatio, bgBytes, ratio, bytes,
          v.getInt("vm.dirty_writeback_centisecs"), v.getInt("vm.dirty_expire_centisecs"));
    } catch (IllegalArgumentException e) {
      throw v.error("vm.dirty_ratio", e.getMessage());
    }
    String plug = v.getString("kernel.writeback-plug");
    WbPlugPolicy policy = plug.equals("auto")
        ? (v.getString("kernel.mode").equals("V4_3_RC1") ? WbPlugPolicy.PLUG
            : WbPlugPolicy.PLUG_FLUSH)
        : WbPlugPolicy.parse(plug);
    long memory = v.getSize("machine.memory");
    long reserved = v.getSize("machine.reserved-memory");
    if (reserved >= memory - (1L << 20)) {
      throw v.error("machine.reserved-memory", "must leave at least 1 MiB of machine.memory ("
          + memory + " bytes) to the page cache, was " + reserved);
    }
    boolean buffered = jobs.stream().anyMatch(j -> !j.direct()
        && !j.ioengine().diskless());
    if (buffered && !onePartition(partitions, topo)) {
      throw v.error("partitions", "a job reads or writes through the page cache (direct=0),"
          + " which every CPU shares: use partitions = one, not '" + partitions + "'");
    }
    return new MmParams(dirty, policy, reserved, v.getDuration("kernel.vmstat-interval"),
        new WritebackParams(v.getDuration("costs.writeback.per-page"),
            v.getDuration("costs.writeback.per-inode"), v.getDuration("costs.page-cache.write"),
            v.getDuration("costs.writeback.inode-done")))
        .withReadAheadKb(v.getInt("kernel.read-ahead-kb"))
        .withFaults(new blksim.kernel.mm.FaultCosts(v.getDuration("costs.mm.fault"),
            v.getDuration("costs.mm.fault-around-page"), v.getDuration("costs.mm.anon-page"),
            v.getDuration("costs.mm.page-mkwrite"), v.getDuration("costs.mm.mmap"),
            v.getDuration("costs.mm.unmap-per-page")));
  }

  /**
   * A {@code disk} or {@code ssd} device: the shared request queue's keys, then the drive's. Its
   * queue is shared by every CPU, so the CPUs must stay in one partition
   * ({@link #sharedQueuePartitions}).
   */
  private static RequestBasedParams requestBasedDevice(String type, String name, Values dv,
      Values v) {
    long size = dv.getSize("size");
    int bs = dv.getInt("bs");
    if (bs != 512 && bs != 4096) {
      throw dv.error("bs", "bs must be 512 or 4096, was " + bs);
    }
    if (size % 4096 != 0) {
      throw dv.error("size", "size must be a multiple of 4 KiB, was " + size);
    }
    RequestQueueParams.Scheduler sched =
        RequestQueueParams.Scheduler.parse(dv.getString("scheduler"));
    int depth = dv.getInt("queue-depth");
    String nr = dv.getString("nr-requests").trim();
    int nrRequests;
    boolean legacy = v.getString("kernel.mode").equals("V4_3_RC1");
    if (nr.equals("auto")) {
      // 4.3's legacy request queue: BLKDEV_MAX_RQ = 128 requests whatever the depth.
      nrRequests = legacy && sched != RequestQueueParams.Scheduler.NONE ? 128
          : RequestQueueParams.defaultNrRequests(depth, sched);
    } else {
      nrRequests = explicitNrRequests(dv, nr);
      if (sched == RequestQueueParams.Scheduler.NONE && nrRequests > depth) {
        throw dv.error("nr-requests", "nr-requests cannot exceed queue-depth (" + depth + ")"
            + " without a scheduler, was " + nrRequests);
      }
    }
    long maxBytes = dv.getSize("max-sectors");
    if (maxBytes % 512 != 0 || maxBytes < bs) {
      throw dv.error("max-sectors", "max-sectors must be a multiple of 512 bytes of at least bs ("
          + bs + "), was " + maxBytes);
    }
    MqDeadlineParams deadline = new MqDeadlineParams(dv.getDuration("read-expire"),
        dv.getDuration("write-expire"), dv.getInt("fifo-batch"), dv.getInt("writes-starved"),
        dv.getBoolean("front-merges"));
    BlkMqRules rules = legacy ? BlkMqRules.V4_3 : BlkMqRules.V6;
    RequestQueueParams q = new RequestQueueParams(name, size, bs, depth, nrRequests, sched,
        maxBytes, dv.getInt("max-segments"), deadline, rules,
        v.getDuration("costs.blk-mq.submit"), v.getDuration("costs.blk-mq.complete"));
    if (type.equals("disk") || type.equals("zoned-disk")) {
      long outer = dv.getSize("outer-rate");
      long inner = dv.getSize("inner-rate");
      if (inner > outer) {
        throw dv.error("inner-rate", "inner-rate (" + inner + ") must not exceed outer-rate ("
            + outer + ")");
      }
      long track = dv.getDuration("track-seek");
      long avg = dv.getDuration("average-seek");
      long full = dv.getDuration("full-stroke-seek");
      if (!(track < avg && avg < full)) {
        throw dv.error("average-seek", "seek times must grow: track-seek (" + track + " ns) <"
            + " average-seek (" + avg + " ns) < full-stroke-seek (" + full + " ns)");
      }
      try {
        RotationalDiskParams drive = new RotationalDiskParams(size, dv.getInt("rpm"),
            dv.getInt("surfaces"), track, avg, full, outer, inner, depth,
            dv.getDuration("command-overhead"),
            dv.getString("ncq-policy").equals("fifo") ? NcqPolicy.FIFO : NcqPolicy.SPTF,
            dv.getDuration("ncq-aging"));
        WriteCacheParams cache = dv.getString("write-cache").equals("on")
            ? new WriteCacheParams(dv.getSize("write-cache-size") / 512 * 512,
                dv.getDuration("write-cache-latency"), dv.getSize("link-rate"))
            : WriteCacheParams.OFF;
        if (type.equals("zoned-disk")) {
          long wbtLat = dv.getString("wbt").equals("on") ? dv.getInt("wbt-lat-usec") * 1000L : 0;
          String label = dv.getString("dmzadm-label");
          if (!label.isEmpty() && !label.matches("[A-Za-z0-9_.-]{1,31}")) {
            throw dv.error("dmzadm-label", "dmzadm-label must be 1 to 31 characters of A-Z a-z"
                + " 0-9 _ . - (the superblock's 32-byte label; it names workqueues), was '"
                + label + "'");
          }
          return new ZonedDiskParams(q, drive, zonedLayout(size, dv), wbtLat,
              v.getInt("kernel.hz"), dv.getLong("dmzadm-seq"), label,
              dv.getString("dmz-metadata-cache").equals("bounded"), cache);
        }
        return new DiskParams(q, drive, cache);
      } catch (IllegalArgumentException e) {
        throw dv.error("size", e.getMessage());
      }
    }
    long page = dv.getSize("page-size");
    if (Long.bitCount(page) != 1) {
      throw dv.error("page-size", "page-size must be a power of two, was " + page);
    }
    if (size % page != 0) {
      throw dv.error("size", "size must be a multiple of page-size (" + page + "), was " + size);
    }
    return new SsdDeviceParams(q, new SsdParams(size, dv.getInt("channels"),
        dv.getSize("bandwidth"), dv.getDuration("read-latency"),
        dv.getDuration("write-latency"), depth, (int) page));
  }

  /**
   * The zone layout of a {@code zoned-disk}: {@code zone-size} a power of two, {@code size} a
   * whole number of zones, {@code conventional-zones} at most all of them.
   */
  private static ZonedLayout zonedLayout(long size, Values dv) {
    long zone = dv.getSize("zone-size");
    if (Long.bitCount(zone) != 1) {
      throw dv.error("zone-size", "zone-size must be a power of two (the kernel refuses other"
          + " zone sizes), was " + zone);
    }
    if (size % zone != 0) {
      throw dv.error("size", "size must be a whole number of zones of zone-size (" + zone
          + " bytes), was " + size);
    }
    long conv = dv.getLong("conventional-zones");
    if (conv > size / zone) {
      throw dv.error("conventional-zones", "conventional-zones must be at most the disk's "
          + size / zone + " zones (size / zone-size), was " + conv);
    }
    return new ZonedLayout(size, zone, conv, dv.getInt("max-open-zones"));
  }

  /**
   * A request-based device ({@code disk}, {@code ssd}) has one request queue called directly from
   * every CPU, so all CPUs must share a partition: with such a device only a partitioning that
   * yields one partition is accepted.
   */
  private static void sharedQueuePartitions(Values v, String partitions, TopologyParams topo,
      List<DeviceParams> devices) {
    DeviceParams shared = null;
    for (DeviceParams d : devices) {
      // nvme: its hardware queues share one media model, called from every CPU.
      if (d instanceof RequestBasedParams || d instanceof blksim.kernel.device.NvmeParams) {
        shared = d;
        break;
      }
    }
    if (shared == null) {
      return;
    }
    if (!onePartition(partitions, topo)) {
      String what = shared instanceof RequestBasedParams ? " has one request queue shared by"
          : " (nvme) has one media model shared by its hardware queues, called by";
      throw v.error("partitions", "device " + shared.name() + what + " all CPUs, which must then"
          + " share a partition: use partitions = one, not '" + partitions + "'");
    }
  }

  /**
   * {@code fs_mark.command-lines}: each an fs_mark 3.3 command line; every {@code -d} must lie in
   * a filesystem of the scenario, mounted read-write; the page cache they write through is shared
   * by every CPU, so the run must be in one partition.
   */
  /**
   * The scenario's {@code replay} section as the text of a fio job file (run after the job files,
   * as one more job file): one {@code read_iolog} job for {@code replay.redirect}, else one per
   * simulated device of {@code replay.devices}, each keeping its trace devices' records with
   * blksim's {@code replay_device} and stopping the run on a record of an unmapped device
   * ({@code replay_known_devices}). {@code replay.timing} chooses the engine and fio's replay
   * options: recorded and scaled are open loop (io_uring, up to {@code replay.queue-depth} in
   * flight, fio's delays), afap is psync with {@code replay_no_stall}, closed-loop io_uring at
   * {@code replay.queue-depth} with {@code replay_no_stall}. Every job is O_DIRECT on its
   * device. {@code null} when there is no {@code replay.trace}.
   */
  /** fio's default {@code max_jobs} ({@code FIO_MAX_JOBS} in fio.h): jobs of one fio run. */
  static final int FIO_MAX_JOBS = 4096;

  private static String replayJobs(Values v, Config cfg, Path dir, List<DeviceParams> devices) {
    String trace = v.getString("replay.trace");
    if (trace.isEmpty()) {
      for (String k : List.of("redirect", "devices", "timing", "time-scale", "queue-depth",
          "format", "start", "end")) {
        if (cfg.hasPath("blksim.replay." + k)) {
          throw v.error("replay." + k, "blksim.replay." + k + " needs blksim.replay.trace");
        }
      }
      return null;
    }
    // (absolute once loaded: a spec carries no directory)
    Path p = (dir == null ? Path.of(trace) : dir.resolve(trace)).normalize();
    if (!Files.isRegularFile(p)) {
      throw v.error("replay.trace", "trace file " + p + " not found");
    }
    String format = v.getString("replay.format");
    blksim.workload.trace.TraceFormat f = null;
    if (!format.equals("auto")) {
      f = blksim.workload.trace.TraceFormat.ofKey(format);
      if (f == null) {
        throw v.error("replay.format", "unknown trace format '" + format + "'; auto or one of "
            + blksim.workload.trace.TraceFormat.keys());
      }
    } else {
      try {
        blksim.workload.trace.TraceFormat.detect(p);
      } catch (InputException e) {
        throw v.error("replay.trace", e.getMessage());
      }
    }
    java.util.Set<String> known = new java.util.LinkedHashSet<>();
    devices.forEach(d -> known.add(d.name()));
    String redirect = v.getString("replay.redirect");
    List<String> entries = v.getStringList("replay.devices");
    if (redirect.isEmpty() == entries.isEmpty()) {
      throw v.error(redirect.isEmpty() ? "replay.trace" : "replay.devices", redirect.isEmpty()
          ? "a replay needs blksim.replay.redirect (every record to one device) or"
              + " blksim.replay.devices (\"TRACE=DEV\" per trace device)"
          : "set blksim.replay.redirect or blksim.replay.devices, not both");
    }
    // simulated device -> its trace devices, in the order given
    Map<String, List<String>> bySim = new java.util.LinkedHashMap<>();
    if (!redirect.isEmpty()) {
      bySim.put(simDevice(v, "replay.redirect", redirect, known), List.of());
    }
    List<String> allTrace = new ArrayList<>();
    for (String e : entries) {
      int eq = e.lastIndexOf('=');
      if (eq <= 0 || eq == e.length() - 1) {
        throw v.error("replay.devices", "entry '" + e + "' is not TRACE=DEV (e.g."
            + " \"8,16=nullb0\")");
      }
      String t = e.substring(0, eq).trim();
      if (allTrace.contains(t)) {
        throw v.error("replay.devices", "trace device '" + t + "' is mapped twice");
      }
      allTrace.add(t);
      String sim = simDevice(v, "replay.devices", e.substring(eq + 1).trim(), known);
      bySim.computeIfAbsent(sim, k -> new ArrayList<>()).add(t);
    }
    String timing = v.getString("replay.timing");
    if (cfg.hasPath("blksim.replay.time-scale") && !timing.equals("scaled")) {
      throw v.error("replay.time-scale", "blksim.replay.time-scale applies to"
          + " blksim.replay.timing = scaled only (timing is " + timing + ")");
    }
    long startNs = v.getDuration("replay.start");
    long endNs = v.getDuration("replay.end");
    if (endNs != 0 && endNs <= startNs) {
      throw v.error("replay.end", "blksim.replay.end must be after blksim.replay.start");
    }
    StringBuilder b = new StringBuilder();
    b.append("; generated from the scenario's blksim.replay section\n[global]\n");
    b.append("read_iolog=").append(p.toAbsolutePath()).append('\n');
    if (f != null) {
      b.append("read_iolog_format=").append(f.key()).append('\n');
    }
    b.append("direct=1\n");
    boolean afap = timing.equals("afap");
    b.append("ioengine=").append(afap ? "psync" : "io_uring").append('\n');
    b.append("iodepth=").append(afap ? 1 : v.getInt("replay.queue-depth")).append('\n');
    if (afap || timing.equals("closed-loop")) {
      b.append("replay_no_stall=1\n");
    }
    if (timing.equals("scaled")) {
      b.append("replay_time_scale=").append(v.getInt("replay.time-scale")).append('\n');
    }
    if (startNs > 0) {
      b.append("replay_start=").append(startNs / 1000).append("us\n");
    }
    if (endNs > 0) {
      b.append("replay_end=").append(endNs / 1000).append("us\n");
    }
    if (!allTrace.isEmpty()) {
      b.append("replay_known_devices=").append(String.join(":", allTrace)).append('\n');
    }
    if (v.getBoolean("replay.skip-malformed")) {
      b.append("replay_skip_malformed=1\n");
    }
    for (Map.Entry<String, List<String>> e : bySim.entrySet()) {
      b.append("\n[replay-").append(e.getKey()).append("]\n");
      if (e.getValue().isEmpty()) {
        b.append("replay_redirect=/dev/").append(e.getKey()).append('\n');
      } else {
        b.append("filename=/dev/").append(e.getKey()).append('\n');
        b.append("replay_device=").append(String.join(":", e.getValue())).append('\n');
      }
    }
    return b.toString();
  }

  /** A simulated device named in the replay section ({@code nullb0} or {@code /dev/nullb0}). */
  private static String simDevice(Values v, String key, String name, java.util.Set<String> known) {
    String n = name.startsWith("/dev/") ? name.substring(5) : name;
    if (!known.contains(n)) {
      throw v.error(key, "no simulated device '" + n + "'; the scenario's devices are " + known);
    }
    return n;
  }

  private static List<FsMarkOptions> fsMark(Config cfg, List<String> lines,
      List<FilesystemParams> fss, String partitions, TopologyParams topo) {
    List<FsMarkOptions> out = new ArrayList<>();
    String key = "blksim.fs_mark.command-lines";
    for (int i = 0; i < lines.size(); i++) {
      ConfigOrigin o = cfg.getList(key).get(i).origin();
      String where = "fs_mark.command-lines[" + i + "]";
      FsMarkOptions opts = FsMarkOptions.parse(lines.get(i), file(o),
          Math.max(0, o.lineNumber()), FsMarkOptions.UNSUPPORTED_BY_DEFAULT);
      for (String d : opts.directories()) {
        FilesystemParams fs = filesystemHolding(d, fss);
        if (fs == null) {
          throw at(o, where, "-d " + d + " is not in a filesystem of the scenario ("
              + mountPoints(fss) + ")");
        }
        if (fs.readOnly()) {
          throw at(o, where, "-d " + d + " is on " + fs.mountPoint() + ", mounted read-only"
              + " (options ro): fs_mark's buffered writes need it read-write");
        }
        if (!fs.type().equals("xfs")) {
          throw at(o, where, "-d " + d + " is on the " + fs.type() + " filesystem at "
              + fs.mountPoint() + ": fs_mark's buffered writes are modelled on xfs only");
        }
      }
      out.add(opts);
    }
    if (!lines.isEmpty() && !onePartition(partitions, topo)) {
      throw at(cfg.hasPath("blksim.partitions") ? cfg.getValue("blksim.partitions").origin()
          : cfg.origin(), "partitions", "fs_mark writes through the page cache, whose dirty"
          + " accounting every CPU shares: use partitions = one, not '" + partitions + "'");
    }
    return out;
  }

  /**
   * The filesystem whose mount point is the longest prefix of {@code dir} (as {@link Mounts}
   * resolves paths once they are mounted), or null.
   */
  private static FilesystemParams filesystemHolding(String dir, List<FilesystemParams> fss) {
    String nd = Mounts.normalise(dir);
    FilesystemParams best = null;
    int bestLen = -1;
    for (FilesystemParams f : fss) {
      String mp = Mounts.normalise(f.mountPoint());
      boolean under = nd != null && (nd.equals(mp) || mp.equals("/")
          || nd.startsWith(mp + "/"));
      if (under && mp.length() > bestLen) {
        bestLen = mp.length();
        best = f;
      }
    }
    return best;
  }

  /** The mount points of {@code fss} for a message. */
  private static String mountPoints(List<FilesystemParams> fss) {
    return fss.isEmpty() ? "none is declared in blksim.filesystems"
        : String.join(", ", fss.stream().map(FilesystemParams::mountPoint).toList());
  }

  /**
   * The size blksim gives a regular file a job names with {@code filename=} and no size:
   * 1 GiB. fio takes such a file's own size ({@code get_file_sizes()}); the file is taken as left
   * by an earlier run, so it needs one. Say so on stderr.
   */
  static final long EXISTING_FILE_BYTES = 1L << 30;

  /**
   * io_uring {@code hipri} under {@code kernel.mode = V6_13}: since 73e59d3eeca4 ("block: Avoid
   * polling configuration errors", applied for 6.11) {@code submit_bio_noacct()} fails a
   * REQ_POLLED bio to a device without poll queues with -EOPNOTSUPP instead of clearing the flag
   * (6.6 runs it unpolled, liburing issue #1389), so every I/O of the job would fail: refused.
   * null_blk and nvme with {@code poll-queues} poll in blksim.
   */
  private static void checkPolledDevice(FioJob j, List<DeviceParams> devices) {
    String n = DmTable.deviceName(j.filename());
    for (DeviceParams d : devices) {
      if (d.name().equals(n) && d instanceof NullBlkParams nb && nb.pollQueues() > 0) {
        return;
      }
      if (d.name().equals(n) && d instanceof blksim.kernel.device.NvmeParams nv
          && nv.pollQueues() > 0) {
        return;
      }
    }
    throw j.error("hipri", "hipri (IORING_SETUP_IOPOLL) on " + n
        + ", which has no poll queues: with kernel.mode = V6_13 (6.11 and later, 73e59d3eeca4)"
        + " the kernel fails every polled I/O with -EOPNOTSUPP; give the null_blk or nvme device"
        + " poll-queues = 1, or use an earlier"
        + " kernel.mode, where the I/O runs unpolled");
  }

  /** The pvsync2 hipri jobs already warned about (see {@link #warnSyncHipri}). */
  private static final java.util.Set<String> WARNED_HIPRI =
      java.util.concurrent.ConcurrentHashMap.newKeySet();

  /**
   * pvsync2's {@code hipri} (RWF_HIPRI) on a block device: since Linux 5.19 (commit
   * 9650b453a3d4, "block: ignore RWF_HIPRI hint for sync dio") {@code
   * __blkdev_direct_IO_simple()} no longer sets REQ_POLLED and waits in {@code
   * submit_bio_wait()}, and buffered I/O never looked at IOCB_HIPRI, so the I/O completes by
   * interrupt exactly as without hipri. The kernel says nothing; blksim says it once on stderr.
   */
  private static void warnSyncHipri(FioJob j) {
    if (WARNED_HIPRI.add(j.file() + ":" + j.line() + ":" + j.name())) {
      LOG.warn("{}:{}: job '{}': hipri with ioengine=pvsync2 changes nothing: since Linux 5.19"
          + " (9650b453a3d4, \"block: ignore RWF_HIPRI hint for sync dio\") the kernel ignores"
          + " RWF_HIPRI on synchronous I/O, which completes by interrupt as without hipri",
          j.file(), j.line(), j.name());
    }
  }

  /** The jobs already warned about (a job file run loads its scenario more than once). */
  private static final java.util.Set<String> WARNED_SIZES =
      java.util.concurrent.ConcurrentHashMap.newKeySet();

  /**
   * A job whose {@code filename=} names regular files on a filesystem and that gives neither
   * {@code size=} nor {@code filesize=}: fio runs it on the files as they are (their own size;
   * fio refuses only a file it would have to create, "you need to specify size="). The files are
   * taken as left by an earlier run, of {@link #EXISTING_FILE_BYTES} together, said on stderr.
   */
  private static FioJob existingFileSize(FioJob j, List<DeviceParams> devices,
      List<FilesystemParams> fss) {
    if (j.filename() == null || j.sizeBytes() > 0 || j.fileSizeLow() > 0 || j.sizePercent() > 0
        || !regularFiles(j, devices, fss) || filesystemHolding(j.regularFile(0), fss) == null) {
      return j;
    }
    if (j.fillDevice()) {
      // fill_device: fio's size is -1 and the job writes until ENOSPC; its ETA uses the
      // filesystem's free space (get_fs_free_counts()). Simplified: the size is the bytes of the
      // filesystem's devices, and the filesystem's ENOSPC ends the job before that.
      FilesystemParams fs = filesystemHolding(j.regularFile(0), fss);
      long have = 0;
      for (DeviceParams d : devices) {
        if (fs.devices().contains(d.name())) {
          have += d.sizeBytes();
        }
      }
      return j.withExistingFileSize(have);
    }
    if (WARNED_SIZES.add(j.file() + ":" + j.line() + ":" + j.name())) {
      LOG.warn("{}:{}: job '{}' names {} with no size= or filesize=: fio would use the existing"
          + " file's size; blksim takes it as left by an earlier run, {} MiB (give size= to"
          + " choose)", j.file(), j.line(), j.name(), j.filename(), EXISTING_FILE_BYTES >> 20);
    }
    return j.withExistingFileSize(EXISTING_FILE_BYTES);
  }

  /**
   * Jobs that name a {@code directory=} (and no {@code filename=}) write their files there: the
   * directory must lie in a filesystem of the scenario, mounted read-write, and the job must do
   * buffered I/O with a synchronous engine and have a size or a filesize (what blksim models of
   * files today). The file options are refused on {@code filename=} jobs.
   */
  private static void checkDirectoryJobs(List<FioJob> jobs, List<FilesystemParams> fss,
      List<DeviceParams> devices) {
    for (FioJob j : jobs) {
      boolean files = regularFiles(j, List.of(), fss);
      if (j.filename() != null && !files) {
        // fio's file options act on the files it makes in a directory; on a device they would
        // change nothing blksim models, or something it does not (fallocate and unlink touch
        // only regular files in fio, nrfiles gives way to filename=).
        Map<String, String> opts = j.options(); // a copy: once per job, not once per key
        for (String k : List.of("filesize", "openfiles", "file_service_type", "create_on_open",
            "unlink_each_loop", "fsync_on_close", "overwrite", "filename_format")) {
          if (opts.containsKey(k)) {
            throw j.error(k, k + " is modelled for the files of a"
                + " directory= job, not for filename=" + j.filename());
          }
        }
      }
      if (!files && (j.filename() != null || j.directory() == null)) {
        continue;
      }
      String where = j.filename() != null ? j.regularFile(0) : j.directory();
      String pathKey = j.filename() != null ? "filename" : "directory";
      FilesystemParams fs = filesystemHolding(where, fss);
      if (fs == null && j.inWorkingDirectory()) {
        throw new InputException(j.file(), j.line(), "filename", "job '" + j.name() + "': filename"
            + " is needed (or directory=): as fio, the job's files (" + j.fileName(0) + ", ...) go"
            + " in the working directory " + where + ", which is in no filesystem of the scenario ("
            + mountPoints(fss) + "); name a device with it or mount a filesystem at /");
      }
      if (fs == null) {
        throw j.error(pathKey, pathKey + " " + where + " is in no filesystem of the scenario ("
            + mountPoints(fss) + ")");
      }
      for (int i = 1; j.filename() != null && i < j.filenames().size(); i++) {
        if (filesystemHolding(j.regularFile(i), fss) != fs) {
          throw j.error(pathKey, pathKey + " puts files on two filesystems: " + j.regularFile(i)
              + " is not on " + fs.mountPoint() + " (the files of one job must be on one)");
        }
      }
      if (fs.readOnly()) {
        throw j.error(pathKey, pathKey + " " + where + " is on a filesystem mounted read-only at "
            + fs.mountPoint() + " (options ro), and the job writes");
      }
      // fio lays the files out before the job starts: files larger than the filesystem's device
      // would fail there with ENOSPC, which blksim refuses up front.
      int nFiles = j.filename() != null ? j.filenames().size() : j.nrFiles();
      long need = j.fileSizeLow() > 0 ? j.fileSizeLow() * nFiles : j.sizeBytes();
      long have = 0;
      for (DeviceParams d : devices) {
        if (fs.devices().contains(d.name())) {
          have += d.sizeBytes();
        }
      }
      if (need > have) {
        String sizeKey = j.fileSizeLow() > 0 ? "filesize" : "size";
        throw j.error(sizeKey, sizeKey + " makes " + (need >> 20) + " MiB of files, more than the " + (have >> 20)
            + " MiB of " + (fs.devices().size() == 1 ? "device" : "devices") + " under "
            + fs.mountPoint() + " (fio would fail with ENOSPC)");
      }
      if (fs.type().equals("btrfs") && (!j.direct() || j.ioengine() != FioEngine.LIBAIO
          || j.rw().reads())) {
        String bad = !j.direct() ? "direct=0" : j.ioengine() != FioEngine.LIBAIO
            ? "ioengine=" + j.ioengine().fioName() : "rw=" + j.rw().fioName();
        throw j.error(bad.substring(0, bad.indexOf('=')), bad + " on btrfs (" + fs.mountPoint()
            + ") is not modelled: blksim models O_DIRECT writes (write or randwrite) with the"
            + " libaio engine only; buffered I/O, reads and the synchronous engines on btrfs"
            + " files are not");
      }
      if (!j.ioengine().isSync() && j.ioengine() != FioEngine.LIBAIO
          && j.ioengine() != FioEngine.IO_URING && j.ioengine() != FioEngine.POSIXAIO) {
        throw j.error("ioengine", "ioengine=" + j.ioengine().fioName() + " on files is not"
            + " modelled; files are, with the synchronous engines (psync/sync/pvsync/pvsync2), libaio,"
            + " io_uring and posixaio so far; use filename= on a device for it");
      }
      if (j.ioengine() == FioEngine.IO_URING && j.hipri()) {
        throw j.error("hipri", "hipri (IORING_SETUP_IOPOLL) on files"
            + " is not modelled by blksim; io_uring on files completes by interrupt");
      }
      if (j.hipri()) {
        warnSyncHipri(j); // pvsync2: iomap's sync dio ignores IOCB_HIPRI too (9650b453a3d4)
      }
      if (j.verify().enabled() && (j.verifyOnly() || j.rw().writes() && j.doVerify())
          && (j.ioengine().fileOperation() || j.ioengine() == FioEngine.FALLOC
          || j.ioengine() == FioEngine.FTRUNCATE)) {
        // Files: the verify reads (do_verify(), verify_backlog, verify_only) are pread()s or
        // iocbs (FileFioThread); these engines make no data I/O to read back.
        throw j.error("verify", "verify reads back data, which the job's"
            + " engine " + j.ioengine().fioName() + " does not write; blksim models that"
            + " read phase on files with the synchronous engines and libaio");
      }
      if (j.direct()) {
        // O_DIRECT needs offsets and lengths in logical blocks: the kernel fails the I/O with
        // EINVAL (xfs_file_dio_write(), iomap_dio_bio_iter()); fio would end the job there.
        // (bs is a multiple of 512 for every job already.)
        if (j.offsetBytes() % 512 != 0 || j.offsetIncrementBytes() % 512 != 0) {
          throw j.error("offset", "offset must be a multiple of 512 bytes"
              + " with direct=1 on files (the kernel fails misaligned O_DIRECT I/O with"
              + " EINVAL)");
        }
      }
      // A percentage alone is no size: fio's o->size stays 0 (str_size_cb()), so files that do
      // not exist yet fail in setup_files() as without size=.
      if (j.sizeBytes() <= 0 && j.fileSizeLow() == 0) {
        throw j.error("size", "size is needed (all files together, or filesize= for each"
            + " file): the job works on files in " + where + ", and fio fails the same way on"
            + " files that do not exist yet (setup_files())");
      }
      if (j.sizePercent() > 0) {
        throw j.error("size", "size as a percentage of the job's files is not"
            + " modelled by blksim; give it in bytes");
      }
      refuseLowWater(j, "files");
      if (j.offsetInPercent()) {
        throw j.error(j.offsetPercent() > 0 ? "offset" : "offset_increment",
            (j.offsetPercent() > 0 ? "offset" : "offset_increment") + " as a percentage of the"
            + " job's files is not modelled by blksim (only of a block device); give it in"
            + " bytes");
      }
      long start = j.offsetBytes() + j.jobIndex() * j.offsetIncrementBytes();
      if (j.fileSizeLow() > 0 && start >= j.fileSizeLow()) {
        throw j.error("offset", "offset " + start
            + " is not below filesize " + j.fileSizeLow() + " (fio: offset extends end)");
      }
      if (j.overwrite() && !j.createOnOpen()) {
        LOG.warn("{}:{}: job '{}' (overwrite=1): fio writes its files in full before the job"
            + " starts; blksim takes them as left by an earlier run (allocated, written, not"
            + " cached): no layout I/O is simulated", j.file(), j.line(), j.name());
      }
    }
  }

  /**
   * fio's {@code ioscheduler}: before its I/O a job writes the name to the {@code
   * queue/scheduler} of the device holding its first file ({@code switch_ioscheduler()}), and
   * fails if it does not take. Here the device is rebuilt with that scheduler for the whole
   * run, as its {@code scheduler} key would give it (an {@code auto} nr_requests follows).
   * Refused, naming the job's line: a device without a scheduler to switch (brd, zram, dm: the
   * kernel's bio-based queues), a scheduler the model lacks (bfq, kyber), and two jobs asking
   * one device for different schedulers (simplified: blksim keeps one per device and run).
   */
  private static void ioSchedulers(Config cfg, Values v, List<FioJob> jobs,
      List<DeviceParams> devices, List<FilesystemParams> fss, long nbSubmit, long nbComplete) {
    Map<Integer, String> want = new java.util.TreeMap<>();
    Map<Integer, FioJob> by = new java.util.TreeMap<>();
    for (FioJob j : jobs) {
      String sched = j.ioscheduler();
      if (sched == null || j.ioengine().diskless() || j.filename() == null) {
        continue;
      }
      String norm = sched.toLowerCase(java.util.Locale.ROOT);
      if (norm.equals("deadline")) {
        norm = "mq-deadline";
      }
      if (!norm.equals("none") && !norm.equals("mq-deadline")) {
        throw j.error("ioscheduler", "ioscheduler=" + sched + " is not modelled by blksim"
            + " (none and mq-deadline are; fio: unable to set io scheduler)");
      }
      String dev;
      if (regularFiles(j, devices, fss)) {
        dev = filesystemHolding(j.regularFile(0), fss).device();
      } else {
        dev = DmTable.deviceName(j.filename());
      }
      int idx = -1;
      for (int i = 0; i < devices.size(); i++) {
        if (devices.get(i).name().equals(dev)) {
          idx = i;
        }
      }
      if (idx < 0) {
        continue; // not a device of the scenario: the job's own checks report it
      }
      DeviceParams d = devices.get(idx);
      if (!(d instanceof RequestBasedParams) && !(d instanceof NullBlkParams)
          && !(d instanceof blksim.kernel.device.NvmeParams)) {
        throw j.error("ioscheduler", "ioscheduler=" + sched + ": " + dev + " is a bio-based"
            + " device (brd, zram and dm queues have no I/O scheduler to switch; fio: unable"
            + " to set the I/O scheduler)");
      }
      String prev = want.putIfAbsent(idx, norm);
      if (prev != null && !prev.equals(norm)) {
        throw j.error("ioscheduler", "ioscheduler=" + norm + " switches " + dev + ", which job '"
            + by.get(idx).name() + "' switches to " + prev + ": blksim keeps one"
            + " scheduler per device for the whole run");
      }
      by.putIfAbsent(idx, j);
    }
    ConfigList list = want.isEmpty() ? null : cfg.getList("blksim.devices");
    for (Map.Entry<Integer, String> e : want.entrySet()) {
      int i = e.getKey();
      Config d = ((ConfigObject) list.get(i)).toConfig()
          .withValue("scheduler", ConfigValueFactory.fromAnyRef(e.getValue()));
      String type = d.getString("type");
      Values dv = new Values(d, null, ScenarioSchema.DEVICE_KEYS.get(type),
          "blksim.devices." + i + ".");
      String name = dv.getString("name");
      devices.set(i, type.equals("disk") || type.equals("ssd") || type.equals("zoned-disk")
          ? requestBasedDevice(type, name, dv, v) : device(type, name, dv, v, nbSubmit,
          nbComplete));
    }
  }

  /**
   * fio's {@code sync=1}/{@code dsync}: O_SYNC or O_DSYNC writes. Accepted where they change
   * nothing the model costs: O_DIRECT writes to a block device with no volatile write cache,
   * where the kernel's REQ_FUA and {@code blkdev_fsync()}'s empty flush are stripped by
   * {@code submit_bio_noacct()} and complete at once (a few hundred ns of CPU, not costed), and
   * jobs that do not write. Refused otherwise, naming the job's line: buffered writes (a
   * writeback and wait per write), files on a filesystem (XFS's fsync per write), and devices
   * with a write cache or stacked ones (FUA and flushes reach the drive).
   */
  private static void checkSyncIo(FioJob j, List<DeviceParams> devices,
      List<FilesystemParams> fss) {
    if (!j.syncIo() || !j.rw().writes() || j.ioengine().diskless() || j.filename() == null) {
      return;
    }
    String why = null;
    if (!j.direct()) {
      why = "buffered O_SYNC writes (each written back and waited for) are not modelled;"
          + " with direct=1 on a device without a write cache they are";
    } else if (regularFiles(j, devices, fss)) {
      why = "O_SYNC writes to files (the filesystem's fsync after each write) are not modelled";
    } else {
      String dev = DmTable.deviceName(j.filename());
      for (DeviceParams d : devices) {
        if (!d.name().equals(dev)) {
          continue;
        }
        boolean cache = d instanceof DiskParams dp && dp.cache() != null && dp.cache().enabled()
            || d instanceof ZonedDiskParams zp && zp.cache() != null && zp.cache().enabled();
        if (cache) {
          why = dev + " has a volatile write cache: O_SYNC's REQ_FUA writes and flushes are"
              + " not modelled";
        } else if (d instanceof DeviceParams.Stacked) {
          why = dev + " is a device-mapper device: O_SYNC's FUA and flushes through dm are not"
              + " modelled";
        }
      }
    }
    if (why != null) {
      throw j.error("sync", "sync is not modelled by blksim here: " + why);
    }
  }

  /**
   * Whether job {@code j}'s {@code filename=} names regular files in a filesystem of the
   * scenario (no device of that name; {@link Scenario#onFilesystem}).
   */
  private static boolean regularFiles(FioJob j, List<DeviceParams> devices,
      List<FilesystemParams> fss) {
    if (j.filename() == null || j.ioengine().diskless()) {
      return false;
    }
    if (j.filename().startsWith("/dev/")) {
      return false;
    }
    for (DeviceParams d : devices) {
      if (d.name().equals(j.filename())) {
        return false; // a device given by its bare name
      }
    }
    return filesystemHolding(j.regularFile(0), fss) != null;
  }

  /** Whether {@code partitions} puts every CPU of {@code topo} into one partition. */
  static boolean onePartition(String partitions, TopologyParams topo) {
    String p = partitions.trim().toLowerCase(java.util.Locale.ROOT);
    int nodes = topo.sockets() * topo.nodesPerSocket();
    int llcs = nodes * topo.llcsPerNode();
    return p.equals("one") || p.equals("1") || (p.equals("node") && nodes == 1)
        || (p.equals("llc") && llcs == 1) || (p.equals("cpu") && topo.cpuCount() == 1);
  }

  /**
   * {@code blksim.filesystems}: each element's keys and type, its device (declared, big enough,
   * holding no other filesystem), its mount point (absolute, used once) and its mount options
   * (known ones, as a string {@code "ro,noatime"} or a list), with the profile's xfs costs.
   */
  private static List<FilesystemParams> filesystems(Config cfg, Values v,
      List<DeviceParams> devices) {
    List<FilesystemParams> out = new ArrayList<>();
    if (!cfg.hasPath("blksim.filesystems")) {
      return out;
    }
    ConfigValue lv = cfg.getValue("blksim.filesystems");
    String example = "{ type = xfs, device = sdb, mount = /mnt/test }";
    if (lv.valueType() != ConfigValueType.LIST) {
      throw error(cfg, "blksim.filesystems", "filesystems must be a list of objects such as ["
          + example + "]");
    }
    ConfigList list = (ConfigList) lv;
    for (int i = 0; i < list.size(); i++) {
      String where = "blksim.filesystems." + i;
      ConfigValue fv = list.get(i);
      if (fv.valueType() != ConfigValueType.OBJECT) {
        throw at(fv.origin(), where, "each filesystem must be an object such as " + example);
      }
      Config f = ((ConfigObject) fv).toConfig();
      if (!f.hasPath("type")) {
        throw at(fv.origin(), where + ".type", "a filesystem needs a type; known types: "
            + ScenarioSchema.FILESYSTEM_KEYS.keySet());
      }
      String type = String.valueOf(f.getValue("type").unwrapped());
      List<Param> keys = ScenarioSchema.FILESYSTEM_KEYS.get(type);
      if (keys == null) {
        throw at(f.getValue("type").origin(), where + ".type", "unknown filesystem type '"
            + type + "'; known types: " + ScenarioSchema.FILESYSTEM_KEYS.keySet());
      }
      for (Map.Entry<String, ConfigValue> fe : f.entrySet()) {
        if (keys.stream().noneMatch(p -> p.path().equals(fe.getKey()))) {
          TreeSet<String> known = new TreeSet<>();
          keys.forEach(p -> known.add(p.path()));
          throw at(fe.getValue().origin(), where + "." + fe.getKey(),
              "unknown key for an " + type + " filesystem; known keys: " + known);
        }
      }
      Values fsv = new Values(f, null, keys, where + ".");
      if (type.equals("btrfs")) {
        out.add(btrfsFilesystem(f, fsv, v, devices, out));
        continue;
      }
      String devArg = fsv.getString("device");
      String dev;
      try {
        dev = DmTable.deviceName(devArg);
      } catch (IllegalArgumentException e) {
        throw fsv.error("device", e.getMessage());
      }
      DeviceParams device = null;
      for (DeviceParams d : devices) {
        if (d.name().equals(dev)) {
          device = d;
        }
      }
      if (device == null) {
        throw fsv.error("device", "no device named '" + devArg + "' in blksim.devices ("
            + names(devices) + ")");
      }
      String mp = Mounts.normalise(fsv.getString("mount"));
      if (mp == null) {
        throw fsv.error("mount", "a mount point must be an absolute path such as /mnt/test, was '"
            + fsv.getString("mount") + "'");
      }
      for (FilesystemParams prev : out) {
        if (prev.devices().contains(dev)) {
          throw fsv.error("device", "device " + dev + " already holds the filesystem mounted at "
              + prev.mountPoint() + "; one filesystem per device");
        }
        if (prev.mountPoint().equals(mp)) {
          throw fsv.error("mount", mp + " is already the mount point of the filesystem on "
              + prev.device());
        }
      }
      List<String> options = mountOptions(f, fsv, type);
      if (device.sizeBytes() < XfsGeometry.AG_MIN_BLOCKS << XfsGeometry.BLOCK_LOG) {
        throw fsv.error("device", "an xfs filesystem needs a device of at least 16 MiB"
            + " (XFS_AG_MIN_BYTES); " + dev + " has " + device.sizeBytes() + " bytes");
      }
      XfsParams xfs = new XfsParams(fsv.getInt("ag-count"), fsv.getDouble("p-contig"),
          fsv.getInt("jump-blocks"), v.getDuration("costs.xfs.writeback-per-inode"),
          v.getDuration("costs.xfs.create"), v.getDuration("costs.xfs.unlink"),
          v.getDuration("costs.xfs.fallocate"));
      if (xfs.agCount() > 0) {
        try {
          XfsGeometry.withAgCount(device.sizeBytes(), xfs.agCount());
        } catch (IllegalArgumentException e) {
          throw fsv.error("ag-count", e.getMessage());
        }
      }
      out.add(new FilesystemParams(type, dev, mp, options, xfs));
    }
    return List.copyOf(out);
  }

  /**
   * A btrfs element of {@code blksim.filesystems}: its devices (declared, each once, in no other
   * filesystem), its data profile (raid0 over two or more, single over one), its mount point and
   * options ({@code thread_pool=N} too), with the profile's btrfs costs.
   */
  private static FilesystemParams btrfsFilesystem(Config f, Values fsv, Values v,
      List<DeviceParams> devices, List<FilesystemParams> earlier) {
    if (!f.hasPath("devices")) {
      throw fsv.error("devices", "a btrfs filesystem needs its devices, a list such as"
          + " devices = [sda, sdb]");
    }
    List<String> devs = new ArrayList<>();
    List<Long> sizes = new ArrayList<>();
    for (String a : fsv.getStringList("devices")) {
      String dev;
      try {
        dev = DmTable.deviceName(a);
      } catch (IllegalArgumentException e) {
        throw fsv.error("devices", e.getMessage());
      }
      DeviceParams device = null;
      for (DeviceParams d : devices) {
        if (d.name().equals(dev)) {
          device = d;
        }
      }
      if (device == null) {
        throw fsv.error("devices", "no device named '" + a + "' in blksim.devices ("
            + names(devices) + ")");
      }
      if (devs.contains(dev)) {
        throw fsv.error("devices", "device " + dev + " is listed twice");
      }
      for (FilesystemParams prev : earlier) {
        if (prev.devices().contains(dev)) {
          throw fsv.error("devices", "device " + dev + " already holds the filesystem mounted"
              + " at " + prev.mountPoint() + "; one filesystem per device");
        }
      }
      devs.add(dev);
      sizes.add(device.sizeBytes());
    }
    if (devs.isEmpty()) {
      throw fsv.error("devices", "a btrfs filesystem needs at least one device");
    }
    String mp = Mounts.normalise(fsv.getString("mount"));
    if (mp == null) {
      throw fsv.error("mount", "a mount point must be an absolute path such as /mnt/btrfs,"
          + " was '" + fsv.getString("mount") + "'");
    }
    for (FilesystemParams prev : earlier) {
      if (prev.mountPoint().equals(mp)) {
        throw fsv.error("mount", mp + " is already the mount point of the filesystem on "
            + prev.device());
      }
    }
    List<String> options = mountOptions(f, fsv, "btrfs");
    String profile = fsv.getString("data-profile");
    int threadPool = 0;
    for (String o : options) {
      if (o.startsWith(FilesystemParams.THREAD_POOL)) {
        threadPool = Integer.parseInt(o.substring(FilesystemParams.THREAD_POOL.length()));
      }
    }
    blksim.kernel.fs.btrfs.BtrfsParams bp;
    try {
      bp = new blksim.kernel.fs.btrfs.BtrfsParams(profile, threadPool,
          v.getDuration("costs.btrfs.submit"), v.getDuration("costs.btrfs.submit-tree-hold"),
          v.getDuration("costs.btrfs.csum-per-kib"), v.getDuration("costs.btrfs.finish"),
          v.getDuration("costs.btrfs.finish-tree-hold"), v.getDuration("costs.btrfs.finish-tail"),
          v.getDuration("costs.btrfs.fsync-log"),
          blksim.kernel.fs.btrfs.BtrfsParams.DEFAULT_NAMESPACE_NS,
          blksim.kernel.fs.btrfs.BtrfsParams.DEFAULT_NAMESPACE_NS,
          v.getDuration("costs.btrfs.tree-transfer"),
          v.getDuration("costs.btrfs.tree-transfer-remote"),
          v.getDuration("costs.btrfs.finish-leaf-hold"),
          v.getDuration("costs.btrfs.submit-leaf-hold"),
          v.getString("kernel.btrfs-dio-plug").equals("on"));
    } catch (IllegalArgumentException e) {
      throw fsv.error("data-profile", e.getMessage());
    }
    try {
      // mkfs.btrfs's checks: the profile against the device count, the devices' size.
      blksim.kernel.fs.btrfs.BtrfsFilesystem.mkfs(devs, sizes, bp);
    } catch (IllegalArgumentException e) {
      throw fsv.error(e.getMessage().startsWith("data-profile") ? "data-profile" : "devices",
          e.getMessage());
    }
    return new FilesystemParams("btrfs", devs.get(0), mp, options, null, devs, bp);
  }

  /** A filesystem's {@code options}: a comma-separated string or a list, each one known. */
  private static List<String> mountOptions(Config f, Values fsv, String type) {
    List<String> options = new ArrayList<>();
    if (!f.hasPath("options")) {
      options.add(ScenarioSchema.FILESYSTEM_KEYS.get("xfs").stream()
          .filter(p -> p.path().equals("options")).findFirst().orElseThrow().defaultValue());
      return options;
    }
    ConfigValue ov = f.getValue("options");
    List<String> raw = new ArrayList<>();
    if (ov.valueType() == ConfigValueType.LIST) {
      for (ConfigValue e : (ConfigList) ov) {
        if (e.valueType() == ConfigValueType.LIST || e.valueType() == ConfigValueType.OBJECT) {
          throw fsv.error("options", "mount options must be strings, was " + e.render());
        }
        raw.add(String.valueOf(e.unwrapped()));
      }
    } else if (ov.valueType() == ConfigValueType.STRING) {
      raw.addAll(List.of(((String) ov.unwrapped()).split(",")));
    } else {
      throw fsv.error("options", "mount options are a string such as \"ro,noatime\" or a list"
          + " such as [ro, noatime], was " + ov.render());
    }
    for (String o : raw) {
      String t = o.trim();
      if (t.isEmpty()) {
        continue;
      }
      String err = FilesystemParams.optionError(type, t);
      if (err != null) {
        throw fsv.error("options", err);
      }
      options.add(t);
    }
    return options;
  }

  /**
   * A job of a later job file: its group ids follow the earlier files', and the first one carries
   * the implicit stonewall fio puts between job files ({@code __parse_jobs_ini()}).
   */
  private static FioJob joined(FioJob j, int groupBase, boolean firstOfLaterFile) {
    FioJob g = groupBase == 0 ? j : j.withGroupId(j.groupId() + groupBase);
    return firstOfLaterFile ? g.withStonewall() : g;
  }

  /**
   * Sequenced jobs (stonewall, wait_for, exitall) share one {@link
   * blksim.workload.fio.thread.JobSequencer}, so their threads must be in one partition.
   */
  private static void checkSequencing(List<FioJob> jobs, String partitions, Values v) {
    if (blksim.workload.fio.thread.JobSequencer.needed(jobs)
        && !partitions.trim().equalsIgnoreCase("one")) {
      throw v.error("partitions", "the fio jobs are sequenced (stonewall, wait_for, exitall,"
          + " cpuio's exit_on_io_done or several job files), which blksim runs in one partition"
          + " only: use partitions = one, was " + partitions);
    }
  }

  /** {@code kernel.scheduler}: auto follows the kernel mode (EEVDF from 6.6). */
  static SchedParams.SchedClass schedClass(String scheduler, String mode) {
    switch (scheduler) {
      case "cfs":
        return SchedParams.SchedClass.CFS;
      case "eevdf":
        return SchedParams.SchedClass.EEVDF;
      default:
        return mode.equals("V6_9") || mode.equals("V6_9_RC") || mode.equals("V6_13")
            ? SchedParams.SchedClass.EEVDF : SchedParams.SchedClass.CFS;
    }
  }

  /**
   * The fair scheduler's tunables as set in debugfs ({@code kernel.sched-*}): each {@code auto}
   * keeps the kernel's default scaled by the CPU count; a value is the one in force (the kernel
   * does not scale what is written). Latency must not be below the minimum granularity.
   */
  private static SchedParams tunables(Values v, SchedParams s) {
    long lat = v.getDurationOrAuto("kernel.sched-latency");
    long min = v.getDurationOrAuto("kernel.sched-min-granularity");
    long wake = v.getDurationOrAuto("kernel.sched-wakeup-granularity");
    long latency = lat < 0 ? s.schedLatencyNs() : lat;
    long minGran = min < 0 ? s.minGranularityNs() : min;
    long wakeGran = wake < 0 ? s.wakeupGranularityNs() : wake;
    if (latency < minGran) {
      throw v.error(lat >= 0 ? "kernel.sched-latency" : "kernel.sched-min-granularity",
          "kernel.sched-latency (" + latency + " ns) must not be below"
              + " kernel.sched-min-granularity (" + minGran + " ns)");
    }
    return s.withTunables(latency, minGran, wakeGran);
  }

  /**
   * {@code kernel.wake-placement}: with {@code llc}, tasks move between the CPUs of an LLC
   * through direct calls, so a partition must never split an LLC.
   */
  private static String wakePlacement(Values v, String partitions, boolean smt) {
    String wp = v.getString("kernel.wake-placement");
    String p = partitions.trim().toLowerCase(java.util.Locale.ROOT);
    boolean llcWhole = p.equals("one") || p.equals("node") || p.equals("llc");
    if (!wp.equals("none") && !llcWhole) {
      throw v.error("kernel.wake-placement", wp + " moves tasks between the CPUs of an LLC,"
          + " which must then share a partition: use partitions one, node or llc, not '"
          + partitions + "'");
    }
    if (v.getDouble("costs.sched.smt-slowdown") != 1.0 && !llcWhole && smt) {
      throw v.error("costs.sched.smt-slowdown", "an SMT slowdown other than 1 reads the"
          + " sibling CPU's state, so the CPUs of an LLC must share a partition: use partitions"
          + " one, node or llc, not '" + partitions + "'");
    }
    return wp;
  }

  /** {@code trace.timehist-*}: a CPU list such as {@code 0-3,8} and a window. */
  private static TimehistParams timehist(Values v, int nCpus) {
    String key = "trace.timehist-cpus";
    String list = v.getString(key).trim();
    long from = v.getDuration("trace.timehist-from");
    long to = v.getDuration("trace.timehist-to");
    if (to != 0 && to <= from) {
      throw v.error("trace.timehist-to", "must be after trace.timehist-from"
          + " (or 0 for the end of the run), was " + to + " ns <= " + from + " ns");
    }
    int[] cpus = new int[0];
    if (!list.isEmpty()) {
      try {
        cpus = CpuList.parse(list, nCpus);
      } catch (IllegalArgumentException e) {
        throw v.error(key, e.getMessage());
      }
    }
    return new TimehistParams(java.util.Arrays.stream(cpus).boxed().toList(), from, to,
        v.getInt("trace.timehist-max-lines"));
  }

  private static DmParams dmDevice(String name, Values dv, Values v, Config d,
      List<DeviceParams> declared) {
    DmCostParams costs = new DmCostParams(v.getDuration("costs.dm.core"),
        v.getDuration("costs.dm.linear-map"), v.getDuration("costs.dm.zero-map"),
        v.getDuration("costs.dm.zero-fill-per-page"), v.getDuration("costs.dm.delay-map"),
        v.getDuration("costs.dm.delay-poll"), v.getDuration("costs.dm.delay-scan-per-bio"),
        v.getDuration("costs.dm.delay-timer"), v.getDuration("costs.dm.delay-work"));
    String table = dv.getString("table");
    try {
      return DmParams.of(name, table, DelayVersion.parse(v.getString("kernel.dm-delay")),
          v.getDuration("kernel.dm-delay-poll-batch"), costs, n -> {
            for (DeviceParams p : declared) {
              if (p.name().equals(n)) {
                return p;
              }
            }
            return null;
          });
    } catch (DmTableException e) {
      ConfigOrigin o = d.getValue("table").origin();
      int line = o.lineNumber() > 0 ? o.lineNumber() + e.line() - 1 : 0;
      throw new InputException(o.filename() != null ? o.filename() : o.description(), line,
          dv.display("table"), e.getMessage());
    } catch (IllegalArgumentException e) {
      throw dv.error("table", e.getMessage());
    }
  }

  /**
   * A null_blk device: {@code queue-mode} 2 only, {@code submit-queues} per-cpu or a number
   * (clamped to the CPUs later, as the kernel does), the scheduler and {@code nr-requests}
   * (auto: the kernel's defaults for the number of hardware queues), {@code max-sectors}.
   */
  private static NullBlkParams nullBlk(String name, Values dv, Values v, long nbSubmit,
      long nbComplete) {
    String mode = dv.getString("queue-mode").trim().toLowerCase(java.util.Locale.ROOT);
    if (mode.equals("0") || mode.equals("bio")) {
      throw dv.error("queue-mode", "queue-mode 0 (bio-based null_blk) is not modelled; use 2"
          + " (mq)");
    }
    if (!mode.equals("2") && !mode.equals("mq")) {
      throw dv.error("queue-mode", "queue-mode must be 2 (or mq): blk-mq, the only mode"
          + " modelled (1, the legacy request queue, left the kernel in 5.0), was '" + mode + "'");
    }
    String sq = dv.getString("submit-queues").trim().toLowerCase(java.util.Locale.ROOT);
    int submitQueues;
    if (sq.equals("per-cpu")) {
      submitQueues = NullBlkParams.PER_CPU;
    } else {
      try {
        submitQueues = Integer.parseInt(sq);
      } catch (NumberFormatException e) {
        submitQueues = -1;
      }
      if (submitQueues < 1 || submitQueues > 65536) {
        throw dv.error("submit-queues", "submit-queues must be per-cpu or a whole number in"
            + " [1, 65536], was '" + sq + "'");
      }
    }
    String sch = dv.getString("scheduler");
    RequestQueueParams.Scheduler sched = sch.equals("auto") ? null
        : RequestQueueParams.Scheduler.parse(sch);
    int depth = dv.getInt("hw-queue-depth");
    String nr = dv.getString("nr-requests").trim();
    int nrRequests = nr.equals("auto") ? 0 : explicitNrRequests(dv, nr);
    long maxBytes = dv.getSize("max-sectors");
    int bs = dv.getInt("bs");
    if (maxBytes % 512 != 0 || maxBytes < bs) {
      throw dv.error("max-sectors", "max-sectors must be a multiple of 512 bytes of at least bs"
          + " (" + bs + "), was " + maxBytes);
    }
    BlkMqRules rules = v.getString("kernel.mode").equals("V4_3_RC1") ? BlkMqRules.V4_3
        : BlkMqRules.V6;
    dv.getBoolean("memory-backed"); // checked here, read by ScenarioModelFactory.CacheCold
    try {
      return new NullBlkParams(name, dv.getSize("size"), bs, depth,
          IrqMode.parse(dv.getString("irqmode")), dv.getCost("completion-nsec"), nbSubmit,
          nbComplete, submitQueues, sched, nrRequests, maxBytes, rules)
          .withSharedTags(dv.getBoolean("shared-tags"), dv.getBoolean("shared-tag-bitmap"))
          .withPollQueues(dv.getInt("poll-queues"));
    } catch (IllegalArgumentException e) {
      String m = e.getMessage();
      throw dv.error(m.startsWith("nr_requests") ? "nr-requests" : "size", m);
    }
  }

  /**
   * null_blk hardware contexts shared by several CPUs are called directly from each of them, so
   * every such context's CPUs must fall into one partition. With one hardware queue per CPU (the
   * default) any partitioning is exact; otherwise the queue map is checked against the
   * partitioning (e.g. submit-queues = the node count with partitions = node passes).
   */
  private static void nullBlkPartitions(Values v, Config cfg, String partitions,
      TopologyParams topo, List<DeviceParams> devices) {
    Partitioning part = Partitioning.parse(partitions);
    List<Cpu> cpus = Topology.of(topo).cpus();
    int n = cpus.size();
    NullBlkParams firstShared = null;
    for (int i = 0; i < devices.size(); i++) {
      if (!(devices.get(i) instanceof NullBlkParams nb)) {
        continue;
      }
      if (nb.sharedTags() || nb.sharedTagBitmap()) {
        Config d = ((ConfigObject) cfg.getList("blksim.devices").get(i)).toConfig();
        Values dv = new Values(d, null, ScenarioSchema.DEVICE_KEYS.get("null_blk"),
            "blksim.devices." + i + ".");
        if (nb.sharedTags() && firstShared == null) {
          firstShared = nb;
        } else if (nb.sharedTags()) {
          // shared_tags: the set is the module's, sized by its globals (null_init_global_tag_set()).
          if (nb.hwQueueDepth() != firstShared.hwQueueDepth()) {
            throw dv.error("hw-queue-depth", "devices with shared-tags = on share one tag set and"
                + " must have the same hw-queue-depth: " + firstShared.name() + " has "
                + firstShared.hwQueueDepth() + ", " + nb.name() + " " + nb.hwQueueDepth());
          }
          if (nb.hwQueues(n) != firstShared.hwQueues(n)) {
            throw dv.error("submit-queues", "devices with shared-tags = on share one tag set and"
                + " must have the same submit-queues: " + firstShared.name() + " has "
                + firstShared.hwQueues(n) + ", " + nb.name() + " " + nb.hwQueues(n));
          }
          if (nb.sharedTagBitmap() != firstShared.sharedTagBitmap()) {
            throw dv.error("shared-tag-bitmap", "devices with shared-tags = on share one tag set"
                + " and must agree on shared-tag-bitmap (" + firstShared.name() + " has "
                + firstShared.sharedTagBitmap() + ")");
          }
        }
        if (nb.sharedTagBitmap() && nb.hwQueues(n) > 1 && !onePartition(partitions, topo)) {
          throw v.error("partitions", "device " + nb.name() + " has shared-tag-bitmap = on: its"
              + " one tag map is taken and freed directly by every CPU, so the run needs one"
              + " partition: use partitions = one, not '" + partitions + "'");
        }
      }
      int q = nb.hwQueues(n);
      if (nb.schedulerFor(q) == RequestQueueParams.Scheduler.NONE
          && nb.nrRequestsFor(q) > nb.hwQueueDepth()) {
        Config d = ((ConfigObject) cfg.getList("blksim.devices").get(i)).toConfig();
        Values dv = new Values(d, null, ScenarioSchema.DEVICE_KEYS.get("null_blk"),
            "blksim.devices." + i + ".");
        throw dv.error("nr-requests", "nr-requests cannot exceed hw-queue-depth ("
            + nb.hwQueueDepth() + ") without a scheduler (scheduler = none, or auto with " + q
            + " hardware queues): the requests are the driver tags, was " + nb.nrRequestsFor(q));
      }
      if (q == n) {
        continue;
      }
      int[] map = NullBlkDriver.mapQueues(cpus, q);
      long[] key = new long[q];
      java.util.Arrays.fill(key, Long.MIN_VALUE);
      for (Cpu c : cpus) {
        long k = partitionKey(part, c, n);
        int h = map[c.id()];
        if (key[h] == Long.MIN_VALUE) {
          key[h] = k;
        } else if (key[h] != k) {
          throw v.error("partitions", "device " + nb.name() + " has " + q + " hardware queue(s)"
              + " for " + n + " CPUs; CPUs sharing a queue call it directly and must share a"
              + " partition, which partitions = " + partitions + " does not give (CPU "
              + c.id() + " and another CPU of hardware queue " + h + " are split): use"
              + " submit-queues = per-cpu or partitions = one");
        }
      }
    }
  }

  /** The partition key {@link Partitioning#place} gives a CPU (equal keys: same partition). */
  private static long partitionKey(Partitioning p, Cpu c, int nCpus) {
    switch (p.kind()) {
      case ONE:
        return 0;
      case NODE:
        return c.node();
      case LLC:
        return c.llc();
      case CPU:
        return c.id();
      default:
        return (long) c.id() * p.count() / Math.max(1, nCpus);
    }
  }

  private static DeviceParams device(String type, String name, Values dv, Values v,
      long nbSubmit, long nbComplete) {
    switch (type) {
      case "null_blk":
        return nullBlk(name, dv, v, nbSubmit, nbComplete);
      case "nvme":
        return NvmeDevices.parse(name, dv, v);
      case "brd":
        return new BrdParams(name, dv.getSize("size"), dv.getBoolean("nowait"),
            v.getDuration("costs.brd.fixed"), v.getCost("costs.brd.per-page-read"),
            v.getCost("costs.brd.per-page-write"),
            v.getDuration("costs.brd.first-write-alloc"), dv.getBoolean("prefilled"));
      case "zram":
        return new ZramParams(name, dv.getSize("size"), dv.getBoolean("nowait"),
            dv.getDouble("same-filled-fraction"), dv.getDouble("huge-fraction"),
            v.getDuration("costs.zram.fixed"), v.getDuration("costs.zram.slot"),
            v.getDuration("costs.zram.decompress"), v.getDuration("costs.zram.compress"),
            v.getDuration("costs.zram.copy"));
      default:
        throw new IllegalStateException("device type " + type);
    }
  }

  /**
   * {@code atomic=1}: fio sets RWF_ATOMIC on every write (engines/libaio.c, io_uring.c, sync.c's
   * pvsync2) and refuses the option with any other engine ("engine does not support atomic
   * writes", init.c); a job that does not write ignores it. The kernel takes an atomic write
   * only on a device whose queue has atomic write limits (blkdev_open() sets
   * FMODE_CAN_ATOMIC_WRITE only then; else EOPNOTSUPP), only with O_DIRECT
   * (generic_atomic_write_valid(): EOPNOTSUPP), and only of a power-of-two length between the
   * logical block size and atomic_write_unit_max_bytes at an offset aligned to that length
   * (generic_atomic_write_valid(), blkdev_atomic_write_valid(): EINVAL). As no I/O error is
   * simulated, a job whose writes would fail so is refused here, as the misaligned O_DIRECT
   * check on files is. An accepted atomic write costs what a plain write costs: the device
   * model has no separate atomic path.
   *
   * <p>Simplified: one write block size (bs; bsrange and bssplit for writes are refused with
   * atomic=1, though some mixes would stay aligned); atomic writes on regular files (XFS and
   * ext4 support them on some configurations) and on device-mapper devices are refused.
   */
  private static void checkAtomic(FioJob j, List<DeviceParams> devices,
      List<FilesystemParams> fss, Map<String, Long> atomicUnitMax) {
    if (!j.atomic() || !j.rw().writes()) {
      return; // fio's fixup_options(): oatomic = 0 for a job that does not write
    }
    FioEngine e = j.ioengine();
    if (e != FioEngine.LIBAIO && e != FioEngine.IO_URING && e != FioEngine.PVSYNC2) {
      throw j.error("atomic", "atomic=1 needs ioengine=libaio, io_uring"
          + " or pvsync2 (fio refuses it too: the engine does not support RWF_ATOMIC), was "
          + e.fioName());
    }
    if (j.filename() == null || regularFiles(j, devices, fss)) {
      throw j.error("atomic", "atomic=1 on regular files is not"
          + " modelled by blksim; name a device with filename=");
    }
    if (!j.direct()) {
      throw j.error("atomic", "atomic=1 needs direct=1: the kernel"
          + " fails a buffered RWF_ATOMIC write with EOPNOTSUPP (generic_atomic_write_valid())");
    }
    for (DeviceParams dev : devices) {
      boolean named = false;
      for (String f : j.filenames()) {
        named |= DmTable.deviceName(f).equals(dev.name());
      }
      if (!named) {
        continue;
      }
      long max = atomicUnitMax.getOrDefault(dev.name(), 0L);
      if (max == 0) {
        throw j.error("atomic", "atomic=1 on " + dev.name() + ", which has no atomic"
            + " writes (atomic_write_unit_max_bytes 0; an ssd's atomic-write-unit-max key sets"
            + " it): the kernel fails RWF_ATOMIC writes to it with EOPNOTSUPP");
      }
      long bs = j.bs()[1];
      if (j.minBs()[1] != j.maxBs()[1] || !j.bssplit(1).isEmpty()) {
        throw j.error("atomic", "atomic=1 with several write block"
            + " sizes (bsrange/bssplit) is not modelled by blksim; give one bs");
      }
      if (Long.bitCount(bs) != 1 || bs < dev.blockSize() || bs > max) {
        throw j.error("atomic", "atomic=1 with bs=" + bs + " on "
            + dev.name() + ": the writes fail with EINVAL: the length must be a power of two from the"
            + " logical block size " + dev.blockSize() + " to atomic_write_unit_max_bytes "
            + max + " (blkdev_atomic_write_valid())");
      }
      long start = j.startOffset(dev.sizeBytes());
      if (start % bs != 0 || (j.rw().isRandom() && j.blockAlign()[1] % bs != 0)) {
        throw j.error("atomic", "atomic=1 with writes of " + bs + " bytes at"
            + " offsets that are not multiples of " + bs + ": they fail with EINVAL (the kernel"
            + " wants the offset aligned to the length; check offset, offset_increment and"
            + " blockalign)");
      }
    }
  }

  /**
   * {@code io_submit_mode=offload} is modelled for libaio (on files and devices) and io_uring (on
   * devices) with {@code OffloadWorker}s; elsewhere it is refused.
   */
  private static void checkOffload(FioJob j, List<DeviceParams> devices,
      List<FilesystemParams> fss) {
    if (j.serializeOverlap() && j.ioengine() != FioEngine.NULL
        && (j.offload() || j.iodepth() > 1)) {
      // fio's in_flight_overlap() (io_u.c, and rate-submit.c check_overlap() across offload
      // jobs): an I/O waits while an overlapping one is in flight.
      throw j.error("serialize_overlap", "serialize_overlap is modelled by blksim only where it"
          + " changes nothing: at iodepth=1 without io_submit_mode=offload, and with"
          + " ioengine=null (its I/Os complete inside their queue call); waiting for an"
          + " overlapping I/O in flight is not modelled yet");
    }
    if (!j.offload()) {
      return;
    }
    boolean onDevice = j.filename() != null && j.directory() == null
        && !regularFiles(j, devices, fss);
    if (j.ioengine() == FioEngine.NULL) {
      if (j.thinktimeNs() > 0 || j.rateBytesPerSec(0) > 0 || j.rateBytesPerSec(1) > 0
          || j.rw().trims()) {
        throw j.error("io_submit_mode", "io_submit_mode=offload with ioengine=null is modelled"
            + " by blksim without rate, thinktime and trims");
      }
      return;
    }
    if (j.ioengine() != FioEngine.LIBAIO
        && !(onDevice && j.ioengine() == FioEngine.IO_URING)) {
      throw j.error("io_submit_mode", "io_submit_mode=offload is modelled by blksim for"
          + " ioengine=libaio, and io_uring on a block device, not " + j.ioengine().fioName()
          + (onDevice ? "" : " on files"));
    }
  }

  /**
   * A pure trim job ({@code rw=trim}, {@code randtrim}) of a data engine (the synchronous ones,
   * libaio) that is not on a {@code /dev/} path: on regular files each trim is fio's
   * {@code do_io_u_trim()}, an {@code ioctl(BLKDISCARD)} that fails with ENOTTY
   * ({@code FileFioThread}); whether the job is on files is checked once the filesystems are
   * known.
   */
  private static boolean fileTrims(FioJob j) {
    FioEngine e = j.ioengine();
    boolean dataEngine = e == FioEngine.LIBAIO
        || e.isSync() && !e.filesOnly() && e != FioEngine.CPUIO;
    return dataEngine && !j.rw().writes() && !j.rw().reads() && !j.zonemodeZbd()
        && (j.filename() == null || j.directory() != null || !j.filename().startsWith("/dev/"));
  }

  /**
   * {@code verify_async}: the verify threads ({@code VerifyPool}) are modelled for jobs on
   * regular files ({@code FileFioThread}) and block devices ({@code PsyncThread},
   * {@code AsyncFioThread}) without offload; with ioengine=null they have nothing to check;
   * refused with offload and for cpuio.
   */
  private static void checkVerifyAsync(FioJob j) {
    if (j.verifyAsync() == 0 || !j.verify().enabled()) {
      return;
    }
    if (j.ioengine() == FioEngine.NULL && !j.offload()) {
      // FIO_FAKEIO: a verify thread's verify_io_u() returns at once; the hand-off of each
      // verify read to the threads (a condition-variable signal) is not modelled.
      return;
    }
    boolean io = j.ioengine() != FioEngine.CPUIO;
    if (!io || j.offload()) {
      throw j.error("verify_async", "verify_async (fio's verify threads) is modelled by blksim"
          + " for jobs without io_submit_mode=offload, not "
          + (io ? "with offload" : "with ioengine=" + j.ioengine().fioName()) + " yet");
    }
  }

  /** I/O priorities reach the bios of libaio/io_uring on a block device only (DEVELOPERS.md). */
  private static void checkPrio(FioJob j, List<DeviceParams> devices,
      List<FilesystemParams> fss) {
    String key = j.prioOption();
    if (key != null && (j.filename() == null || j.directory() != null
        || regularFiles(j, devices, fss))) {
      throw j.error(key, key + " on files is not modelled: blksim models I/O priorities on block"
          + " devices only (the filesystem direct I/O path builds bios without an ioprio yet)");
    }
  }

  /**
   * {@code iodepth_low} below iodepth is modelled by the io_uring/libaio thread on a block device
   * only; elsewhere it is refused rather than ignored.
   */
  private static void refuseLowWater(FioJob j, String where) {
    if (j.iodepthLow() < j.iodepth() && !j.ioengine().isSync()) {
      throw j.error("iodepth_low", "iodepth_low below iodepth with "
          + where + " is not modelled by blksim (only with io_uring or libaio on a block"
          + " device)");
    }
  }

  private static void checkJob(FioJob j, List<DeviceParams> devices, boolean bounded) {
    if (CharDeviceJobs.check(j, devices)) {
      refuseLowWater(j, "a character device");
      return; // /dev/null or /dev/zero
    }
    if (j.ioengine() == FioEngine.CPUIO) {
      // engines/cpu.c is FIO_DISKLESSIO | FIO_NOIO: no file, no size; only time ends it.
      if (!bounded && j.runtimeNs() == 0 && !j.exitOnIoDone()) {
        throw j.error("ioengine", "ioengine=cpuio does no"
            + " I/O and so never runs out of data: give the job runtime= (fio would burn CPU"
            + " until killed)");
      }
      return;
    }
    if (j.ioengine().filesOnly() && j.filename() != null) {
      // fileoperations.c, falloc.c: "if (f->filetype != FIO_TYPE_FILE) ... only files are
      // supported".
      throw j.error("filename", "filename=" + j.filename() + " is a device, and"
          + " ioengine=" + j.ioengine().fioName() + " works on regular files only (fio: only"
          + " files are supported)");
    }
    if (j.ioengine() == FioEngine.PAGE_FAULT) {
      // engines/page_fault.c, fio_page_fault_init(): one anonymous mapping of size=.
      if (j.sizeBytes() <= 0) {
        throw j.error("size", "size is needed: ioengine=page_fault maps that many"
            + " bytes of anonymous memory");
      }
      if (j.nrFiles() > 1) {
        throw j.error("nrfiles", "nrfiles above 1 with ioengine=page_fault: fio: page_fault"
            + " ioengine does not support multiple files");
      }
      if (j.offsetBytes() != 0 || j.offsetIncrementBytes() != 0 || j.offsetInPercent()) {
        throw j.error("offset", "offset with ioengine=page_fault: fio: page_fault engine"
            + " does not support start_offset");
      }
      return;
    }
    if (j.ioengine() == FioEngine.MMAP && j.filename() != null) {
      // def_blk_fops' mmap is generic_file_mmap(): the faults would go through the block
      // device's page cache, which blksim's block devices do not keep for reads.
      throw j.error("ioengine", "ioengine=mmap on the block device '"
          + j.filename() + "' maps the device's page cache, which blksim does not keep for"
          + " reads of a block device (buffered device reads miss every time); the mmap engine"
          + " is modelled on files of a filesystem");
    }
    if (j.ioengine() == FioEngine.NULL) {
      // engines/null.c is FIO_DISKLESSIO: filename= names nothing; the size is the job's.
      if (j.sizeBytes() <= 0 && j.replay() == null) { // a replay issues its log's I/Os
        throw j.error("size", "size is needed: ioengine=null has no file to"
            + " take one from");
      }
      refuseLowWater(j, "ioengine=null");
      return;
    }
    if (j.offload()) {
      refuseLowWater(j, "io_submit_mode=offload");
    }
    if (j.filename() == null && j.directory() != null) {
      return;
    }
    if (j.filename() == null) {
      throw new InputException(j.file(), j.line(), "filename",
          "job '" + j.name() + "': filename is needed, naming a simulated device ("
              + names(devices) + ")");
    }
    String n = DmTable.deviceName(j.filename());
    DeviceParams dev = null;
    for (DeviceParams d : devices) {
      if (d.name().equals(n)) {
        dev = d;
      }
    }
    if (dev == null) {
      throw j.error("filename", "filename=" + j.filename()
          + " is not a simulated device; devices: " + names(devices));
    }
    if (j.hipri() && j.ioengine() != FioEngine.IO_URING) {
      warnSyncHipri(j);
    }
    if (j.hipri() && j.ioengine() == FioEngine.IO_URING && !j.direct()) {
      // io_rw_init_file(): an IOPOLL ring takes only O_DIRECT I/O.
      throw j.error(List.of("hipri", "direct"), "hipri"
          + " (IORING_SETUP_IOPOLL) with buffered I/O: the kernel fails buffered I/O on a polled"
          + " ring with -EOPNOTSUPP (io_rw_init_file()); use O_DIRECT");
    }
    if (!j.direct() && !j.ioengine().isSync() && j.offload()) {
      throw j.error("io_submit_mode", "io_submit_mode=offload with"
          + " buffered I/O (direct=0) on a block device is not modelled yet");
    }
    if (!j.direct() && !j.ioengine().isSync() && j.ioengine() != FioEngine.LIBAIO
        && j.ioengine() != FioEngine.IO_URING) {
      throw j.error(List.of("ioengine", "direct"), "buffered I/O (direct=0)"
          + " with the " + j.ioengine().fioName() + " engine is not modelled yet;"
          + " use O_DIRECT, or a psync engine, libaio or io_uring");
    }
    for (int d = 0; d < 2; d++) {
      if (j.bs()[d] % dev.blockSize() != 0) {
        throw j.error("bs", "bs must be a multiple of "
            + dev.name() + "'s logical block size " + dev.blockSize() + ", was " + j.bs()[d]);
      }
    }
    checkSizes(j, dev);
    checkZbd(j, dev);
    if (j.offsetPercent() >= 100 || j.offsetBytes() >= dev.sizeBytes()) {
      throw j.error("offset", "offset " + (j.offsetPercent() > 0 ? j.offsetPercent() + "%"
          : j.offsetBytes())
          + " is beyond the end of " + dev.name() + " (" + dev.sizeBytes() + " bytes)");
    }
    // The guard is for a run that would go on for hours; max-time bounds it as runtime= does,
    // a replay ends with its trace, and number_ios ends the job after that many I/Os.
    if (!bounded && j.replay() == null && !j.timeBased() && j.runtimeNs() == 0
        && j.sizeBytes() == 0 && j.sizePercent() == 0 && j.numberIos() == 0
        && j.ioSizeBytes() == 0 && dev.sizeBytes() > (64L << 30)) {
      throw j.error("size", "size, io_size, number_ios or runtime is needed: the job"
          + " would read or write all of " + dev.name() + " (" + (dev.sizeBytes() >> 30)
          + " GiB)");
    }
  }

  /**
   * A zonemode=zbd job's sizes given in zones ({@code size=8z}) without {@code zonesize} take the
   * zone size of the zoned device it names (fio's {@code zbd_recalc_options_with_zone_granularity()}).
   */
  private static FioJob zbdZoneUnits(FioJob j, List<DeviceParams> devices) {
    if (!j.zonemodeZbd() || j.filename() == null) {
      return j;
    }
    String n = DmTable.deviceName(j.filename());
    for (DeviceParams d : devices) {
      if (d.name().equals(n) && d instanceof ZonedDiskParams z) {
        return j.withDeviceZoneSize(z.layout().zoneSizeBytes());
      }
    }
    return j;
  }

  /**
   * fio's rules for zonemode=zbd ({@code zbd_setup_files()}, {@code zbd_zone_align_file_sizes()},
   * {@code zbd_set_max_write_zones()}): a zoned device, direct I/O, zonesize equal to the device's
   * zone size, max_open_zones within the device's limit, job_max_open_zones only with a limit.
   */
  private static void checkZbd(FioJob j, DeviceParams dev) {
    if (!j.zonemodeZbd()) {
      return;
    }
    if (!(dev instanceof ZonedDiskParams z)) {
      throw j.error("zonemode", "zonemode=zbd needs a zoned block device;"
          + " " + dev.name() + " is not one (fio's zone emulation on regular devices is not"
          + " modelled): declare it with type = zoned-disk");
    }
    if (!j.direct()) {
      throw j.error("direct", "direct=1 is needed with zonemode=zbd (fio: \"Using"
          + " O_DIRECT is mandatory for writing to ZBD drives\")");
    }
    ZonedLayout layout = z.layout();
    if (j.zoneSizeBytes() > 0 && j.zoneSizeBytes() != layout.zoneSizeBytes()) {
      throw j.error("zonesize", "zonesize " + j.zoneSizeBytes() + " does not match the zone size"
          + " of " + dev.name() + ", " + layout.zoneSizeBytes());
    }
    if (!j.ignoreZoneLimits() && j.maxOpenZones() > layout.maxOpenZones()) {
      throw j.error("max_open_zones", "max_open_zones (" + j.maxOpenZones() + ") is larger than"
          + " the limit of " + dev.name() + " (" + layout.maxOpenZones() + ")");
    }
    if (j.jobMaxOpenZones() > 0 && j.maxOpenZones() == 0 && j.ignoreZoneLimits()) {
      throw j.error("job_max_open_zones", "job_max_open_zones cannot be used without a global"
          + " open zones limit (max_open_zones)");
    }
    for (int d = 0; d < 2; d++) {
      if (j.maxBs()[d] > layout.zoneSizeBytes()) {
        throw j.error("bs", "bs cannot exceed the zone size with zonemode=zbd ("
            + layout.zoneSizeBytes() + "), was " + j.maxBs()[d]);
      }
    }
  }

  /** bsrange, bssplit and blockalign sizes are whole logical blocks of the device too. */
  private static void checkSizes(FioJob j, DeviceParams dev) {
    for (int d = 0; d < 2; d++) {
      String[] keys = {"bsrange", "bsrange", "ba"};
      long[] sizes = {j.minBs()[d], j.maxBs()[d], j.blockAlign()[d]};
      for (FioJob.BsSplit b : j.bssplit(d)) {
        if (b.bs() % dev.blockSize() != 0) {
          throw j.error("bssplit", "bssplit sizes must be multiples of " + dev.name()
              + "'s logical block size " + dev.blockSize() + ", was " + b.bs());
        }
      }
      for (int k = 0; k < sizes.length; k++) {
        if (sizes[k] % dev.blockSize() != 0) {
          throw j.error(keys[k], keys[k] + " must be a multiple of " + dev.name()
              + "'s logical block size " + dev.blockSize() + ", was " + sizes[k]);
        }
      }
    }
  }

  private static String names(List<DeviceParams> devices) {
    List<String> n = new ArrayList<>();
    devices.forEach(d -> n.add("/dev/" + d.name()));
    return n.isEmpty() ? "none defined in blksim.devices" : String.join(", ", n);
  }

  private static String expandEnv(String text, Map<String, String> env) {
    Matcher m = ENV.matcher(text);
    StringBuilder sb = new StringBuilder();
    while (m.find()) {
      String val = env.getOrDefault(m.group(1), "");
      m.appendReplacement(sb, Matcher.quoteReplacement(val));
    }
    m.appendTail(sb);
    return sb.toString();
  }

  private static String string(Config cfg, String path) {
    try {
      return cfg.getString(path);
    } catch (ConfigException.WrongType e) {
      throw error(cfg, path, "must be a string");
    }
  }

  private static List<String> stringList(Config cfg, String path) {
    try {
      return cfg.getStringList(path);
    } catch (ConfigException.WrongType e) {
      throw error(cfg, path, "must be a list of strings, such as [\"job.fio\"]");
    }
  }

  static InputException error(Config cfg, String path, String rule) {
    ConfigOrigin o = cfg.hasPath(path) ? cfg.getValue(path).origin() : cfg.origin();
    return at(o, path, rule);
  }

  static InputException at(ConfigOrigin o, String path, String rule) {
    if (o.filename() == null && o.lineNumber() <= 0 && o.description() != null) {
      // A value re-made with its old origin's description ("x.conf: 3", the replay trace made
      // absolute): name it file:line like the others.
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("^(.*): (\\d+)$")
          .matcher(o.description());
      if (m.matches()) {
        return new InputException(m.group(1), Integer.parseInt(m.group(2)), path, rule);
      }
    }
    String file = file(o);
    // An override is one line: its "line 1" glued to "--set key=value" read as part of the value.
    int line = file != null && file.startsWith(OVERRIDE_ORIGIN_PREFIX) ? 0 : o.lineNumber();
    return new InputException(file, Math.max(0, line), path, rule);
  }

  /** The file a config value came from, as error messages name it. */
  static String file(ConfigOrigin o) {
    String file = o.filename() != null ? o.filename() : o.description();
    if (file != null && o.lineNumber() > 0) {
      // description() carries ": N" for parsed strings; keep the source only.
      file = file.replaceFirst(": \\d+$", "");
    }
    return file;
  }
}
