package blksim.kernel;

import blksim.engine.kryo.KryoRegistrar;
import blksim.kernel.block.Bio;
import blksim.kernel.block.ReqOp;
import blksim.kernel.sched.CpuTimer;
import blksim.kernel.sched.TaskWakeup;
import blksim.kernel.workqueue.WorkRef;
import blksim.kernel.workqueue.WorkScript;
import blksim.kernel.workqueue.WorkStep;
import blksim.kernel.workqueue.WqMessage;
import blksim.kernel.workqueue.WqMonitorSnapshot;
import com.esotericsoftware.kryo.Kryo;

/**
 * Registers the kernel model's messages with Kryo, ids 1000-2999 (see {@link KryoRegistrar}).
 * Appended to {@code blksim.kryo.registrars} by this module's reference.conf.
 */
public final class KernelKryoRegistrar implements KryoRegistrar {

  @Override
  public void register(Kryo kryo) {
    KryoRegistrar.register(kryo, CpuTimer.class, 1000, new CpuTimerSerializer());
    KryoRegistrar.register(kryo, ReqOp.class, 1001);
    KryoRegistrar.register(kryo, Bio.class, 1002);
    KryoRegistrar.register(kryo, TaskWakeup.class, 1003);
    // Workqueues (blksim.kernel.workqueue), ids 1100-1139.
    KryoRegistrar.register(kryo, WqMessage.QueueWork.class, 1100);
    KryoRegistrar.register(kryo, WqMessage.QueueAtHome.class, 1101);
    KryoRegistrar.register(kryo, WqMessage.RunWork.class, 1102);
    KryoRegistrar.register(kryo, WqMessage.WorkDone.class, 1103);
    KryoRegistrar.register(kryo, WqMessage.WorkStarted.class, 1104);
    KryoRegistrar.register(kryo, WqMessage.WorkFinished.class, 1105);
    KryoRegistrar.register(kryo, WqMessage.SpawnWorker.class, 1106);
    KryoRegistrar.register(kryo, WqMessage.WorkerReady.class, 1107);
    KryoRegistrar.register(kryo, WqMessage.Flush.class, 1108);
    KryoRegistrar.register(kryo, WqMessage.FlushDone.class, 1109);
    KryoRegistrar.register(kryo, WqMessage.HostTimer.class, 1110);
    KryoRegistrar.register(kryo, WqMessage.Sample.class, 1111);
    KryoRegistrar.register(kryo, WqMessage.DestroyWorker.class, 1112);
    KryoRegistrar.register(kryo, WorkRef.class, 1120);
    KryoRegistrar.register(kryo, WorkScript.class, 1121);
    KryoRegistrar.register(kryo, WorkStep.Run.class, 1122);
    KryoRegistrar.register(kryo, WorkStep.Sleep.class, 1123);
    KryoRegistrar.register(kryo, WorkStep.Requeue.class, 1124);
    KryoRegistrar.register(kryo, WorkStep.CondResched.class, 1125);
    KryoRegistrar.register(kryo, WqMonitorSnapshot.class, 1130);
    KryoRegistrar.register(kryo, WqMonitorSnapshot.Row.class, 1131);
    // Memory management (blksim.kernel.mm), ids 1200-1219.
    KryoRegistrar.register(kryo, blksim.kernel.mm.MmComponent.VmstatTick.class, 1200);
    // Sleeping locks' optimistic spinning (blksim.kernel.locking), ids 1300-1309.
    KryoRegistrar.register(kryo, blksim.kernel.sched.CpuComponent.SpinStop.class, 1300);
    // Load balancing above the LLC (blksim.kernel.sched.CrossLlcMessages), ids 1460-1469; the
    // messages carrying a Task never cross partitions of the cluster host.
    KryoRegistrar.register(kryo, blksim.kernel.sched.CrossLlcMessages.LlcSummary.class, 1460);
    KryoRegistrar.register(kryo, blksim.kernel.sched.CrossLlcMessages.PullRequest.class, 1461);
    KryoRegistrar.register(kryo, blksim.kernel.sched.CrossLlcMessages.PullReply.class, 1462);
    KryoRegistrar.register(kryo, blksim.kernel.sched.CrossLlcMessages.NohzKick.class, 1463);
  }

  /** A {@link CpuTimer} is its slot (the armed callback never leaves the CPU's partition). */
  private static final class CpuTimerSerializer
      extends com.esotericsoftware.kryo.Serializer<CpuTimer> {
    @Override
    public void write(Kryo kryo, com.esotericsoftware.kryo.io.Output out, CpuTimer t) {
      out.writeVarInt(t.slot(), true);
    }

    @Override
    public CpuTimer read(Kryo kryo, com.esotericsoftware.kryo.io.Input in,
        Class<? extends CpuTimer> type) {
      return new CpuTimer(in.readVarInt(true));
    }
  }
}
