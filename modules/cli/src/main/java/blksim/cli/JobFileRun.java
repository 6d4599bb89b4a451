package blksim.cli;

import blksim.engine.InputException;
import blksim.workload.scenario.ScenarioLoader;
import blksim.workload.fio.FioEngine;
import blksim.workload.fio.FioEnvironment;
import blksim.workload.fio.FioJob;
import blksim.workload.fio.FioJobFile;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code ./blksim run JOB.fio}: a fio job file given alone, as {@code fio JOB.fio} takes it, runs
 * on blksim's default machine. A file given to {@code run} is a scenario if it is HOCON with a
 * {@code blksim} object; anything else is a fio job file, whatever its extension.
 *
 * <p>The default machine: 32 CPUs (2 sockets of 8 cores with SMT), 16 GiB, the generic x86
 * profile, kernel mode V6_9. Each path the jobs name gets a device: {@code /dev/nullbN} a
 * null_blk, {@code /dev/ramN} a brd (8 GiB), {@code /dev/zramN} a zram (8 GiB), any other
 * {@code /dev/NAME} an SSD (1 TiB), or with {@code zonemode=zbd} a host-managed zoned disk (the
 * 15 TB SMR layout: 55,880 zones of 256 MiB, 524 conventional, 128 open at most); jobs with {@code directory=}, or with regular files as
 * {@code filename=}, use an XFS-like filesystem mounted at {@code /} on a 1 TiB SSD
 * ({@code sda}); a relative name is taken in the working directory, which is that root, and a
 * job with neither {@code filename=} nor {@code directory=} gets fio's files named after it
 * ({@code jobname.jobnum.filenum}) there. What
 * was assumed is printed on stderr. {@code /dev/null} and {@code /dev/zero} are the character
 * devices they are ({@code blksim.workload.fio.thread.CharDevThread}). Simplified:
 * device-mapper paths are refused; {@code --map /dev/X=TYPE} chooses a device's type and other {@code --map} entries rename the job file's paths ({@code blksim.fio.map}).
 */
final class JobFileRun {
  /** Memory of the default machine, MiB (fio's {@code $mb_memory}). */
  static final long MEMORY_MB = 16 * 1024;
  /** CPUs of the default machine (fio's {@code $ncpus}). */
  static final int CPUS = 32;

  private JobFileRun() {}

  /** Whether {@code file} is a scenario: HOCON with a {@code blksim} object. */
  static boolean isScenario(Path file) {
    if (startsAsScenario(file)) {
      ScenarioLoader.checkIncludes(file);
    }
    try {
      Config c = ConfigFactory.parseFile(file.toFile());
      return c.hasPath("blksim");
    } catch (ConfigException e) {
      if (startsAsScenario(file)) {
        // A scenario with a HOCON syntax error: say so, not that it is a bad fio job file.
        int line = e.origin() != null ? Math.max(0, e.origin().lineNumber()) : 0;
        String msg = e.getMessage().replaceFirst("^.*?: \\d+: ", "");
        throw new InputException(file.toString(), line, null, "not valid HOCON: " + msg);
      }
      return false;
    } catch (StackOverflowError e) {
      // The HOCON parser recurses per nesting level; a fio job file never nests.
      throw new InputException(file.toString(), 0, null,
          "objects or lists nested too deeply to parse (a scenario needs a handful of levels)");
    }
  }

  /** Whether the file's first token, past comments, is {@code blksim} as a scenario's is. */
  private static boolean startsAsScenario(Path file) {
    try {
      for (String l : Files.readAllLines(file, java.nio.charset.StandardCharsets.UTF_8)) {
        String t = l.strip();
        if (t.isEmpty() || t.startsWith("#") || t.startsWith("//")) {
          continue;
        }
        // A scenario starts with its blksim object, or with a HOCON include of its parts.
        return t.matches("blksim\\s*[{.=:].*") || t.equals("blksim")
            || t.matches("include\\s+(required\\s*\\(|file\\s*\\(|\"|classpath\\s*\\(|url\\s*\\().*");
      }
    } catch (IOException | java.io.UncheckedIOException e) {
      return false; // not text: let the fio parser say what it is
    }
    return false;
  }

