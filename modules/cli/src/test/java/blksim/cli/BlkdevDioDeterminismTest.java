package blksim.cli;

import static blksim.cli.DeterminismCheck.sum;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * O_DIRECT bios of at most BIO_MAX_VECS pages ({@link blksim.kernel.fs.BlkdevDio}): 4 MiB reads
 * and writes on null_blk (max_sectors 255) with psync, libaio and io_uring are four 1 MiB bios
 * each, so 36 requests per I/O (one 4 MiB bio would be 33), with tag waits in the middle of a
 * dio (2 tags); the results are identical for every partitioning.
 */
@Timeout(240)
class BlkdevDioDeterminismTest {

  @Test
  void fourMibDirectIoIs36RequestsAndIdenticalAcrossPartitionings() {
    String reference = DeterminismCheck.requestsPerIo_identicalAcrossPartitionings(
        "det/maxvecs.conf", 20, 36, "four 1 MiB bios of nine requests per 4 MiB I/O");
    assertEquals(4L * (1 << 20) * sum(reference, "total_ios"), sum(reference, "io_bytes"),
        "each I/O reported once");
  }
}
