package blksim.kernel.device;

/**
 * How a rotational disk chooses the next command among those queued in its NCQ tags
 * (kernel-model.md §15.2, "the drive serves the queued command with the shortest positioning
 * time" [A]). The choice is the drive firmware's, not the kernel's; the kernel only decides what
 * is queued ({@code ata_qc_issue()} hands each tagged command to the drive).
 */
public enum NcqPolicy {
  /** Shortest positioning time first: least seek plus rotational latency; ties by arrival. */
  SPTF,
  /** Arrival order: the oldest queued command is served first (NCQ off in effect). */
  FIFO
}
