package blksim.engine.pekko;

import blksim.engine.Model;
import blksim.engine.ModelFactory;

/**
 * A model factory that is not on the allow-list: a forged start-up message names it. Its static
 * initialiser records in the test class whether it was ever initialised.
 */
public final class ForgedFactory implements ModelFactory {
  static {
    PartitionEntityTest.FORGED_INITIALISED.set(true);
  }

  @Override
  public Model build(String spec) {
    throw new AssertionError("a forged factory must never build");
  }
}
