package blksim.workload.fio.thread;

import blksim.engine.Seeds;
import blksim.kernel.block.ReqOp;
import blksim.kernel.fs.FileAio;
import blksim.kernel.fs.Filesystem;
import blksim.kernel.fs.VfsCalls;
import blksim.kernel.iouring.IoRequest;
import blksim.kernel.iouring.IoUringParams;
import blksim.kernel.syscall.SyscallParams;
import blksim.kernel.sched.CpuMode;
import blksim.kernel.sched.Task;
import blksim.kernel.sched.TaskCpu;
import blksim.kernel.syscall.SystemCall;
import blksim.workload.fio.FioEngine;
import blksim.workload.fio.FioJob;
import blksim.workload.fio.stats.JobStats;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A fio job thread on the files of a {@code directory=} job, or of {@code filename=} paths in a
 * filesystem ({@link FioFileSet}), through {@link VfsCalls}: with a synchronous engine
 * ({@code pread()}/{@code pwrite()}), or with libaio ({@link FileAio}: {@code io_submit()} and
 * {@code io_getevents()}, keeping up to {@code iodepth} I/Os in flight as
 * {@link AsyncFioThread} does on a device), or with io_uring (the same {@link FileAio} calls
 * standing for {@code io_uring_enter()}'s submit and wait, with fio's user-space reap of the
 * completion ring); buffered through the page cache, or with {@code direct=1} opened O_DIRECT
 * ({@link blksim.kernel.fs.DirectIo}).
 *
 * <p>Simplified for io_uring on files: a buffered SQE runs inline in the submitting
 * {@code io_uring_enter()}, as a buffered libaio iocb does; the kernel first tries it with
 * IOCB_NOWAIT and, when it would block (a page-cache miss, a locked inode), punts it to an
 * io-wq worker or retries it from the page's wait-queue callback, which blksim does not model;
 * the direct path is the kernel's (bios submitted in the call, completion posted by the
 * interrupt or the dio workqueue). hipri (IOPOLL) and sqthread_poll on files are not modelled.
 *
 * <p>What it does, in fio's order ({@code thread_main()}, {@code setup_files()},
 * {@code extend_file()}, {@code do_io()}, {@code close_and_free_files()}):
 * <ol>
 *   <li>set-up, before the job's clock starts: the missing directories on the way to the files
 *       ({@code create_work_dirs()}); then each file is {@code stat()}ed, and one that is
 *       missing or shorter than its region is laid out, unless {@code create_on_open}: for a
 *       writer without {@code overwrite} it is unlinked, created ({@code O_CREAT}), preallocated
 *       as {@code fallocate} says (native and posix: {@code fallocate(fd, 0, 0, size)}; keep:
 *       with {@code FALLOC_FL_KEEP_SIZE}; truncate: {@code ftruncate(fd, size)}; none) and
 *       closed. With {@code overwrite=1}, or for a job that reads (refused by the loader until the
 *       file read path is wired), fio opens it {@code O_TRUNC} and also writes the whole file and
 *       fsyncs it
 *       ({@code create_fsync}); blksim takes that file as left by an earlier run: its blocks
 *       allocated and written, its size set, nothing in the page cache, and no simulated I/O
 *       or time ({@link VfsCalls#assumeWrittenByEarlierRun}); the loader says so on stderr;
 *   <li>the I/O: each write goes to the file {@link FioFileSet#pick} chooses, opened first if
 *       it is not ({@code O_RDWR|O_CREAT}), at the offset of that file's own pattern;
 *       {@code fsync=N} / {@code fdatasync=N} sync the file of the N-th write; a file whose
 *       region is covered is closed (fsynced first with {@code fsync_on_close}). When every
 *       file is done and the job's budget ({@code loops}, {@code io_size}) is not, a new loop
 *       starts: open files are closed ({@code clear_io_state()}), and with
 *       {@code unlink_each_loop} every file is unlinked (the next open creates it empty);
 *   <li>at the end: with {@code end_fsync} or {@code fsync_on_close}, every file is fsynced
 *       (opened for it if closed, as {@code fio_file_fsync()} does), inside the job's time; then
 *       the clock stops, the open files are closed and, with {@code unlink}, every file is
 *       unlinked.
 * </ol>
 *
 * <p>{@code verify} with {@code do_verify=1} (fio's default): each write is logged with its
 * file ({@code log_io_piece()}); when the writes end by size (not by runtime, an error or
 * fill_device's ENOSPC), after the end fsync, every open file is closed (fio's
 * {@code clear_io_state()} before {@code do_verify()}, so {@code do_verify()}'s
 * {@code fio_io_sync()} finds no file open and syncs nothing), and the logged blocks are read
 * back in fio's order ({@link VerifyLog}), each file reopened for its first verify read
 * ({@code get_next_verify()}); {@code verify_backlog} interleaves batches of them with the
 * writes. Verify reads do not count against their file's region. {@code verify_only} reads
 * the write pattern back from files taken as written by an earlier run. {@code verify_async}:
 * {@link VerifyPool}. A trim job of a data engine (sync or libaio) makes each trim fio's
 * {@code os_trim()}, an {@code ioctl(BLKDISCARD)} that a regular file fails with ENOTTY: the
 * job ends with err=25 after that one trim.
 *
 * <p>{@code io_submit_mode=offload} (libaio only): the thread prepares and paces the I/Os and
 * hands each to one of {@code iodepth} {@link OffloadWorker}s, which submits and reaps it; when
 * all io_us are out it waits for one to be freed, and an I/O early for its rate sleeps without
 * quiescing (fio's {@code rate_ddir()} quiesces only inline). Simplified as {@link OffloadWorker}
 * says.
 *
 * <p>{@code thinktime} and {@code rate} work as on a device: with libaio the job first
 * quiesces ({@code io_u_quiesce()}: what is queued is submitted, everything in flight reaped).
 * With libaio, a file's close, an {@code fsync=N} and the end also quiesce first.
 *
 * <p>{@code ioengine=posixaio} (engines/posixaio.c over glibc's rt/aio_misc.c): each I/O is
 * queued by {@code aio_read()}/{@code aio_write()} (fio's work on it plus glibc's enqueue,
 * {@code costs.fio.posixaio-enqueue}, in the job thread) to a helper thread of the job's
 * process, which does it as a {@code pread()}/{@code pwrite()} of the job's file descriptor,
 * plus {@code costs.fio.posixaio-helper} of glibc's own work per request. glibc serves the
 * requests of one descriptor in order by one thread ({@code add_request_to_list()} queues a
 * request behind the running one of its descriptor), so a job's I/O to one file is
 * serialized whatever its {@code iodepth}; up to 20 helpers ({@code aio_threads}) serve
 * several files, file i by helper i mod 20. When {@code iodepth} requests are out, fio sleeps
 * in {@code aio_suspend()} until a helper finishes one. Simplified: the helpers are created
 * when the job starts (glibc creates one at the first request of a descriptor and lets it exit
 * after 1 s idle) and their creation costs nothing; a wake through the futex of
 * {@code pthread_cond_signal()} or {@code aio_suspend()} costs no system time of its own; an
 * I/O completes for fio's statistics when its helper finishes it, not when fio's
 * {@code aio_error()} scan next sees it (that scan's few ns per io_u are not costed).
 *
 * <p>Simplified: io_uring on files goes through {@link FileAio}; one
 * {@code io_submit()} carries iocbs of one file (a switch of file commits the batch); a file
 * is closed as soon as its last I/O returns (with libaio: once every I/O in flight is reaped),
 * not when fio next looks for work in it; the unlink of a layout ignores its errors as fio ignores ENOENT; an
 * {@code fsync=N} count is over the job's writes, not per file (as fio's
 * {@code io_issues[DDIR_WRITE]}); a failing call is a model error (it throws), except ENOSPC at
 * layout, which also throws, and the failures of the engines below, which end the job with
 * fio's {@code err=} as {@code td_verror()} does.
 *
 * <p>The file and directory operation engines (engines/fileoperations.c: {@code filecreate},
 * {@code filestat}, {@code filedelete}, {@code dircreate}, {@code dirstat}, {@code dirdelete})
 * do their work in the engine's {@code open_file} hook, which fio calls where it opens a file
 * for its first I/O: {@code open(O_CREAT|O_RDWR, 0600)}, {@code stat()} (also for
 * {@code stat_type=lstat} and {@code statx}, which cost the same path walk here),
 * {@code unlink()}, {@code mkdir()} or {@code rmdir()} (the four namespace changes under the
 * parent directory's {@code i_rwsem}, so jobs working in one directory serialize on it, as
 * they do on Linux), timed from before the call to after it
 * and recorded as one clat sample of the job's direction (read unless the job only writes);
 * fio's queue hook then completes each I/O of the file at once ({@code FIO_FAKEIO}): its bytes
 * count, with no latency sample ({@code FIO_NOSTATS}). filecreate closes the file after its
 * I/Os; the others have no descriptor. filecreate and the directory engines are
 * {@code FIO_DISKLESSIO}: nothing is laid out; dirstat and dirdelete make their directories at
 * set-up ({@code setup_dirs()}); {@code unlink=1} removes directories with {@code rmdir()}. A
 * failing operation (a second {@code time_based} loop of filedelete: ENOENT; of dircreate:
 * EEXIST) ends the job with that error, as fio's {@code td_verror()} does.
 *
 * <p>{@code ioengine=falloc} (engines/falloc.c) opens each file {@code O_CREAT|O_RDWR} (never
 * O_DIRECT) and makes each I/O a {@code fallocate(fd, mode, offset, len)}: mode
 * {@code FALLOC_FL_KEEP_SIZE} for a read, 0 for a write and
 * {@code FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE} for a trim ({@code rw=trim} or
 * {@code randtrim}); {@code ioengine=ftruncate} (engines/ftruncate.c) makes each write an
 * {@code ftruncate(fd, offset)} and fails a read with EINVAL. Their latency is the call's.
 *
 * <p>{@code ioengine=mmap} (engines/mmap.c): at a file's first I/O, and whenever an I/O falls
 * outside its mapping, {@code fio_mmapio_prep()} unmaps the old mapping and maps the file's
 * region {@code MAP_SHARED} ({@link VfsCalls#mmap}; PROT_WRITE for a writer), then madvises it
 * by {@code fadvise_hint} ({@code fio_madvise_file()}); these calls are outside the I/O's
 * latency. The I/O is a {@code memcpy()} through the mapping ({@link VfsCalls#access}:
 * {@link blksim.kernel.mm.MmapAccess}, the page faults included); {@code fsync=N} is
 * {@code msync(MS_SYNC)} of the mapping; with {@code direct=1} each I/O is followed by an
 * msync of its range ("not really direct"; glibc's {@code posix_madvise(POSIX_MADV_DONTNEED)}
 * after it does nothing). A close frees fio's record of the mapping without a munmap, as
 * {@code fio_mmapio_close_file()} does; the job's {@code majf}/{@code minf} are its mappings'
 * faults. fio's {@code mmap_map_size} chunks ({@code fio_mmapio_prep_limited()}) are the
 * fallback of a 32-bit build only; a 64-bit fio always maps the whole region. Simplified: a
 * mapping's offset is the job's start offset rounded down to a page.
 */
public final class FileFioThread extends FioJobThread {
  private enum Phase {
    PREP,
    OPEN,
    ADVISE,
    CALL,
    IN_CALL,
    IN_SYNC,
    CLOSE_DONE,
    END_SYNC,
    UNLINK,
    /** ioengine=mmap: the munmap/mmap/madvise of the I/O's prep, its copy, its msync. */
    MMAP
  }

  private final Function<Task, VfsCalls> callsFactory;
  private final FioEngine engine;
  /** A file or directory operation engine (engines/fileoperations.c). */
  private final boolean fileOp;
  /** falloc with a trim pattern: each I/O punches a hole (fio's DDIR_TRIM). */
  private final boolean punch;
  /**
   * A trim job of a data engine (sync, libaio): each I/O is fio's {@code do_io_u_trim()}, an
   * {@code ioctl(BLKDISCARD)}, which a regular file fails with ENOTTY.
   */
  private final boolean discard;
  /** Files "opened" by a file operation engine that keeps no descriptor. */
  private final boolean[] opened;
  private final FioFileSet files;
  private final VfsCalls.OpenFile[] fds;
  private VfsCalls calls;
  private Phase phase = Phase.PREP;
  private SystemCall call;
  private long issueNs;
  private int len;
  private ReqOp op = ReqOp.WRITE;
  private int cur = -1;
  private long writes;
  /** The set-up's queued calls (fio's setup_files()), each made when the previous returned. */
  private final ArrayDeque<Step> setup = new ArrayDeque<>();
  private boolean setupQueued;
  /** The end's, and a new loop's, queued calls. */
  private final ArrayDeque<Step> tail = new ArrayDeque<>();
  /** An I/O chosen (file, direction, offset, length) and held for the job's rate. */
  private boolean rateHeld;

  // ioengine=mmap (engines/mmap.c): each file's mapping (fio's fmd) and the prep's stage.
  private final blksim.kernel.mm.FileMapping[] maps;
  private final long[] mapOff;
  private int mmapStage;
  private static final int MM_UNMAP = 0;
  private static final int MM_MAP = 1;
  private static final int MM_ADVISE = 2;
  private static final int MM_ACCESS = 3;
  private static final int MM_MSYNC = 4;
  /** Faults of the mappings the job dropped (closed files), for {@code majf}/{@code minf}. */
  private long droppedMajf;
  private long droppedMinf;

  // libaio (null for a synchronous engine).
  private final IoUringParams uring;
  private final SyscallParams syscalls;
  private final int depth;
  private final int completeMin;
  private final int batchSubmit;
  private FileAio aio;
  /** Prepared iocbs not yet submitted, all to {@link #batchFile}. */
  private final ArrayList<IoRequest> batch = new ArrayList<>();
  private int batchFile = -1;
  private int inFlight;
  private int nextTag;
  /** The io_submit() or io_getevents() in progress, outside {@link #phase}. */
  private SystemCall aioCall;
  private boolean aioSubmitting;
  /** An fsync=N / fdatasync=N is due once the I/Os in flight are reaped. */
  private boolean syncDue;
  /**
   * {@code io_submit_mode=offload}: the job's submit workers; {@code ioengine=posixaio}: glibc's
   * helper threads; else null.
   */
  private final OffloadPool pool;
  /** {@code ioengine=posixaio}. */
  private final boolean posix;
  /** glibc's {@code optim.aio_threads}: at most 20 helper threads (rt/aio_misc.c). */
  static final int GLIBC_AIO_THREADS = 20;
  /** {@code verify_async}: the job's verify threads, or null. */
  private final VerifyPool verifyPool;
  /** A verify read is due for file {@link #cur}, taken once the file is open. */
  private boolean verifyPicked;
  /** The I/O in {@link #op} etc. is a read of the verify log (not counted against its file). */
  private boolean curVerifies;
  /** With verify_async, the read check of the synchronous I/O in progress, ns (0: none). */
  private long curCheckNs;
  /** With verify_async and libaio: the read check of each iocb in flight by tag, ns. */
  private final java.util.HashMap<Integer, Long> checkNs = new java.util.HashMap<>();

  /** One call of a queued sequence, with what to do with its return value. */
  private interface Step {
    /** The call to make, or null for nothing. */
    SystemCall make();

    /** Its return value; may queue further steps at the front. */
    default void returned(long ret) {}
  }

  /** An fsync fio times into its sync statistics ({@link #syncStarted}). */
  private record TimedSync(Supplier<SystemCall> sync, boolean counted) implements Step {
    @Override
    public SystemCall make() {
      return sync.get();
    }
  }

  /**
   * @param calls the task's file system calls, made when the thread first runs
   * @param runSeed the run seed (the job's stream unless it sets {@code randseed})
   */
  public FileFioThread(FioJob job, int globalJobNumber, int pid, Function<Task, VfsCalls> calls,
      FioCostParams costs, JobStats stats, long runSeed) {
    this(job, globalJobNumber, pid, calls, costs, stats, runSeed, null, null);
  }

  /**
   * A job with {@code ioengine=libaio} or {@code io_uring} when {@code uring} is given (its
   * costs, as {@link AsyncFioThread} uses them), else with a synchronous engine.
   */
  public FileFioThread(FioJob job, int globalJobNumber, int pid, Function<Task, VfsCalls> calls,
      FioCostParams costs, JobStats stats, long runSeed, IoUringParams uring,
      SyscallParams syscalls) {
    this(job, globalJobNumber, pid, calls, costs, stats, runSeed, fileSet(job, globalJobNumber,
        runSeed), uring, syscalls);
  }

  private FileFioThread(FioJob job, int globalJobNumber, int pid, Function<Task, VfsCalls> calls,
      FioCostParams costs, JobStats stats, long runSeed, FioFileSet files, IoUringParams uring,
      SyscallParams syscalls) {
    super(job, globalJobNumber, pid, startOffset(job) + files.budgetBytes(), costs, stats,
        runSeed);
    this.callsFactory = calls;
    this.files = files;
    this.fds = new VfsCalls.OpenFile[files.count()];
    this.engine = job.ioengine();
    this.fileOp = engine.fileOperation();
    this.punch = engine == FioEngine.FALLOC && job.rw().trims();
    this.discard = job.rw().trims() && !engine.filesOnly();
    this.opened = new boolean[files.count()];
    this.maps = new blksim.kernel.mm.FileMapping[files.count()];
    this.mapOff = new long[files.count()];
    // libaio pays its own per-iocb cost (costs.aio.iocb-submit); io_uring its per-SQE one.
    this.uring = uring != null && job.ioengine() == FioEngine.LIBAIO ? uring.forLibaio() : uring;
    this.syscalls = syscalls;
    this.depth = Math.max(1, job.iodepth());
    this.completeMin = Math.max(1, Math.min(job.iodepthBatchCompleteMin(), depth));
    this.batchSubmit = Math.max(1, Math.min(job.iodepthBatchSubmit(), depth));
    this.posix = engine == FioEngine.POSIXAIO;
    this.pool = job.offload() && uring != null ? new OffloadPool(this, depth, offloadJob())
        : posix ? new OffloadPool(this, Math.min(files.count(), GLIBC_AIO_THREADS), posixJob())
        : null;
    this.verifyPool = job.verifyAsync() > 0 && job.verify().enabled()
        ? new VerifyPool(this, job.verifyAsync()) : null;
    java.util.List<String> names = new java.util.ArrayList<>();
    for (int i = 0; i < files.count(); i++) {
      names.add(iologName(job, files, i));
    }
    iologOnFiles(names);
  }

  /**
   * fio's {@code f->file_name} of file {@code i} ({@code add_file()}): the {@code directory=}
   * path, else the name as the job gave it (relative to the working directory when relative).
   */
  static String iologName(FioJob job, FioFileSet files, int i) {
    if (job.inWorkingDirectory()) {
      return job.fileName(i);
    }
    if (job.directory() != null) {
      return files.path(i);
    }
    if (job.filename() != null) {
      java.util.List<String> given = job.filenames();
      return i < given.size() ? given.get(i) : files.path(i);
    }
    return job.fileName(i);
  }

  /** What this job gives its submit workers: each opens its own libaio context at depth 1. */
  private OffloadWorker.Job offloadJob() {
    return new OffloadWorker.Job() {
      @Override
      public OffloadWorker.Engine setUp(OffloadWorker w, TaskCpu cpu) {
        FileAio a = new FileAio(w, cpu.cpu(), callsFactory.apply(w), uring, syscalls);
        return new OffloadWorker.Engine() {
          @Override
          public SystemCall submit(IoRequest r, Object file) {
            return a.ioSubmit((VfsCalls.OpenFile) file, java.util.List.of(r));
          }

          @Override
          public blksim.kernel.iouring.WaitCall getevents(int min) {
            return a.ioGetevents(min);
          }

          @Override
          public blksim.kernel.iouring.CompletionRing ring() {
            return a.ring();
          }

          @Override
          public boolean reapsInUserSpace() {
            return false;
          }
        };
      }

      @Override
      public long userNsPerIo() {
        return offloadWorkerUserNsPerIo();
      }

      @Override
      public void issued(IoRequest r, long now) {
        offloadIssued(r, now, inFlight);
      }

      @Override
      public void reaped(IoRequest done, TaskCpu cpu) {
        inFlight--;
        if (deviceFilled(done.result())) {
          completed(1);
          pool.freed(cpu);
          return;
        }
        check(done.result(), (done.bio().op() == ReqOp.READ ? "read" : "write") + " iocb");
        long now = cpu.now();
        if (measuring()) {
          stats.recordIo(ddir(done.bio().op()), done.bio().sizeBytes(),
              done.issueNs() - done.startNs(), now - done.issueNs(), now,
              done.bio().sector() << 9);
          stats.recordCompleteBatch(1);
        }
        completed(1);
        pool.freed(cpu);
      }
    };
  }

  /**
   * {@code ioengine=posixaio}: what glibc's helper threads do with a request
   * ({@code handle_fildes_io()}): a {@code pread()} or {@code pwrite()} of the request's file,
   * in the helper, then the result is stored and the waiter notified ({@code __aio_notify()});
   * fio finds it with {@code aio_error()}. The I/O is recorded when the helper finishes it.
   */
  private OffloadWorker.Job posixJob() {
    return new OffloadWorker.Job() {
      @Override
      public OffloadWorker.Engine setUp(OffloadWorker w, TaskCpu cpu) {
        VfsCalls c = callsFactory.apply(w);
        blksim.kernel.iouring.CompletionRing ring =
            new blksim.kernel.iouring.CompletionRing(w, cpu.cpu());
        return new OffloadWorker.Engine() {
          // A helper has one request in its submit call at a time: the call is re-armed.
          private IoRequest req;
          private SystemCall io;
          private final SystemCall handle = new SystemCall() {
            @Override
            public boolean step(TaskCpu cpu) {
              if (!io.step(cpu)) {
                return false;
              }
              ring.post(req, (int) io.ret()); // __return_value, __error_code, __aio_notify()
              return returned(io.ret());
            }
          };

          @Override
          public SystemCall submit(IoRequest r, Object file) {
            VfsCalls.OpenFile f = (VfsCalls.OpenFile) file;
            long off = r.bio().sector() << 9;
            int n = r.bio().sizeBytes();
            req = r;
            io = r.bio().op() == ReqOp.READ ? c.pread(f, off, n) : c.pwrite(f, off, n);
            return handle;
          }

          @Override
          public blksim.kernel.iouring.WaitCall getevents(int min) {
            throw new IllegalStateException("a glibc AIO helper never waits for an event");
          }

          @Override
          public blksim.kernel.iouring.CompletionRing ring() {
            return ring;
          }

          @Override
          public boolean reapsInUserSpace() {
            return true;
          }
        };
      }

      @Override
      public long userNsPerIo() {
        return costs.posixAioHelperNs();
      }

      @Override
      public void issued(IoRequest r, long now) {
        // fio's issue time is when aio_read()/aio_write() returned (set by queueIo()).
      }

      @Override
      public void reaped(IoRequest done, TaskCpu cpu) {
        inFlight--;
        if (deviceFilled(done.result())) {
          completed(1);
          pool.freed(cpu);
          return;
        }
        check(done.result(), (done.bio().op() == ReqOp.READ ? "aio_read" : "aio_write"));
        long now = cpu.now();
        if (measuring()) {
          stats.recordIo(ddir(done.bio().op()), done.bio().sizeBytes(),
              done.issueNs() - done.startNs(), now - done.issueNs(), now,
              done.bio().sector() << 9);
          stats.recordCompleteBatch(1);
        }
        completed(1);
        pool.freed(cpu); // the futex wake of aio_suspend()
      }
    };
  }

  @Override
  protected long[] helperCpu() {
    return pool == null ? super.helperCpu() : pool.cpu();
  }

  /**
   * Offload: the job thread waits for a freed io_u ({@code __get_io_u()} on
   * {@code free_cond}). True if it now sleeps; false if one was freed and it goes on.
   */
  private boolean waitFree(TaskCpu cpu) {
    if (pool.tryWaitFree(this)) {
      return false;
    }
    cpu.sleep();
    return true;
  }

  /** Whether the job's engine is asynchronous (libaio). */
  private boolean async() {
    return uring != null;
  }

  private static long startOffset(FioJob job) {
    return job.offsetBytes() + job.jobIndex() * job.offsetIncrementBytes();
  }

  /** The job's files; the patterns draw from the stream the job's own pattern would use. */
  static FioFileSet fileSet(FioJob job, int globalJobNumber, long runSeed) {
    long seed = job.randseedSet() ? job.randseed() : runSeed;
    SplittableRandom random = new SplittableRandom(
        Seeds.forComponent(seed, "fio/" + job.name() + "/" + globalJobNumber));
    return new FioFileSet(job, seed, globalJobNumber, random);
  }

  /**
   * The line fio prints when it lays a job's files out before the job ({@code setup_files()}),
   * e.g. {@code seqwrite: Laying out IO file (1 file / 16MiB)} or {@code j: Laying out IO files
   * (4 files / total 64MiB)}, for a run that starts with an empty filesystem; null when the job
   * lays nothing out ({@code create_on_open}). Files that an earlier job of the same run made are
   * not known here and are counted as laid out.
   */
  public static String layoutLine(FioJob job, int globalJobNumber, long runSeed) {
    if (job.createOnOpen() || !laysOut(job.ioengine())) {
      return null;
    }
    FioFileSet f = fileSet(job, globalJobNumber, runSeed);
    int n = 0;
    long bytes = 0;
    for (int i = 0; i < f.count(); i++) {
      if (f.ioBytes(i) > 0) {
        n++;
        bytes += f.fileBytes(i);
      }
    }
    if (n == 0) {
      return null;
    }
    String s = n > 1 ? "s" : "";
    return job.name() + ": Laying out IO file" + s + " (" + n + " file" + s + " / "
        + (n > 1 ? "total " : "") + (bytes >> 20) + "MiB)";
  }

  /**
   * Whether fio lays the engine's files out ({@code setup_files()} extends no file of a
   * {@code FIO_DISKLESSIO} engine: filecreate and the directory engines).
   */
  static boolean laysOut(FioEngine e) {
    return !(e == FioEngine.FILECREATE || e.directories());
  }

  /** The job's files. */
  public FioFileSet files() {
    return files;
  }

  private VfsCalls calls() {
    if (calls == null) {
      calls = callsFactory.apply(this);
    }
    return calls;
  }

  // ---- set-up (before the clock starts) ----

  @Override
  protected boolean setUp(TaskCpu cpu) {
    if (!setupQueued) {
      setupQueued = true;
      for (String d : files.directories()) {
        // mkdir -p: EEXIST (or a mount point) is fine.
        setup.add(() -> calls().mkdir(d));
      }
      if (engine == FioEngine.DIRSTAT || engine == FioEngine.DIRDELETE) {
        // setup_dirs(): each "file" is a directory, made now (EEXIST is fine).
        for (int i = 0; i < files.count(); i++) {
          String d = files.path(i);
          setup.add(() -> calls().mkdir(d));
        }
      }
      for (int i = 0; i < files.count(); i++) {
        if (!job.createOnOpen() && laysOut(engine)) {
          int f = i;
          setup.add(new Step() {
            @Override
            public SystemCall make() {
              return calls().stat(files.path(f));
            }

            @Override
            public void returned(long ret) {
              if (ret < files.fileBytes(f)) {
                layOut(f);
              }
            }
          });
        }
      }
    }
    return runQueue(cpu, setup);
  }

  /** fio's extend_file() for a writer, queued at the front of the set-up. */
  private void layOut(int f) {
    String path = files.path(f);
    long size = files.fileBytes(f);
    ArrayDeque<Step> steps = new ArrayDeque<>();
    steps.add(() -> calls().unlink(path));
    // extend_file(): a job that reads, or writes with overwrite, needs the data there (a new
    // layout: O_TRUNC, then the file written in full); a plain writer only needs the file.
    // verify_only reads back what an earlier run wrote: its files are taken as left by that run
    // (fio would lay a missing file out unwritten, and every block would fail to verify).
    boolean newLayout = job.rw().reads() || job.overwrite()
        || job.verifyOnly() && job.verify().enabled();
    int flags = VfsCalls.O_WRONLY | VfsCalls.O_CREAT | (newLayout ? VfsCalls.O_TRUNC : 0);
    steps.add(new Step() {
      @Override
      public SystemCall make() {
        return calls().open(path, flags);
      }

      @Override
      public void returned(long ret) {
        check(ret, "open(" + path + ", O_CREAT) at layout");
        fds[f] = calls().lastOpened();
      }
    });
    // fill_device: fio's fallocate_file() returns at once and extend_file() does not truncate
    // (the size is -1 there), so the file only grows by the job's writes.
    switch (job.fillDevice() ? "none" : job.fallocate()) {
      case "native", "posix" -> steps.add(checked(() -> calls().fallocate(fds[f], 0, 0, size),
          "fallocate(" + path + ")"));
      case "keep" -> steps.add(checked(() -> calls().fallocate(fds[f],
          VfsCalls.FALLOC_FL_KEEP_SIZE, 0, size), "fallocate(" + path + ", KEEP_SIZE)"));
      case "truncate" -> steps.add(checked(() -> calls().ftruncate(fds[f], size),
          "ftruncate(" + path + ")"));
      default -> { }
    }
    if (newLayout) {
      steps.add(() -> {
        long r = calls().assumeWrittenByEarlierRun(fds[f], size);
        if (!(r == -Filesystem.ENOSPC && job.fillDevice())) { // fio's layout stops at ENOSPC
          check(r, "laying out " + path);
        }
        return null;
      });
    }
    steps.add(new Step() {
      @Override
      public SystemCall make() {
        return calls().close(fds[f]);
      }

      @Override
      public void returned(long ret) {
        fds[f] = null;
      }
    });
    while (!steps.isEmpty()) {
      setup.addFirst(steps.pollLast());
    }
  }

  private Step checked(java.util.function.Supplier<SystemCall> c, String what) {
    return new Step() {
      @Override
      public SystemCall make() {
        return c.get();
      }

      @Override
      public void returned(long ret) {
        check(ret, what);
      }
    };
  }

  private void check(long ret, String what) {
    if (ret < 0) {
      throw new IllegalStateException(job.name() + ": " + what + " failed with errno "
          + (-ret));
    }
  }

  /** Makes the queue's calls in turn; true while one is in progress (an action was taken). */
  private boolean runQueue(TaskCpu cpu, ArrayDeque<Step> q) {
    while (true) {
      if (call != null) {
        if (!call.step(cpu)) {
          return true;
        }
        long ret = call.ret();
        call = null;
        Step s = q.poll();
        if (s instanceof TimedSync) {
          syncReturned(cpu.now());
        }
        s.returned(ret);
        continue;
      }
      Step s = q.peek();
      if (s == null) {
        return false;
      }
      SystemCall c = s.make();
      if (c == null) {
        q.poll();
        s.returned(0);
        continue;
      }
      if (s instanceof TimedSync t) {
        syncStarted(cpu.now(), t.counted());
      }
      call = c;
    }
  }

  // ---- the I/O ----

  @Override
  protected void step(TaskCpu cpu) {
    if (starting(cpu) || continueThink(cpu)) {
      return;
    }
    if (verifyPool != null) {
      verifyPool.start(this, cpu); // verify_async_init(), in thread_main() before the I/O
    }
    if (pool != null) {
      pool.start(this, cpu); // rate_submit_init(): the workers load their own engines
    } else if (async() && aio == null) {
      // fio's engine init: io_setup(iodepth).
      aio = new FileAio(this, cpu.cpu(), calls(), uring, syscalls);
    }
    while (true) {
      if (aioCall != null) {
        if (!aioCall.step(cpu)) {
          return;
        }
        long ret = aioCall.ret();
        aioCall = null;
        if (aioSubmitting) {
          aioSubmitting = false;
          check(ret, "io_submit");
          submitted(cpu);
          return;
        }
        reap(cpu);
        continue;
      }
      if (phase == Phase.UNLINK || phase == Phase.END_SYNC || phase == Phase.CLOSE_DONE) {
        // io_u_quiesce(): what is queued is submitted and everything in flight reaped first.
        if (quiesce(cpu)) {
          return;
        }
        if (runQueue(cpu, tail)) {
          return;
        }
        if (phase == Phase.END_SYNC && beginVerify(cpu.now())) {
          // thread_main(): clear_io_state() closes every open file (put_file(): with
          // fsync_on_close, its fsync first); do_verify()'s fio_io_sync() of each open file then
          // finds none, and get_next_verify() reopens a file for its first verify read.
          for (int i = 0; i < files.count(); i++) {
            if (isOpen(i)) {
              queueClose(i);
            }
          }
          phase = Phase.CLOSE_DONE;
          continue;
        }
        if (phase == Phase.END_SYNC) {
          // The job's clock stops after its end fsync, before fio closes and unlinks files.
          stopStats(cpu);
          queueCloseAll();
          if (job.unlink()) {
            for (int i = 0; i < files.count(); i++) {
              String p = files.path(i);
              tail.add(() -> remove(p));
            }
          }
          phase = Phase.UNLINK;
          continue;
        }
        if (phase == Phase.UNLINK) {
          if (verifyPool != null) {
            // verify_async_exit(): the verify threads give back every io_u they hold.
            if (verifyPool.held() > 0) {
              if (!verifyPool.tryWaitFree(this)) {
                cpu.sleep();
                return;
              }
              continue;
            }
            verifyPool.exit(cpu);
          }
          if (pool != null) {
            pool.exit(cpu);
          }
          finish(cpu);
          return;
        }
        phase = Phase.PREP;
        continue;
      }
      if (call != null) {
        if (!call.step(cpu)) {
          return;
        }
        long ret = call.ret();
        call = null;
        if (returned(cpu, ret)) {
          return;
        }
        continue;
      }
      switch (phase) {
        case PREP:
          if (prep(cpu)) {
            return;
          }
          continue;
        case CALL:
          if (async() && !batch.isEmpty() && batchFile != cur) {
            commit(cpu); // one file per io_submit() here
            return;
          }
          if (rateLimited(op)) {
            // rate_ddir(): early for the rate, the job quiesces and sleeps.
            long wait = rateWaitNs(op, cpu.now());
            if (wait > 0) {
              if (outOfTime(cpu.now())) {
                startEnd(); // the runtime ended while the I/O waited for its rate
                continue;
              }
              // rate_ddir() quiesces only with io_submit_mode=inline.
              if (pool == null && quiesce(cpu)) {
                return;
              }
              rateSleep(cpu, wait);
              return;
            }
            rateIssued(op, len);
          }
          if (discard) {
            // fio_libaio_queue() / fio_psyncio_queue(): a trim is done at once, synchronously
            // (libaio first commits what it queued: FIO_Q_BUSY), as os_trim()'s ioctl.
            if (async() && !batch.isEmpty()) {
              commit(cpu);
              return;
            }
            issueNs = cpu.now();
            phase = Phase.IN_CALL;
            call = calls().ioctlBlkdiscard(fds[cur]);
            continue;
          }
          if (async()) {
            if (queueIo(cpu)) {
              return;
            }
            continue;
          }
          if (fileOp) {
            // FIO_FAKEIO: the queue hook completes the I/O at once.
            phase = Phase.IN_CALL;
            if (returned(cpu, len)) {
              return;
            }
            continue;
          }
          if (engine == FioEngine.MMAP) {
            // fio_mmapio_prep(): the I/O's mapping, then fio_mmapio_queue()'s copy.
            phase = Phase.MMAP;
            blksim.kernel.mm.FileMapping m = maps[cur];
            mmapStage = m != null && ioOffset >= mapOff[cur]
                && ioOffset + len <= mapOff[cur] + m.lengthBytes() ? MM_ACCESS
                : m != null ? MM_UNMAP : MM_MAP;
            call = mmapCall(cpu);
            continue;
          }
          if (engine == FioEngine.FTRUNCATE && op != ReqOp.WRITE) {
            failJob(-EINVAL); // fio_ftruncate_queue(): io_u->error = EINVAL
            continue;
          }
          issueNs = cpu.now();
          phase = Phase.IN_CALL;
          call = switch (engine) {
            case FALLOC -> calls().fallocate(fds[cur], punch
                ? VfsCalls.FALLOC_FL_PUNCH_HOLE | VfsCalls.FALLOC_FL_KEEP_SIZE
                : op == ReqOp.READ ? VfsCalls.FALLOC_FL_KEEP_SIZE : 0, ioOffset, len);
            case FTRUNCATE -> calls().ftruncate(fds[cur], ioOffset);
            default -> op == ReqOp.READ ? calls().pread(fds[cur], ioOffset, len)
                : calls().pwrite(fds[cur], ioOffset, len);
          };
          continue;
        default:
          throw new IllegalStateException(job.name() + ": step in phase " + phase);
      }
    }
  }

  /** A call of the I/O phase returned; true when an action was taken. */
  private boolean returned(TaskCpu cpu, long ret) {
    switch (phase) {
      case OPEN:
        if (fileOp) {
          if (ret < 0) {
            failJob(ret); // td_verror(td, e, "open(...)") / "stat(...)" / "delete(...)"
            return false;
          }
          if (measuring()) {
            stats.recordClat(statDdir(), cpu.now() - issueNs);
          }
          if (engine == FioEngine.FILECREATE) {
            fds[cur] = calls().lastOpened();
          } else {
            opened[cur] = true;
          }
          files.opened(cur);
          issue(cpu);
          return true;
        }
        check(ret, "open(" + files.path(cur) + ")");
        fds[cur] = calls().lastOpened();
        files.opened(cur);
        logFile(cur, true);
        // td_io_open_file(): fio's default fadvise_hint=1 advises RANDOM for a random job,
        // SEQUENTIAL (a doubled readahead window) otherwise; 0 gives no advice.
        int advice = job.fadviseAdvice();
        if (advice < 0) {
          issue(cpu);
          return true;
        }
        phase = Phase.ADVISE;
        call = calls().fadvise(fds[cur], 0, 0, advice);
        return false;
      case ADVISE:
        issue(cpu);
        return true;
      case MMAP:
        return mmapReturned(cpu, ret);
      case IN_CALL: {
        if (ret == -Filesystem.ENOSPC && op == ReqOp.WRITE && job.fillDevice()) {
          // fill_device: ENOSPC is the expected end (backend.c td_clear_error() and
          // fio_mark_td_terminate()): the job ends without an error.
          startEnd();
          return false;
        }
        if (ret < 0 && discard) {
          // td_io_queue(): the trim completed at once (FIO_Q_COMPLETED) and counts as issued
          // (total_io_u, its depth, the engine's submit and complete marks), with no bytes.
          // Its ENOTTY is a write error to td_error_type(), not among fio's default non-fatal
          // ones: the job ends with err=25.
          if (measuring()) {
            stats.recordIssue(1);
            stats.recordSubmitBatch(1);
            stats.recordCompleteBatch(1);
            stats.recordIoWithoutLatency(2, 0, cpu.now());
          }
          failJob(ret);
          return false;
        }
        if (ret < 0 && (engine == FioEngine.FALLOC || engine == FioEngine.FTRUNCATE)) {
          failJob(ret); // io_u->error = errno: the job ends with it
          return false;
        }
        check(ret, (op == ReqOp.READ ? "pread from " : "pwrite to ") + files.path(cur));
        if (measuring()) {
          long now = cpu.now();
          stats.recordIssue(1);
          stats.recordSubmitBatch(1);
          stats.recordCompleteBatch(1);
          if (fileOp) {
            stats.recordIoWithoutLatency(ddir(op), len, now);
          } else {
            stats.recordIo(punch || discard ? 2 : ddir(op), len, -1, now - issueNs, now,
                ioOffset);
          }
        }
        completed(1);
        int f = cur;
        boolean fileDone = !curVerifies && files.issued(f, len);
        if (curCheckNs > 0) {
          verifyPool.hand(curCheckNs, cpu); // verify_io_u_async()
          curCheckNs = 0;
        }
        phase = Phase.PREP;
        if (op == ReqOp.WRITE && !punch && !fileOp) {
          writes++;
        }
        if (op == ReqOp.WRITE && fds[f] != null && !punch && !fileOp && (job.fsyncBlocks() > 0 && writes % job.fsyncBlocks() == 0
            || job.fdatasyncBlocks() > 0 && writes % job.fdatasyncBlocks() == 0)) {
          phase = Phase.IN_SYNC;
          syncStarted(cpu.now(), job.fsyncBlocks() > 0 && writes % job.fsyncBlocks() == 0);
          call = calls().fsync(fds[f]);
        }
        if (fileDone) {
          queueClose(f);
          if (phase == Phase.PREP) {
            phase = Phase.CLOSE_DONE;
          }
        }
        return false;
      }
      case IN_SYNC:
        syncReturned(cpu.now());
        phase = tail.isEmpty() ? Phase.PREP : Phase.CLOSE_DONE;
        return false;
      default:
        throw new IllegalStateException(job.name() + ": return in phase " + phase);
    }
  }

  /** {@code close()} of file {@code f}, which then counts as closed in the file set. */
  private Step closeStep(int f) {
    return new Step() {
      @Override
      public SystemCall make() {
        // A file operation engine other than filecreate holds no descriptor to close.
        return fds[f] == null ? null : calls().close(fds[f]);
      }

      @Override
      public void returned(long ret) {
        fds[f] = null;
        opened[f] = false;
        files.closed(f);
        logFile(f, false);
        dropMapping(f);
      }
    };
  }

  /** Whether file {@code f} is open (or, for a file operation engine, operated on). */
  private boolean isOpen(int f) {
    return fds[f] != null || opened[f];
  }

  /** fio's stat_ddir of the file operation engines: read, unless the job only writes. */
  private int statDdir() {
    return !job.rw().reads() && job.rw().writes() ? 1 : 0;
  }

  private static final int EINVAL = 22;

  /** {@code td_verror()}: the job records the error (-{@code ret}) and ends. */
  private void failJob(long ret) {
    if (stats.error() == 0) {
      stats.setError((int) -ret);
    }
    startEnd();
  }

  /** end_fsync's fsync of file {@code f} (timed, as fio's td_io_sync() io_u), else fsync_on_close's. */
  private Step endSync(int f) {
    Supplier<SystemCall> sync = () -> calls().fsync(fds[f]);
    return job.endFsync() ? new TimedSync(sync, false) : sync::get;
  }

  /** The removal fio's {@code unlink}/{@code unlink_each_loop} makes of file {@code path}. */
  private SystemCall remove(String path) {
    return engine.directories() ? calls().rmdir(path) : calls().unlink(path);
  }

  /** Queues the close of file {@code f} (fsynced first with fsync_on_close). */
  private void queueClose(int f) {
    if (job.fsyncOnClose() && !fileOp) {
      tail.add(() -> fds[f] == null ? null : calls().fsync(fds[f]));
    }
    tail.add(closeStep(f));
  }

  private void queueCloseAll() {
    for (int i = 0; i < files.count(); i++) {
      if (isOpen(i)) {
        int f = i;
        tail.add(closeStep(f));
      }
    }
  }

  /**
   * Chooses the next I/O, or starts the end or a new loop. True when an action was taken (the
   * step returns); false to continue the loop in {@link #step}.
   */
  private boolean prep(TaskCpu cpu) {
    if (thinking() || thinkDue()) {
      // thinktime: io_u_quiesce() first, then the spin and the sleep.
      if (quiesce(cpu) || think(cpu)) {
        return true;
      }
    }
    if (!mayIssue(cpu.now())) {
      startEnd();
      return false;
    }
    if (pool != null && inFlight >= depth) {
      // Every io_u is with a worker: wait until one is freed.
      return waitFree(cpu);
    }
    if (async() && inFlight + batch.size() >= depth) {
      // The queue is full: commit what is queued, else reap.
      if (!batch.isEmpty()) {
        commit(cpu);
        return true;
      }
      return waitFor(cpu, completeMin);
    }
    if (verifyPool != null && verifyPool.held() > 0
        && inFlight + batch.size() + verifyPool.held() >= depth) {
      // __get_io_u(): every io_u is in flight or with a verify thread: wait on free_cond.
      if (verifyPool.tryWaitFree(this)) {
        return false;
      }
      cpu.sleep();
      return true;
    }
    if (verifyReadDue()) {
      // get_next_verify(): the logged block's file, reopened if it is closed.
      cur = verifyReadFile();
      verifyPicked = true;
      if (!isOpen(cur)) {
        phase = Phase.OPEN;
        issueNs = cpu.now();
        call = calls().open(files.path(cur), openFlags());
        return false;
      }
      issue(cpu);
      return true;
    }
    cur = files.pick();
    if (cur < 0) {
      // Every file is done: a new loop (clear_io_state(), then unlink_each_loop).
      for (int i = 0; i < files.count(); i++) {
        if (isOpen(i)) {
          queueClose(i);
        }
      }
      if (job.unlinkEachLoop()) {
        for (int i = 0; i < files.count(); i++) {
          String p = files.path(i);
          tail.add(() -> remove(p));
        }
      }
      files.reset();
      if (files.allDone() || !anotherLoop()) {
        startEnd();
        return false;
      }
      phase = Phase.CLOSE_DONE;
      return false;
    }
    if (!isOpen(cur)) {
      phase = Phase.OPEN;
      issueNs = cpu.now();
      String path = files.path(cur);
      call = switch (engine) {
        // fileoperations.c open_file(), falloc.c open_file(): O_CREAT|O_RDWR, mode 0600.
        // The namespace changes hold the parent directory's i_rwsem (VfsCalls.underParentLock);
        // a stat walks the path without it.
        case FILECREATE -> calls().underParentLock(path,
            () -> calls().open(path, VfsCalls.O_CREAT | VfsCalls.O_RDWR));
        case FALLOC -> calls().open(path, VfsCalls.O_CREAT | VfsCalls.O_RDWR);
        case FILESTAT, DIRSTAT -> calls().stat(path);
        case FILEDELETE -> calls().underParentLock(path, () -> calls().unlink(path));
        case DIRCREATE -> calls().underParentLock(path, () -> calls().mkdir(path));
        case DIRDELETE -> calls().underParentLock(path, () -> calls().rmdir(path));
        default -> calls().open(path, openFlags());
      };
      return false;
    }
    issue(cpu);
    return true;
  }

  /** The flags fio opens a job's file with for its I/O ({@code file_setup()}'s O_DIRECT). */
  private int openFlags() {
    return VfsCalls.O_RDWR | VfsCalls.O_CREAT | (job.direct() ? VfsCalls.O_DIRECT : 0);
  }

  // ---- libaio ----

  /**
   * Queues the prepared I/O as an iocb ({@code fio_libaio_queue()}); commits when
   * {@code iodepth_batch_submit} are queued. True when an action was taken.
   */
  private boolean queueIo(TaskCpu cpu) {
    IoRequest r = IoRequest.prep(op, ioOffset, len, nextTag++);
    if (curCheckNs > 0) {
      checkNs.put(r.tag(), curCheckNs); // handed to a verify thread when reaped
      curCheckNs = 0;
    }
    // fio's start_time: the prepared I/O is queued to the engine (offload: to a worker).
    r.startNs(cpu.now());
    int f = cur;
    if (posix) {
      // fio_posixaio_queue(): aio_read()/aio_write() queues the request for the file's helper
      // and returns (FIO_Q_QUEUED, no commit): fio's issue time.
      inFlight++;
      r.issueNs(cpu.now() + costs.posixAioEnqueueNs());
      if (measuring()) {
        stats.recordIssue(inFlight);
        stats.recordSubmitBatch(1);
      }
      pool.handTo(cur % pool.size(), r, fds[cur], cpu);
    } else if (pool != null) {
      inFlight++;
      pool.hand(r, fds[cur], cpu);
    } else {
      batch.add(r);
      batchFile = cur;
    }
    boolean fileDone = !curVerifies && files.issued(f, len);
    phase = Phase.PREP;
    if (op == ReqOp.WRITE) {
      writes++;
      if (job.fsyncBlocks() > 0 && writes % job.fsyncBlocks() == 0
          || job.fdatasyncBlocks() > 0 && writes % job.fdatasyncBlocks() == 0) {
        // The sync runs once the writes in flight are reaped (libaio's do_io_u_sync()).
        tail.add(new TimedSync(() -> calls().fsync(fds[f]),
            job.fsyncBlocks() > 0 && writes % job.fsyncBlocks() == 0));
        phase = Phase.CLOSE_DONE;
      }
    }
    if (fileDone) {
      queueClose(f);
      phase = Phase.CLOSE_DONE;
    }
    if (pool == null && batch.size() >= batchSubmit) {
      commit(cpu);
      return true;
    }
    if (posix) {
      // The rest of fio's work on the io_u (as libaio's after io_submit()) and glibc's enqueue.
      cpu.runFor(CpuMode.USER, costs.userNsPerIo() - costs.userNsPerIo() / 2
          + costs.posixAioEnqueueNs());
      return true;
    }
    return false;
  }

  /**
   * {@code io_u_quiesce()}: commits what is queued, else waits for every I/O in flight. True when
   * an action was taken; false when nothing is queued or in flight (always for a synchronous
   * engine).
   */
  private boolean quiesce(TaskCpu cpu) {
    if (!async()) {
      return false;
    }
    if (pool != null) {
      // Offload: wait until the workers have freed every io_u.
      while (inFlight > 0) {
        if (waitFree(cpu)) {
          return true;
        }
      }
      return false;
    }
    if (!batch.isEmpty()) {
      commit(cpu);
      return true;
    }
    while (inFlight > 0) {
      if (waitFor(cpu, inFlight)) {
        return true;
      }
      // io_uring: reaped from the ring in user space (at most iodepth_batch_complete_max).
    }
    return false;
  }

  /** {@code io_submit()} of the queued iocbs ({@code td_io_commit()}). */
  private void commit(TaskCpu cpu) {
    startAio(cpu, aio.ioSubmit(fds[batchFile], batch), true);
  }

  /**
   * {@code io_getevents(min)}; always takes an action. With io_uring, fio's
   * {@code fio_ioring_getevents()} first reads the completion ring in user space and enters the
   * kernel ({@code io_uring_enter(IORING_ENTER_GETEVENTS)}) only when fewer than {@code min}
   * completions are there: then the events are reaped without a call and false is returned.
   */
  private boolean waitFor(TaskCpu cpu, int min) {
    int want = Math.min(min, inFlight);
    if (engine == FioEngine.IO_URING && want > 0 && aio.ring().ready() >= want) {
      reap(cpu);
      return false;
    }
    startAio(cpu, aio.ioGetevents(want), false);
    return true;
  }

  private void startAio(TaskCpu cpu, SystemCall c, boolean submitting) {
    aioCall = c;
    aioSubmitting = submitting;
    if (c.step(cpu)) {
      throw new IllegalStateException(job.name() + ": an aio call returned without its entry");
    }
  }

  /**
   * io_submit() returned: slat ends and clat starts for the batch; fio's engine finishes the
   * commit in user space (the second half of its per-I/O user time).
   */
  private void submitted(TaskCpu cpu) {
    long now = cpu.now();
    for (IoRequest r : batch) {
      r.issueNs(now);
      inFlight++;
      if (measuring()) {
        stats.recordIssue(inFlight);
      }
    }
    if (measuring()) {
      stats.recordSubmitBatch(batch.size());
    }
    batch.clear();
    batchFile = -1;
    cpu.runFor(CpuMode.USER, costs.userNsPerIo() - costs.userNsPerIo() / 2);
  }

  /** Reaps the events io_getevents() found (up to {@code iodepth_batch_complete_max}). */
  private void reap(TaskCpu cpu) {
    long now = cpu.now();
    int n = 0;
    int max = Math.max(completeMin, job.iodepthBatchCompleteMax());
    IoRequest done;
    while (n < max && (done = aio.ring().reap()) != null) {
      inFlight--;
      n++;
      if (deviceFilled(done.result())) {
        continue; // fill_device: the full filesystem ends the job, without an error
      }
      check(done.result(), (done.bio().op() == ReqOp.READ ? "read" : "write") + " iocb");
      if (measuring()) {
        stats.recordIo(ddir(done.bio().op()), done.bio().sizeBytes(),
            done.issueNs() - done.startNs(), now - done.issueNs(), now,
            done.bio().sector() << 9);
      }
      Long check = checkNs.isEmpty() ? null : checkNs.remove(done.tag());
      if (check != null) {
        verifyPool.hand(check, cpu); // verify_io_u_async()
      }
    }
    completed(n);
    if (n > 0 && measuring()) {
      stats.recordCompleteBatch(n);
    }
  }

  /** Takes the next I/O of the current file and spends fio's user time on it. */
  private void issue(TaskCpu cpu) {
    // A read of the verify log does not count against its file; verify_only's reads of the
    // write pattern do, as the writes would have.
    curVerifies = verifyPicked;
    if (verifyPicked) {
      verifyPicked = false;
      nextVerifyIo();
    } else {
      nextIo(files.pattern(cur), cur);
    }
    logFileIo(cur); // write_iolog: log_io_u() as the io_u is queued
    len = ioLen;
    op = ioOp;
    phase = Phase.CALL;
    // An asynchronous engine spends the other half after io_submit() returns (submitted()).
    // verify: a write's checksum or a read's check (verifyNs()), as on a device; with
    // verify_async a read's check is a verify thread's, once the read completes.
    long verify = verifyNs();
    curCheckNs = verifyPool != null ? verifyReadNs() : 0;
    cpu.runFor(CpuMode.USER,
        (async() ? costs.userNsPerIo() / 2 : costs.userNsPerIo()) + verify - curCheckNs);
  }

  /** The end: end_fsync / fsync_on_close of every file (inside the job's time). */
  private void startEnd() {
    phase = Phase.END_SYNC;
    // do_verify() ends without an end fsync (do_io()'s was before it).
    if (writes == 0 || fileOp || verifying() || !(job.endFsync() || job.fsyncOnClose())) {
      return;
    }
    for (int i = 0; i < files.count(); i++) {
      int f = i;
      if (fds[f] == null) {
        // fio_file_fsync(): a closed file is opened for its fsync and closed again.
        tail.add(new Step() {
          @Override
          public SystemCall make() {
            return calls().open(files.path(f), openFlags());
          }

          @Override
          public void returned(long ret) {
            check(ret, "open(" + files.path(f) + ")");
            fds[f] = calls().lastOpened();
            files.opened(f);
          }
        });
        tail.add(endSync(f));
        tail.add(closeStep(f));
      } else {
        tail.add(endSync(f));
      }
    }
  }

  // ---- ioengine=mmap ----

  /** The next call of the mmap engine's prep and queue, by {@link #mmapStage}. */
  private SystemCall mmapCall(TaskCpu cpu) {
    switch (mmapStage) {
      case MM_UNMAP:
        return calls().munmap(maps[cur]);
      case MM_MAP: {
        // fio_mmapio_prep_full(): the file's whole region from file_offset (page aligned here),
        // PROT_READ|PROT_WRITE for a job that reads and writes, PROT_WRITE for a writer, else
        // PROT_READ; MAP_SHARED.
        long off = startOffset(job) & ~4095L;
        mapOff[cur] = off;
        return calls().mmap(fds[cur], off, Math.max(4096, files.fileBytes(cur) - off),
            job.rw().writes());
      }
      case MM_ADVISE:
        return calls().madvise(maps[cur], madvice());
      case MM_ACCESS:
        issueNs = cpu.now();
        return calls().access(maps[cur], ioOffset - mapOff[cur], len, op == ReqOp.WRITE);
      default:
        // direct=1: "not really direct, but should drop the pages from the cache": msync() of
        // the range (glibc's posix_madvise(POSIX_MADV_DONTNEED) that follows is a no-op).
        return calls().msync(fds[cur]);
    }
  }

  /** A call of the mmap engine returned; true when an action was taken. */
  private boolean mmapReturned(TaskCpu cpu, long ret) {
    switch (mmapStage) {
      case MM_UNMAP:
        dropMapping(cur);
        mmapStage = MM_MAP;
        break;
      case MM_MAP:
        if (ret < 0) {
          failJob(ret); // td_verror(td, errno, "mmap")
          return false;
        }
        maps[cur] = calls().lastMapping();
        mmapStage = madvice() >= 0 ? MM_ADVISE : MM_ACCESS;
        break;
      case MM_ADVISE:
        mmapStage = MM_ACCESS;
        break;
      case MM_ACCESS:
        if (ret < 0) {
          failJob(ret); // the SIGBUS the copy would raise ends the job with its error
          return false;
        }
        if (job.direct()) {
          mmapStage = MM_MSYNC;
          break;
        }
        phase = Phase.IN_CALL;
        return returned(cpu, len);
      default:
        phase = Phase.IN_CALL;
        return returned(cpu, len);
    }
    call = mmapCall(cpu);
    return false;
  }

  /**
   * fio_madvise_file(): fadvise_hint 0 gives no advice; the default advises RANDOM for a random
   * job, else SEQUENTIAL; random and sequential as named; another hint (noreuse) is refused by
   * fio's "unknown madvise type", which leaves the mapping unadvised. -1 for none.
   */
  private int madvice() {
    int a = job.fadviseAdvice();
    if (a == blksim.kernel.mm.Readahead.POSIX_FADV_RANDOM) {
      return blksim.kernel.mm.FileMapping.MADV_RANDOM;
    }
    if (a == blksim.kernel.mm.Readahead.POSIX_FADV_SEQUENTIAL) {
      return blksim.kernel.mm.FileMapping.MADV_SEQUENTIAL;
    }
    return -1;
  }

  /**
   * Forgets file {@code f}'s mapping: after a munmap, or at close (fio's
   * fio_mmapio_close_file() frees its record without munmap(); the process keeps the mapping
   * until it exits, which blksim does not charge).
   */
  private void dropMapping(int f) {
    blksim.kernel.mm.FileMapping m = maps[f];
    if (m != null) {
      droppedMajf += m.majorFaults();
      droppedMinf += m.minorFaults();
      maps[f] = null;
    }
  }

  @Override
  protected long[] pageFaults() {
    if (engine != FioEngine.MMAP) {
      return null;
    }
    long majf = droppedMajf;
    long minf = droppedMinf;
    for (blksim.kernel.mm.FileMapping m : maps) {
      if (m != null) {
        majf += m.majorFaults();
        minf += m.minorFaults();
      }
    }
    return new long[] {majf, minf};
  }
}
