package blksim.workload.shell;

import blksim.kernel.fs.Filesystem;
import blksim.kernel.fs.VfsCalls;
import blksim.kernel.sched.CpuComponent;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.sched.TaskReport;
import blksim.kernel.syscall.SystemCall;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The task that runs a scenario's {@code commands} one after another once every workload task
 * (fio job, fs_mark instance) has exited, as a shell script's commands after {@code wait}.
 *
 * <p>Each command pays a {@code fork()} + {@code exec()} of the tool before its system call
 * ({@code costs.shell.exec}, charged as the task's system time) and then makes the call through
 * {@link VfsCalls}: {@code sync()}, {@code syncfs()}, {@code umount()}, or sleeps on an hrtimer.
 * A failing command prints the tool's message and the script goes on, as without
 * {@code set -e}.
 *
 * <p>Simplified: the shell and the tools it runs are one task (the tool's process is not a task
 * of its own, so its time is this task's); {@code time}'s user and sys are that task's over the
 * command.
 */
public final class ShellTask extends Task {
  /** The {@link TaskReport#kind()} of its report. */
  public static final String KIND = "shell";

  private final List<ShellCommand> commands;
  private final VfsCalls calls;
  private final long execNs;
  private final List<ShellReport.Result> results = new ArrayList<>();
  private int waitingFor;
  private int next;
  private boolean started;
  private boolean execPaid;
  private SystemCall call;
  private boolean sleeping;
  private boolean slept;
  private long startNs;
  private long startUser;
  private long startSys;

  /**
   * @param pid the shell's pid
   * @param commands the commands, in order
   * @param calls makes this task's VFS calls (null when the scenario has no page cache; then
   *     only {@code sleep} may run, which the loader checks)
   * @param execNs the fork and exec of one command, ns
   */
  public ShellTask(int pid, List<ShellCommand> commands, Function<Task, VfsCalls> calls,
      long execNs) {
    super("sh", pid, 0);
    this.commands = List.copyOf(commands);
    this.calls = calls == null ? null : calls.apply(this);
    this.execNs = execNs;
  }

  /**
   * Makes the shell wait for {@code t}'s exit before its first command; call before the run.
   * {@code cpu} is the shell's CPU, to be woken on.
   */
  public void waitFor(Task t, CpuComponent cpu) {
    waitingFor++;
    t.setExitListener(() -> {
      if (--waitingFor == 0) {
        cpu.wake(this);
      }
    });
  }

  @Override
  public boolean keepsRunAlive() {
    return true;
  }

  @Override
  protected void step(TaskCpu cpu) {
    while (true) {
      if (waitingFor > 0) {
        cpu.sleep();
        return;
      }
      if (next >= commands.size()) {
        cpu.exit();
        return;
      }
      ShellCommand c = commands.get(next);
      if (!started) {
        started = true;
        execPaid = false;
        call = null;
        slept = false;
        startNs = cpu.now();
        startUser = utimeNs();
        startSys = stimeNs();
      }
      if (!execPaid) {
        execPaid = true;
        cpu.runFor(CpuMode.SYSTEM, execNs);
        return;
      }
      long ret;
      if (c.kind() == ShellCommand.Kind.SLEEP) {
        if (!slept) {
          slept = true;
          sleeping = true;
          CpuComponent home = cpu.cpu();
          home.callAfter(c.sleepNs(), () -> {
            sleeping = false;
            home.wake(this);
          });
          cpu.sleep();
          return;
        }
        if (sleeping) {
          cpu.sleep();
          return;
        }
        ret = 0;
      } else {
        if (call == null) {
          call = switch (c.kind()) {
            case SYNC -> calls.sync();
            case SYNCFS -> calls.syncfs(c.argument());
            case UMOUNT -> calls.umount(c.argument());
            default -> throw new IllegalStateException(c.kind().name());
          };
        }
        if (!call.step(cpu)) {
          return;
        }
        ret = call.ret();
      }
      String detail = "";
      if (c.kind() == ShellCommand.Kind.UMOUNT && ret == 0 && calls.lastUnmount() != null) {
        detail = unmountJson(calls.lastUnmount());
      }
      results.add(new ShellReport.Result(c.text(), c.timed(), startNs, cpu.now(),
          utimeNs() - startUser, stimeNs() - startSys, ret < 0 ? 1 : 0, message(c, ret),
          detail));
      started = false;
      next++;
    }
  }

  /**
   * An unmount's stages (the XFS log's bios: REQ_PREFLUSH and REQ_FUA counts, bytes, times) and
   * its page-cache samples, as JSON members.
   */
  static String unmountJson(VfsCalls.UnmountReport u) {
    StringBuilder sb = new StringBuilder("\"stages\" : [");
    for (int i = 0; i < u.stages().size(); i++) {
      blksim.kernel.fs.XfsLog.Stage st = u.stages().get(i);
      sb.append(i == 0 ? "\n" : ",\n").append(String.format(java.util.Locale.ROOT,
          "{ \"name\" : \"%s\", \"start_ns\" : %d, \"end_ns\" : %d, \"bios\" : %d,"
              + " \"preflush\" : %d, \"fua\" : %d, \"bytes\" : %d,"
              + " \"dirty_bytes_at_start\" : %d }",
          st.name(), st.startNs(), st.endNs(), st.bios(), st.preflush(), st.fua(), st.bytes(),
          st.dirtyPagesAtStart() * Filesystem.PAGE_SIZE));
    }
    sb.append("\n],\n\"samples\" : [");
    for (int i = 0; i < u.samples().size(); i++) {
      long[] x = u.samples().get(i);
      sb.append(i == 0 ? "\n" : ",\n").append(String.format(java.util.Locale.ROOT,
          "{ \"t_ns\" : %d, \"dirty_bytes\" : %d, \"writeback_bytes\" : %d,"
              + " \"written_bytes\" : %d }", x[0], x[1], x[2], x[3]));
    }
    return sb.append("\n]").toString();
  }

  /** What the tool prints for a failed call, as coreutils and util-linux word it. */
  static String message(ShellCommand c, long ret) {
    if (ret >= 0) {
      return "";
    }
    String what = switch ((int) -ret) {
      case Filesystem.EBUSY -> "target is busy.";
      case Filesystem.EINVAL -> "not mounted.";
      case Filesystem.ENOENT -> "No such file or directory";
      default -> "error " + (-ret);
    };
    return switch (c.kind()) {
      case UMOUNT -> "umount: " + c.argument() + ": " + what;
      case SYNCFS -> "sync: error opening '" + c.argument() + "': " + what;
      default -> c.text() + ": " + what;
    };
  }

  /** The commands' outcomes so far (those not finished by the end of the run included). */
  public ShellReport result(long endNs) {
    List<ShellReport.Result> out = new ArrayList<>(results);
    if (started && next < commands.size()) {
      ShellCommand c = commands.get(next);
      out.add(new ShellReport.Result(c.text(), c.timed(), startNs, -1, utimeNs() - startUser,
          stimeNs() - startSys, -1, ""));
    }
    return new ShellReport(List.copyOf(out));
  }

  @Override
  public TaskReport report(long endNs) {
    return new TaskReport("sh", KIND, result(endNs).encode());
  }
}
