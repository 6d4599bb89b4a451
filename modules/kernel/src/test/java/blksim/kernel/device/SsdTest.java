package blksim.kernel.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.PriorityQueue;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SsdTest {
  static final SsdParams S4500 = SsdParams.DEFAULTS;
  /** 4 KiB over the 490 MB/s link: 4096 / 490e6 s = 8,359.18 ns. */
  static final long LINK_4K = 8_359;

  @Test
  void qd1_latencyIsFlashPlusLink() {
    // read: 40 µs on channel 0, then 8,359 ns on the link
    assertEquals(40_000 + LINK_4K, new Ssd(S4500).submit(0, 0, 4096, false));
    // write: link first, then 40 µs on a channel
    assertEquals(LINK_4K + 40_000, new Ssd(S4500).submit(0, 0, 4096, true));
    // 64 KiB read: 16 pages over 8 channels, two each: 80 µs; link 65536 / 490e6 s = 133,747 ns
    assertEquals(80_000 + 133_747, new Ssd(S4500).submit(0, 0, 65536, false));
    // starting mid-page, 4 KiB touches two pages on two channels: still 40 µs
    assertEquals(1_000 + 40_000 + LINK_4K, new Ssd(S4500).submit(1_000, 4, 4096, false));
  }

  @Test
  void readsOnDifferentChannels_runInParallel() {
    Ssd ssd = new Ssd(S4500);
    // pages 0..7 (sectors 0, 8, ...) on channels 0..7: all read by 40 µs, then one after the
    // other on the link
    for (int i = 0; i < 8; i++) {
      assertEquals(40_000 + (i + 1) * LINK_4K, ssd.submit(0, i * 8L, 4096, false), "read " + i);
    }
  }

  @Test
  void readsOnOneChannel_queueOnIt() {
    Ssd ssd = new Ssd(S4500);
    // pages 0, 8, 16, ... all on channel 0: flash ends at 40, 80, ... µs, link 8.4 µs after each
    for (int i = 0; i < 8; i++) {
      assertEquals((i + 1) * 40_000L + LINK_4K, ssd.submit(0, i * 64L, 4096, false), "read " + i);
    }
    // with one channel the pages 0..7 queue the same way
    Ssd single = new Ssd(S4500.withChannels(1));
    for (int i = 0; i < 8; i++) {
      assertEquals((i + 1) * 40_000L + LINK_4K, single.submit(0, i * 8L, 4096, false), "read " + i);
    }
  }

  @Test
  void writesToOnePage_spreadOverFreeChannels() {
    Ssd ssd = new Ssd(S4500);
    // the link serialises them (8,359 ns each), then each finds an idle channel
    for (int i = 0; i < 8; i++) {
      assertEquals((i + 1) * LINK_4K + 40_000, ssd.submit(0, 0, 4096, true), "write " + i);
    }
  }

  @Test
  void highQueueDepth_saturatesAtTheLinkBandwidthAndLatencyGrows() {
    Ssd ssd = new Ssd(S4500);
    SplittableRandom random = new SplittableRandom(7);
    long pages = S4500.capacityBytes() / 65536;
    // {completion, submit}; closed loop at QD 32 of random 64 KiB reads
    PriorityQueue<long[]> pending = new PriorityQueue<>((a, b) -> Long.compare(a[0], b[0]));
    for (int i = 0; i < 32; i++) {
      pending.add(new long[] {ssd.submit(0, random.nextLong(pages) * 128, 65536, false), 0});
    }
    int n = 4000;
    long latencySum = 0;
    long firstNs = 0;
    long lastNs = 0;
    for (int i = 0; i < n; i++) {
      long[] done = pending.poll();
      latencySum += done[0] - done[1];
      if (i == 999) {
        firstNs = done[0];
      }
      lastNs = done[0];
      pending.add(new long[] {ssd.submit(done[0], random.nextLong(pages) * 128, 65536, false),
          done[0]});
    }
    // Channels could serve 8 × 4096 B / 40 µs = 819 MB/s, the link 490 MB/s: the link bounds.
    double rate = (n - 1000) * 65536.0 * 1e9 / (lastNs - firstNs);
    assertEquals(490e6, rate, 490e6 * 0.005);
    // Little's law: 32 in flight / (490e6 / 65536 per s) = 32 × 133,747 ns = 4.28 ms
    double meanLatency = (double) latencySum / n;
    assertEquals(32 * 133_747.0, meanLatency, 32 * 133_747.0 * 0.03);
    assertTrue(meanLatency > 15 * (80_000 + 133_747), "latency grows with the queue");
  }

  @Test
  void queueDepth_andTimeOrder_areEnforced() {
    Ssd ssd = new Ssd(S4500.withQueueDepth(2));
    long a = ssd.submit(0, 0, 4096, false);
    ssd.submit(0, 8, 4096, false);
    assertEquals(2, ssd.inFlight(0));
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> ssd.submit(10, 16, 4096, false));
    assertEquals("Ssd: command at t=10 ns with all 2 tags in flight", e.getMessage());
    // a tag frees at the first completion
    ssd.submit(a, 16, 4096, false);
    assertThrows(IllegalStateException.class, () -> ssd.submit(a - 1, 24, 4096, false));
    assertThrows(IllegalArgumentException.class,
        () -> ssd.submit(a, S4500.capacityBytes() / 512, 512, false));
  }

  @Test
  void params_rejectBadValuesNamingTheField() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> S4500.withChannels(0));
    assertEquals("channels must be in [1, 1024], was 0", e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> new SsdParams(1 << 20, 8, 490_000_000, 40_000, 40_000, 32, 3000));
    assertEquals("pageBytes must be a power of two in [512, 1048576], was 3000", e.getMessage());
  }

  @Test
  void busyIntervals_fillTheEarliestGapThatFits() {
    BusyIntervals b = new BusyIntervals();
    assertEquals(10, b.book(0, 10));   // [0, 10)
    assertEquals(30, b.book(20, 10));  // [20, 30)
    assertEquals(15, b.book(5, 5));    // [10, 15) fits before 20
    assertEquals(40, b.book(12, 10));  // [15, 25) would overlap [20, 30): [30, 40)
    assertEquals(20, b.book(15, 5));   // [15, 20) fits exactly
    b.forgetBefore(25);
    assertEquals(1, b.size());         // touching bookings are one interval: [0, 40)
    assertEquals(45, b.book(25, 5));   // so the next fits after it: [40, 45)
  }

  /** Merging touching bookings changes no result: checked against unmerged bookings. */
  @Test
  void busyIntervals_mergedGiveTheSameSlotsAsSeparateBookings() {
    sameSlotsAsSeparateBookings(7, 40, 12, 20_000);
  }

  /**
   * The same against hundreds of intervals held at once (bookings far ahead, gaps left): the
   * sorted arrays grow, reuse the room forgotten at their front, and insert in the middle.
   */
  @Test
  void busyIntervals_manyHeldIntervals_sameSlotsAsSeparateBookings() {
    sameSlotsAsSeparateBookings(13, 4_000, 9, 6_000);
  }

  private static void sameSlotsAsSeparateBookings(long seed, int readyAhead, int maxLen,
      int bookings) {
    BusyIntervals merged = new BusyIntervals();
    java.util.List<long[]> plain = new java.util.ArrayList<>();
    java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
    long now = 0;
    int maxHeld = 0;
    for (int i = 0; i < bookings; i++) {
      now += r.nextInt(3);
      long ready = now + r.nextInt(readyAhead);
      long d = 1 + r.nextInt(maxLen);
      // the earliest gap of d at or after ready among separate bookings
      long start = ready;
      boolean moved = true;
      while (moved) {
        moved = false;
        for (long[] iv : plain) {
          if (iv[0] < start + d && iv[1] > start) {
            start = iv[1];
            moved = true;
          }
        }
      }
      plain.add(new long[] {start, start + d});
      assertEquals(start + d, merged.book(ready, d), "booking " + i);
      final long t = now;
      plain.removeIf(iv -> iv[1] <= t);
      merged.forgetBefore(now);
      maxHeld = Math.max(maxHeld, merged.size());
    }
    assertTrue(maxHeld > (readyAhead > 1_000 ? 100 : 1), "intervals held at once: " + maxHeld);
  }

  /**
   * The write booking that defers a saturated channel's pages into one interval gives the same
   * completion times as booking every page on its own (the per-page greedy of earlier
   * versions, kept here as the reference), over mixes of reads and writes that leave gaps.
   */
  @Test
  void writes_bookedPerChannelAtTheTail_matchPerPageBooking() {
    SsdParams[] variants = {S4500, new SsdParams(1L << 30, 4, 490_000_000L, 3_000, 7_000, 8, 4096),
        new SsdParams(1L << 30, 3, 2_000_000_000L, 50_000, 0, 16, 512)};
    for (SsdParams params : variants) {
      Ssd ssd = new Ssd(params);
      BusyIntervals[] ch = new BusyIntervals[params.channels()];
      for (int i = 0; i < ch.length; i++) {
        ch[i] = new BusyIntervals();
      }
      BusyIntervals link = new BusyIntervals();
      PriorityQueue<Long> inFlight = new PriorityQueue<>();
      SplittableRandom r = new SplittableRandom(11);
      long now = 0;
      for (int n = 0; n < 30_000; n++) {
        now += r.nextInt(20_000);
        while (!inFlight.isEmpty() && inFlight.peek() <= now) {
          inFlight.poll();
        }
        if (inFlight.size() == params.queueDepth()) {
          now = inFlight.poll();
        }
        long bytes = 512L * (1 + r.nextInt(256));
        long sector = r.nextInt(1 << 20);
        boolean write = r.nextInt(4) != 0;
        for (BusyIntervals c : ch) {
          c.forgetBefore(now);
        }
        link.forgetBefore(now);
        long first = sector * 512 / params.pageBytes();
        long last = (sector * 512 + bytes - 1) / params.pageBytes();
        long done;
        if (write) {
          long linked = link.book(now, ssd.linkNs(bytes));
          done = linked;
          for (long p = first; p <= last; p++) {
            int best = 0;
            for (int i = 1; i < ch.length; i++) {
              if (ch[i].earliestStart(linked, params.writeLatencyNs())
                  < ch[best].earliestStart(linked, params.writeLatencyNs())) {
                best = i;
              }
            }
            done = Math.max(done, ch[best].book(linked, params.writeLatencyNs()));
          }
        } else {
          long read = now;
          for (long p = first; p <= last; p++) {
            read = Math.max(read, ch[(int) (p % ch.length)].book(now, params.readLatencyNs()));
          }
          done = link.book(read, ssd.linkNs(bytes));
        }
        inFlight.add(done);
        assertEquals(done, ssd.submit(now, sector, bytes, write), "command " + n + " of "
            + params);
      }
    }
  }
}
