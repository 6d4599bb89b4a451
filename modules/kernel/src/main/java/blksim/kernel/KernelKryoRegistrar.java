package blksim.kernel;

import blksim.engine.kryo.KryoRegistrar;
import blksim.kernel.block.Bio;
import blksim.kernel.block.ReqOp;
import blksim.kernel.sched.CpuTimer;
import blksim.kernel.sched.TaskWakeup;
import com.esotericsoftware.kryo.Kryo;

/**
 * Registers the kernel model's messages with Kryo, ids 1000-2999 (see {@link KryoRegistrar}).
 * Appended to {@code blksim.kryo.registrars} by this module's reference.conf.
 */
public final class KernelKryoRegistrar implements KryoRegistrar {

  @Override
  public void register(Kryo kryo) {
    KryoRegistrar.register(kryo, CpuTimer.class, 1000);
    KryoRegistrar.register(kryo, ReqOp.class, 1001);
    KryoRegistrar.register(kryo, Bio.class, 1002);
    KryoRegistrar.register(kryo, TaskWakeup.class, 1003);
  }
}
