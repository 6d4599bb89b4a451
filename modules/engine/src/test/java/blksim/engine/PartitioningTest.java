package blksim.engine;

import static blksim.engine.TestModels.component;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PartitioningTest {

  /** 8 CPUs (2 nodes x 2 LLCs x 2 CPUs), a node-1 component and a machine-wide one. */
  private static List<Component> machine() {
    List<Component> cs = new ArrayList<>();
    for (int cpu = 0; cpu < 8; cpu++) {
      cs.add(component("cpu/" + cpu, new Locality(cpu / 4, cpu / 2, cpu), false));
    }
    cs.add(component("node1/pool", new Locality(1, -1, -1), false));
    cs.add(component("dev/nullb0", Locality.MACHINE, false));
    return cs;
  }

  @Test
  void one_placesEverythingInPartitionZero() {
    assertArrayEquals(new int[10], Partitioning.parse("one").place(machine()));
    assertEquals(Partitioning.ONE, Partitioning.parse("1"));
  }

  @Test
  void node_placesByNumaNode_nodeComponentsFollowTheirNode() {
    assertArrayEquals(new int[] {0, 0, 0, 0, 1, 1, 1, 1, 1, 0},
        Partitioning.parse("node").place(machine()));
  }

  @Test
  void llc_placesByLlc() {
    assertArrayEquals(new int[] {0, 0, 1, 1, 2, 2, 3, 3, 2, 0},
        Partitioning.parse("llc").place(machine()));
  }

  @Test
  void cpu_placesOnePartitionPerCpu() {
    assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5, 6, 7, 4, 0},
        Partitioning.parse("cpu").place(machine()));
  }

  @Test
  void count_splitsCpusIntoContiguousBlocks() {
    assertArrayEquals(new int[] {0, 0, 0, 1, 1, 1, 2, 2, 1, 0},
        Partitioning.parse("3").place(machine()));
    assertEquals("3", Partitioning.parse(" 3 ").toString());
  }

  @Test
  void badChoice_isRefusedWithTheRule() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Partitioning.parse("numa"));
    assertEquals("partitions must be one|node|llc|cpu or a number N >= 1, was 'numa'",
        e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Partitioning.parse("0"));
  }
}
