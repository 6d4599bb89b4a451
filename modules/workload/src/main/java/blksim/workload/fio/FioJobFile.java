package blksim.workload.fio;

import blksim.engine.InputException;
import blksim.workload.fio.FioValues.BadValue;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Reads fio job files into {@link FioJob}s.
 *
 * <p>Mirrors {@code __parse_jobs_ini()} and {@code add_job()} in fio's {@code init.c} and the option
 * handling of {@code parse.c}/{@code options.c}:
 * <ul>
 *   <li>{@code [name]} opens a section; a name starting with {@code global} (fio compares 6
 *       characters, so {@code [global-x]} counts) holds defaults for the jobs below it in the same
 *       file; several global sections add up. Options before the first section are an error.
 *   <li>A line whose first non-blank character is {@code ;} or {@code #} is a comment.
 *   <li>{@code key=value} or a bare {@code key} (a flag such as {@code time_based}; fio rejects a
 *       bare boolean such as {@code direct}). Blanks before {@code =} are dropped; blanks after it
 *       are trimmed with a warning (fio would misread them: {@code bs = 8k} is 8 bytes there).
 *   <li>{@code include FILE} pulls in option lines, resolved against the including file's
 *       directory (the top file's against {@code baseDir}); nested includes are allowed, sections
 *       in included files are not.
 *   <li>{@code ${VAR}} expands from the given variables (empty if unset); {@code $ncpus},
 *       {@code $mb_memory}, {@code $pagesize} come from {@link FioEnvironment} and may be combined
 *       with {@code + - * /} as fio's {@code bc} step allows; {@code (…)} is fio's arithmetic.
 *   <li>{@code numjobs=N} gives N jobs with the same name and jobIndex 0..N-1. Group ids follow
 *       {@code add_job()}: a job with {@code stonewall} or {@code new_group} starts a new group
 *       unless it is the first job; every file after the first starts with an implicit stonewall.
 *   <li>{@code kb_base} applies to its whole section whatever its position, as fio sorts it first
 *       ({@code .prio = 1}); other options apply in file order, so the later of
 *       {@code rwmixread}/{@code rwmixwrite} and of {@code direct}/{@code buffered} wins.
 * </ul>
 *
 * <p>Inline comments: as fio, a line is cut at its first {@code ;} or {@code #} wherever it is
 * ({@link #stripBlankEnd}), so {@code bs=4k  # small} is 4k and {@code description=a;b} is "a".
 * Stricter than fio: malformed numbers are rejected instead of read up to the first bad character,
 * a name fio does not know fails as an "unknown fio option", and an option fio knows (from its
 * option table, see {@link FioOptions}) that blksim does not model fails as "not modelled by
 * blksim"; every error names the file and line of the option at fault.
 *
 * <table>
 *   <caption>Options blksim models (aliases in parentheses)</caption>
 *   <tr><th>group</th><th>options</th></tr>
 *   <tr><td>identity</td><td>name, description, filename</td></tr>
 *   <tr><td>pattern ({@link IoPattern})</td><td>rw (readwrite) with :N, rw_sequencer=sequential,
 *     rwmixread, rwmixwrite, percentage_random, norandommap, randrepeat (allrandrepeat),
 *     randseed, random_distribution (random, zipf, pareto, normal, zoned, zoned_abs),
 *     random_generator (tausworthe, tausworthe64, lfsr), zonemode (none, strided), zonerange,
 *     zonesize, zoneskip, offset_increment (bytes or % of a device)</td></tr>
 *   <tr><td>sizes</td><td>bs (blocksize), bsrange (blocksize_range), bssplit, ba (blockalign),
 *     all per direction; size (bytes or %), offset (fileoffset; bytes or % of a device),
 *     io_size (io_limit), kb_base</td></tr>
 *   <tr><td>engine</td><td>ioengine (psync, sync, pvsync, pvsync2, libaio, io_uring, null),
 *     iodepth, iodepth_batch (iodepth_batch_submit), iodepth_batch_complete_min
 *     (iodepth_batch_complete), iodepth_batch_complete_max, iodepth_low, direct, buffered;
 *     io_uring: hipri, fixedbufs, registerfiles, sqthread_poll, nonvectored; pvsync2:
 *     hipri</td></tr>
 *   <tr><td>timing</td><td>runtime (timeout), time_based, ramp_time, startdelay (no range), loops,
 *     number_ios, thinktime, thinktime_blocks, thinktime_spin, steadystate (ss: iops, iops_slope,
 *     bw, bw_slope), steadystate_duration (ss_dur), steadystate_ramp_time (ss_ramp),
 *     steadystate_check_interval (ss_interval)</td></tr>
 *   <tr><td>jobs and groups ({@link blksim.workload.fio.thread.JobSequencer})</td><td>numjobs,
 *     thread, stonewall (wait_for_previous), new_group, wait_for, exitall, exit_what,
 *     group_reporting</td></tr>
 *   <tr><td>reporting</td><td>percentile_list, clat_percentiles, lat_percentiles,
 *     slat_percentiles, gtod_reduce, disable_slat, disable_lat, disable_clat,
 *     disable_bw_measurement (disable_bw), unified_rw_reporting, bwavgtime, iopsavgtime,
 *     significant_figures, unit_base</td></tr>
 *   <tr><td>syncing</td><td>fsync, fdatasync (every N writes), end_fsync</td></tr>
 *   <tr><td>files of a {@code directory=} job
 *     ({@link blksim.workload.fio.thread.FioFileSet})</td><td>filesize (and ranges), nrfiles
 *     (nr_files), openfiles, file_service_type (random, roundrobin, sequential, :N), fallocate,
 *     create_on_open, unlink, unlink_each_loop, fsync_on_close, overwrite,
 *     filename_format</td></tr>
 *   <tr><td>CPUs</td><td>cpus_allowed, cpumask, cpus_allowed_policy (shared, split), nice; the
 *     job starts on its {@code k}-th allowed CPU and wakeup placement keeps it in the set</td></tr>
 *   <tr><td>replay ({@link blksim.workload.replay.ReplayFeed})</td><td>read_iolog (several
 *     files split over clones), read_iolog_chunked (no effect: traces are always streamed),
 *     replay_no_stall, replay_time_scale, replay_redirect, replay_align,
 *     replay_scale, replay_skip; blksim extensions (not fio options): read_iolog_format,
 *     replay_start, replay_end, replay_device, replay_known_devices</td></tr>
 *   <tr><td>rate floor</td><td>rate_min (ratemin), rate_iops_min, rate_cycle (ratecycle):
 *     fio's check_min_rate(), the job ends with EIO under the floor</td></tr>
 *   <tr><td>verify ({@link VerifyAlgorithm})</td><td>verify (md5, sha1, crc32c, crc32c-intel,
 *     null), do_verify, verify_only, verify_backlog, verify_backlog_batch: the write phase
 *     then the verify reads (or the backlog's interleaved reads), the checksum's CPU per byte,
 *     on devices and regular files; verify_async (not with offload): the read checks on that
 *     many verify threads; data is not simulated, so nothing fails to verify</td></tr>
 *   <tr><td>accepted, no effect</td><td>continue_on_error, ignore_error,
 *     error_dump (no I/O error is simulated); verify_interval, verify_offset, verify_pattern,
 *     verify_pattern_interval, verify_fatal, verify_dump, verify_write_sequence,
 *     verify_header_seed, verify_state_save, verifysort, verifysort_nr (data is not
 *     simulated); verify_async_cpus (the verify threads start on the job's CPU)</td></tr>
 * </table>
 *
 * <p>Every other option of fio's option table and engine tables ({@link FioOptions}, for example
 * ioscheduler, unified_rw_reporting) is rejected as "not modelled by blksim (REASON)",
 * the reason from the compatibility table ({@code fio-options.tsv}, printed by
 * {@code ./blksim describe fio}); a name fio does not know is an "unknown fio option".
 */
public final class FioJobFile {

  /** Where an option or section came from: file, 1-based line and the key as written. */
  record Origin(String file, int line, String key) {}

  /**
   * One option line. {@code refusal} is set for an option blksim refuses or fio's own table does
   * not know: it is raised only once the job's engine is known (see {@link #applySection}).
   */
  private record RawOption(String key, String value, Origin at, InputException refusal) {}

  private record Section(String name, Origin at, boolean global, List<RawOption> options) {}

  private record Source(String displayName, String text, Path baseDir) {}

  private FioJobFile() {}

  /** Parses one job file, {@code ${VAR}} from the process environment. */
  public static List<FioJob> parse(Path file, FioEnvironment env) {
    return parse(file, env, System.getenv());
  }

  /** Parses one job file; includes resolve against its directory. */
  public static List<FioJob> parse(Path file, FioEnvironment env, Map<String, String> envVars) {
    return parse(List.of(file), env, envVars);
  }

  /**
   * Parses several job files as {@code fio a.fio b.fio} would: one job list, group ids running on,
   * an implicit stonewall at the first job of each later file, globals private to their file.
   */
  public static List<FioJob> parse(List<Path> files, FioEnvironment env,
      Map<String, String> envVars) {
    List<Source> sources = new ArrayList<>();
    for (Path f : files) {
      Path dir = f.toAbsolutePath().getParent();
      sources.add(new Source(f.toString(), read(f, null), dir));
    }
    return parseSources(sources, env, envVars);
  }

  /**
   * Parses job-file text.
   *
   * @param displayName the name used in errors and {@link FioJob#file()}
   * @param baseDir directory for relative {@code include}s, or {@code null} for the working one
   */
  public static List<FioJob> parse(String displayName, String text, Path baseDir,
      FioEnvironment env, Map<String, String> envVars) {
    return parseSources(List.of(new Source(displayName, text,
        baseDir == null ? Path.of("") : baseDir)), env, envVars, null);
  }

  /**
   * Parses job-file text keeping only the job sections named in {@code sections}, as fio's
   * {@code --section} does ({@code skip_this_section()} in {@code init.c}): the other job
   * sections are skipped unread (their options are not even checked), {@code [global]} sections
   * always apply. The result may be empty: the caller says whether no job at all is an error.
   *
   * @param sections the section names to keep, or {@code null} for all
   */
  public static List<FioJob> parse(String displayName, String text, Path baseDir,
      FioEnvironment env, Map<String, String> envVars, java.util.Set<String> sections) {
    return parseSources(List.of(new Source(displayName, text,
        baseDir == null ? Path.of("") : baseDir)), env, envVars, sections);
  }

  /** The names of the job (non-global) sections of job-file text, in file order. */
  public static List<String> sectionNames(String text) {
    List<String> names = new ArrayList<>();
    for (String line : text.split("\n", -1)) {
      String t = line.trim();
      if (!isBlankOrComment(t)) {
        t = stripBlankEnd(t);
        if (t.length() >= 3 && t.charAt(0) == '[' && t.endsWith("]")) {
          String name = t.substring(1, t.length() - 1);
          if (!name.startsWith("global")) {
            names.add(name);
          }
        }
      }
    }
    return names;
  }

  /**
   * Parses job-file text after fio's job options from the command line, as {@code fio
   * --opt=value ... JOBFILE} does with its first job file ({@code parse_cmd_line()} then
   * {@code parse_options()} in fio's init.c): the command line's {@code [global]} options are the
   * defaults the file's {@code [global]} sections and jobs start from, its {@code --name} jobs
   * come first, and the file's first job gets no implicit stonewall ({@code stonewall_flag} is
   * the file's index, 0). A later job file starts from fio's defaults again
   * ({@code fill_def_thread()}), so only the first file is parsed this way.
   *
   * @param commandLineName the name of the command line's text in errors
   * @param commandLineText the command line as job-file text ({@code [global]}, {@code [JOB]})
   */
  public static List<FioJob> parseAfterCommandLine(String commandLineName,
      String commandLineText, String displayName, String text, Path baseDir, FioEnvironment env,
      Map<String, String> envVars, java.util.Set<String> sections) {
    Path base = baseDir == null ? Path.of("") : baseDir;
    return parseSources(List.of(new Source(commandLineName, commandLineText, base),
        new Source(displayName, text, base)), env, envVars, sections, true);
  }

  private static List<FioJob> parseSources(List<Source> sources, FioEnvironment env,
      Map<String, String> envVars) {
    return parseSources(sources, env, envVars, null);
  }

  private static List<FioJob> parseSources(List<Source> sources, FioEnvironment env,
      Map<String, String> envVars, java.util.Set<String> only) {
    return parseSources(sources, env, envVars, only, false);
  }

  /**
   * {@code carry}: the second source continues the first's defaults and global options with no
   * implicit stonewall (the command line before the first job file).
   */
  private static List<FioJob> parseSources(List<Source> sources, FioEnvironment env,
      Map<String, String> envVars, java.util.Set<String> only, boolean carry) {
    Objects.requireNonNull(env, "env");
    Objects.requireNonNull(envVars, "envVars");
    if (sources.isEmpty()) {
      throw new IllegalArgumentException("no job file given");
    }
    List<FioJob> jobs = new ArrayList<>();
    int groupId = 0;
    int groupJobs = 0;
    FioJobSettings defaults = null;
    LinkedHashMap<String, String> globalOptions = null;
    for (int f = 0; f < sources.size(); f++) {
      boolean carried = carry && f == 1;
      boolean implicitStonewall = f > 0 && !carried;
      if (!carried) {
        defaults = new FioJobSettings();
        defaults.ncpus = env.ncpus();
        defaults.tracePaths = env.paths();
        globalOptions = new LinkedHashMap<>();
      }
      for (Section sec : readSections(sources.get(f), only)) {
        if (sec.global()) {
          applySection(sec, defaults, globalOptions, env, envVars);
          continue;
        }
        FioJobSettings s = defaults.copy();
        LinkedHashMap<String, String> options = new LinkedHashMap<>(); // the section's own
        applySection(sec, s, options, env, envVars);
        if (s.pendingRefusal != null) {
          throw s.pendingRefusal; // the engine is modelled: the first refused option stands
        }
        s.finish();
        if (implicitStonewall) {
          // __parse_jobs_ini(): the first job of each later file gets o.stonewall.
          s.stonewall = true;
        }
        checkWaitFor(s, sec.name(), jobs);
        // add_job(): stonewall/new_group open a group only once the current one has a job.
        if ((s.stonewall || s.newGroup || implicitStonewall) && groupJobs > 0) {
          groupId++;
          groupJobs = 0;
        }
        implicitStonewall = false;
        Map<String, String> frozen = Collections.unmodifiableMap(options);
        Map<String, String> globals =
            Collections.unmodifiableMap(new LinkedHashMap<>(globalOptions));
        for (int k = 0; k < s.numjobs; k++) {
          jobs.add(new FioJob(sec.name(), k, groupId, sec.at().file(), sec.at().line(), frozen,
              globals, withVerifyState(s, sec.name(), jobs.size())));
          groupJobs++;
        }
      }
    }
    if (jobs.isEmpty() && only == null) {
      Source first = sources.get(0);
      throw new InputException(first.displayName(), 0, null,
          "no job section: a job file needs at least one [job] besides [global]");
    }
    return List.copyOf(jobs);
  }

  /**
   * {@code verify_state_load} of a verifying job: its state file ({@link VerifyState}), named by
   * the job's name and its thread index in the job file ({@code td->thread_number - 1}), bounds
   * the reads it verifies; without one, the settings are unchanged.
   */
  private static FioJobSettings withVerifyState(FioJobSettings s, String name, int thread) {
    if (!s.verifyStateLoad || !s.verify.enabled()) {
      return s; // fio only consults the loaded state on the verify path
    }
    long reads = VerifyState.readsToVerify(Path.of("").toAbsolutePath(), name, thread,
        s.iodepth, s.origins.get("verify_state_load"));
    if (reads < 0) {
      return s;
    }
    if (s.rw.writes()) {
      throw s.error("verify_state_load", "a verify state file bounds a job that only reads;"
          + " replaying an earlier run's writes (verify_only with a writing rw=) is not modelled"
          + " by blksim");
    }
    FioJobSettings c = s.copy();
    c.verifyStateReads = reads;
    return c;
  }

  /**
   * fio's {@code wait_for_ok()} ({@code init.c}): a job cannot wait for itself, and the waitee
   * must be exactly one job defined before it (clones not counted).
   */
  private static void checkWaitFor(FioJobSettings s, String section, List<FioJob> before) {
    if (s.waitFor == null) {
      return;
    }
    String me = s.displayName != null ? s.displayName : section;
    if (me.equals(s.waitFor)) {
      throw s.error("wait_for", "wait_for=" + s.waitFor + " names the job itself; a job cannot"
          + " wait for itself");
    }
    int n = 0;
    for (FioJob j : before) {
      n += j.jobIndex() == 0 && j.name().equals(s.waitFor) ? 1 : 0;
    }
    if (n == 0) {
      throw s.error("wait_for", "waitee job " + s.waitFor + " unknown (it must come before)");
    }
    if (n > 1) {
      throw s.error("wait_for", "multiple waitees " + s.waitFor + " found; avoid duplicates");
    }
  }

  /** Applies a section: kb_base first (fio's option priority), then the rest in file order. */
  /**
   * Applies a section's options to {@code s}. As fio's {@code fio_options_parse()} does, an
   * option fio's own table lacks (an engine's option) or blksim refuses is set aside while the
   * rest is parsed, so that {@code ioengine=} of an engine blksim does not model is what gets
   * reported, wherever it stands; otherwise the first refused option or bad value of the job is
   * reported (by the caller, once the job's sections are applied:
   * {@link FioJobSettings#pendingRefusal}).
   */
  private static void applySection(Section sec, FioJobSettings s,
      LinkedHashMap<String, String> options, FioEnvironment env, Map<String, String> envVars) {
    List<RawOption> raw = sec.options();
    String[] values = new String[raw.size()];
    for (int i = 0; i < raw.size(); i++) {
      RawOption o = raw.get(i);
      if (o.refusal() != null) {
        continue;
      }
      values[i] = o.value() == null ? null : badValue(o, () ->
          FioValues.substitute(o.value(), envVars, env));
      options.put(o.key(), values[i] == null ? "" : values[i]);
    }
    for (int pass = 0; pass < 2; pass++) {
      for (int i = 0; i < raw.size(); i++) {
        RawOption o = raw.get(i);
        if (o.refusal() != null) {
          if (pass == 1 && s.pendingRefusal == null) {
            s.pendingRefusal = o.refusal();
          }
          continue;
        }
        if (o.key().equals("kb_base") == (pass == 0)) {
          String v = values[i];
          try {
            badValue(o, () -> {
              s.apply(o.key(), v, o.at());
              return null;
            });
          } catch (InputException e) {
            e = unsetVariable(o, v, e, envVars);
            if ("ioengine".equals(e.key())) {
              throw e; // an engine blksim does not model is what the user needs to know first
            }
            if (s.pendingRefusal == null) {
              s.pendingRefusal = e; // the first error in the file, raised after the section
            }
          }
        }
      }
    }
    refusedByFioToo(raw, s);
  }

  /**
   * An option blksim refuses that fio itself would refuse with the section's engine takes the
   * place of blksim's refusal, so the message says that the file does not run under fio either:
   * <ul>
   *   <li>an option of other engines' tables: fio's {@code fio_options_parse()} looks options
   *       its own table lacks up in the loaded engine's table only, and logs {@code Bad option
   *       <KEY=VALUE>} for the rest ({@code md_per_io_size} without {@code ioengine=io_uring_cmd}
   *       or {@code xnvme}, e.g. in fio's {@code examples/xnvme-pi.fio} run without the
   *       {@code --ioengine} its README gives);
   *   <li>{@code fdp=1} with an engine that has no {@code fdp_fetch_ruhs} hook (all but
   *       io_uring_cmd and xnvme): fio's {@code fdp_ruh_info()} ({@code fdp.c}) logs
   *       {@code FILE: engine (NAME) lacks fetch ruhs} and the job fails at file setup.
   * </ul>
   * Only options whose verdict is "refused" are looked at: for a modelled option the job's own
   * checks ({@code FioJobSettings.finish}) say what is wrong.
   */
  private static void refusedByFioToo(List<RawOption> raw, FioJobSettings s) {
    if (s.pendingRefusal == null) {
      return;
    }
    String engine = s.ioengine.fioName();
    for (int i = 0; i < raw.size(); i++) {
      RawOption o = raw.get(i);
      if (o.refusal() == null) {
        continue;
      }
      FioOptions.Option row = FioOptions.option(o.key());
      String why = null;
      if (row != null && row.engines() != null && !row.engines().contains(engine)) {
        String kv = o.value() == null ? o.at().key() : o.at().key() + "=" + o.value();
        why = kv + " is an option of ioengine=" + String.join("/", row.engines())
            + ", not of ioengine=" + engine + " (fio refuses it too: Bad option)";
      } else if (o.key().equals("fdp") && !engine.equals("io_uring_cmd")
          && !engine.equals("xnvme") && isTrue(o.value())) {
        why = "fdp=1 needs an engine that can fetch the device's reclaim unit handles"
            + " (io_uring_cmd or xnvme); fio fails the same way: engine (" + engine
            + ") lacks fetch ruhs";
      }
      if (why != null) {
        if (o.refusal() == s.pendingRefusal || o.at().line() <= s.pendingRefusal.line()) {
          s.pendingRefusal = new InputException(o.at().file(), o.at().line(), o.at().key(), why);
        }
        return;
      }
    }
  }

  private static boolean isTrue(String v) {
    return v == null || !(v.equals("0") || v.equalsIgnoreCase("false")
        || v.equalsIgnoreCase("no") || v.equalsIgnoreCase("off"));
  }

  /**
   * An option whose value came out empty because its {@code ${VAR}}s are unset: fio substitutes
   * them with nothing too ({@code fio_option_dup_subs()}) and then fails the same way
   * ("fio: failed parsing KEY="), so the message names the variables to set.
   */
  private static InputException unsetVariable(RawOption o, String value, InputException e,
      Map<String, String> envVars) {
    if (o.value() != null && o.value().isBlank() && e.rule().equals("needs a value")) {
      // KEY= written empty (SPDK's vhost jobs, whose scripts fill filename= in): fio's
      // __handle_option() fails an empty value (FIO_OPT_STR_STORE: "if (!strlen(ptr)) return 1").
      return new InputException(e.file(), e.line(), e.key(), e.rule() + " (it is empty; fio"
          + " fails the same way)");
    }
    if (o.value() == null || !o.value().contains("${") || value == null || !value.isBlank()) {
      return e;
    }
    List<String> unset = new ArrayList<>();
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\$\\{([^}]+)}")
        .matcher(o.value());
    while (m.find()) {
      if (envVars.get(m.group(1)) == null || envVars.get(m.group(1)).isEmpty()) {
        unset.add(m.group(1));
      }
    }
    if (unset.isEmpty()) {
      return e;
    }
    return new InputException(e.file(), e.line(), e.key(), e.rule() + " (" + o.value()
        + " is empty: " + String.join(", ", unset) + (unset.size() == 1 ? " is" : " are")
        + " not set in the environment; fio fails the same way)");
  }

  private static <T> T badValue(RawOption o, java.util.function.Supplier<T> step) {
    try {
      return step.get();
    } catch (BadValue e) {
      throw new InputException(o.at().file(), o.at().line(), o.at().key(), e.getMessage());
    }
  }

  private static List<Section> readSections(Source src, java.util.Set<String> only) {
    List<Section> sections = new ArrayList<>();
    Section current = null;
    boolean skipping = false;
    String[] lines = src.text().split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String t = lines[i].trim();
      Origin at = new Origin(src.displayName(), i + 1, null);
      if (isBlankOrComment(t)) {
        continue;
      }
      t = stripBlankEnd(t);
      if (t.charAt(0) == '[') {
        current = header(t, at);
        skipping = only != null && !current.global() && !only.contains(current.name());
        if (!skipping) {
          sections.add(current);
        }
      } else if (skipping) {
        continue; // fio's --section: a skipped section's lines are not parsed
      } else if (current == null) {
        int eq = t.indexOf('=');
        throw new InputException(at.file(), at.line(), (eq < 0 ? t : t.substring(0, eq)).trim(),
            "option outside of a [section]; put it under [global] or a [job]");
      } else if (isInclude(t)) {
        include(t, at, src.baseDir(), new ArrayDeque<>(), current.options());
      } else {
        current.options().add(option(t, at));
      }
    }
    return sections;
  }

  private static Section header(String t, Origin at) {
    if (!t.endsWith("]") || t.length() < 3) {
      throw new InputException(at.file(), at.line(), null,
          "a section header is [name] with a non-empty name, was " + t);
    }
    String name = t.substring(1, t.length() - 1);
    Origin named = new Origin(at.file(), at.line(), "[" + name + "]");
    return new Section(name, named, name.startsWith("global"), new ArrayList<>());
  }

  private static boolean isInclude(String t) {
    return t.equals("include") || t.startsWith("include ") || t.startsWith("include\t");
  }

  /** fio's include: option lines only, resolved against the including file's directory. */
  private static void include(String t, Origin at, Path baseDir, Deque<Path> stack,
      List<RawOption> into) {
    String name = t.substring("include".length()).trim();
    Origin inc = new Origin(at.file(), at.line(), "include");
    if (name.isEmpty()) {
      throw new InputException(inc.file(), inc.line(), inc.key(), "include needs a file name");
    }
    Path path = baseDir.resolve(name).normalize();
    if (!Files.isRegularFile(path)) {
      throw new InputException(inc.file(), inc.line(), inc.key(),
          "included file " + name + " does not exist (looked for " + path + ")");
    }
    Path key = path.toAbsolutePath();
    if (stack.contains(key)) {
      throw new InputException(inc.file(), inc.line(), inc.key(),
          "include cycle: " + name + " includes itself");
    }
    stack.push(key);
    String display = path.toString();
    String[] lines = read(path, inc).split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String l = lines[i].trim();
      Origin here = new Origin(display, i + 1, null);
      if (isBlankOrComment(l)) {
        continue;
      }
      l = stripBlankEnd(l);
      if (l.charAt(0) == '[') {
        throw new InputException(display, i + 1, null,
            "an included file may not contain sections, found " + l);
      }
      if (isInclude(l)) {
        include(l, here, path.toAbsolutePath().getParent(), stack, into);
      } else {
        into.add(option(l, here));
      }
    }
    stack.pop();
  }

  /** One {@code key=value} or bare {@code key} line, checked against fio's option names. */
  private static RawOption option(String t, Origin at) {
    int eq = t.indexOf('=');
    String written = (eq < 0 ? t : t.substring(0, eq)).trim();
    String value = eq < 0 ? null : t.substring(eq + 1);
    Origin here = new Origin(at.file(), at.line(), written);
    if (value != null && !value.equals(value.stripLeading())) {
      FioJobSettings.note("{}:{}: {}: blank after '=' trimmed (fio itself would misread '{}')",
          at.file(), at.line(), written, value);
      value = value.trim();
    }
    String key = FioOptions.canonical(written);
    if (key == null) {
      // fio itself rejects it: fio_options_parse() logs "Bad option <KEY=VALUE>", its
      // show_closest_option() "Did you mean X?", and __parse_jobs_ini() drops the job and stops.
      String closest = FioOptions.closest(written);
      return new RawOption(written, value, here, new InputException(here.file(), here.line(),
          written, (value == null ? written : written + "=" + value) + " is an unknown fio"
          + " option (fio refuses it too: Bad option"
          + (closest == null ? "" : "; did you mean " + closest + "?") + ")"));
    }
    if (!FioOptions.modelled(key)) {
      String why = FioOptions.reason(key);
      return new RawOption(key, value, here, new InputException(here.file(), here.line(),
          written, written + (key.equals(written) ? "" : " (" + key + ")")
          + " is not modelled by blksim"
          + (why.isEmpty() ? "" : " (" + why + ")")));
    }
    return new RawOption(key, value, here, null);
  }

  private static boolean isBlankOrComment(String t) {
    return t.isEmpty() || t.charAt(0) == ';' || t.charAt(0) == '#';
  }

  /**
   * fio's {@code strip_blank_end()} ({@code parse.c}), which {@code __parse_jobs_ini()} applies to
   * every line that is not a comment: the line is cut at its first {@code ;}, what is left at its
   * first {@code #}, and trailing blanks and control characters go. So {@code bs=4k # x} is
   * {@code bs=4k}, {@code description=a;b} is {@code description=a}, and {@code bs=4k#x} is
   * {@code bs=4k}. The cut is on the raw line, before {@code ${VAR}} expansion.
   */
  static String stripBlankEnd(String line) {
    int semi = line.indexOf(';');
    String t = semi < 0 ? line : line.substring(0, semi);
    int hash = t.indexOf('#');
    if (hash >= 0) {
      t = t.substring(0, hash);
    }
    int end = t.length();
    while (end > 0 && t.charAt(end - 1) <= ' ') {
      end--;
    }
    return t.substring(0, end);
  }

  private static String read(Path file, Origin includedFrom) {
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .decode(java.nio.ByteBuffer.wrap(Files.readAllBytes(file))).toString();
    } catch (CharacterCodingException e) {
      throw new InputException(file.toString(), 0, null, "not a UTF-8 text file");
    } catch (IOException e) {
      String why = "cannot read job file: " + e;
      throw includedFrom == null ? new InputException(file.toString(), 0, null, why)
          : new InputException(includedFrom.file(), includedFrom.line(), "include", why);
    }
  }
}
