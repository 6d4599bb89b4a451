package blksim.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Bio splitting at the queue limits: 1 MiB bios on null_blk (max_sectors 255) become the
 * kernel's nine requests each, with tag waits in the middle of a split (2 tags), and the results
 * are identical for every partitioning.
 */
@Timeout(240)
class BioSplitDeterminismTest {

  @Test
  void splitRequests_identicalAcrossPartitionings() {
    // get_max_io_size(): 255 sectors, so 1 MiB = 8 x 255 + 8 sectors, nine requests per I/O.
    DeterminismCheck.requestsPerIo_identicalAcrossPartitionings("det/split.conf", 100, 9,
        "nine requests per 1 MiB I/O");
  }
}
