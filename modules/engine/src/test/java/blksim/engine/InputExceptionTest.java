package blksim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import blksim.engine.synthetic.PingModelFactory;
import org.junit.jupiter.api.Test;

/** An error line names file, line, key and rule, and the key once. */
class InputExceptionTest {

  @Test
  void aRuleThatStartsWithItsKey_isNotPrefixedWithItAgain() {
    assertEquals("bad.fio:2: bs must be a positive multiple of 512, was 100",
        new InputException("bad.fio", 2, "bs", "bs must be a positive multiple of 512, was 100")
            .getMessage());
    assertEquals("t.log:4: time must be seconds.nanoseconds, was 'x'",
        new InputException("t.log", 4, "time", "time must be seconds.nanoseconds, was 'x'")
            .getMessage());
    assertEquals("bad.fio:3: bsx=1 is an unknown fio option",
        new InputException("bad.fio", 3, "bsx", "bsx=1 is an unknown fio option").getMessage());
  }

  @Test
  void aRuleThatStartsWithTheLastPartOfItsKey_takesTheWholeKeyInItsPlace() {
    InputException e = new InputException("s.conf", 2, "blksim.devices.0.nr-requests",
        "nr-requests must be auto or a whole number in [1, 65536], was 'lots'");
    assertEquals("s.conf:2: blksim.devices.0.nr-requests must be auto or a whole number in [1,"
        + " 65536], was 'lots'", e.getMessage());
    assertEquals("nr-requests must be auto or a whole number in [1, 65536], was 'lots'", e.rule());
    assertEquals("s.conf:2: blksim.devices.0.name: a device name is letters",
        new InputException("s.conf", 2, "blksim.devices.0.name", "a device name is letters")
            .getMessage());
  }

  @Test
  void aRuleThatDoesNotNameItsKey_getsTheKeyInFront() {
    InputException e = new InputException("bad.fio", 3, "iodepth", "must not be negative, was -1");
    assertEquals("bad.fio:3: iodepth: must not be negative, was -1", e.getMessage());
    assertEquals("iodepth", e.key());
    // A word that only begins like the key is not the key.
    assertEquals("x.fio:1: include: included file y does not exist",
        new InputException("x.fio", 1, "include", "included file y does not exist")
            .getMessage());
    assertEquals("bs: must be set", new InputException(null, 0, "bs", "must be set")
        .getMessage());
  }

  @Test
  void engineSpecErrors_nameTheirKeyOnce() {
    InputException range = assertThrows(InputException.class,
        () -> new PingModelFactory().build("components=1"));
    assertEquals("components must be in [2, 10000000], was 1", range.getMessage());
    assertEquals("components", range.key());
    InputException llcs = assertThrows(InputException.class,
        () -> new PingModelFactory().build("components=4 cpus=6 nodes=1 llcs=4"));
    assertEquals("llcs must divide cpus (6), was 4", llcs.getMessage());
    assertEquals("llcs", llcs.key());
    InputException nodes = assertThrows(InputException.class,
        () -> new PingModelFactory().build("components=4 cpus=6 nodes=4"));
    assertEquals("cpus must be a multiple of nodes (4), was 6", nodes.getMessage());
  }
}
