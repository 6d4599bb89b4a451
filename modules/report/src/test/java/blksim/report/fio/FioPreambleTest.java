package blksim.report.fio;

import static org.junit.jupiter.api.Assertions.assertEquals;

import blksim.workload.fio.FioEnvironment;
import blksim.workload.fio.FioJob;
import blksim.workload.fio.FioJobFile;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The lines fio 3.36 prints before the job blocks (init.c add_job(), backend.c run_threads()). */
class FioPreambleTest {

    private static List<FioJob> parse(String text) {
        return FioJobFile.parse("t.fio", text, null, new FioEnvironment(8, 16384, 4096), Map.of());
    }

    @Test
    void oneJob_lineVersionAndStarting() {
        String out = FioPreamble.render(parse("[global]\nfilename=/dev/nullb0\n[randread]\nrw=randread\n"
            + "ioengine=libaio\niodepth=32\nbs=4k\n"));
        assertEquals("randread: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B,"
            + " ioengine=libaio, iodepth=32\nfio-3.36\nStarting 1 process\n", out);
    }

    @Test
    void numjobs_printsOneEllipsisLine_andCountsEveryClone() {
        String out = FioPreamble.render(parse("[w]\nfilename=/dev/sda\nrw=write\nbs=128k\nnumjobs=4\n"
            + "ioengine=psync\n"));
        assertEquals("w: (g=0): rw=write, bs=(R) 128KiB-128KiB, (W) 128KiB-128KiB, (T) 128KiB-128KiB,"
            + " ioengine=psync, iodepth=1\n...\nfio-3.36\nStarting 4 processes\n", out);
    }

    @Test
    void groupsRangesNamesAndThreads() {
        List<FioJob> jobs = parse("[global]\nfilename=/dev/sda\nioengine=psync\n"
            + "[a]\nname=first\nrw=readwrite\nbsrange=4k-1m\nthread\n"
            + "[b]\nstonewall\nrw=randtrim\nbs=8k,16k,32k\nthread\nnumjobs=2\n"
            + "[c]\nrw=read\nkb_base=1000\nbs=128k\n");
        String[] lines = FioPreamble.render(jobs).split("\n");
        assertEquals("first: (g=0): rw=rw, bs=(R) 4096B-1024KiB, (W) 4096B-1024KiB, (T) 4096B-1024KiB,"
            + " ioengine=psync, iodepth=1", lines[0]);
        assertEquals("b: (g=1): rw=randtrim, bs=(R) 8192B-8192B, (W) 16.0KiB-16.0KiB,"
            + " (T) 32.0KiB-32.0KiB, ioengine=psync, iodepth=1", lines[1]);
        assertEquals("...", lines[2]);
        // kb_base=1000: 128k is 128000 bytes, and num2str() uses SI prefixes (is_power_of_2 false)
        assertEquals("c: (g=1): rw=read, bs=(R) 128kB-128kB, (W) 128kB-128kB, (T) 128kB-128kB,"
            + " ioengine=psync, iodepth=1", lines[3]);
        assertEquals("fio-3.36", lines[4]);
        assertEquals("Starting 3 threads and 1 process", lines[5]);
        assertEquals(6, lines.length);
    }

    @Test
    void cpuio_hasNoAddJobLine_butItsEnginesInitLinePerClone() {
        // init.c add_job() prints nothing for a FIO_NOIO engine but the clones' "..."; each
        // thread's fio_cpuio_init() -> noop_init()/qsort_init() logs its line.
        String out = FioPreamble.render(parse("[global]\nioengine=cpuio\ntime_based\nruntime=1\n"
            + "[burn]\ncpuload=30\nnumjobs=2\n[q]\ncpuload=60\ncpumode=qsort\ncpuchunks=1000\n"));
        assertEquals("...\nfio-3.36\nStarting 3 processes\n"
            + "burn (noop): ioengine=cpuio, cpuload=30, cpucycle=50000\n"
            + "burn (noop): ioengine=cpuio, cpuload=30, cpucycle=50000\n"
            + "q (qsort): ioengine=cpuio, cpuload=60, cpucycle=1000\n", out);
    }

    @Test
    void startingLine_asRunThreadsJoinsThem() {
        assertEquals("Starting 1 thread", FioPreamble.starting(1, 0));
        assertEquals("Starting 2 processes", FioPreamble.starting(0, 2));
        assertEquals("Starting 2 threads and 1 process", FioPreamble.starting(2, 1));
        assertEquals("", FioPreamble.render(List.of()));
    }
}