  /**
   * The scenario, written to a temporary file, that runs fio job file {@code jobFile} on the
   * default machine; what it assumed goes to {@code err}.
   */
  static Path scenarioFor(Path jobFile, PrintWriter err) throws IOException {
    return scenarioFor(jobFile, List.of(), err);
  }

  /**
   * {@link #scenarioFor(Path, PrintWriter)} for fio's {@code --section}: only the named job
   * sections need devices (the others are not even parsed); empty for all.
   */
  static Path scenarioFor(Path jobFile, List<String> sections, PrintWriter err)
      throws IOException {
    return scenarioFor(jobFile, sections, List.of(), err);
  }

  /** The device types {@code --map /dev/X=TYPE} may give a job file's device. */
  static final List<String> MAP_TYPES =
      List.of("null_blk", "brd", "zram", "ssd", "nvme", "disk", "zoned-disk");

  /**
   * {@link #scenarioFor(Path, List, PrintWriter)} with {@code run --map PATH=TARGET} entries:
   * {@code /dev/X=TYPE} ({@link #MAP_TYPES}) makes X's default device of that type; any other
   * entry maps the job file's paths ({@code blksim.fio.map}: {@code /dev/sdb=nullb0} runs the
   * job's /dev/sdb on a default null_blk named nullb0, {@code /mnt/test=/} puts its files on
   * the default filesystem's root).
   */
  static Path scenarioFor(Path jobFile, List<String> sections, List<String> maps,
      PrintWriter err) throws IOException {
    return scenarioFor(jobFile, sections, maps, err, null);
  }

  /**
   * {@link #scenarioFor(Path, List, List, PrintWriter)}, saying on stderr that {@code what}
   * (e.g. "fio's options on the command line are") a fio job file; null: the file's name is.
   */
  static Path scenarioFor(Path jobFile, List<String> sections, List<String> maps,
      PrintWriter err, String what) throws IOException {
    return scenarioFor(jobFile, sections, maps, err, what, List.of());
  }

