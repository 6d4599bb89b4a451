package blksim.kernel.locking;

import blksim.kernel.topology.Cpu;

/**
 * The hand-off costs of a contended {@link SpinLock}: the time for the lock's cache line (and
 * the next MCS node's) to move from the releasing CPU to the next waiter, by their distance.
 * All [A], assumed: cache-to-cache transfer latencies of this order (tens of ns between cores of
 * one die, about 100 ns between dies or LLC domains of a socket, 150-300 ns across sockets) are
 * measured in T. David, R. Guerraoui, V. Trigonakis, "Everything you always wanted to know about
 * synchronization but were afraid to ask", SOSP 2013 (cache-line transfer latencies and their
 * effect on lock hand-offs); the within-socket value matches {@link LockParams#spinNoticeNs}'s
 * 100 ns. Profile keys {@code costs.spinlock.handoff-*} override them.
 *
 * @param smtNs between SMT siblings of a core (the line stays in the shared L1/L2)
 * @param llcNs between cores of one LLC
 * @param nodeNs between LLCs of one NUMA node
 * @param remoteNodeNs between nodes of one socket
 * @param socketNs between sockets
 */
public record SpinLockParams(long smtNs, long llcNs, long nodeNs, long remoteNodeNs,
    long socketNs) {

  /** The defaults: 15, 50, 100, 150, 250 ns. */
  public static final SpinLockParams DEFAULT = new SpinLockParams(15, 50, 100, 150, 250);

  /** Validates. */
  public SpinLockParams {
    if (smtNs < 0 || llcNs < 0 || nodeNs < 0 || remoteNodeNs < 0 || socketNs < 0) {
      throw new IllegalArgumentException("spinlock hand-off costs must be >= 0");
    }
  }

  /** The hand-off from {@code from} (null: none yet) to {@code to}. */
  public long handoffNs(Cpu from, Cpu to) {
    if (from == null || from.id() == to.id()) {
      return 0;
    }
    if (from.socket() != to.socket()) {
      return socketNs;
    }
    if (from.node() != to.node()) {
      return remoteNodeNs;
    }
    if (from.llc() != to.llc()) {
      return nodeNs;
    }
    if (from.core() != to.core()) {
      return llcNs;
    }
    return smtNs;
  }
}
