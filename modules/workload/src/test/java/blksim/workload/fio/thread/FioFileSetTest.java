package blksim.workload.fio.thread;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.InputException;
import blksim.workload.fio.FioEnvironment;
import blksim.workload.fio.FioJob;
import blksim.workload.fio.FioJobFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The files of a directory= job: names, sizes and fio's file service order. */
class FioFileSetTest {
  private static final FioEnvironment ENV = new FioEnvironment(8, 16384, 4096);

  private static List<FioJob> jobs(String text) {
    return FioJobFile.parse("t.fio", text, null, ENV, Map.of());
  }

  private static FioFileSet set(String options) {
    FioJob j = jobs("[j]\ndirectory=/mnt/t\nrw=write\nbs=4k\n" + options + "\n").get(0);
    return FileFioThread.fileSet(j, 0, 42);
  }

  /** The files the next {@code n} I/Os go to, opening files as the thread does. */
  private static List<Integer> order(FioFileSet s, int n, int bytesPerIo) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int f = s.pick();
      if (f < 0) {
        break;
      }
      if (!s.isOpen(f)) {
        s.opened(f);
      }
      out.add(f);
      if (s.issued(f, bytesPerIo)) {
        s.closed(f);
      }
    }
    return out;
  }

  @Test
  void names_areJobnameJobnumFilenum_inTheDirectory_withTheCloneNumber() {
    List<FioJob> js = jobs("[a]\ndirectory=/mnt/t\nrw=write\nsize=1m\nnrfiles=3\nnumjobs=2\n"
        + "[b]\ndirectory=/mnt/t/x\nrw=write\nsize=1m\n");
    FioFileSet a1 = FileFioThread.fileSet(js.get(1), 1, 42);
    assertEquals(List.of("/mnt/t/a.1.0", "/mnt/t/a.1.1", "/mnt/t/a.1.2"), a1.paths());
    // $jobnum is the clone number (fio's job_add_num), not the job's place in the run.
    assertEquals(List.of("/mnt/t/x/b.0.0"), FileFioThread.fileSet(js.get(2), 2, 42).paths());
    assertEquals(List.of("/mnt", "/mnt/t", "/mnt/t/x"),
        FileFioThread.fileSet(js.get(2), 2, 42).directories());
  }

  @Test
  void noFilenameOrDirectory_givesFiosFilesInTheWorkingDirectory_namedAfterTheSection() {
    // add_job(): make_filename() gets the section's name, whatever name= says.
    List<FioJob> js = jobs("[sec]\nname=shown\nrw=write\nsize=1m\nnrfiles=2\nnumjobs=2\n"
        + "[n]\nioengine=null\nsize=1m\n[f]\nfilename_format=$jobname-$filenum.dat\n"
        + "size=1m\n");
    assertTrue(js.get(0).inWorkingDirectory());
    assertEquals(FioJob.WORKING_DIRECTORY, js.get(1).directory());
    assertEquals(List.of("/sec.1.0", "/sec.1.1"), FileFioThread.fileSet(js.get(1), 1, 42).paths());
    assertFalse(js.get(2).inWorkingDirectory(), "ioengine=null is diskless");
    assertEquals(null, js.get(2).directory());
    assertEquals(List.of("/f-0.dat"), FileFioThread.fileSet(js.get(3), 3, 42).paths());
    assertFalse(jobs("[d]\ndirectory=/mnt/t\nsize=1m\n").get(0).inWorkingDirectory());
    assertFalse(jobs("[d]\nfilename=/dev/sdb\nsize=1m\n").get(0).inWorkingDirectory());
  }

  @Test
  void severalDirectories_goToTheClonesInTurn() {
    List<FioJob> js = jobs("[c]\ndirectory=/mnt/a:/mnt/b\\:x\nrw=write\nsize=1m\nnumjobs=3\n");
    assertEquals("/mnt/a", js.get(0).directory());
    assertEquals("/mnt/b:x", js.get(1).directory());
    assertEquals("/mnt/a", js.get(2).directory());
    assertEquals(List.of("/mnt/b:x/c.1.0"), FileFioThread.fileSet(js.get(1), 1, 42).paths());
  }

  @Test
  void layoutLine_isFios() {
    List<FioJob> js = jobs("[seqwrite]\ndirectory=/mnt/t\nrw=write\nsize=16m\n"
        + "[j]\ndirectory=/mnt/t\nrw=write\nsize=64m\nnrfiles=4\n"
        + "[c]\ndirectory=/mnt/t\nrw=write\nsize=64m\ncreate_on_open=1\n");
    assertEquals("seqwrite: Laying out IO file (1 file / 16MiB)",
        FileFioThread.layoutLine(js.get(0), 0, 42));
    assertEquals("j: Laying out IO files (4 files / total 64MiB)",
        FileFioThread.layoutLine(js.get(1), 1, 42));
    assertEquals(null, FileFioThread.layoutLine(js.get(2), 2, 42));
  }

  @Test
  void filenameFormat_replacesItsKeywords_caseInsensitively_andMakesSubdirectories() {
    FioJob j = jobs("[w]\ndirectory=/mnt/t\nrw=write\nsize=1m\nnrfiles=2\nnumjobs=2\n"
        + "filename_format=sub/$JOBNAME-$jobnum-$filenum.$jobname$clientuid\n").get(1);
    assertEquals("sub/w-1-0.w", j.fileName(0));
    FioFileSet s = FileFioThread.fileSet(j, 1, 42);
    assertEquals(List.of("/mnt/t/sub/w-1-0.w", "/mnt/t/sub/w-1-1.w"), s.paths());
    assertTrue(s.directories().contains("/mnt/t/sub"));
    // A format without $filenum names one shared file (fio's way of sharing files).
    FioJob shared = jobs("[w]\ndirectory=/mnt/t\nrw=write\nsize=1m\n"
        + "filename_format=data.$filenum\n").get(0);
    assertEquals("data.0", shared.fileName(0));
  }

  @Test
  void sizes_splitSize_orTakeFilesize_orDrawInItsRange() {
    FioFileSet even = set("size=1m\nnrfiles=4");
    for (int i = 0; i < 4; i++) {
      assertEquals(256 << 10, even.ioBytes(i));
    }
    assertEquals(1 << 20, even.budgetBytes());
    // filesize without size: each file that size, the budget their sum.
    FioFileSet fixed = set("filesize=64k\nnrfiles=3");
    assertEquals(64 << 10, fixed.fileBytes(2));
    assertEquals(3 * (64 << 10), fixed.budgetBytes());
    // size below the files' sum cuts the budget (setup_files(): o->size stays).
    assertEquals(100 << 10, set("filesize=64k\nnrfiles=3\nsize=100k").budgetBytes());
    // A range: uniform in [lo, hi], rounded down to the minimum block size, per file.
    FioFileSet range = set("filesize=16k-1m\nnrfiles=50");
    long total = 0;
    java.util.Set<Long> distinct = new java.util.HashSet<>();
    for (int i = 0; i < 50; i++) {
      long b = range.ioBytes(i);
      assertTrue(b >= 16 << 10 && b <= 1 << 20, "size " + b);
      assertEquals(0, b % 4096, "multiple of bs");
      distinct.add(b);
      total += b;
    }
    assertTrue(distinct.size() > 30, "sizes are drawn, not equal: " + distinct.size());
    assertEquals(total, range.budgetBytes());
    // The same seed gives the same sizes.
    assertEquals(range.ioBytes(7), set("filesize=16k-1m\nnrfiles=50").ioBytes(7));
    // filesize=lo:hi is the same range.
    assertEquals(range.ioBytes(7), set("filesize=16k:1m\nnrfiles=50").ioBytes(7));
  }

  @Test
  void roundRobin_isTheDefault_andItsSuffixCountsIosPerFile() {
    assertEquals(List.of(0, 1, 2, 0, 1, 2, 0), order(set("size=3m\nnrfiles=3"), 7, 4096));
    assertEquals(List.of(0, 0, 1, 1, 2, 2, 0, 0), order(
        set("size=3m\nnrfiles=3\nfile_service_type=roundrobin:2"), 8, 4096));
  }

  @Test
  void sequential_finishesOneFileBeforeTheNext() {
    // 3 files of 8 KiB, 4 KiB I/Os: two each, in order; then every file is done.
    assertEquals(List.of(0, 0, 1, 1, 2, 2), order(
        set("size=24k\nnrfiles=3\nfile_service_type=sequential"), 10, 4096));
  }

  @Test
  void doneFiles_areSkipped_andAResetStartsTheNextLoop() {
    FioFileSet s = set("size=24k\nnrfiles=3");
    assertEquals(List.of(0, 1, 2, 0, 1, 2), order(s, 10, 4096));
    assertTrue(s.allDone());
    assertEquals(-1, s.pick());
    s.reset();
    assertFalse(s.allDone());
    assertEquals(0, s.pick());
  }

  @Test
  void random_drawsEveryFile_aboutEquallyOften_withItsSuffix() {
    List<Integer> o = order(set("size=1g\nnrfiles=4\nfile_service_type=random:8"), 8000, 4096);
    int[] count = new int[4];
    for (int i = 0; i < o.size(); i++) {
      count[o.get(i)]++;
      if (i % 8 != 0) {
        assertEquals(o.get(i - 1), o.get(i), "8 I/Os per draw");
      }
    }
    for (int c : count) {
      assertTrue(c > 1600 && c < 2400, "share " + c + " of 8000");
    }
    // Draws differ from round robin.
    assertNotEquals(List.of(0, 1, 2, 3), order(
        set("size=1g\nnrfiles=4\nfile_service_type=random"), 4, 4096));
  }

  @Test
  void openfiles_limitsTheOpenFiles_soRoundRobinStaysOnTheOpenOne() {
    // fio: a closed file with openfiles reached is EBUSY; the next try goes on from there.
    FioFileSet s = set("size=24k\nnrfiles=3\nopenfiles=1");
    assertEquals(List.of(0, 0, 1, 1, 2, 2), order(s, 10, 4096));
  }

  @Test
  void timeBased_filesAreNeverDone() {
    FioFileSet s = set("size=8k\nnrfiles=2\nruntime=1s\ntime_based");
    assertEquals(List.of(0, 1, 0, 1, 0, 1), order(s, 6, 4096));
    assertFalse(s.allDone());
  }

  @Test
  void badValues_nameFileLineAndOption() {
    String[][] bad = {
        {"nrfiles=0", "nrfiles"},
        {"openfiles=x", "openfiles"},
        {"file_service_type=zipf:1.2", "file_service_type", "not modelled"},
        {"file_service_type=everywhere", "file_service_type", "must be one of"},
        {"file_service_type=random:0", "file_service_type"},
        {"fallocate=always", "fallocate"},
        {"filesize=0", "filesize"},
        {"filesize=8k-4k", "filesize", "below its low end"},
        {"create_on_open=2", "create_on_open"},
        {"unlink=yes", "unlink"},
        {"unlink_each_loop", "unlink_each_loop"},
        {"fsync_on_close=3", "fsync_on_close"},
        {"overwrite=true", "overwrite"},
    };
    for (String[] b : bad) {
      InputException e = assertThrows(InputException.class,
          () -> jobs("[j]\nrw=write\n" + b[0] + "\n"), b[0]);
      assertEquals("t.fio", e.file(), b[0]);
      assertEquals(3, e.line(), b[0]);
      assertEquals(b[1], e.key(), b[0]);
      if (b.length > 2) {
        assertTrue(e.getMessage().contains(b[2]), e.getMessage());
      }
    }
  }

  @Test
  void fallocate_takesFiosValues_andTheFormerBooleans() {
    assertEquals("native", jobs("[j]\nrw=write\n").get(0).fallocate());
    assertEquals("none", jobs("[j]\nfallocate=0\n").get(0).fallocate());
    assertEquals("posix", jobs("[j]\nfallocate=1\n").get(0).fallocate());
    assertEquals("keep", jobs("[j]\nfallocate=keep\n").get(0).fallocate());
    assertEquals("truncate", jobs("[j]\nfallocate=truncate\n").get(0).fallocate());
    // openfiles: 0 or above nrfiles is nrfiles (fixup_options()).
    assertEquals(3, jobs("[j]\nnrfiles=3\nopenfiles=9\n").get(0).openFiles());
    assertEquals(2, jobs("[j]\nnr_files=3\nopenfiles=2\n").get(0).openFiles());
  }
}
