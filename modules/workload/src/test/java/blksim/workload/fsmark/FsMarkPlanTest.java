package blksim.workload.fsmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.workload.fsmark.FsMarkOp.Kind;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** One process's steps per iteration: do_run(), setup_file_name(), write_file() of fs_mark 3.3. */
class FsMarkPlanTest {

  /** 0x5600a1b2 = 1442881970 s, September 2015; mod 4 = 2 (low bits ...0010). */
  private static final long SEC = 0x5600a1b2L;
  private static final LongSupplier FIXED = () -> SEC * 1_000_000L + 123;

  private static List<FsMarkOp> ops(String cmd, LongSupplier clock, long seed) {
    FsMarkPlan plan = new FsMarkPlan(FsMarkOptions.parse(cmd, "t"));
    List<FsMarkOp> out = new ArrayList<>();
    plan.process(0, clock, new SplittableRandom(seed)).forEachRemaining(out::add);
    return out;
  }

  private static List<FsMarkOp> ops(String cmd) {
    return ops(cmd, FIXED, 1);
  }

  private static String kinds(List<FsMarkOp> ops) {
    return ops.stream().map(o -> o.kind().name() + (o.kind() == Kind.WRITE ? "(" + o.bytes() + ")"
        : o.fileIndex() >= 0 && o.kind() != Kind.MKDIR && o.kind() != Kind.CREATE
            && o.kind() != Kind.CLOSE && o.kind() != Kind.FSYNC ? "#" + o.fileIndex() : ""))
        .collect(Collectors.joining(" "));
  }

  private static String tail(List<FsMarkOp> ops, int fromIndex) {
    return kinds(ops.subList(fromIndex, ops.size()));
  }

  @Test
  void noSyncKeepFiles_writesInChunksAndKeepsEverything() {
    List<FsMarkOp> ops = ops("-d /a -n 3 -s 10000 -w 4096 -S 0 -k");
    // 10000 = 4096 + 4096 + 1808; no fsync (-S 0), no unlink (-k).
    String file = "MKDIR CREATE WRITE(4096) WRITE(4096) WRITE(1808) CLOSE";
    assertEquals("SETUP_MKDIR STATFS LOOP_START " + file + " " + file + " " + file + " LOOP_END",
        kinds(ops));
    assertEquals(3 + 3 * 6 + 1, ops.size());
    assertEquals(List.of(0, 1, 2), ops.stream().filter(o -> o.kind() == Kind.CREATE)
        .map(FsMarkOp::fileIndex).collect(Collectors.toList()));
  }

  @Test
  void defaultSync_fsyncsBeforeCloseThenUnlinksInOrder() {
    List<FsMarkOp> ops = ops("-d /a -n 2 -s 4096 -w 4096");
    String file = "MKDIR CREATE WRITE(4096) FSYNC CLOSE";
    assertEquals("SETUP_MKDIR STATFS LOOP_START " + file + " " + file
        + " LOOP_END UNLINK#0 UNLINK#1", kinds(ops));
    List<String> created = ops.stream().filter(o -> o.kind() == Kind.CREATE)
        .map(FsMarkOp::path).collect(Collectors.toList());
    List<String> unlinked = ops.stream().filter(o -> o.kind() == Kind.UNLINK)
        .map(FsMarkOp::path).collect(Collectors.toList());
    assertEquals(created, unlinked);
  }

  @Test
  void emptyFile_getsOneWriteOfZeroBytes() {
    assertEquals("SETUP_MKDIR STATFS LOOP_START MKDIR CREATE WRITE(0) CLOSE LOOP_END",
        kinds(ops("-d /a -n 1 -s 0 -S 0 -k")));
  }

