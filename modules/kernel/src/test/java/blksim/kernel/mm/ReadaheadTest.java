package blksim.kernel.mm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The readahead windows against values computed by hand from 6.6's mm/readahead.c, with
 * read_ahead_kb = 128 (ra_pages 32) unless said otherwise.
 */
class ReadaheadTest {
  /** A page cache of one file: present pages, the marked ones, and the batches submitted. */
  static final class FakePages implements Readahead.Pages {
    final TreeSet<Long> present = new TreeSet<>();
    final TreeSet<Long> marked = new TreeSet<>();
    final List<String> batches = new ArrayList<>();
    long isize;
    private long first = -1;
    private long last = -1;

    FakePages(long isize) {
      this.isize = isize;
    }

    @Override
    public boolean present(long index) {
      return present.contains(index);
    }

    @Override
    public long iSize() {
      return isize;
    }

    @Override
    public void add(long index, boolean mark) {
      present.add(index);
      if (mark) {
        marked.add(index);
      }
      if (first < 0) {
        first = index;
      }
      last = index;
    }

    @Override
    public void submit() {
      batches.add(first + ".." + last);
      first = -1;
    }
  }

  private static final long BIG = 1L << 40;

  /** What filemap_get_pages() does for a one-page read of {@code index}. */
  private static void read(Readahead ra, FakePages p, long index) {
    if (!p.present(index)) {
      ra.syncRa(p, index, 1);
    } else if (p.marked.remove(index)) {
      ra.asyncRa(p, index, 1);
    }
    ra.setPrevPos((index + 1) << 12);
  }

  @Test
  void initAndNextSizes() {
    assertEquals(4, Readahead.initSize(1, 32), "1 page <= max/32: x4");
    assertEquals(4, Readahead.initSize(2, 32), "2 <= max/4: x2 (kernel: 1-2 pages = 16k)");
    assertEquals(16, Readahead.initSize(8, 32), "8 <= max/4: x2");
    assertEquals(16, Readahead.initSize(5, 32), "5 rounds up to 8, 8 <= max/4: x2");
    assertEquals(32, Readahead.initSize(16, 32), "beyond max/4: max");
    assertEquals(4, Readahead.nextSize(1, 32), "below max/16: x4");
    assertEquals(8, Readahead.nextSize(4, 32), "up to max/2: x2");
    assertEquals(32, Readahead.nextSize(16, 32));
    assertEquals(32, Readahead.nextSize(17, 32), "beyond max/2: max");
  }

  @Test
  void sequentialStreamFromZeroRampsUpToReadAheadKb() {
    Readahead ra = new Readahead(32, 32);
    FakePages p = new FakePages(BIG);
    read(ra, p, 0);
    // initial: size 4, async 3, marker on page 1.
    assertEquals(List.of("0..3"), p.batches);
    assertEquals(0, ra.start());
    assertEquals(4, ra.size());
    assertEquals(3, ra.asyncSize());
    assertEquals(List.of(1L), List.copyOf(p.marked));
    read(ra, p, 1);
    assertEquals("4..11", p.batches.get(1), "the marker at 1 starts 8 pages at 4");
    assertEquals(8, ra.asyncSize());
    for (long i = 2; i < 200; i++) {
      read(ra, p, i);
    }
    assertEquals(List.of("0..3", "4..11", "12..27", "28..59", "60..91", "92..123", "124..155",
        "156..187", "188..219", "220..251"), p.batches);
    assertEquals(32, ra.size(), "capped at read_ahead_kb / 4");
    assertEquals(252, ra.pagesAdded());
  }

  @Test
  void randomReadReadsOnlyItsPageAndLeavesTheStateAlone() {
    Readahead ra = new Readahead(32, 32);
    FakePages p = new FakePages(BIG);
    read(ra, p, 0);
    ra.setPrevPos(4096);
    ra.syncRa(p, 1000, 1);
    assertEquals("1000..1000", p.batches.get(1));
    assertFalse(p.marked.contains(1000L));
    assertEquals(0, ra.start());
    assertEquals(4, ra.size());
  }