  /**
   * {@link #scenarioFor(Path, List, List, PrintWriter, String)} for a job file run with fio's
   * job options on the command line ({@code commandLine}, as typed: the file's defaults and jobs
   * of their own, {@link FioJobFile#parseAfterCommandLine}), whose devices and files count too.
   */
  static Path scenarioFor(Path jobFile, List<String> sections, List<String> maps,
      PrintWriter err, String what, List<String> commandLine) throws IOException {
    Path abs = jobFile.toAbsolutePath().normalize();
    Map<String, String> types = new LinkedHashMap<>();
    List<String> pathMaps = new ArrayList<>();
    for (String m : maps) {
      int eq = m.indexOf('=');
      String target = eq < 0 ? "" : m.substring(eq + 1).trim();
      if (MAP_TYPES.contains(target)) {
        String path = m.substring(0, eq).trim();
        if (!path.startsWith("/dev/") || path.length() == 5) {
          throw new InputException(null, 0, "--map", "'" + m + "': a device type is given to a"
              + " block device path (/dev/sdb=null_blk)");
        }
        types.put(path.substring(5), target);
      } else {
        pathMaps.add(m);
      }
    }
    blksim.workload.scenario.FioPathMap pathMap;
    try {
      pathMap = new blksim.workload.scenario.FioPathMap(pathMaps);
    } catch (IllegalArgumentException e) {
      throw new InputException(null, 0, "--map", e.getMessage());
    }
    FioEnvironment env = new FioEnvironment(CPUS, MEMORY_MB, 4096).withPaths(pathMap::map);
    java.util.Set<String> only = sections.isEmpty() ? null : java.util.Set.copyOf(sections);
    List<FioJob> jobs;
    if (!commandLine.isEmpty()) {
      // (an error names the command line's text: RunCommand restates it as the option typed)
      jobs = FioJobFile.parseAfterCommandLine(blksim.workload.fio.FioCommandLineText.NAME,
          pathMap.apply(blksim.workload.fio.FioCommandLineText.of(commandLine).text()),
          abs.toString(), pathMap.apply(Files.readString(abs)), abs.getParent(), env,
          System.getenv(), only);
    } else {
      jobs = sections.isEmpty() && pathMap.isEmpty() ? FioJobFile.parse(abs, env)
          : FioJobFile.parse(abs.toString(), pathMap.apply(Files.readString(abs)),
              abs.getParent(), env, System.getenv(), only);
    }
    Map<String, String> devices = new LinkedHashMap<>();
    List<String> implicit = new ArrayList<>();
    boolean needFs = false;
    for (FioJob j : jobs) {
      if (j.ioengine().diskless()) {
        continue; // diskless: its filename= names nothing
      }
      if (j.filename() == null) {
        if (j.inWorkingDirectory() && j.jobIndex() == 0) {
          implicit.add("job '" + j.name() + "' names no filename= or directory=: as fio, its"
              + " files are named after it ($jobname.$jobnum.$filenum: " + j.directoryPath(0)
              + (j.nrFiles() > 1 || j.numjobs() > 1 ? ", ..." : "") + ") in the working"
              + " directory, " + FioJob.WORKING_DIRECTORY + " of the default filesystem");
        }
        needFs = true; // directory=, or fio's files named after the job in the working directory
        continue;
      }
      for (String f : j.filenames()) {
        if (!f.startsWith("/dev/")) {
          needFs = true; // a regular file: on the default filesystem, mounted at /
          continue;
        }
        if (blksim.kernel.device.MemCharDevice.of(f) != null && !types.containsKey(f.substring(5))) {
          // The machine's own character device: no simulated device to add.
          String said = f + " is the character device it is on every Linux machine (no block"
              + " device, no page cache: each I/O is its system call's own work)";
          if (!implicit.contains(said)) {
            implicit.add(said);
          }
          continue;
        }
        java.util.regex.Matcher udev = UDEV_LINK.matcher(f);
        if (udev.matches()) {
          // /dev/disk/by-id/NAME (PerfKitBenchmarker's jobs) is udev's link to a block device:
          // the job's path is mapped to a device named after the link, as --map would.
          String m = f + "=" + udev.group(1);
          if (!pathMaps.contains(m)) {
            pathMaps.add(m);
            implicit.add("job '" + j.name() + "' names " + f + ", udev's link to a block"
                + " device: it runs on /dev/" + udev.group(1) + " (as --map " + m + ")");
          }
          f = "/dev/" + udev.group(1);
        }
        device(j, abs, f, devices, types);
      }
    }
    if (needFs && !devices.containsKey("sda")) {
      devices.put("sda", "{ type = ssd, name = sda, size = 1T }");
    }
    StringBuilder sb = new StringBuilder();
    sb.append("# Generated by blksim for the fio job file ").append(abs).append('\n');
    sb.append("blksim {\n");
    sb.append("  description = \"fio job file ").append(abs.getFileName())
        .append(" on blksim's default machine\"\n");
    Path profile = Home.scenarios().resolve("profiles/generic-x86.conf");
    if (Files.isRegularFile(profile)) {
      sb.append("  profile = ").append(quote(profile.toAbsolutePath().toString())).append('\n');
    }
    sb.append("  machine { sockets = 2, cores-per-llc = 8, threads-per-core = 2, memory = 16G }\n");
    sb.append("  devices = [\n");
    for (String d : devices.values()) {
      sb.append("    ").append(d).append('\n');
    }
    sb.append("  ]\n");
    if (needFs) {
      sb.append("  filesystems = [ { type = xfs, device = sda, mount = \"/\" } ]\n");
    }
    sb.append("  fio.job-files = [").append(quote(abs.toString())).append("]\n");
    if (!pathMaps.isEmpty()) {
      sb.append("  fio.map = [");
      for (int i = 0; i < pathMaps.size(); i++) {
        sb.append(i > 0 ? ", " : "").append(quote(pathMaps.get(i)));
      }
      sb.append("]\n");
    }
    sb.append("}\n");
    Path tmp = Files.createTempFile("blksim-jobfile-", ".conf");
    tmp.toFile().deleteOnExit();
    Files.writeString(tmp, sb.toString());
    List<String> said = new ArrayList<>();
    devices.forEach((name, d) -> {
      said.add("/dev/" + name + " = " + d);
      if (name.startsWith("nvme") && d.startsWith("{ type = ssd,")) {
        // atomic=1 only: the nvme type has no atomic write limits yet.
        said.add("  the nvme model has no atomic writes yet: /dev/" + name + " is the ssd model,"
            + " a SATA SSD (one hardware queue with mq-deadline, its link's bandwidth;"
            + " ./blksim describe ssd) with 4 KiB atomic writes");
      } else if (d.startsWith("{ type = nvme,")) {
        said.add("  a PCIe 4.0 NVMe SSD (Samsung PM9A3-class media; a hardware queue per CPU,"
            + " scheduler none; ./blksim describe nvme); --set devices.N.KEY=... or --map /dev/"
            + name + "=TYPE changes it");
      }
    });
    err.println("blksim: " + (what != null ? what : abs.getFileName() + " is")
        + " a fio job file; it runs on the default"
        + " machine (32 CPUs: 2 sockets x 8 cores x 2 threads, 16 GiB, kernel V6_9)");
    for (String s : said) {
      err.println("blksim:   " + s);
    }
    if (needFs) {
      err.println("blksim:   an XFS-like filesystem on /dev/sda is mounted at / (the working"
          + " directory of relative file names); files are"
          + " laid out when a job starts as fio does (created, preallocated); no layout I/O is"
          + " simulated");
    }
    for (String s : implicit) {
      err.println("blksim:   " + s);
    }
    err.flush();
    return tmp;
  }

