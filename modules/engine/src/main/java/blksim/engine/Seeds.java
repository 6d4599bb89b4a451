package blksim.engine;

import java.nio.charset.StandardCharsets;

/** Derivation of per-component random seeds from the run seed and a component id. */
public final class Seeds {
  private Seeds() {}

  /**
   * A seed for the component {@code componentId} in a run seeded with {@code runSeed}: FNV-1a of
   * the id's UTF-8 bytes, mixed with the run seed by SplitMix64's finaliser. Stable across JVMs.
   */
  public static long forComponent(long runSeed, String componentId) {
    long h = 0xcbf29ce484222325L;
    for (byte b : componentId.getBytes(StandardCharsets.UTF_8)) {
      h ^= b & 0xff;
      h *= 0x100000001b3L;
    }
    return mix(h ^ mix(runSeed));
  }

  /** SplitMix64's finaliser. */
  public static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
