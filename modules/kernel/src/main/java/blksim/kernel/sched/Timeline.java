package blksim.kernel.sched;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.TreeSet;

/**
 * The queued entities of a {@code cfs_rq} (its {@code tasks_timeline} rb-tree) in the order of
 * a comparator: a plain field while it holds one task, a {@link TreeSet} from two.
 *
 * <p>Why: on a CPU whose one task sleeps and wakes per I/O (one fio job per CPU), every wakeup
 * put the task into the tree and the pick took it out again: a tree entry allocated, the tree's
 * object, its root and the comparator's lambdas touched, per event. With 1,024 CPUs these lines
 * were cache misses (issue 15 item 1). The order of the entities, and so every pick, is the same
 * as the tree alone gives.
 *
 * <p>As for the kernel's tree, an entity's sort keys must not change while it is queued. Owned
 * by one run queue.
 */
final class Timeline implements Iterable<Task> {
  private final TreeSet<Task> tree;
  /** The only queued task while the tree is empty, else null. */
  private Task only;

  Timeline(Comparator<Task> order) {
    this.tree = new TreeSet<>(order);
  }

  /** Queues {@code t} (not queued yet). */
  void add(Task t) {
    if (only == null && tree.isEmpty()) {
      only = t;
      return;
    }
    if (only != null) {
      tree.add(only);
      only = null;
    }
    tree.add(t);
  }

  /** Takes {@code t} out; false if it was not queued. */
  boolean remove(Task t) {
    if (only != null) {
      if (only != t) {
        return false;
      }
      only = null;
      return true;
    }
    if (!tree.remove(t)) {
      return false;
    }
    if (tree.size() == 1) {
      only = tree.pollFirst();
    }
    return true;
  }

  /** Whether {@code t} is queued. */
  boolean contains(Task t) {
    return only != null ? only == t : tree.contains(t);
  }

  boolean isEmpty() {
    return only == null && tree.isEmpty();
  }

  /** The leftmost task (null when empty). */
  Task first() {
    if (only != null) {
      return only;
    }
    return tree.isEmpty() ? null : tree.first();
  }

  /** The task when exactly one is queued, else null (no iterator needed). */
  Task single() {
    return only;
  }

  /** The queued tasks, in order. */
  List<Task> toList() {
    if (only != null) {
      List<Task> l = new ArrayList<>(1);
      l.add(only);
      return l;
    }
    return new ArrayList<>(tree);
  }

  /** The queued tasks in order (not to be changed while iterating). */
  @Override
  public Iterator<Task> iterator() {
    return only != null ? List.of(only).iterator() : tree.iterator();
  }
}