  @Test
  void markerOfAnotherStreamSizesFromTheCache() {
    Readahead ra = new Readahead(32, 32);
    FakePages p = new FakePages(BIG);
    for (long i = 500; i < 508; i++) {
      p.present.add(i);
    }
    // A marked page at 500 with no matching state: next miss 508, size = 8 + 1 -> 18.
    ra.asyncRa(p, 500, 1);
    assertEquals(508, ra.start());
    assertEquals(18, ra.size());
    assertEquals(List.of("508..525"), p.batches);
  }

  @Test
  void contextReadaheadFindsTheHistory() {
    Readahead ra = new Readahead(32, 32);
    FakePages p = new FakePages(BIG);
    for (long i = 40; i < 50; i++) {
      p.present.add(i);
    }
    ra.syncRa(p, 50, 1);
    assertEquals(List.of("50..60"), p.batches, "10 history pages + 1, async 1");
    assertEquals(List.of(60L), List.copyOf(p.marked));
  }

  @Test
  void streamReachingEofStopsAtTheLastPageAndLosesTheMarker() {
    Readahead ra = new Readahead(32, 32);
    FakePages p = new FakePages(10 * 4096 - 100);
    read(ra, p, 0);
    read(ra, p, 1);
    assertEquals(List.of("0..3", "4..9"), p.batches);
    assertTrue(p.marked.isEmpty(), "the marker would have been past EOF");
    for (long i = 2; i < 10; i++) {
      read(ra, p, i);
    }
    assertEquals(2, p.batches.size(), "nothing past EOF");
    ra.syncRa(p, 10, 1);
    assertEquals(2, p.batches.size(), "a miss past EOF reads nothing");
  }

  @Test
  void largeFirstReadMergesItsOwnMarker() {
    Readahead ra = new Readahead(32, 32);
    FakePages p = new FakePages(BIG);
    ra.syncRa(p, 0, 32);
    assertEquals(32, ra.size());
    assertEquals(16, ra.asyncSize());
    assertEquals(List.of(16L), List.copyOf(p.marked));
  }

  @Test
  void fadviseSequentialDoublesRandomDisables() {
    Readahead ra = new Readahead(32, 32);
    assertTrue(ra.fadvise(Readahead.POSIX_FADV_SEQUENTIAL));
    assertEquals(64, ra.raPages());
    FakePages p = new FakePages(BIG);
    for (long i = 0; i < 300; i++) {
      read(ra, p, i);
    }
    assertEquals(64, ra.size(), "windows grow to twice read_ahead_kb");

    Readahead rnd = new Readahead(32, 32);
    rnd.fadvise(Readahead.POSIX_FADV_RANDOM);
    FakePages q = new FakePages(BIG);
    rnd.syncRa(q, 0, 2);
    rnd.syncRa(q, 2, 1);
    assertEquals(List.of("0..1", "2..2"), q.batches, "only the pages asked for");
    assertTrue(q.marked.isEmpty());
    assertTrue(rnd.fadvise(Readahead.POSIX_FADV_NORMAL));
    assertFalse(rnd.random());
    assertEquals(32, rnd.raPages());
    assertFalse(rnd.fadvise(99));
  }

  @Test
  void willneedIsCappedAtTheMaximumWindow() {
    Readahead ra = new Readahead(32, 64);
    FakePages p = new FakePages(BIG);
    ra.forceRa(p, 10, 1000);
    assertEquals(List.of("10..73"), p.batches, "max(io_pages 64, ra_pages 32)");
    assertTrue(p.marked.isEmpty());
  }

  @Test
  void readaheadOffReadsOnePage() {
    Readahead ra = new Readahead(0, 32);
    FakePages p = new FakePages(BIG);
    ra.syncRa(p, 0, 8);
    assertEquals(List.of("0..0"), p.batches);
    ra.asyncRa(p, 0, 8);
    assertEquals(1, p.batches.size());
  }

  @Test
  void presentPagesSplitTheBatch() {
    Readahead ra = new Readahead(32, 32);
    FakePages p = new FakePages(BIG);
    p.present.add(2L);
    ra.syncRa(p, 0, 1);
    assertEquals(List.of("0..1", "3..3"), p.batches);
  }
}
