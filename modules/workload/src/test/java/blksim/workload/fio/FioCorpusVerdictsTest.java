package blksim.workload.fio;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import blksim.engine.InputException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Verdicts that job files of other projects (the CLI's fio-corpus) needed: what fio itself does
 * with SPDK's {@code bs=4k-512k} and empty {@code filename=}, and Ceph's {@code .so} engines.
 */
class FioCorpusVerdictsTest {

  private static InputException refused(String text) {
    return assertThrows(InputException.class,
        () -> FioJobFile.parse("c.fio", text, null, FioJobFileTest.ENV, Map.of()));
  }

  @Test
  void bsWithARange_isReadAsItsFirstSize_asFioParsesIt() {
    // parse.c: strtoll() stops at 'k', __get_mult_bytes() cuts "k-512k" at the '-'.
    FioJob j = FioJobFileTest.only("[j]\nfilename=/dev/sdb\nblocksize=4k-512k\n");
    assertArrayEquals(new long[] {4096, 4096, 4096}, j.bs());
    FioJob rw = FioJobFileTest.only("[j]\nfilename=/dev/sdb\nbs=8k:16k,64k\n");
    assertArrayEquals(new long[] {8192, 65536, 65536}, rw.bs());
  }

  @Test
  void aSharedObjectEngine_isAnExternalEngine_notAnUnknownOne() {
    InputException e = refused("[j]\nioengine=libfio_ceph_rados.so\n");
    assertTrue(e.rule().contains("ioengine=libfio_ceph_rados.so is not modelled")
        && e.rule().contains("shared object"), e.getMessage());
    InputException path = refused("[j]\nioengine=./app/fio/nvme/fio_plugin\n");
    assertTrue(path.rule().contains("is not modelled"), path.getMessage());
    InputException bdev = refused("[j]\nioengine=spdk_bdev\n");
    assertTrue(bdev.rule().contains("ioengine=spdk_bdev is not modelled"), bdev.getMessage());
  }

  @Test
  void anEmptyValue_isRefusedAsFioRefusesIt() {
    InputException e = refused("[global]\nfilename=\n[j]\nrw=read\n");
    assertTrue(e.rule().contains("needs a value") && e.rule().contains("fio fails the same way"),
        e.getMessage());
  }
}
