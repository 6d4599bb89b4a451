package blksim.kernel.iouring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

/** libaio's own per-iocb cost ({@code costs.aio.iocb-submit}) in place of io_uring's per SQE. */
class IoUringParamsLibaioTest {
  @Test
  void forLibaio_swapsThePerRequestCost_only() {
    IoUringParams p = new IoUringParams(300, 1300, 200, 1000, 50_000, 500, 5_000_000_000L, 900);
    IoUringParams a = p.forLibaio();
    assertEquals(900, a.sqeIssueNs());
    assertEquals(300, a.enterNs());
    assertEquals(200, a.cqePostNs());
    assertEquals(1300, p.sqeIssueNs(), "io_uring keeps its own");
    // Without a key of its own libaio pays what it paid before: io_uring's per-SQE cost.
    IoUringParams old = new IoUringParams(300, 1300, 200, 1000, 50_000, 500);
    assertSame(old, old.forLibaio());
    assertEquals(1300, old.aioIocbNs());
  }
}
