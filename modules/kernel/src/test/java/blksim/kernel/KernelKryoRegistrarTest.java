package blksim.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import blksim.engine.Event;
import blksim.engine.kryo.KryoRoundTrip;
import blksim.kernel.block.Bio;
import blksim.kernel.block.ReqOp;
import blksim.kernel.sched.CpuTimer;
import blksim.kernel.sched.TaskWakeup;
import org.junit.jupiter.api.Test;

class KernelKryoRegistrarTest {

  @Test
  void everyKernelMessage_survivesAKryoRoundTrip() {
    for (Object m : new Object[] {new CpuTimer(17), new TaskWakeup(5),
        new blksim.kernel.sched.CpuComponent.SpinStop(9L), ReqOp.DISCARD,
        new Bio(ReqOp.WRITE, 123_456L, 65_536, Bio.REQ_SYNC | Bio.REQ_NOWAIT)}) {
      assertEquals(m, KryoRoundTrip.standalone(m));
    }
  }

  @Test
  void kernelMessageInsideAnEvent_survivesAKryoRoundTrip() {
    Event e = new Event(1_000L, 3, 4, 99L, new CpuTimer(2));
    assertEquals(e, KryoRoundTrip.standalone(e));
  }
}
