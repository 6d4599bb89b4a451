package blksim.kernel.topology;

/**
 * One logical CPU (a hardware thread) and where it sits: socket, NUMA node, last-level cache and
 * SMT core. These fields decide workqueue pods and wakeup placement (kernel-model.md §1.1).
 *
 * @param id the CPU number as Linux numbers it
 * @param socket physical package
 * @param node NUMA node
 * @param llc last-level cache domain (global numbering)
 * @param core SMT core (global numbering); siblings share it
 */
public record Cpu(int id, int socket, int node, int llc, int core) {}
