package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * fio's report options, as stat.c prints them: {@code unified_rw_reporting} (one "mixed"
 * direction summed over read/write/trim, or both), {@code bwavgtime}/{@code iopsavgtime} (the
 * bw and iops sample windows), {@code significant_figures} (num2str's digits) and
 * {@code unit_base} (bits).
 */
@Timeout(180)
class ReportOptionsOutputTest {
  @TempDir Path dir;

  MainTest.Result run(String extra, String... args) throws IOException {
    Path job = dir.resolve("j.fio");
    Files.writeString(job, "[j]\nioengine=libaio\ndirect=1\nrw=randrw\nbs=4k\niodepth=4\n"
        + "filename=/dev/nullb0\ntime_based=1\nruntime=20ms\n" + extra);
    String[] all = new String[2 + args.length];
    all[0] = "run";
    all[1] = job.toString();
    System.arraycopy(args, 0, all, 2, args.length);
    MainTest.Result r = MainTest.cli(all);
    assertEquals(0, r.code(), r.err());
    return r;
  }

  @SuppressWarnings("unchecked")
  static List<Object> jobs(String json) {
    Map<String, Object> doc = (Map<String, Object>) blksim.report.json.JsonReader.parse(json);
    return (List<Object>) doc.get("jobs");
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> job(String json) {
    return (Map<String, Object>) jobs(json).get(0);
  }

  @SuppressWarnings("unchecked")
  static long num(Map<String, Object> job, String dir, String key) {
    return ((Number) ((Map<String, Object>) job.get(dir)).get(key)).longValue();
  }

  @Test
  void unifiedMixed_printsOneMixedDirection_summedOverReadAndWrite() throws IOException {
    String text = run("unified_rw_reporting=mixed\n").out();
    assertTrue(text.contains("\n  mixed: IOPS="), text);
    assertFalse(text.contains("  read: IOPS=") || text.contains("  write: IOPS="), text);
    assertTrue(text.contains("\n  MIXED: bw="), text);
    assertFalse(text.contains("   READ: bw=") || text.contains("  WRITE: bw="), text);

    Map<String, Object> split = job(run("", "--output-format=json").out());
    Map<String, Object> mixed = job(run("unified_rw_reporting=1\n", "--output-format=json").out());
    assertTrue(mixed.containsKey("mixed"), mixed.keySet().toString());
    assertFalse(mixed.containsKey("read") || mixed.containsKey("write") || mixed.containsKey("sync"),
        mixed.keySet().toString());
    long read = num(split, "read", "io_bytes");
    long write = num(split, "write", "io_bytes");
    assertTrue(read > 0 && write > 0);
    assertEquals(read + write, num(mixed, "mixed", "io_bytes"));
    assertEquals(num(split, "read", "total_ios") + num(split, "write", "total_ios"),
        num(mixed, "mixed", "total_ios"));

    // terse v3: one direction's fields instead of two
    int none = run("", "--output-format=terse").out().trim().split(";", -1).length;
    int one = run("unified_rw_reporting=mixed\n", "--output-format=terse").out().trim()
        .split(";", -1).length;
    int both = run("unified_rw_reporting=both\n", "--output-format=terse").out().trim()
        .split(";", -1).length;
    assertTrue(one < none, one + " vs " + none);
    assertEquals(none - one, both - none, "both adds one direction's fields after write");
  }

  @Test
  void unifiedBoth_printsEachDirectionThenMixed() throws IOException {
    String text = run("unified_rw_reporting=both\n").out();
    int r = text.indexOf("  read: IOPS=");
    int w = text.indexOf("  write: IOPS=");
    int m = text.indexOf("  mixed: IOPS=");
    assertTrue(r > 0 && w > r && m > w, text);
    // gen_mixed_ddir_stats_from_ts() leaves unit_base 0: fio prints the mixed BW= without a unit
    assertTrue(Pattern.compile("  mixed: IOPS=\\S+, BW=[0-9.]+[KMG]?i? \\(").matcher(text).find(),
        text);
    int gr = text.indexOf("   READ: bw=");
    int gm = text.indexOf("  MIXED: bw=");
    assertTrue(gr > 0 && gm > text.indexOf("  WRITE: bw="), text);

    Map<String, Object> j = job(run("unified_rw_reporting=both\n", "--output-format=json").out());
    assertTrue(j.containsKey("read") && j.containsKey("write") && j.containsKey("sync")
        && j.containsKey("mixed"), j.keySet().toString());
    assertEquals(num(j, "read", "io_bytes") + num(j, "write", "io_bytes"), num(j, "mixed", "io_bytes"));
    // bw and iops samples are added, not merged (sum_stat() with pure_sum)
    assertEquals(num(j, "read", "bw_samples") + num(j, "write", "bw_samples"),
        num(j, "mixed", "bw_samples"));
  }

  @Test
  void unifiedMixed_withGroupReporting_sumsTheGroupsJobs() throws IOException {
    String extra = "numjobs=2\ngroup_reporting\n";
    Map<String, Object> split = job(run(extra, "--output-format=json").out());
    List<Object> mixedJobs = jobs(run(extra + "unified_rw_reporting=mixed\n", "--output-format=json").out());
    assertEquals(1, mixedJobs.size());
    @SuppressWarnings("unchecked")
    Map<String, Object> mixed = (Map<String, Object>) mixedJobs.get(0);
    assertEquals(num(split, "read", "io_bytes") + num(split, "write", "io_bytes"),
        num(mixed, "mixed", "io_bytes"));
    String text = run(extra + "unified_rw_reporting=mixed\n").out();
    assertTrue(text.contains("(groupid=0, jobs=2)") && text.contains("  mixed: IOPS=")
        && text.contains("  MIXED: bw="), text);
  }

  @Test
  void bwavgtimeAndIopsavgtime_setTheSampleWindows() throws IOException {
    Map<String, Object> dflt = job(run("", "--output-format=json").out());
    assertEquals(0, num(dflt, "read", "bw_samples"), "no complete 500 ms window in 20 ms");
    Map<String, Object> bw = job(run("bwavgtime=2\n", "--output-format=json").out());
    assertEquals(10, num(bw, "read", "bw_samples"));
    assertEquals(0, num(bw, "read", "iops_samples"), "iops keeps its own 500 ms window");
    Map<String, Object> iops = job(run("iopsavgtime=5\n", "--output-format=json").out());
    assertEquals(4, num(iops, "read", "iops_samples"));
    assertEquals(0, num(iops, "read", "bw_samples"));
    String text = run("bwavgtime=2\niopsavgtime=4\n").out();
    assertTrue(text.contains(", samples=10\n") && text.contains(", samples=5\n"), text);
  }

  @Test
  void logs_setTheReportsSamples_asFiosInitAndPerUnitLogs() throws IOException {
    String prefix = dir.resolve("lg").toString();
    // init.c: with write_bw_log and log_avg_msec, bw_avg_time is log_avg_msec
    Map<String, Object> avg = job(run("write_bw_log=" + prefix + "\nlog_avg_msec=2\n",
        "--output-format=json").out());
    assertEquals(10, num(avg, "read", "bw_samples"));
    assertEquals(0, num(avg, "read", "iops_samples"));
    // per_unit_log(): without log_avg_msec the samples are one per I/O (iops: 1 each)
    Map<String, Object> unit = job(run("write_iops_log=" + prefix + "\n", "--output-format=json")
        .out());
    long ios = num(unit, "read", "total_ios");
    assertTrue(ios > 100, "ios " + ios);
    assertEquals(ios, num(unit, "read", "iops_samples"));
    assertEquals(1, num(unit, "read", "iops_min"));
    assertEquals(1, num(unit, "read", "iops_max"));
    assertEquals(0, num(unit, "read", "bw_samples"));
  }

  @Test
  void significantFigures_changesNum2strDigits() throws IOException {
    String four = run("").out();
    String six = run("significant_figures=6\n").out();
    Matcher m4 = Pattern.compile("  read: IOPS=(\\S+),").matcher(four);
    Matcher m6 = Pattern.compile("  read: IOPS=(\\S+),").matcher(six);
    assertTrue(m4.find() && m6.find(), four + six);
    String digits4 = m4.group(1).replaceAll("[^0-9]", "");
    String digits6 = m6.group(1).replaceAll("[^0-9]", "");
    assertTrue(digits4.length() <= 4 && digits6.length() > 4, m4.group(1) + " vs " + m6.group(1));
    // init.c's job line uses sig_figs too: 4096 with 2 digits is 4KiB
    assertTrue(four.contains("bs=(R) 4096B-4096B"), four);
    assertTrue(run("significant_figures=2\n").out().contains("bs=(R) 4KiB-4KiB"));
  }

  @Test
  void unitBase1_printsBits() throws IOException {
    String bytes = run("bwavgtime=2\n").out();
    String bits = run("bwavgtime=2\nunit_base=1\n").out();
    assertTrue(bytes.contains("B/s (") && !bytes.contains("bit/s"), bytes);
    assertTrue(Pattern.compile("  read: IOPS=\\S+, BW=[0-9.]+[KMG]ibit/s \\([0-9.]+[kMG]bit/s\\)")
        .matcher(bits).find(), bits);
    assertTrue(bits.contains("   bw (Kibit/s): ") || bits.contains("   bw (Mibit/s): "), bits);
    assertTrue(Pattern.compile("   READ: bw=[0-9.]+[KMG]ibit/s").matcher(bits).find(), bits);
    assertEquals(bwLines(run("bwavgtime=2\nunit_base=0\n").out()), bwLines(bytes),
        "0 (auto) is bytes");
  }

  static List<String> bwLines(String text) {
    return text.lines().filter(l -> l.contains("BW=") || l.contains("bw=") || l.contains("bw ("))
        .toList();
  }

  @Test
  void outOfRangeValues_exit2NamingFileLineAndKey() throws IOException {
    for (String bad : new String[] {"significant_figures=11", "unit_base=2",
        "unified_rw_reporting=3", "bwavgtime=0", "iopsavgtime=-1"}) {
      Path job = dir.resolve("bad.fio");
      Files.writeString(job, "[j]\nioengine=libaio\nfilename=/dev/nullb0\n" + bad + "\n");
      MainTest.Result r = MainTest.cli("run", job.toString());
      assertEquals(2, r.code(), bad + ": " + r.err());
      String key = bad.substring(0, bad.indexOf('='));
      assertTrue(r.err().contains("bad.fio:4") && r.err().contains(key), r.err());
      assertFalse(r.err().contains("Exception") || r.err().contains("\tat "), r.err());
    }
  }
}
