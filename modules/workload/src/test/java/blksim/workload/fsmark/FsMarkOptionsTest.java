package blksim.workload.fsmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.InputException;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** fs_mark 3.3's command line: getopt("vhkFr:S:N:D:d:l:L:n:p:s:t:w:") and process_args(). */
class FsMarkOptionsTest {

  private static FsMarkOptions parse(String line) {
    return FsMarkOptions.parse(line, "s.conf:7");
  }

  /** Parses {@code line} expecting a refusal that names {@code option} and says {@code rule}. */
  private static InputException rejects(String line, String option, String rule) {
    InputException e = assertThrows(InputException.class, () -> parse(line));
    assertEquals("s.conf", e.file(), e.getMessage());
    assertEquals(7, e.line(), e.getMessage());
    assertEquals(option, e.key(), e.getMessage());
    assertTrue(e.rule().contains(rule), e.getMessage());
    return e;
  }

  @Test
  void onlyADirectory_givesFsMarkDefaults() {
    FsMarkOptions o = parse("-d /mnt/a");
    // fs_mark.h: DEFAULT_NUM_FILES 1000, DEFAULT_FILE_SIZE 50*1024, DEFAULT_IO_SIZE 16*1024,
    // DEFAULT_NAME_LEN 40, DEFAULT_RAND_NAME 24, sync_method_type 1, num_threads 1.
    assertEquals(List.of("fs_mark", "-d", "/mnt/a"), o.argv());
    assertEquals(List.of("/mnt/a"), o.directories());
    assertEquals(1, o.threads());
    assertEquals(1000, o.filesPerIteration());
    assertEquals(51_200, o.fileSizeBytes());
    assertEquals(16_384, o.writeSizeBytes());
    assertEquals(FsMarkSyncMethod.PER_FILE, o.syncMethod());
    assertEquals(0, o.loopCount());
    assertFalse(o.keepFiles());
    assertFalse(o.fillFilesystem());
    assertEquals(new FsMarkOptions.Subdirs(FsMarkDirPolicy.NO_SUBDIRS, 0, 0), o.subdirs());
    assertEquals(new FsMarkOptions.Names(40, 24), o.names());
    assertEquals(16, o.names().timeStampChars());
    assertFalse(o.verbose());
    assertEquals("fs_log.txt", o.logFileName());
    assertEquals(1, o.iterations());
  }

  @Test
  void everyOption_isRead() {
    FsMarkOptions o = FsMarkOptions.parse("./fs_mark -v -k -r 8 -S 5 -N 20 -D 16 -d /m/a -d /m/b"
        + " -l run.log -L 3 -n 500 -p 30 -s 4096 -t 4 -w 1024", "x", 0, Set.of());
    assertEquals("./fs_mark", o.argv().get(0));
    assertTrue(o.verbose());
    assertTrue(o.keepFiles());
    assertEquals(new FsMarkOptions.Names(30, 8), o.names());
    assertEquals(FsMarkSyncMethod.POST, o.syncMethod());
    assertEquals(new FsMarkOptions.Subdirs(FsMarkDirPolicy.ROUND_ROBIN, 16, 20), o.subdirs());
    assertEquals(List.of("/m/a", "/m/b"), o.directories());
    assertEquals("run.log", o.logFileName());
    assertEquals(3, o.loopCount());
    assertEquals(3, o.iterations());
    assertEquals(500, o.filesPerIteration());
    assertEquals(4096, o.fileSizeBytes());
    assertEquals(4, o.threads());
    assertEquals(1024, o.writeSizeBytes());
    // 4 processes over 2 directories: child i works in child_tasks[i % 2].
    assertEquals("/m/a", o.directoryOf(0));
    assertEquals("/m/b", o.directoryOf(1));
    assertEquals("/m/a", o.directoryOf(2));
    assertEquals("/m/b", o.directoryOf(3));
  }

  @Test
  void fillOption_whenAllowed_keepsFilesAndLoopsUntilFull() {
    FsMarkOptions o = FsMarkOptions.parse("-F -d /a", null, 0, Set.of());
    assertTrue(o.fillFilesystem());
    assertTrue(o.keepFiles());
    assertEquals(-1, o.iterations());
    assertTrue(o.anotherIteration(1000));
  }

  @Test
  void clusteredFlagsAndAttachedArguments_followGetopt() {
    FsMarkOptions a = parse("-kvn10 -d/mnt/a -S0 -s 0");
    assertTrue(a.keepFiles());
    assertTrue(a.verbose());
    assertEquals(10, a.filesPerIteration());
    assertEquals(List.of("/mnt/a"), a.directories());
    assertEquals(FsMarkSyncMethod.NONE, a.syncMethod());
    assertEquals(0, a.fileSizeBytes());
    FsMarkOptions b = parse("-n 10 -d /mnt/a");
    assertEquals(10, b.filesPerIteration());
    // getopt gives the next word as the argument even when it starts with '-'.
    FsMarkOptions c = FsMarkOptions.parse("-l -k -d /a", "x", 0, Set.of());
    assertEquals("-k", c.logFileName());
    assertFalse(c.keepFiles());
    // "--" ends the options.
    assertEquals(List.of("/a"), parse("-d /a --").directories());
  }

  @Test
  void iterationsOption_keepsFilesAndSetsTheLoopCount() {
    FsMarkOptions o = parse("-d /a -L 32");
    assertTrue(o.keepFiles());
    // main(): do { ... loops_done++ } while (loop_count > loops_done)
    assertTrue(o.anotherIteration(0));
    assertTrue(o.anotherIteration(31));
    assertFalse(o.anotherIteration(32));
    assertFalse(parse("-d /a -L 0").anotherIteration(1));
    assertTrue(parse("-d /a -L 1").keepFiles());
  }

