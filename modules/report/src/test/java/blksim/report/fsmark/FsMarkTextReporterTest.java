package blksim.report.fsmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.workload.fsmark.FsMarkIteration;
import blksim.workload.fsmark.FsMarkOptions;
import blksim.workload.fsmark.FsMarkRunResult;
import blksim.workload.fsmark.FsMarkStats;
import blksim.workload.fsmark.FsMarkStats.SyscallTimes;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * fs_mark's stdout against fixtures written by src/test/resources/fsmark/make_fixtures.py, which
 * applies the printf formats of print_run_info() and print_iteration_stats() (fs_mark.c 3.3) with
 * Python's C-style %-formatting.
 */
class FsMarkTextReporterTest {

    private static final String DATE = "Tue Sep 22 10:00:00 2015";
    private static final SyscallTimes Z = SyscallTimes.NONE;

    private static String fixture(String name) throws IOException {
        try (InputStream in = FsMarkTextReporterTest.class.getResourceAsStream("/fsmark/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static FsMarkIteration line(int use, long count, long size, float fps, long app) {
        return new FsMarkIteration(use, count, size, new FsMarkStats(count, fps, app, Z, Z, Z, Z, Z, Z));
    }

    @Test
    void threeIterations_matchFsMarksLayout() throws IOException {
        FsMarkOptions o = FsMarkOptions.parse(
            "fs_mark -d /mnt/a -d /mnt/b -t 4 -n 1000 -s 4096 -S 0 -L 3", "t");
        // Files/sec chosen to test %12.1f: 12345.25 and 9876.75 are exact floats on a tie (half to
        // even: .2 and .8); 100000.05f is 100000.046875, so 100000.0.
        FsMarkRunResult run = new FsMarkRunResult(o, List.of(
            line(1, 4000, 4096, 12345.25f, 123456),
            line(2, 8000, 4096, 9876.75f, 7890123),
            line(3, 12000, 4096, 100000.05f, 0)));
        assertEquals(fixture("basic.txt"), FsMarkTextReporter.render(run, DATE, false));
        // ctime()'s own trailing newline is accepted as well
        assertEquals(fixture("basic.txt"), FsMarkTextReporter.render(run, DATE + "\n", false));
    }

    @Test
    void verbose_addsPerSystemCallColumns() throws IOException {
        FsMarkOptions o = FsMarkOptions.parse("./fs_mark -v -D 16 -p 30 -r 10 -d /x -s 100 -w 64",
            "t");
        FsMarkStats s = new FsMarkStats(1000, 0.25f, 5, new SyscallTimes(3, 5, 90),
            new SyscallTimes(1, 2, 40), new SyscallTimes(100, 250, 123456789), Z,
            new SyscallTimes(1, 1, 7), new SyscallTimes(2, 4, 30));
        FsMarkRunResult run = new FsMarkRunResult(o, List.of(new FsMarkIteration(97, 1000, 100, s)));
        assertEquals(fixture("verbose.txt"), FsMarkTextReporter.render(run, DATE, false));
    }

    @Test
    void roundRobin_namesFilesPerSubdirectory() throws IOException {
        FsMarkOptions o = FsMarkOptions.parse("-d /x -D 8 -N 50", "t");
        String header = FsMarkTextReporter.header(o, DATE);
        assertTrue(header.contains(fixture("rr-dirs.txt")), header);
    }

    @Test
    void closingSummary_ofLaterVersions() {
        FsMarkOptions o = FsMarkOptions.parse("-d /a -L 4", "t");
        FsMarkRunResult run = new FsMarkRunResult(o, List.of(line(0, 1000, 51200, 100.9f, 0),
            line(0, 2000, 51200, 250.2f, 0), line(0, 3000, 51200, 175.5f, 0),
            line(0, 4000, 51200, 300.0f, 0)));
        // sum with truncation 100 + 250.2 -> 350, + 175.5 -> 525, + 300 -> 825; 825 / 4 = 206.25,
        // "%12.1f" half to even: "206.2" in 12 columns. Descending 300 250 175 100: p50 = [2] = 175,
        // p90 = [3] = 100, p99 = [3] = 100.
        String expected = "Average Files/sec:        206.2\n"
            + "p50 Files/sec: 175\n"
            + "p90 Files/sec: 100\n"
            + "p99 Files/sec: 100\n";
        assertEquals(expected, FsMarkTextReporter.summary(run));
        assertTrue(FsMarkTextReporter.render(run, DATE, true).endsWith(expected));
        assertTrue(!FsMarkTextReporter.render(run, DATE, false).contains("Average"));
    }

    @Test
    void ctime_padsTheDayWithASpace() {
        // 1 September 2015 was a Tuesday.
        assertEquals("Tue Sep  1 09:05:03 2015",
            FsMarkTextReporter.ctime(LocalDateTime.of(2015, 9, 1, 9, 5, 3)));
        assertEquals("Tue Sep 22 10:00:00 2015",
            FsMarkTextReporter.ctime(LocalDateTime.of(2015, 9, 22, 10, 0, 0)));
    }

    @Test
    void fixed_roundsLikeGlibc() {
        assertEquals("0.2", FsMarkTextReporter.fixed(0.25, 1));
        assertEquals("0.3", FsMarkTextReporter.fixed(0.35, 1)); // 0.35 is 0.3499999999999999778 in binary
        assertEquals("inf", FsMarkTextReporter.fixed(Float.POSITIVE_INFINITY, 1));
    }

    @Test
    void optionsAllowedByTheCaller_printAsGiven() {
        FsMarkOptions o = FsMarkOptions.parse("-d /a -l my.log", "t", 0, Set.of());
        assertTrue(FsMarkTextReporter.header(o, DATE).startsWith("\n#  fs_mark  -d  /a  -l  my.log \n"));
    }
}