  @Test
  void postLoopSyncMethods_runInDoRunsOrder() {
    // 3 files of 100 bytes: 3 + 3 * 4 = 15 steps up to the last CLOSE.
    String base = "-d /a -n 3 -s 100 -k -S ";
    assertEquals("SYNC REOPEN#0 REOPEN_FSYNC#0 REOPEN_CLOSE#0 LOOP_END",
        tail(ops(base + 2), 15));
    assertEquals("REOPEN#2 REOPEN_FSYNC#2 REOPEN_CLOSE#2 REOPEN#1 REOPEN_FSYNC#1 REOPEN_CLOSE#1"
        + " REOPEN#0 REOPEN_FSYNC#0 REOPEN_CLOSE#0 LOOP_END", tail(ops(base + 3), 15));
    assertEquals("SYNC REOPEN#2 REOPEN_FSYNC#2 REOPEN_CLOSE#2 REOPEN#1 REOPEN_FSYNC#1"
        + " REOPEN_CLOSE#1 REOPEN#0 REOPEN_FSYNC#0 REOPEN_CLOSE#0 LOOP_END",
        tail(ops(base + 4), 15));
    assertEquals("REOPEN#0 REOPEN_FSYNC#0 REOPEN_CLOSE#0 REOPEN#1 REOPEN_FSYNC#1 REOPEN_CLOSE#1"
        + " REOPEN#2 REOPEN_FSYNC#2 REOPEN_CLOSE#2 LOOP_END", tail(ops(base + 5), 15));
    assertEquals("SYNC REOPEN#0 REOPEN_FSYNC#0 REOPEN_CLOSE#0 REOPEN#1 REOPEN_FSYNC#1"
        + " REOPEN_CLOSE#1 REOPEN#2 REOPEN_FSYNC#2 REOPEN_CLOSE#2 LOOP_END",
        tail(ops(base + 6), 15));
    assertEquals("LOOP_END", tail(ops(base + 0), 15));
    // -S 1 has no post-loop step: 3 + 3 * 5 = 18 steps up to the last CLOSE.
    assertEquals("LOOP_END", tail(ops(base + 1), 18));
  }

  @Test
  void reopenedFiles_areTheCreatedOnes() {
    List<FsMarkOp> ops = ops("-d /a -n 3 -s 100 -S 3");
    List<FsMarkOp> created = ops.stream().filter(o -> o.kind() == Kind.CREATE).toList();
    List<FsMarkOp> reopened = ops.stream().filter(o -> o.kind() == Kind.REOPEN).toList();
    assertEquals(created.get(2).path(), reopened.get(0).path());
    assertEquals(created.get(0).path(), reopened.get(2).path());
  }

  @Test
  void keepFlagsAndIterations_suppressUnlinks() {
    assertFalse(kinds(ops("-d /a -n 2 -s 1 -k")).contains("UNLINK"));
    assertFalse(kinds(ops("-d /a -n 2 -s 1 -L 2")).contains("UNLINK"));
    assertEquals(2, ops("-d /a -n 2 -s 1").stream().filter(o -> o.kind() == Kind.UNLINK).count());
  }

  @Test
  void systemCallsPerProcess_matchesTheSteps() {
    for (String cmd : List.of("-d /a -n 5 -s 10000 -w 4096 -S 0", "-d /a -n 5 -S 2 -k",
        "-d /a -n 4 -s 0 -S 4", "-d /a -n 3 -S 6 -L 2")) {
      FsMarkPlan plan = new FsMarkPlan(FsMarkOptions.parse(cmd, "t"));
      long calls = ops(cmd).stream().filter(o -> o.kind() != Kind.LOOP_START
          && o.kind() != Kind.LOOP_END).count();
      assertEquals(calls, plan.systemCallsPerProcess(), cmd);
    }
  }

  @Test
  void defaultNames_areStampPaddedWithTildesThenRandomCharacters() {
    FsMarkOp create = ops("-d /a -n 1 -s 1").stream().filter(o -> o.kind() == Kind.CREATE)
        .findFirst().orElseThrow();
    // seq_len = 40 - 24 = 16; "%lx" of 0x5600a1b2 is 8 digits, so 8 '~' of padding follow.
    String name = create.name();
    assertEquals(40, name.length());
    assertTrue(name.startsWith("5600a1b2~~~~~~~~"), name);
    assertTrue(name.substring(16).matches("[0-9A-Z]{24}"), name);
    assertEquals("/a", create.directory());
    assertEquals("/a/" + name, create.path());
  }

  @Test
  void shortNames_keepTheLeastSignificantStampDigits() {
    FsMarkOptions.Names names = new FsMarkOptions.Names(10, 4);
    // seq_len 6 < 8 digits: skip = 2, so "00a1b2", then 4 random characters.
    String n = FsMarkPlan.fileName(SEC, names, new SplittableRandom(3));
    assertTrue(n.matches("00a1b2[0-9A-Z]{4}"), n);
    assertEquals("00a1b2", FsMarkPlan.fileName(SEC, new FsMarkOptions.Names(6, 0),
        new SplittableRandom(3)));
    assertTrue(FsMarkPlan.fileName(SEC, new FsMarkOptions.Names(4, 4), new SplittableRandom(3))
        .matches("[0-9A-Z]{4}"));
  }

  @Test
  void randomCharacters_coverDigitsAndCapitalsOnly() {
    // fs_mark keeps '0' + (random() & 0x7f) when isupper or isdigit: 10 + 26 = 36 characters.
    String s = FsMarkPlan.fileName(0, new FsMarkOptions.Names(128, 127),
        new SplittableRandom(11));
    String r = s.substring(1);
    assertTrue(r.matches("[0-9A-Z]{127}"), r);
    assertEquals("0", s.substring(0, 1)); // "%lx" of 0 is "0"
  }

