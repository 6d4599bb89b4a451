package blksim.kernel.sched;

/** Which mode CPU time is charged to: user ({@code utime}) or system ({@code stime}). */
public enum CpuMode {
  USER,
  SYSTEM
}
