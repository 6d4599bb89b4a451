package blksim.kernel.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.kernel.mm.BdiWriteback;
import blksim.kernel.mm.DirtyParams;
import blksim.kernel.mm.PageCache;
import blksim.kernel.mm.WbScheduler;
import blksim.kernel.mm.WritebackParams;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.syscall.SyscallParams;
import blksim.kernel.syscall.SystemCall;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The file calls fio's layout makes: open with flags, stat, fallocate, ftruncate, and the
 * earlier-run shortcut; every one of them returns at once after its CPU time.
 */
class VfsCallsFileTest {
  private static final long ENTRY = 500;

  /** A CPU that only adds up the time spent. */
  private static final class Clock implements TaskCpu {
    long spent;

    @Override
    public long now() {
      return spent;
    }

    @Override
    public CpuComponent cpu() {
      return null;
    }

    @Override
    public void runFor(CpuMode mode, long ns) {
      spent += ns;
    }

    @Override
    public void sleep() {
      throw new AssertionError("these calls never sleep");
    }

    @Override
    public void exit() {}

    @Override
    public void condResched() {}

    @Override
    public void mightResched() {}

    @Override
    public boolean needResched() {
      return false;
    }

    @Override
    public SplittableRandom random() {
      return new SplittableRandom(1);
    }
  }

  private final Clock clock = new Clock();
  private final XfsFilesystem fs = XfsFilesystem.mkfs("sdb", 1L << 30, XfsParams.DEFAULTS);
  private final VfsCalls calls;

  VfsCallsFileTest() {
    PageCache pc = new PageCache(100_000, DirtyParams.DEFAULTS, 250, 1);
    BdiWriteback wb = pc.newWb("sdb", new WbScheduler() {
      @Override
      public void modDelayedWork(BdiWriteback w, long delayJiffies) {}

      @Override
      public void queueDelayedWork(BdiWriteback w, long delayJiffies) {}
    });
    Vfs vfs = new Vfs(pc, new SyscallParams(ENTRY, 0), new WritebackParams(0, 0, 0, 0));
    vfs.mount("/mnt/t", fs, false, wb, new SplittableRandom(7));
    Task t = new Task("fio", 1000, 0) {
      @Override
      protected void step(TaskCpu cpu) {}
    };
    calls = new VfsCalls(vfs, t);
  }

  /** Runs a call to its return: its value, and the time it took in {@code spent}. */
  private long run(SystemCall c) {
    for (int i = 0; i < 10; i++) {
      if (c.step(clock)) {
        return c.ret();
      }
    }
    throw new AssertionError("the call did not return");
  }

  @Test
  void openWithFlags_createsOnlyWithOCreat_andTruncatesWithOTrunc() {
    String p = "/mnt/t/f";
    assertEquals(-Filesystem.ENOENT, run(calls.open(p, VfsCalls.O_RDWR)));
    long before = clock.spent;
    assertEquals(0, run(calls.open(p, VfsCalls.O_RDWR | VfsCalls.O_CREAT)));
    assertEquals(ENTRY + XfsParams.DEFAULT_CREATE_NS, clock.spent - before, "entry + create");
    VfsCalls.OpenFile f = calls.lastOpened();
    assertEquals(0, run(calls.fallocate(f, 0, 0, 1 << 20)));
    assertEquals(1 << 20, run(calls.stat(p)));
    assertEquals(0, run(calls.close(f)));
    // O_CREAT of an existing file opens it as it is; O_TRUNC empties it and frees its blocks.
    assertEquals(0, run(calls.open(p, VfsCalls.O_WRONLY | VfsCalls.O_CREAT)));
    assertEquals(1 << 20, run(calls.stat(p)));
    run(calls.close(calls.lastOpened()));
    long free = fs.freeBlocks();
    assertEquals(0, run(calls.open(p, VfsCalls.O_WRONLY | VfsCalls.O_TRUNC)));
    assertEquals(0, run(calls.stat(p)));
    assertEquals(free + 256, fs.freeBlocks());
    run(calls.close(calls.lastOpened()));
    // A directory: stat gives 0, a write open EISDIR; missing parents ENOENT.
    assertEquals(0, run(calls.stat("/mnt/t")));
    assertEquals(-Filesystem.EISDIR, run(calls.open("/mnt/t", VfsCalls.O_RDWR)));
    assertEquals(-Filesystem.ENOENT, run(calls.open("/mnt/t/no/f", VfsCalls.O_CREAT
        | VfsCalls.O_RDWR)));
    assertEquals(-Filesystem.ENOENT, run(calls.stat("/mnt/t/none")));
  }

  @Test
  void fallocate_modes_andItsErrors() {
    run(calls.open("/mnt/t/f", VfsCalls.O_RDWR | VfsCalls.O_CREAT));
    VfsCalls.OpenFile f = calls.lastOpened();
    long before = clock.spent;
    assertEquals(0, run(calls.fallocate(f, VfsCalls.FALLOC_FL_KEEP_SIZE, 0, 64 << 10)));
    assertEquals(ENTRY + XfsParams.DEFAULT_FALLOCATE_NS, clock.spent - before);
    assertEquals(0, run(calls.stat("/mnt/t/f")), "KEEP_SIZE leaves i_size");
    assertTrue(fs.unwritten(f.ino(), 15));
    assertFalse(fs.unwritten(f.ino(), 16));
    // Mode 0 from an offset: i_size becomes offset + len.
    assertEquals(0, run(calls.fallocate(f, 0, 1 << 20, 4096)));
    assertEquals((1 << 20) + 4096, run(calls.stat("/mnt/t/f")));
    assertEquals(-VfsCalls.EOPNOTSUPP, run(calls.fallocate(f, 0x08, 0, 4096)));
    assertEquals(-Filesystem.EINVAL, run(calls.fallocate(f, 0, -1, 4096)));
    assertEquals(-Filesystem.EINVAL, run(calls.fallocate(f, 0, 0, 0)));
    assertEquals(-Filesystem.ENOSPC, run(calls.fallocate(f, 0, 0, 2L << 30)));
    // ftruncate: grow sets the size only, shrink frees.
    long free = fs.freeBlocks();
    assertEquals(0, run(calls.ftruncate(f, 8L << 20)));
    assertEquals(8L << 20, run(calls.stat("/mnt/t/f")));
    assertEquals(free, fs.freeBlocks());
    assertEquals(0, run(calls.ftruncate(f, 0)));
    assertTrue(fs.freeBlocks() > free);
  }

  @Test
  void anEarlierRunsFile_isAllocatedAndWritten_inNoTime() {
    run(calls.open("/mnt/t/f", VfsCalls.O_RDWR | VfsCalls.O_CREAT));
    VfsCalls.OpenFile f = calls.lastOpened();
    long free = fs.freeBlocks();
    long before = clock.spent;
    assertEquals(0, calls.assumeWrittenByEarlierRun(f, 1 << 20));
    assertEquals(before, clock.spent);
    assertEquals(1 << 20, fs.size(f.ino()));
    assertEquals(free - 256, fs.freeBlocks());
    assertFalse(fs.unwritten(f.ino(), 0));
  }
}
