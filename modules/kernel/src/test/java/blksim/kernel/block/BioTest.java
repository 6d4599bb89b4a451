package blksim.kernel.block;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BioTest {

  @Test
  void pageCount_countsThe4kPagesTheRangeTouches() {
    assertEquals(0, new Bio(ReqOp.FLUSH, 0, 0, 0).pageCount());
    assertEquals(1, new Bio(ReqOp.READ, 0, 512, 0).pageCount());
    assertEquals(1, new Bio(ReqOp.READ, 0, 4096, 0).pageCount());
    assertEquals(16, new Bio(ReqOp.READ, 8, 65536, 0).pageCount());
    assertEquals(2, new Bio(ReqOp.READ, 7, 1024, 0).pageCount(), "sectors 7 and 8 straddle");
    assertEquals(2, new Bio(ReqOp.READ, 1, 4096, 0).pageCount());
    assertEquals(3, new Bio(ReqOp.READ, 17, 512, 0).firstPage() + 1);
  }

  @Test
  void nowait_readsTheReqNowaitFlag() {
    assertTrue(new Bio(ReqOp.READ, 0, 4096, Bio.REQ_NOWAIT | Bio.REQ_SYNC).nowait());
    assertFalse(new Bio(ReqOp.READ, 0, 4096, Bio.REQ_SYNC).nowait());
    assertTrue(new Bio(ReqOp.READ, 0, 4096, Bio.REQ_RAHEAD).hasFlag(Bio.REQ_RAHEAD));
  }
}
