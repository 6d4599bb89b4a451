package blksim.kernel.workqueue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What one owner of workqueue state (a {@link WorkqueueCpu} or an {@link UnboundPoolHost}) knows
 * at a virtual time: its share of every wq's counters, the state of the pools it owns, and its
 * node counters. The sum over all owners is the machine's wq_monitor and wq_dump state
 * ({@link WorkqueueSystem#snapshot}). Deterministic encoding, so it travels in a
 * {@link blksim.engine.ComponentReport} (a host's report) or as a task report inside a CPU's.
 *
 * @param owner the owner's component id
 * @param timeNs the virtual time
 * @param counters {@code [wqId * PWQ_NR_STATS + stat]}
 * @param pools the pools it owns
 * @param nodeNrActive its {@code wq_node_nr_active} counters (6.9+)
 */
public record WqOwnerReport(String owner, long timeNs, long[] counters, List<PoolState> pools,
    List<NnaState> nodeNrActive) {

  /** The report kind of a host's {@link blksim.engine.ComponentReport}. */
  public static final String KIND = "wq-owner";
  /** The name and kind of the task report a CPU appends to its own. */
  public static final String TASK_NAME = "workqueue";

  /**
   * One pool: wq_dump's {@code idle/workers}.
   *
   * @param id pool id
   * @param nrWorkers workers
   * @param nrIdle idle workers
   */
  public record PoolState(int id, int nrWorkers, int nrIdle) {}

  /**
   * One {@code wq_node_nr_active}: wq_dump's {@code nr/max}.
   *
   * @param wqId the workqueue
   * @param node its node, {@code NUMA_NO_NODE} for the default counter
   * @param nr slots in use
   * @param max the cap
   */
  public record NnaState(int wqId, int node, int nr, int max) {}

  /** Encodes this report deterministically. */
  public byte[] encode() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeUTF(owner);
      out.writeLong(timeNs);
      out.writeInt(counters.length);
      for (long c : counters) {
        out.writeLong(c);
      }
      out.writeInt(pools.size());
      for (PoolState p : pools) {
        out.writeInt(p.id());
        out.writeInt(p.nrWorkers());
        out.writeInt(p.nrIdle());
      }
      out.writeInt(nodeNrActive.size());
      for (NnaState n : nodeNrActive) {
        out.writeInt(n.wqId());
        out.writeInt(n.node());
        out.writeInt(n.nr());
        out.writeInt(n.max());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /** Decodes a report written by {@link #encode}. */
  public static WqOwnerReport decode(byte[] payload) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload))) {
      String owner = in.readUTF();
      long t = in.readLong();
      long[] counters = new long[in.readInt()];
      for (int i = 0; i < counters.length; i++) {
        counters[i] = in.readLong();
      }
      int np = in.readInt();
      List<PoolState> pools = new ArrayList<>(np);
      for (int i = 0; i < np; i++) {
        pools.add(new PoolState(in.readInt(), in.readInt(), in.readInt()));
      }
      int nn = in.readInt();
      List<NnaState> nnas = new ArrayList<>(nn);
      for (int i = 0; i < nn; i++) {
        nnas.add(new NnaState(in.readInt(), in.readInt(), in.readInt(), in.readInt()));
      }
      return new WqOwnerReport(owner, t, counters, pools, nnas);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
