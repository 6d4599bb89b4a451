package blksim.engine.kryo;

import blksim.engine.ComponentReport;
import blksim.engine.Event;
import blksim.engine.IndexedReport;
import blksim.engine.Message;
import blksim.engine.pekko.PartitionEntity;
import blksim.engine.pekko.PartitionError;
import blksim.engine.pekko.RunCoordinator;
import blksim.engine.synthetic.Ping;
import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import java.util.ArrayList;
import java.util.List;

/**
 * The engine's Kryo registrations, ids 100 to 999: events and reports, the protocol messages of
 * {@link PartitionEntity} and {@link RunCoordinator}, the synthetic workload's {@link Ping}, and
 * the JDK types they hold. The order and ids are part of the wire format; add new classes at the
 * end of a group with a fresh id, never renumber.
 */
public final class EngineKryoRegistrar implements KryoRegistrar {

  /** Creates the registrar (instantiated by name from {@code blksim.kryo.registrars}). */
  public EngineKryoRegistrar() {}

  @Override
  public void register(Kryo kryo) {
    // JDK types held by engine records.
    KryoRegistrar.register(kryo, byte[].class, 100);
    KryoRegistrar.register(kryo, long[].class, 101);
    KryoRegistrar.register(kryo, int[].class, 102);
    KryoRegistrar.register(kryo, String[].class, 103);
    KryoRegistrar.register(kryo, ArrayList.class, 104);
    ImmutableListSerializer lists = new ImmutableListSerializer();
    KryoRegistrar.register(kryo, List.of().getClass(), 105, lists);
    KryoRegistrar.register(kryo, List.of(1).getClass(), 106, lists);
    // Engine core.
    KryoRegistrar.register(kryo, Event.class, 120, new EventSerializer());
    KryoRegistrar.register(kryo, ComponentReport.class, 121);
    KryoRegistrar.register(kryo, IndexedReport.class, 122);
    // Partition entity protocol.
    KryoRegistrar.register(kryo, PartitionEntity.Init.class, 140);
    KryoRegistrar.register(kryo, PartitionEntity.Start.class, 141);
    KryoRegistrar.register(kryo, PartitionEntity.RunWindow.class, 142);
    KryoRegistrar.register(kryo, PartitionEntity.Chunk.class, 143, new ChunkSerializer());
    KryoRegistrar.register(kryo, PartitionEntity.Probe.class, 144);
    KryoRegistrar.register(kryo, PartitionEntity.GetLiveComponents.class, 145);
    KryoRegistrar.register(kryo, PartitionEntity.CollectReports.class, 146);
    KryoRegistrar.register(kryo, PartitionEntity.Stop.class, 147);
    KryoRegistrar.register(kryo, PartitionEntity.WindowMark.class, 148);
    // Run coordinator protocol.
    KryoRegistrar.register(kryo, RunCoordinator.Ready.class, 160);
    KryoRegistrar.register(kryo, RunCoordinator.WindowDone.class, 161);
    KryoRegistrar.register(kryo, RunCoordinator.Failed.class, 162);
    KryoRegistrar.register(kryo, RunCoordinator.Status.class, 163);
    KryoRegistrar.register(kryo, RunCoordinator.LiveComponents.class, 164);
    KryoRegistrar.register(kryo, RunCoordinator.Reports.class, 165);
    KryoRegistrar.register(kryo, PartitionError.class, 166);
    KryoRegistrar.register(kryo, PartitionError.Type.class, 167);
    // Synthetic workload.
    KryoRegistrar.register(kryo, Ping.class, 200);
  }

  /** An event written field by field, its message with its class id. */
  static final class EventSerializer extends Serializer<Event> {
    EventSerializer() {
      super(false, true);
    }

    @Override
    public void write(Kryo kryo, Output out, Event e) {
      writeEvent(kryo, out, e);
    }

    @Override
    public Event read(Kryo kryo, Input in, Class<? extends Event> type) {
      return readEvent(kryo, in);
    }

    static void writeEvent(Kryo kryo, Output out, Event e) {
      out.writeVarLong(e.time(), true);
      out.writeVarInt(e.target(), true);
      out.writeVarInt(e.sender(), true);
      out.writeVarLong(e.seq(), true);
      kryo.writeClassAndObject(out, e.message());
    }

    static Event readEvent(Kryo kryo, Input in) {
      long time = in.readVarLong(true);
      int target = in.readVarInt(true);
      int sender = in.readVarInt(true);
      long seq = in.readVarLong(true);
      return new Event(time, target, sender, seq, (Message) kryo.readClassAndObject(in));
    }
  }

  /** A chunk of a window batch: header, then its events; reads back into an ArrayList. */
  static final class ChunkSerializer extends Serializer<PartitionEntity.Chunk> {
    ChunkSerializer() {
      super(false, true);
    }

    @Override
    public void write(Kryo kryo, Output out, PartitionEntity.Chunk c) {
      out.writeVarLong(c.window(), true);
      out.writeVarInt(c.from(), true);
      out.writeVarInt(c.seq(), true);
      out.writeVarInt(c.chunks(), true);
      List<Event> events = c.events();
      int n = events.size();
      out.writeVarInt(n, true);
      for (int i = 0; i < n; i++) {
        EventSerializer.writeEvent(kryo, out, events.get(i));
      }
    }

    @Override
    public PartitionEntity.Chunk read(Kryo kryo, Input in,
        Class<? extends PartitionEntity.Chunk> type) {
      long window = in.readVarLong(true);
      int from = in.readVarInt(true);
      int seq = in.readVarInt(true);
      int chunks = in.readVarInt(true);
      int n = in.readVarInt(true);
      List<Event> events = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        events.add(EventSerializer.readEvent(kryo, in));
      }
      return new PartitionEntity.Chunk(window, from, seq, chunks, events);
    }
  }

  /** {@code List.of(...)} lists: written as size and elements, read back with List.of. */
  static final class ImmutableListSerializer extends Serializer<List<Object>> {
    ImmutableListSerializer() {
      super(false, true);
    }

    @Override
    public void write(Kryo kryo, Output out, List<Object> list) {
      out.writeVarInt(list.size(), true);
      for (Object o : list) {
        kryo.writeClassAndObject(out, o);
      }
    }

    @Override
    public List<Object> read(Kryo kryo, Input in, Class<? extends List<Object>> type) {
      int n = in.readVarInt(true);
      Object[] a = new Object[n];
      for (int i = 0; i < n; i++) {
        a[i] = kryo.readClassAndObject(in);
      }
      return List.of(a);
    }
  }
}
