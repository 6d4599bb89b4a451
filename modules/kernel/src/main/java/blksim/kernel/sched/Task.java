package blksim.kernel.sched;

/**
 * A schedulable entity: a user thread (a fio job), a kthread, a kworker, an io-wq worker.
 *
 * <p>A task is a state machine the CPU drives: whenever the task holds the CPU and its previous
 * step ended, the CPU calls {@link #step}, and the task answers with exactly one action through
 * the {@link TaskCpu}: run for some time in user or system mode, go to sleep, or exit. It is woken
 * by {@link CpuComponent#wake}. Accounting mirrors {@code getrusage(RUSAGE_THREAD)}: user and
 * system time of this task only, voluntary and involuntary context switches.
 *
 * <p>Owned by the {@link CpuComponent} it runs on; in this model a task never migrates.
 */
public abstract class Task {
  private final String comm;
  private final int pid;
  private final int nice;
  TaskState state = TaskState.RUNNING;
  long utimeNs;
  long stimeNs;
  long nvcsw;
  long nivcsw;

  /**
   * @param comm the task's name as {@code ps} shows it
   * @param pid its thread id
   * @param nice its nice value, -20..19
   */
  protected Task(String comm, int pid, int nice) {
    if (nice < -20 || nice > 19) {
      throw new IllegalArgumentException("nice must be in [-20, 19], was " + nice);
    }
    this.comm = comm;
    this.pid = pid;
    this.nice = nice;
  }

  /** Called on the CPU when the task may act; must call exactly one action of {@code cpu}. */
  protected abstract void step(TaskCpu cpu);

  /** Whether the run lasts until this task exits (fio jobs: yes; kernel threads: no). */
  public boolean keepsRunAlive() {
    return false;
  }

  /** The task's results at the end of the run, or {@code null}. */
  public TaskReport report(long endNs) {
    return null;
  }

  /** The task's name. */
  public String comm() {
    return comm;
  }

  /** The task's thread id. */
  public int pid() {
    return pid;
  }

  /** The task's nice value. */
  public int nice() {
    return nice;
  }

  /** RUNNING, BLOCKED or DEAD. */
  public TaskState state() {
    return state;
  }

  /** User time consumed, ns (ru_utime). */
  public long utimeNs() {
    return utimeNs;
  }

  /** System time consumed, ns (ru_stime). */
  public long stimeNs() {
    return stimeNs;
  }

  /** Voluntary context switches (ru_nvcsw): the task blocked. */
  public long nvcsw() {
    return nvcsw;
  }

  /** Involuntary context switches (ru_nivcsw): the task was preempted while runnable. */
  public long nivcsw() {
    return nivcsw;
  }
}
