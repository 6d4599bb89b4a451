package blksim.kernel.workqueue;

/** One step of a {@link WorkScript}. */
public sealed interface WorkStep {

  /** A system-mode CPU burst of {@code ns}. */
  record Run(long ns) implements WorkStep {
    public Run {
      if (ns < 0) {
        throw new IllegalArgumentException("ns must be >= 0, was " + ns);
      }
    }
  }

  /** A blocking wait of {@code ns} (an I/O, a lock, a sleep): the worker sleeps. */
  record Sleep(long ns) implements WorkStep {
    public Sleep {
      if (ns < 0) {
        throw new IllegalArgumentException("ns must be >= 0, was " + ns);
      }
    }
  }

  /**
   * {@code queue_work()} of the item itself, on its workqueue: it runs again after this run. A
   * script with this step re-arms itself forever (a polling work); stop it from outside.
   */
  record Requeue() implements WorkStep {}

  /** {@code cond_resched()}. */
  record CondResched() implements WorkStep {}
}
