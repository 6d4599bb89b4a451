package blksim.kernel.iouring;

import static org.junit.jupiter.api.Assertions.assertEquals;

import blksim.kernel.block.Bio;
import blksim.kernel.block.BioEndIo;
import blksim.kernel.block.Errno;
import blksim.kernel.iouring.IoWqTest.InlineQueue;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.syscall.SystemCall;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Completion task work as Linux 6.4 runs it for fio's rings (DEFER_TASKRUN): a request that an
 * io-wq worker issued completes as work queued on the submitter ({@code io_complete_rw()} →
 * {@code io_req_local_work_add()}), which neither wakes nor interrupts a submitter that is not
 * waiting for CQEs; the CQE is posted by the submitter in its next {@code io_uring_enter()} with
 * GETEVENTS ({@code io_run_local_work_locked()}). Costs as in {@link IoWqActivationTest}.
 */
@Timeout(30)
class IoUringTaskWorkTest {
  @Test
  void aWorkersCompletion_isPostedByTheSubmitter_inItsNextEnter() {
    IoWqActivationTest.Fixture f = new IoWqActivationTest.Fixture();
    InlineQueue refusing = new InlineQueue() {
      @Override
      public boolean issue(Bio bio, BioEndIo endIo, Runnable onTagFree) {
        endIo.endIo(bio, bio.nowait() ? -Errno.EOPNOTSUPP : 0);
        return true;
      }
    };
    IoUringParams costs = IoWqActivationTest.COSTS;
    IoWq wq = new IoWq(f.cpu, c -> refusing, f.ring, costs, 1000, 4, 4, false);
    SubmitCall submit = new SubmitCall(f.sub, c -> refusing, f.ring, costs, wq);
    long[] seen = new long[10];
    f.sub.steps.add(c -> c.runFor(CpuMode.SYSTEM, wq.enqueue(IoWqTest.req(1))));
    // Sleep 100 us on a timer, not in the ring's wait: the worker serves request 1 meanwhile.
    f.sub.steps.add(c -> {
      seen[0] = f.sub.nvcsw();
      c.cpu().callAfter(100_000, () -> c.cpu().wake(f.sub));
      c.sleep();
    });
    f.sub.steps.add(c -> {
      seen[1] = f.sub.nvcsw() - seen[0];
      seen[2] = f.ring.ready();
      seen[3] = f.ring.taskWorkPending();
      seen[4] = wq.workers().get(0).stimeNs();
      c.runFor(CpuMode.SYSTEM, 0);
    });
    SystemCall[] call = new SystemCall[1];
    f.sub.steps.add(c -> {
      call[0] = submit.arm(List.of(IoWqTest.req(2)));
      seen[5] = c.now();
      call[0].step(c);
    });
    f.sub.steps.add(new java.util.function.Consumer<TaskCpu>() {
      @Override
      public void accept(TaskCpu c) {
        if (!call[0].step(c)) {
          f.sub.pc--;
          return;
        }
        seen[6] = c.now() - seen[5];
        seen[7] = f.ring.ready();
        seen[8] = f.ring.taskWorkPending();
        c.runFor(CpuMode.SYSTEM, 0);
      }
    });
    f.waitAndReap(2);
    f.run();
    assertEquals(1, seen[1], "one sleep: the timer's, the completion did not wake it");
    assertEquals(0, seen[2], "no CQE yet: the worker only queued task work");
    assertEquals(1, seen[3]);
    // The worker: one switch-in (1000) + worker-loop 500 + sqe-issue 1300 + submit cost 5000;
    // no CQE post.
    assertEquals(1_000 + 500 + 1_300 + 5_000, seen[4]);
    // The next submit: enter 300 + sqe-issue 1300 + submit cost 5000 + punt 1000 (the idle
    // worker is woken, nothing created) + one CQE post 200, request 1's.
    assertEquals(300 + 1_300 + 5_000 + 1_000 + 200, seen[6]);
    assertEquals(1, seen[7], "request 1's CQE, posted inside the submit call");
    assertEquals(0, seen[8]);
  }
}
