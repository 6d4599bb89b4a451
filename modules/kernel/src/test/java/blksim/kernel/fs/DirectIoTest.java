package blksim.kernel.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.LocalRunner;
import blksim.engine.Model;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.kernel.fs.FileReadTest.Issued;
import blksim.kernel.fs.FileReadTest.Reader;
import blksim.kernel.fs.FileReadTest.Rig;
import blksim.kernel.syscall.SystemCall;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Synchronous O_DIRECT {@code pread}/{@code pwrite} on XFS files ({@link DirectIo}) on a null_blk
 * device with 10 us completions: the bios go to the file's blocks and skip the page cache, a
 * write into a hole allocates an unwritten extent converted at completion, and misaligned I/O
 * fails with EINVAL as the kernel's does.
 */
@Timeout(60)
class DirectIoTest {
  private static final long MIB = 1 << 20;

  private static Reader run(Rig rig, String path,
      List<Function<VfsCalls.OpenFile, SystemCall>> script) {
    Reader r = new Reader(script);
    r.calls = new VfsCalls(rig.vfs, r);
    current = r.calls;
    r.calls.open(path, VfsCalls.O_RDWR | VfsCalls.O_DIRECT);
    r.file = r.calls.lastOpened();
    assertTrue(r.file.direct());
    rig.cpu.addTask(r);
    LocalRunner.run(new Model(List.of(rig.cpu), 1_000, Long.MAX_VALUE, 0, 1), Partitioning.ONE,
        1, ProgressListener.NONE);
    return r;
  }

  @Test
  void aDirectReadIsOneBioOfTheFileBlocksAndCachesNothing() {
    Rig rig = new Rig(128);
    long ino = rig.layOut("f", MIB, 256);
    Reader r = run(rig, "/mnt/f", List.of(
        f -> calls().pread(f, 64 * 1024, 128 * 1024),
        f -> calls().pread(f, 8192, 4096)));
    assertEquals(List.of(128L * 1024, 4096L), r.rets);
    long sector = rig.fs.readSector(ino, 16);
    assertEquals(List.of(new Issued(sector, 32, false),
        new Issued(rig.fs.readSector(ino, 2), 1, false)), rig.q.log);
    assertEquals(0, rig.vfs.mountAt("/mnt").existingMapping(ino).nrPages(),
        "no page-cache page");
    assertEquals(0, rig.pc.pgpgin());
    assertTrue(r.nvcsw() >= 2, "the task slept for each bio: " + r.nvcsw());
  }

  @Test
  void aDirectReadOfAHoleOrPastEofDoesNoIo() {
    Rig rig = new Rig(128);
    rig.layOut("f", MIB, 0);
    Reader r = run(rig, "/mnt/f", List.of(
        f -> calls().pread(f, 0, 8192),
        f -> calls().pread(f, MIB - 4096, 8192),
        f -> calls().pread(f, MIB, 4096)));
    assertEquals(List.of(8192L, 4096L, 0L), r.rets, "zeros of a hole, short at EOF, 0 past it");
    assertTrue(rig.q.log.isEmpty());
  }

  @Test
  void aDirectWriteIntoAHoleAllocatesUnwrittenAndConvertsAtCompletion() {
    Rig rig = new Rig(128);
    long ino = rig.fs.create(rig.fs.rootIno(), "w");
    boolean[] unwrittenDuringIo = new boolean[1];
    Reader r = run(rig, "/mnt/w", List.of(
        f -> calls().pwrite(f, 0, 64 * 1024),
        f -> {
          // After the first write returned: converted and i_size set.
          unwrittenDuringIo[0] = rig.fs.unwritten(ino, 0);
          return calls().pwrite(f, 64 * 1024, 4096);
        }));
    assertEquals(List.of(65536L, 4096L), r.rets);
    assertFalse(unwrittenDuringIo[0], "converted before the call returned");
    assertEquals(68 * 1024, rig.fs.size(ino));
    assertEquals(2, rig.q.log.size());
    assertEquals(rig.fs.readSector(ino, 0), rig.q.log.get(0).sector());
    assertEquals(16, rig.q.log.get(0).pages());
    assertEquals(rig.fs.readSector(ino, 16), rig.q.log.get(1).sector());
    assertFalse(rig.fs.unwritten(ino, 16));
    assertEquals(0, rig.vfs.mountAt("/mnt").existingMapping(ino).nrPages());
  }

  @Test
  void misalignedDirectIoFailsWithEinvalAndIssuesNothing() {
    Rig rig = new Rig(128);
    long ino = rig.layOut("f", MIB, 256);
    Reader r = run(rig, "/mnt/f", List.of(
        f -> calls().pread(f, 100, 4096),
        f -> calls().pwrite(f, 0, 1000),
        f -> calls().pwrite(f, 512, 512)));
    assertEquals(List.of(-22L, -22L, 512L), r.rets,
        "offset or length not a multiple of 512: EINVAL; a sector-aligned write is fine");
    assertEquals(1, rig.q.log.size());
    assertEquals(rig.fs.readSector(ino, 0) + 1, rig.q.log.get(0).sector());
  }

  /** The running reader's calls (the script runs inside {@link #run}). */
  private static VfsCalls current;

  private static VfsCalls calls() {
    return current;
  }
}
