package blksim.kernel.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.LocalRunner;
import blksim.engine.Model;
import blksim.engine.Partitioning;
import blksim.engine.ProgressListener;
import blksim.kernel.block.Bio;
import blksim.kernel.block.BioEndIo;
import blksim.kernel.block.BlockQueue;
import blksim.kernel.block.DiskCounters;
import blksim.kernel.block.Kblockd;
import blksim.kernel.device.IrqMode;
import blksim.kernel.device.NullBlkParams;
import blksim.kernel.device.NullBlkDriver;
import blksim.kernel.mm.BdiWriteback;
import blksim.kernel.mm.DirtyParams;
import blksim.kernel.mm.PageCache;
import blksim.kernel.mm.PageCacheParams;
import blksim.kernel.mm.Readahead;
import blksim.kernel.mm.WbPlugPolicy;
import blksim.kernel.mm.WbScheduler;
import blksim.kernel.mm.WritebackParams;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.SchedParams;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.syscall.SyscallParams;
import blksim.kernel.syscall.SystemCall;
import blksim.kernel.topology.Cpu;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Buffered reads of XFS files through {@link VfsCalls#read} / {@link VfsCalls#pread} on a
 * null_blk device (10 us timer completions): the readahead bios they issue, the cache hits, holes
 * and EOF.
 */
@Timeout(60)
class FileReadTest {
  static final SchedParams SCHED = new SchedParams(0, 0, 1_000);
  static final long MIB = 1 << 20;

  /** A bio as the device saw it. */
  record Issued(long sector, int pages, boolean rahead) {}

  /** Records the bios issued to a queue. */
  static final class Recorder implements BlockQueue {
    final BlockQueue q;
    final List<Issued> log = new ArrayList<>();
    /** Fail REQ_RAHEAD bios at once with -EIO, as dm-zero kills readahead. */
    boolean killReadahead;

    Recorder(BlockQueue q) {
      this.q = q;
    }

    @Override
    public String diskName() {
      return q.diskName();
    }

    @Override
    public long capacityBytes() {
      return q.capacityBytes();
    }

    @Override
    public int logicalBlockSize() {
      return q.logicalBlockSize();
    }

    @Override
    public long submitCostNs(Bio bio) {
      return q.submitCostNs(bio);
    }

    @Override
    public boolean issue(Bio bio, BioEndIo endIo, Runnable onTagFree) {
      if (killReadahead && bio.hasFlag(Bio.REQ_RAHEAD)) {
        log.add(new Issued(bio.sector(), bio.sizeBytes() >>> 12, true));
        endIo.endIo(bio, -5);
        return true;
      }
      boolean taken = q.issue(bio, endIo, onTagFree);
      if (taken) {
        log.add(new Issued(bio.sector(), bio.sizeBytes() >>> 12, bio.hasFlag(Bio.REQ_RAHEAD)));
      }
      return taken;
    }

    @Override
    public DiskCounters counters() {
      return q.counters();
    }
  }

  /** Runs calls one after the other, recording their return values. */
  static final class Reader extends Task {
    final List<Function<VfsCalls.OpenFile, SystemCall>> script;
    final List<Long> rets = new ArrayList<>();
    VfsCalls calls;
    VfsCalls.OpenFile file;
    private SystemCall call;
    private int next;

    Reader(List<Function<VfsCalls.OpenFile, SystemCall>> script) {
      super("reader", 1, 0);
      this.script = script;
    }

    @Override
    public boolean keepsRunAlive() {
      return true;
    }

    @Override
    protected void step(TaskCpu cpu) {
      while (true) {
        if (call == null) {
          if (next == script.size()) {
            cpu.exit();
            return;
          }
          call = script.get(next++).apply(file);
        }
        if (!call.step(cpu)) {
          return;
        }
        rets.add(call.ret());
        call = null;
      }
    }
  }

  /** The machine: one CPU, null_blk, an XFS filesystem at /mnt with read_ahead_kb. */
  static final class Rig {
    final CpuComponent cpu = new CpuComponent(new Cpu(0, 0, 0, 0, 0), SCHED);
    final Recorder q;
    final PageCache pc = new PageCache(1 << 20, DirtyParams.DEFAULTS, 250, 1);
    final BdiWriteback wb;
    final Vfs vfs;
    final XfsFilesystem fs;

    Rig(long readAheadKb) {
      q = new Recorder(new NullBlkDriver(new NullBlkParams("nullb0", 1L << 30, 512, 64,
          IrqMode.TIMER, 10_000, 600, 500), new int[] {0}, 1, Kblockd.INLINE).attach(cpu));
      cpu.attach(q);
      wb = pc.newWb("nullb0", new WbScheduler() {
        @Override
        public void modDelayedWork(BdiWriteback w, long delayJiffies) {}

        @Override
        public void queueDelayedWork(BdiWriteback w, long delayJiffies) {}
      });
      wb.attach(id -> q, WbPlugPolicy.NONE, new WritebackParams(0, 0, 0, 0), null);
      wb.setReadAheadKb(readAheadKb);
      vfs = new Vfs(pc, new SyscallParams(1_000, 500), new WritebackParams(0, 0, 0, 0));
      vfs.setReadCosts(new PageCacheParams(700, 300));
      fs = XfsFilesystem.mkfs("nullb0", 1L << 30, XfsParams.DEFAULTS);
      vfs.mount("/mnt", fs, false, wb, new SplittableRandom(2));
    }

    /** A file of {@code bytes} whose first {@code mappedPages} pages have disk blocks. */
    long layOut(String name, long bytes, int mappedPages) {
      long ino = fs.create(fs.rootIno(), name);
      if (mappedPages > 0) {
        fs.reserve(ino, 0, mappedPages);
        fs.allocate(ino, 0, mappedPages, new SplittableRandom(1));
      }
      fs.setSize(ino, bytes);
      return ino;
    }

    Reader run(String path, List<Function<VfsCalls.OpenFile, SystemCall>> script) {
      Reader r = new Reader(script);
      r.calls = new VfsCalls(vfs, r);
      r.calls.open(path);
      r.file = r.calls.lastOpened();
      cpu.addTask(r);
      LocalRunner.run(new Model(List.of(cpu), 1_000, Long.MAX_VALUE, 0, 1), Partitioning.ONE, 1,
          ProgressListener.NONE);
      return r;
    }
  }

  private static Reader sequentialRun(Rig rig, String name, int reads, int len) {
    Reader[] self = new Reader[1];
    List<Function<VfsCalls.OpenFile, SystemCall>> script = new ArrayList<>();
    for (int i = 0; i < reads; i++) {
      script.add(f -> self[0].calls.read(f, len));
    }
    Reader r = new Reader(script);
    self[0] = r;
    r.calls = new VfsCalls(rig.vfs, r);
    r.calls.open("/mnt/" + name);
    r.file = r.calls.lastOpened();
    rig.cpu.addTask(r);
    LocalRunner.run(new Model(List.of(rig.cpu), 1_000, Long.MAX_VALUE, 0, 1), Partitioning.ONE,
        1, ProgressListener.NONE);
    return r;
  }

  private static List<Integer> sizes(Recorder q) {
    return q.log.stream().map(Issued::pages).collect(Collectors.toList());
  }

  @Test
  void sequentialReadGrowsTheWindowUpToReadAheadKb() {
    Rig rig = new Rig(128);
    rig.layOut("f", MIB, 256);
    Reader r = sequentialRun(rig, "f", 257, 4096);
    for (int i = 0; i < 256; i++) {
      assertEquals(4096, r.rets.get(i), "read " + i);
    }
    assertEquals(0, r.rets.get(256), "EOF");
    // 4 (sync, marker at 1), then 8, 16, 32 and 32-page windows started by the markers, up to
    // EOF: 4 + 8 + 16 + 32 * 7 = 252, and the last window is cut at EOF to 4.
    assertEquals(List.of(4, 8, 16, 32, 32, 32, 32, 32, 32, 32, 4), sizes(rig.q));
    assertTrue(rig.q.log.stream().allMatch(Issued::rahead), "readahead bios carry REQ_RAHEAD");
    for (int i = 1; i < rig.q.log.size(); i++) {
      Issued a = rig.q.log.get(i - 1);
      assertEquals(a.sector() + a.pages() * 8L, rig.q.log.get(i).sector(), "contiguous");
    }
    assertEquals(1024, rig.pc.pgpgin(), "pgpgin: 1 MiB in KiB");
    assertEquals(256, rig.pc.readaheadPages());
    System.out.println("FileReadTest: sequential reader slept " + r.nvcsw() + " times, stime "
        + r.stimeNs() + " ns");
    // Async readahead keeps ahead of a reader that spends 1.3 us per 4 KiB against 10 us
    // completions once the window is 8+ pages: it waits for the first windows only.
    assertTrue(r.nvcsw() >= 1 && r.nvcsw() <= 3, "sleeps: " + r.nvcsw());
  }

  @Test
  void aLargerReadAheadKbGivesLargerWindows() {
    Rig rig = new Rig(512);
    rig.layOut("f", 2 * MIB, 512);
    sequentialRun(rig, "f", 512, 4096);
    // max 128 pages: 4, 16 (4 < 128/16: x4), 32, 64, 128 (x2), then 128s and 12 to EOF.
    assertEquals(List.of(4, 16, 32, 64, 128, 128, 128, 12), sizes(rig.q));
  }

  @Test
  void aWindowLargerThanOneMibIsSeveralBios() {
    Rig rig = new Rig(4096);
    rig.layOut("f", 8 * MIB, 2048);
    Reader[] self = new Reader[1];
    List<Function<VfsCalls.OpenFile, SystemCall>> script = new ArrayList<>();
    script.add(f -> self[0].calls.fadvise(f, 0, 0, Readahead.POSIX_FADV_WILLNEED));
    Reader r = new Reader(script);
    self[0] = r;
    r.calls = new VfsCalls(rig.vfs, r);
    r.calls.open("/mnt/f");
    r.file = r.calls.lastOpened();
    rig.cpu.addTask(r);
    LocalRunner.run(new Model(List.of(rig.cpu), 1_000, Long.MAX_VALUE, 0, 1), Partitioning.ONE,
        1, ProgressListener.NONE);
    // WILLNEED of 8 MiB is capped at read_ahead_kb (4 MiB, 1024 pages), in 1 MiB bios.
    assertEquals(List.of(256, 256, 256, 256), sizes(rig.q));
  }

  @Test
  void reReadHitsTheCache() {
    Rig rig = new Rig(128);
    rig.layOut("f", 256 * 1024, 64);
    Reader[] self = new Reader[1];
    List<Function<VfsCalls.OpenFile, SystemCall>> script = new ArrayList<>();
    for (int pass = 0; pass < 2; pass++) {
      for (int i = 0; i < 4; i++) {
        long off = i * 65536L;
        script.add(f -> self[0].calls.pread(f, off, 65536));
      }
    }
    Reader r = new Reader(script);
    self[0] = r;
    r.calls = new VfsCalls(rig.vfs, r);
    r.calls.open("/mnt/f");
    r.file = r.calls.lastOpened();
    rig.cpu.addTask(r);
    LocalRunner.run(new Model(List.of(rig.cpu), 1_000, Long.MAX_VALUE, 0, 1), Partitioning.ONE,
        1, ProgressListener.NONE);
    assertTrue(r.rets.stream().allMatch(v -> v == 65536), "rets " + r.rets);
    int firstPass = rig.q.log.size();
    assertTrue(firstPass > 0);
    long pages = rig.q.log.stream().mapToLong(Issued::pages).sum();
    assertEquals(64, pages, "each page read once");
    assertEquals(256, rig.pc.pgpgin());
  }

  @Test
  void randomReadsIssueSinglePages() {
    Rig rig = new Rig(128);
    rig.layOut("f", 64 * MIB, 16384);
    Reader[] self = new Reader[1];
    List<Function<VfsCalls.OpenFile, SystemCall>> script = new ArrayList<>();
    SplittableRandom rnd = new SplittableRandom(7);
    long[] offs = new long[50];
    for (int i = 0; i < offs.length; i++) {
      // Pages at least 100 apart, never page 0: no sequential pattern, no history.
      offs[i] = (100 + i * 300L + rnd.nextInt(100)) * 4096;
      long off = offs[i];
      script.add(f -> self[0].calls.pread(f, off, 4096));
    }
    Reader r = new Reader(script);
    self[0] = r;
    r.calls = new VfsCalls(rig.vfs, r);
    r.calls.open("/mnt/f");
    r.file = r.calls.lastOpened();
    rig.cpu.addTask(r);
    LocalRunner.run(new Model(List.of(rig.cpu), 1_000, Long.MAX_VALUE, 0, 1), Partitioning.ONE,
        1, ProgressListener.NONE);
    assertEquals(50, rig.q.log.size());
    assertTrue(rig.q.log.stream().allMatch(b -> b.pages() == 1), "sizes " + sizes(rig.q));
    assertEquals(50, rig.pc.readaheadPages());
  }

  @Test
  void fadviseRandomReadsOnlyWhatIsAskedAndSequentialDoubles() {
    Rig rig = new Rig(128);
    rig.layOut("f", MIB, 256);
    Reader[] self = new Reader[1];
    List<Function<VfsCalls.OpenFile, SystemCall>> script = new ArrayList<>();
    script.add(f -> self[0].calls.fadvise(f, 0, 0, Readahead.POSIX_FADV_RANDOM));
    for (int i = 0; i < 4; i++) {
      script.add(f -> self[0].calls.read(f, 8192));
    }
    Reader r = new Reader(script);
    self[0] = r;
    r.calls = new VfsCalls(rig.vfs, r);
    r.calls.open("/mnt/f");
    r.file = r.calls.lastOpened();
    rig.cpu.addTask(r);
    LocalRunner.run(new Model(List.of(rig.cpu), 1_000, Long.MAX_VALUE, 0, 1), Partitioning.ONE,
        1, ProgressListener.NONE);
    assertEquals(List.of(0L, 8192L, 8192L, 8192L, 8192L), r.rets);
    assertEquals(List.of(2, 2, 2, 2), sizes(rig.q), "FMODE_RANDOM: the two pages asked for");

    Rig seq = new Rig(128);
    seq.layOut("g", 2 * MIB, 512);
    Reader[] s2 = new Reader[1];
    List<Function<VfsCalls.OpenFile, SystemCall>> script2 = new ArrayList<>();
    script2.add(f -> s2[0].calls.fadvise(f, 0, 0, Readahead.POSIX_FADV_SEQUENTIAL));
    for (int i = 0; i < 512; i++) {
      script2.add(f -> s2[0].calls.read(f, 4096));
    }
    Reader r2 = new Reader(script2);
    s2[0] = r2;
    r2.calls = new VfsCalls(seq.vfs, r2);
    r2.calls.open("/mnt/g");
    r2.file = r2.calls.lastOpened();
    seq.cpu.addTask(r2);
    LocalRunner.run(new Model(List.of(seq.cpu), 1_000, Long.MAX_VALUE, 0, 1), Partitioning.ONE,
        1, ProgressListener.NONE);
    assertEquals(64, sizes(seq.q).stream().mapToInt(Integer::intValue).max().getAsInt(),
        "SEQUENTIAL: windows up to 2 x 128 KiB");
  }

  @Test
  void willneedReadsAheadWithoutWaitingAndTheReadsHit() {
    Rig rig = new Rig(128);
    rig.layOut("f", 128 * 1024, 32);
    Reader[] self = new Reader[1];
    List<Function<VfsCalls.OpenFile, SystemCall>> script = new ArrayList<>();
    script.add(f -> self[0].calls.fadvise(f, 0, 0, Readahead.POSIX_FADV_WILLNEED));
    script.add(f -> self[0].calls.pread(f, 64 * 1024, 4096));
    Reader r = new Reader(script);
    self[0] = r;
    r.calls = new VfsCalls(rig.vfs, r);
    r.calls.open("/mnt/f");
    r.file = r.calls.lastOpened();
    rig.cpu.addTask(r);
    LocalRunner.run(new Model(List.of(rig.cpu), 1_000, Long.MAX_VALUE, 0, 1), Partitioning.ONE,
        1, ProgressListener.NONE);
    assertEquals(List.of(0L, 4096L), r.rets);
    assertEquals(List.of(32), sizes(rig.q), "one forced readahead of the file, no more I/O");
  }

  @Test
  void holesReadAsZerosWithoutIoAndEofCutsTheRead() {
    Rig rig = new Rig(128);
    rig.layOut("sparse", 100_000, 0);
    Reader[] self = new Reader[1];
    List<Function<VfsCalls.OpenFile, SystemCall>> script = new ArrayList<>();
    script.add(f -> self[0].calls.pread(f, 0, 65536));
    script.add(f -> self[0].calls.pread(f, 65536, 65536));
    script.add(f -> self[0].calls.pread(f, 100_000, 4096));
    Reader r = new Reader(script);
    self[0] = r;
    r.calls = new VfsCalls(rig.vfs, r);
    r.calls.open("/mnt/sparse");
    r.file = r.calls.lastOpened();
    rig.cpu.addTask(r);
    LocalRunner.run(new Model(List.of(rig.cpu), 1_000, Long.MAX_VALUE, 0, 1), Partitioning.ONE,
        1, ProgressListener.NONE);
    assertEquals(List.of(65536L, 100_000L - 65536, 0L), r.rets);
    assertEquals(0, rig.q.log.size(), "holes cost no I/O");
    assertEquals(0, rig.pc.pgpgin());
  }

  @Test
  void killedReadaheadIsReadAgainPageByPageWithoutRahead() {
    Rig rig = new Rig(128);
    rig.q.killReadahead = true;
    rig.layOut("f", MIB, 256);
    Reader[] self = new Reader[1];
    List<Function<VfsCalls.OpenFile, SystemCall>> script = new ArrayList<>();
    script.add(f -> self[0].calls.pread(f, 0, 16384));
    Reader r = new Reader(script);
    self[0] = r;
    r.calls = new VfsCalls(rig.vfs, r);
    r.calls.open("/mnt/f");
    r.file = r.calls.lastOpened();
    rig.cpu.addTask(r);
    LocalRunner.run(new Model(List.of(rig.cpu), 1_000, Long.MAX_VALUE, 0, 1), Partitioning.ONE,
        1, ProgressListener.NONE);
    assertEquals(List.of(16384L), r.rets);
    // The 8-page window fails; ->read_folio() reads each of the 4 pages asked for.
    assertEquals(List.of(8, 1, 1, 1, 1), sizes(rig.q));
    assertEquals(List.of(true, false, false, false, false),
        rig.q.log.stream().map(Issued::rahead).collect(Collectors.toList()));
  }

  @Test
  void twoReadersOfOneFileShareItsPages() {
    Rig rig = new Rig(128);
    rig.layOut("f", MIB, 256);
    List<Reader> readers = new ArrayList<>();
    for (int k = 0; k < 2; k++) {
      Reader[] self = new Reader[1];
      List<Function<VfsCalls.OpenFile, SystemCall>> script = new ArrayList<>();
      for (int i = 0; i < 64; i++) {
        script.add(f -> self[0].calls.read(f, 16384));
      }
      Reader r = new Reader(script);
      self[0] = r;
      r.calls = new VfsCalls(rig.vfs, r);
      r.calls.open("/mnt/f");
      r.file = r.calls.lastOpened();
      rig.cpu.addTask(r);
      readers.add(r);
    }
    LocalRunner.run(new Model(List.of(rig.cpu), 1_000, Long.MAX_VALUE, 0, 1), Partitioning.ONE,
        1, ProgressListener.NONE);
    for (Reader r : readers) {
      assertEquals(64, r.rets.size());
      assertTrue(r.rets.stream().allMatch(v -> v == 16384), "rets " + r.rets);
    }
    assertEquals(256, rig.q.log.stream().mapToLong(Issued::pages).sum(), "each page read once");
    assertEquals(1024, rig.pc.pgpgin());
  }
}
