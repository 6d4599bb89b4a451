package blksim.kernel.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.kernel.mm.AnonMapping;
import blksim.kernel.mm.FaultCosts;
import blksim.kernel.mm.FileMapping;
import blksim.kernel.syscall.SystemCall;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Accesses through {@code mmap()} of XFS files ({@link VfsCalls#mmap}, {@link VfsCalls#access}):
 * first-touch faults, readahead from faults, fault-around, write faults dirtying pages.
 */
@Timeout(60)
class MmapFaultTest {
  static final long MIB = 1 << 20;

  /** Maps the whole file with {@code advice}, then runs {@code accesses} (offset, len, write). */
  private static FileMapping map(FileReadTest.Rig rig, String name, long bytes, boolean write,
      int advice, List<long[]> accesses, List<Long> rets) {
    FileMapping[] m = new FileMapping[1];
    FileReadTest.Reader[] self = new FileReadTest.Reader[1];
    List<Function<VfsCalls.OpenFile, SystemCall>> script = new ArrayList<>();
    script.add(f -> self[0].calls.mmap(f, 0, bytes, write));
    script.add(f -> {
      m[0] = self[0].calls.lastMapping();
      return self[0].calls.madvise(m[0], advice);
    });
    for (long[] a : accesses) {
      script.add(f -> self[0].calls.access(m[0], a[0], a[1], a[2] != 0));
    }
    FileReadTest.Reader r = new FileReadTest.Reader(script);
    self[0] = r;
    r.calls = new VfsCalls(rig.vfs, r);
    r.calls.open("/mnt/" + name);
    r.file = r.calls.lastOpened();
    rig.cpu.addTask(r);
    blksim.engine.LocalRunner.run(new blksim.engine.Model(List.of(rig.cpu), 1_000,
        Long.MAX_VALUE, 0, 1), blksim.engine.Partitioning.ONE, 1,
        blksim.engine.ProgressListener.NONE);
    rets.addAll(r.rets);
    return m[0];
  }

  private static List<long[]> pages(int n, int stride, boolean write) {
    List<long[]> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(new long[] {(long) i * stride * 4096, 4096, write ? 1 : 0});
    }
    return out;
  }

  @Test
  void aSequentialReadThroughTheMappingReadsAheadAndFaultsAround() {
    FileReadTest.Rig rig = new FileReadTest.Rig(128);
    rig.layOut("f", MIB, 256);
    List<Long> rets = new ArrayList<>();
    FileMapping m = map(rig, "f", MIB, false, FileMapping.MADV_SEQUENTIAL, pages(256, 1, false),
        rets);
    for (int i = 2; i < rets.size(); i++) {
      assertEquals(4096, rets.get(i), "access " + i);
    }
    assertEquals(256, m.pageTable().mapped(), "every page touched has a PTE");
    int bios = rig.q.log.size();
    System.out.println("MmapFaultTest: 256 pages read through the mapping: " + bios + " bios "
        + rig.q.log.stream().map(FileReadTest.Issued::pages).toList() + ", " + m.faults()
        + " faults (" + m.majorFaults() + " major), " + m.faultAroundMapped()
        + " pages mapped around");
    assertTrue(bios > 0 && bios < 256 / 4, "readahead: fewer, larger reads than pages: " + bios);
    assertTrue(rig.q.log.stream().allMatch(FileReadTest.Issued::rahead), "REQ_RAHEAD");
    assertEquals(256, rig.q.log.stream().mapToInt(FileReadTest.Issued::pages).sum(),
        "each page read once");
    assertTrue(m.faults() <= 256 / 8, "fault-around maps 16 pages a fault: " + m.faults());
    assertEquals(256, m.faults() + m.faultAroundMapped(), "faulted + mapped around = touched");
    assertTrue(m.majorFaults() >= 1, "the first touch misses the cache");
  }

  @Test
  void randomAdviceFaultsEveryPageAndReadsOnlyIt() {
    FileReadTest.Rig rig = new FileReadTest.Rig(128);
    rig.layOut("f", MIB, 256);
    List<Long> rets = new ArrayList<>();
    // Every fourth page: nothing around it is cached, so no fault-around either.
    FileMapping m = map(rig, "f", MIB, false, FileMapping.MADV_RANDOM, pages(64, 4, false),
        rets);
    assertEquals(64, m.faults(), "first-touch faults = pages touched");
    assertEquals(64, m.majorFaults());
    assertEquals(64, rig.q.log.size(), "VM_RAND_READ: one page per fault");
    assertTrue(rig.q.log.stream().noneMatch(FileReadTest.Issued::rahead));
    assertEquals(0, rig.pc.readaheadPages());
  }

  @Test
  void theReadAroundWindowIsCentredOnTheFault() {
    FileReadTest.Rig rig = new FileReadTest.Rig(128);
    rig.layOut("f", 4 * MIB, 1024);
    List<Long> rets = new ArrayList<>();
    FileMapping m = map(rig, "f", 4 * MIB, false, FileMapping.MADV_NORMAL,
        List.of(new long[] {512 * 4096L, 4096, 0}), rets);
    // do_sync_mmap_readahead(): ra_pages (32) from pgoff - 16.
    assertEquals(1, rig.q.log.size());
    assertEquals(32, rig.q.log.get(0).pages());
    assertTrue(m.mapping().cached(496) && m.mapping().cached(527));
    assertTrue(!m.mapping().cached(495) && !m.mapping().cached(528));
    // The retried fault maps the 16-page block around page 512 by fault-around, all but page
    // 520, which carries PG_readahead (496 + 32 - 32 / 4) and is left to fault.
    assertEquals(15, m.pageTable().mapped());
    assertTrue(!m.pageTable().present(520 - 0) && m.mapping().readaheadMark(520));
  }

  @Test
  void writesDirtyEachPageOnceAndLaterTouchesDoNotFault() {
    FileReadTest.Rig rig = new FileReadTest.Rig(128);
    rig.layOut("f", MIB, 0); // fallocate-like: size set, no blocks yet: pages are holes
    List<long[]> acc = new ArrayList<>(pages(100, 1, true));
    acc.addAll(pages(100, 1, true)); // the same pages again: PTEs writable, pages still dirty
    acc.addAll(pages(100, 1, false));
    List<Long> rets = new ArrayList<>();
    FileMapping m = map(rig, "f", MIB, true, FileMapping.MADV_NORMAL, acc, rets);
    assertEquals(100, m.faults(), "first-touch faults = pages touched");
    assertEquals(100, m.mkwrites());
    assertEquals(100, rig.pc.nrDirty(), "page_mkwrite dirtied each page");
    assertEquals(0, rig.q.log.size(), "holes are zeroed, not read");
  }

  @Test
  void anAnonymousMappingFaultsOncePerPageAndWritesUpgradeZeroPages() {
    AnonMapping a = new AnonMapping(64 * 4096);
    FaultCosts c = new FaultCosts(1000, 20, 500, 1000, 2000, 30);
    assertEquals(10 * 1000, a.touch(0, 10 * 4096, false, c), "zero-page read faults");
    assertEquals(0, a.touch(0, 10 * 4096, false, c));
    assertEquals(10 * 1500, a.touch(0, 10 * 4096, true, c), "wp faults on the zero page");
    assertEquals(0, a.touch(4096, 4096, true, c));
    assertEquals(20, a.faults());
    assertEquals(10, a.mapped());
  }
}
