package blksim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** fio's log files from a run: names, one row per I/O, and refusal of a missing directory. */
@Timeout(120)
class FioLogFilesTest {
  @TempDir Path tmp;

  record Result(int code, String out, String err) {}

  static Result cli(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.execute(args, new PrintWriter(out), new PrintWriter(err));
    return new Result(code, out.toString(), err.toString());
  }

  @Test
  void latAndIopsLogs_haveOneRowPerIo_andGoIntoTheOutputDirectory() throws IOException {
    Path job = tmp.resolve("logs.fio");
    Files.writeString(job, "[global]\nfilename=/dev/nullb0\ndirect=1\nbs=4k\nrw=randread\n"
        + "runtime=2ms\ntime_based\nwrite_lat_log\nwrite_iops_log=ops\nlog_offset=1\n\n"
        + "[a]\nioengine=psync\n\n[b]\nioengine=io_uring\niodepth=4\n");
    Path out = tmp.resolve("out");
    Result r = cli("run", job.toString(), "--host", "local", "--output", out.toString(),
        "--output-format=json");
    assertEquals(0, r.code(), r.err());
    for (String f : List.of("a_lat.1.log", "a_clat.1.log", "a_slat.1.log", "ops_iops.1.log",
        "b_lat.2.log", "b_clat.2.log", "b_slat.2.log", "ops_iops.2.log")) {
      assertTrue(Files.isRegularFile(out.resolve(f)), f + " in " + out);
    }
    Matcher m = Pattern.compile("\"total_ios\" : (\\d+)").matcher(r.out());
    assertTrue(m.find());
    long aIos = Long.parseLong(m.group(1));
    List<String> lat = Files.readAllLines(out.resolve("a_lat.1.log"));
    assertEquals(aIos, lat.size(), "one lat row per read of job a");
    assertTrue(lat.get(0).matches("\\d+, \\d+, 0, 4096, \\d+, 0"), lat.get(0));
    // psync measures no submission latency; io_uring does.
    assertTrue(Files.readAllLines(out.resolve("a_slat.1.log")).isEmpty());
    assertFalse(Files.readAllLines(out.resolve("b_slat.2.log")).isEmpty());
    assertTrue(Files.readAllLines(out.resolve("ops_iops.2.log")).stream()
        .allMatch(l -> l.matches("[0-2], 1, 0, 4096, \\d+, 0")));
    try (var s = Files.list(out)) {
      assertTrue(s.noneMatch(p -> p.toString().endsWith("tmp")), "no temporary file is left");
    }
  }

  @Test
  void perJobLogs0_jobsOfOneNameShareAFile_eachJobsRowsAppended() throws IOException {
    // iolog.c finish_log(): flush_log(log, !per_job_logs) appends to the shared x_clat.log.
    Path job = tmp.resolve("shared.fio");
    Files.writeString(job, "[global]\nfilename=/dev/nullb0\ndirect=1\nbs=4k\nrw=randread\n"
        + "runtime=3ms\ntime_based\nwrite_lat_log=x\nlog_avg_msec=1\nper_job_logs=0\n\n"
        + "[a]\nnumjobs=2\n");
    Path out = tmp.resolve("out");
    Result r = cli("run", job.toString(), "--host", "local", "--output", out.toString());
    assertEquals(0, r.code(), r.err());
    List<String> clat = Files.readAllLines(out.resolve("x_clat.log"));
    assertEquals(6, clat.size(), "3 windows of 1 ms from each of the 2 jobs: " + clat);
    assertEquals(clat.subList(0, 3).stream().map(l -> l.split(",")[0]).toList(),
        clat.subList(3, 6).stream().map(l -> l.split(",")[0]).toList(), "job 2 after job 1");
    assertTrue(r.err().contains("wrote 3 fio log file(s)"), r.err());
  }

  @Test
  void aLogInAMissingDirectory_isRefusedBeforeTheRun() throws IOException {
    Path job = tmp.resolve("bad.fio");
    Files.writeString(job, "[j]\nfilename=/dev/nullb0\nrw=read\nsize=1m\n"
        + "write_bw_log=" + tmp.resolve("nowhere/x") + "\n");
    Result r = cli("run", job.toString(), "--host", "local");
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains("bad.fio:5: job 'j': write_bw_log puts the log") && r.err().contains("does not exist"),
        r.err());
  }

  @Test
  void logIssueTime_withoutLogOffset_isRefusedAsFioDoes() throws IOException {
    Path job = tmp.resolve("issue.fio");
    Files.writeString(job, "[j]\nfilename=/dev/nullb0\nrw=read\nsize=1m\nwrite_lat_log\n"
        + "log_issue_time=1\n");
    Result r = cli("run", job.toString(), "--host", "local");
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains("log_issue_time"), r.err());
  }
}