  /** udev's persistent block device links, {@code /dev/disk/by-id/NAME} and the like. */
  private static final java.util.regex.Pattern UDEV_LINK =
      java.util.regex.Pattern.compile("/dev/disk/by-[a-z-]+/([A-Za-z0-9_.-]+)");

  private static void device(FioJob j, Path abs, String f, Map<String, String> devices,
      Map<String, String> types) {
    if (!f.startsWith("/dev/") || f.startsWith("/dev/mapper/")) {
      throw j.error("filename", "filename=" + f
          + " needs a scenario: with a job file alone blksim gives block devices under /dev/"
          + " a default device and regular files a default filesystem, not device-mapper"
          + " paths");
    }
    String name = f.substring(5);
    if (devices.containsKey(name)) {
      return;
    }
    String d;
    String type = types.get(name);
    if (type != null) {
      d = "{ type = " + type + ", name = " + quote(name)
          + (type.equals("null_blk") || type.equals("zoned-disk") || type.equals("nvme") ? ""
              : type.equals("ssd")
              || type.equals("disk") ? ", size = 1T" : ", size = 8G") + " }";
    } else if (name.matches("nullb\\d+")) {
      d = "{ type = null_blk, name = " + name + " }";
    } else if (name.matches("ram\\d+")) {
      d = "{ type = brd, name = " + name + ", size = 8G }";
    } else if (name.matches("zram\\d+")) {
      d = "{ type = zram, name = " + name + ", size = 8G }";
    } else if (name.matches("nvme\\d+n\\d+(p\\d+)?") && !j.zonemodeZbd() && !j.atomic()) {
      // nvme-pci's namespace names (nvme_alloc_ns(): nvme%dn%d; partitions p%d).
      d = "{ type = nvme, name = " + name + " }";
    } else if (j.zonemodeZbd()) {
      // zonemode=zbd: a host-managed SMR disk, the 15 TB layout of kernel-model.md §15.1.1.
      d = "{ type = zoned-disk, name = " + quote(name) + " }";
    } else {
      d = "{ type = ssd, name = " + quote(name) + ", size = 1T" + (j.atomic()
          // atomic=1 (fio's examples/atomic-verify.fio names /dev/XXX): the default SSD then has
          // atomic writes of up to 4 KiB, what an NVMe drive reporting AWUPF=0 on a 4 KiB LBA
          // format gives (nvme_configure_atomic_write(): (1 + awupf) * block size); a SATA SSD,
          // the ssd model's default, has none.
          ? ", atomic-write-unit-max = 4k" : "") + " }";
    }
    devices.put(name, d);
  }

  private static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
