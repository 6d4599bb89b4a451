package blksim.kernel.workqueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.kernel.topology.TopologyParams;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code kernel.wq-max-active}: a changed {@code alloc_workqueue()} call's max_active. */
class MaxActiveOverrideTest {
  static final int UNBOUND = Workqueue.WQ_UNBOUND | Workqueue.WQ_MEM_RECLAIM;

  static WorkqueueSystem.Builder builder(KernelMode mode, TopologyParams tp,
      String... entries) {
    List<MaxActiveOverride> o = java.util.Arrays.stream(entries).map(MaxActiveOverride::parse)
        .toList();
    return new WqHarness(tp, WorkqueueParams.defaults(mode).withMaxActiveOverrides(o)).builder;
  }

  @Test
  void parse_readsNameAndValue_andRefusesMalformedEntries() {
    assertEquals(new MaxActiveOverride("btrfs-endio-write", 768),
        MaxActiveOverride.parse("btrfs-endio-write=768"));
    for (String bad : List.of("btrfs", "=8", "x=", "x=eight", "x=0", "x=-1", "a*b=4", "*=4")) {
      assertThrows(IllegalArgumentException.class, () -> MaxActiveOverride.parse(bad), bad);
    }
  }

  @Test
  void exactNameAndPrefixGlob_replaceThePassedValue_firstMatchWins() {
    WorkqueueSystem.Builder b = builder(KernelMode.V6_9, WqHarness.cpus(4),
        "dmz_cwq_*=512", "dmz_cwq_b=16", "btrfs-endio-write=16");
    Workqueue a = b.allocWorkqueue("dmz_cwq_a", UNBOUND, 0);
    Workqueue bb = b.allocWorkqueue("dmz_cwq_b", UNBOUND, 0);
    Workqueue other = b.allocWorkqueue("dmz_fwq_a", UNBOUND, 0);
    Workqueue btrfs = b.allocWorkqueue("btrfs-endio-write", UNBOUND, 8);
    assertEquals(512, a.maxActive());
    assertEquals(512, bb.maxActive(), "the glob comes first");
    assertEquals(256, other.maxActive(), "not named: WQ_DFL_ACTIVE");
    assertEquals(16, btrfs.maxActive());
    assertEquals(8, btrfs.minActive(), "min_active = min(max_active, 8)");
    assertEquals(List.of("dmz_cwq_b=16"),
        b.unmatchedMaxActiveOverrides().stream().map(Object::toString).toList());
  }

  @Test
  void orderedWorkqueues_keepMaxActive1_andAreReportedUnmatched() {
    WorkqueueSystem.Builder b = builder(KernelMode.V6_9, WqHarness.cpus(4), "dmz_fwq=8");
    Workqueue fwq = b.allocOrderedWorkqueue("dmz_fwq", Workqueue.WQ_MEM_RECLAIM);
    assertEquals(1, fwq.maxActive());
    assertEquals(1, b.unmatchedMaxActiveOverrides().size());
  }

  @Test
  void clamp_followsWqClampMaxActive_ofEachMode() {
    // 96 CPUs: WQ_UNBOUND_MAX_ACTIVE before 6.5 is max(512, 4 x 96) = 512.
    assertEquals(512, KernelMode.PRE_6_5.wqMaxActiveLimit(true, 96));
    // 256 CPUs: 1024 for an unbound wq before 6.5, 512 for a per-CPU one and from 6.5.
    assertEquals(1024, KernelMode.PRE_6_5.wqMaxActiveLimit(true, 256));
    assertEquals(512, KernelMode.PRE_6_5.wqMaxActiveLimit(false, 256));
    assertEquals(512, KernelMode.V6_5_TO_6_8.wqMaxActiveLimit(true, 256));
    assertEquals(2048, KernelMode.V6_13.wqMaxActiveLimit(true, 8));
    TopologyParams big = new TopologyParams(1, 1, 1, 256, 1);
    assertEquals(768, builder(KernelMode.PRE_6_5, big, "w=768").allocWorkqueue("w", UNBOUND, 8)
        .maxActive());
    assertEquals(512, builder(KernelMode.V6_9, big, "w=768").allocWorkqueue("w", UNBOUND, 8)
        .maxActive(), "clamped as alloc_workqueue() clamps it");
    assertEquals(512, builder(KernelMode.PRE_6_5, big, "w=768").allocWorkqueue("w", 0, 8)
        .maxActive(), "a per-CPU wq: WQ_MAX_ACTIVE");
    assertFalse(new MaxActiveOverride("abc*", 1).matches("ab"));
    assertTrue(new MaxActiveOverride("abc*", 1).matches("abc"));
  }
}