  @Test
  void subdirOptions_pickThePolicyInEitherOrder() {
    assertEquals(FsMarkDirPolicy.TIME_HASH, parse("-d /a -D 4").subdirs().policy());
    assertEquals(FsMarkDirPolicy.ROUND_ROBIN, parse("-d /a -D 4 -N 10").subdirs().policy());
    assertEquals(FsMarkDirPolicy.ROUND_ROBIN, parse("-d /a -N 10 -D 4").subdirs().policy());
    // -N 0 alone passes fs_mark's check (num_per_subdir > 0 is what it refuses without -D).
    assertEquals(new FsMarkOptions.Subdirs(FsMarkDirPolicy.ROUND_ROBIN, 0, 0),
        parse("-d /a -N 0").subdirs());
  }

  @Test
  void subdirsRecord_refusesLayoutsThatWouldDivideByZero() {
    assertThrows(IllegalArgumentException.class,
        () -> new FsMarkOptions.Subdirs(FsMarkDirPolicy.TIME_HASH, 0, 0));
    assertThrows(IllegalArgumentException.class,
        () -> new FsMarkOptions.Subdirs(FsMarkDirPolicy.ROUND_ROBIN, 0, 5));
    assertThrows(IllegalArgumentException.class,
        () -> new FsMarkOptions.Names(10, 11));
  }

  @Test
  void fewerThreadsThanDirectories_meansOnePerDirectory() {
    assertEquals(3, parse("-d /a -d /b -d /c -t 2").threads());
    assertEquals(2, parse("-d /a -d /b -t 0").threads());
  }

  @Test
  void threadsMultipleOfDirectories_isAccepted() {
    assertEquals(64, parse("-d /a -d /b -t 64").threads());
  }

  @Test
  void unknownOption_isRejected() {
    rejects("-d /a -x", "-x", "unknown option");
    rejects("-d /a -kx", "-x", "unknown option");
    rejects("-d /a -:", "-:", "unknown option");
  }

  @Test
  void threadsNotAMultipleOfDirectories_isRejected() {
    rejects("-d /a -d /b -t 3", "-t", "multiple of the number of directories (2)");
  }

  @Test
  void threadsAboveMax_isRejected() {
    rejects("-d /a -t 65", "-t", "at most 64 threads");
  }

  @Test
  void nonNumbers_areRejected() {
    rejects("-d /a -n ten", "-n", "decimal integer");
    rejects("-d /a -s 4k", "-s", "decimal integer");
    rejects("-d /a -t 99999999999", "-t", "C int");
  }

  @Test
  void fsMarksOwnLimits_areRejected() {
    rejects("-d /a -n 1000001", "-n", "at most 1000000 files");
    rejects("-d /a -n 0", "-n", "at least 1");
    rejects("-d /a -w 1048577", "-w", "at most 1048576 bytes");
    rejects("-d /a -w 0", "-w", "at least 1");
    rejects("-d /a -p 129", "-p", "at most 128 characters");
    rejects("-d /a -p 10", "-r", "must not exceed the name length");
    rejects("-d /a -S 7", "-S", "0 to 6");
    rejects("-d /a -S -1", "-S", "0 to 6");
    rejects("-d /a -D 1", "-D", "greater than 1");
    rejects("-d /a -N 5", "-N", "needs -D");
    rejects("-d /a -s -1", "-s", ">= 0");
    rejects("-d /a -L -1", "-L", ">= 0");
    rejects("-t 2", "-d", "at least one directory");
    rejects("-d /a -n", "-n", "requires an argument");
    rejects("-d /a/very/long/directory/name/over/forty/b", "-d", "shorter than 40 bytes");
  }

  @Test
  void moreThan64Directories_isRejected() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 65; i++) {
      sb.append(" -d /d").append(i);
    }
    rejects(sb.toString(), "-d", "at most 64 directories");
  }

  @Test
  void optionsBlksimCannotHonour_areRefusedByName() {
    rejects("-d /a -F", "-F", "not supported by blksim yet");
    rejects("-d /a -l log", "-l", "not supported by blksim yet");
    rejects("-d /a -h", "-h", "usage");
  }

  @Test
  void operands_areRejected() {
    InputException e = assertThrows(InputException.class, () -> parse("-d /a extra"));
    assertNull(e.key());
    assertTrue(e.rule().contains("'extra'"), e.getMessage());
  }

  @Test
  void origin_withoutLine_keepsTheWholeName() {
    InputException e = assertThrows(InputException.class,
        () -> FsMarkOptions.parse("-x", "--set fs_mark.command-lines"));
    assertEquals("--set fs_mark.command-lines", e.file());
    assertEquals(0, e.line());
  }

  @Test
  void echo_printsEachWordAsFsMarkDoes() {
    // print_run_info(): fprintf(" %s ") per argv word.
    assertEquals(" fs_mark  -d  /a  -S0 ", parse("-d /a -S0").echo());
  }

  @Test
  void writesPerFile_followsWriteFileLoop() {
    // 51200 / 16384 = 3.125 -> 4 writes; size 0 -> one write of 0 bytes (do-while).
    assertEquals(4, parse("-d /a").writesPerFile());
    assertEquals(1, parse("-d /a -s 0").writesPerFile());
    assertEquals(1, parse("-d /a -s 4096 -w 4096").writesPerFile());
    // check_space(): file_size * num_files = 4096 * 10000
    assertEquals(40_960_000L, parse("-d /a -s 4096 -n 10000").bytesNeededPerProcess());
  }
}