  @Test
  void sameSeed_givesTheSameSteps_otherSeed_otherNames() {
    String cmd = "-d /a -n 50 -s 5000 -w 1000 -D 4 -N 7 -S 3";
    assertEquals(ops(cmd, FIXED, 42), ops(cmd, FIXED, 42));
    assertNotEquals(ops(cmd, FIXED, 42), ops(cmd, FIXED, 43));
  }

  @Test
  void roundRobin_fillsEachSubdirectoryThenMovesOn() {
    // setup(): current_subdir = tv_sec % 4 = 2; 3 files per subdirectory, wrapping at 4.
    List<String> dirs = ops("-d /a/ -n 10 -s 1 -D 4 -N 3 -k").stream()
        .filter(o -> o.kind() == Kind.CREATE).map(FsMarkOp::directory).toList();
    assertEquals(List.of("/a/02", "/a/02", "/a/02", "/a/03", "/a/03", "/a/03", "/a/00", "/a/00",
        "/a/00", "/a/01"), dirs);
    List<String> mkdirs = ops("-d /a -n 2 -s 1 -D 4 -N 3 -k").stream()
        .filter(o -> o.kind() == Kind.MKDIR).map(FsMarkOp::path).toList();
    assertEquals(List.of("/a/02", "/a/02"), mkdirs);
  }

  @Test
  void filesPerSubdirZeroWithoutSubdirs_putsEverythingIn00() {
    assertTrue(ops("-d /a -n 3 -s 1 -N 0 -k").stream().filter(o -> o.kind() == Kind.CREATE)
        .allMatch(o -> o.directory().equals("/a/00")));
  }

  @Test
  void timeHash_movesOnWhenMoreThan180SecondsPassed() {
    // Clock reads: setup, then one per file. 0x5600a1b2 = 0x56000000 + 0xa1b2 = 1442840576 +
    // 41394 = 1442881970; digit sum 1+4+4+2+8+8+1+9+7+0 = 44, 44 mod 3 = 2: the first is 02.
    long[] secs = {SEC, SEC, SEC + 180, SEC + 181, SEC + 361, SEC + 362, SEC + 543, SEC + 724};
    int[] at = {0};
    LongSupplier clock = () -> secs[at[0]++] * 1_000_000L;
    List<String> dirs = ops("-d /a -n 7 -s 1 -D 3 -k", clock, 1).stream()
        .filter(o -> o.kind() == Kind.CREATE).map(FsMarkOp::directory).toList();
    // start = SEC: +180 is not > 180 (stay), +181 moves (start = +181), +361 is 180 later
    // (stay), +362 moves, +543 moves (181 after +362), +724 moves (181 after +543), wrapping.
    assertEquals(List.of("/a/02", "/a/02", "/a/00", "/a/00", "/a/01", "/a/02", "/a/00"), dirs);
    assertEquals(8, at[0]);
  }

  @Test
  void clock_isReadAtSetupAndAtEachName_lazily() {
    int[] reads = {0};
    LongSupplier clock = () -> {
      reads[0]++;
      return FIXED.getAsLong();
    };
    Iterator<FsMarkOp> it = new FsMarkPlan(FsMarkOptions.parse("-d /a -n 2 -s 1", "t"))
        .process(0, clock, new SplittableRandom(1));
    assertEquals(0, reads[0]);
    assertEquals(Kind.SETUP_MKDIR, it.next().kind());
    assertEquals(1, reads[0]);
    it.next();
    it.next();
    assertEquals(1, reads[0]);
    assertEquals(Kind.MKDIR, it.next().kind());
    assertEquals(2, reads[0]);
    while (it.hasNext()) {
      it.next();
    }
    assertEquals(3, reads[0]);
    assertThrows(NoSuchElementException.class, it::next);
  }

  @Test
  void processes_workInTheirOwnDirectories() {
    FsMarkPlan plan = new FsMarkPlan(FsMarkOptions.parse("-d /a -d /b -t 4 -n 1 -s 1", "t"));
    FsMarkOp first = plan.process(3, FIXED, new SplittableRandom(1)).next();
    assertEquals("/b", first.directory());
    assertNull(first.name());
    assertThrows(IllegalArgumentException.class,
        () -> plan.process(4, FIXED, new SplittableRandom(1)));
  }

  @Test
  void subdirName_isTwoHexDigitsAtLeast() {
    assertEquals("05", FsMarkPlan.subdirName(5));
    assertEquals("ff", FsMarkPlan.subdirName(255));
    assertEquals("12c", FsMarkPlan.subdirName(300));
  }
}
