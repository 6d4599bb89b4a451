package blksim.kernel.fs;

import java.util.Arrays;

/**
 * The entries of one directory, name -> inode slot, held compactly: an open-addressing table of
 * primitive arrays (linear probing, deletion by backward shift, so no tombstones) whose names live
 * as bytes in one arena per directory. About 16 bytes of table per entry at the table's load
 * (between 3/8 and 3/4) plus the name's bytes; no object per entry.
 *
 * <p>A model of what a directory holds, not of XFS's on-disk directory formats (shortform, block,
 * leaf, node) or their costs. Unlinked names leave garbage in the arena, which is compacted once
 * it is more than half of it. Iteration order is never used for behaviour.
 */
final class DirectoryIndex {
  private static final int MIN_CAPACITY = 8;
  /** A name reference packs the arena offset above the 8-bit length (NAME_MAX = 255). */
  private static final int LEN_BITS = 8;

  /** Name hashes by table slot. */
  private int[] hashes = new int[MIN_CAPACITY];
  /** Inode slot + 1 by table slot; 0 = empty. */
  private int[] values = new int[MIN_CAPACITY];
  /** (arena offset << 8) | length by table slot. */
  private long[] names = new long[MIN_CAPACITY];
  private byte[] arena = new byte[64];
  private int arenaUsed;
  private int garbage;
  private int size;
  /** The parent directory's inode slot ({@code ..}); the root is its own parent. */
  private final int parent;

  DirectoryIndex(int parent) {
    this.parent = parent;
  }

  /** The parent directory's inode slot. */
  int parent() {
    return parent;
  }

  /** Number of entries. */
  int size() {
    return size;
  }

  /** The inode slot of {@code name}, or -1. */
  int get(byte[] name) {
    int h = hash(name);
    int mask = values.length - 1;
    for (int i = h & mask; values[i] != 0; i = (i + 1) & mask) {
      if (hashes[i] == h && nameEquals(names[i], name)) {
        return values[i] - 1;
      }
    }
    return -1;
  }

  /** Adds {@code name} -> {@code slot}; the caller has checked that the name is absent. */
  void put(byte[] name, int slot) {
    if ((size + 1) * 4L > values.length * 3L) {
      rehash(values.length * 2);
    }
    int h = hash(name);
    int mask = values.length - 1;
    int i = h & mask;
    while (values[i] != 0) {
      i = (i + 1) & mask;
    }
    hashes[i] = h;
    values[i] = slot + 1;
    names[i] = store(name);
    size++;
  }

  /** Removes {@code name}; its inode slot, or -1 if it was absent. */
  int remove(byte[] name) {
    int h = hash(name);
    int mask = values.length - 1;
    int i = h & mask;
    while (values[i] != 0 && !(hashes[i] == h && nameEquals(names[i], name))) {
      i = (i + 1) & mask;
    }
    if (values[i] == 0) {
      return -1;
    }
    int slot = values[i] - 1;
    garbage += (int) (names[i] & ((1 << LEN_BITS) - 1));
    size--;
    // Backward-shift deletion: move later members of the probe run into the hole.
    int hole = i;
    for (int j = (i + 1) & mask; values[j] != 0; j = (j + 1) & mask) {
      int home = hashes[j] & mask;
      // j's entry may move to the hole unless its home lies cyclically in (hole, j].
      boolean homeBetween = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
      if (!homeBetween) {
        hashes[hole] = hashes[j];
        values[hole] = values[j];
        names[hole] = names[j];
        hole = j;
      }
    }
    values[hole] = 0;
    if (garbage > 4096 && garbage * 2 > arenaUsed) {
      compact();
    }
    if (size * 8L < values.length && values.length > MIN_CAPACITY) {
      rehash(values.length / 2);
    }
    return slot;
  }

  /** Bytes held by this index (arrays only), for the heap estimate. */
  long footprintBytes() {
    return 4L * hashes.length + 4L * values.length + 8L * names.length + arena.length;
  }

  private long store(byte[] name) {
    if (arenaUsed + name.length > arena.length) {
      long want = Math.max((long) arena.length * 2, (long) arenaUsed + name.length);
      if (want > Integer.MAX_VALUE - 8) {
        throw new IllegalStateException("directory name arena above 2 GiB");
      }
      arena = Arrays.copyOf(arena, (int) want);
    }
    System.arraycopy(name, 0, arena, arenaUsed, name.length);
    long ref = ((long) arenaUsed << LEN_BITS) | name.length;
    arenaUsed += name.length;
    return ref;
  }

  private boolean nameEquals(long ref, byte[] name) {
    int len = (int) (ref & ((1 << LEN_BITS) - 1));
    if (len != name.length) {
      return false;
    }
    int off = (int) (ref >>> LEN_BITS);
    return Arrays.equals(arena, off, off + len, name, 0, len);
  }

  private void rehash(int capacity) {
    int[] oh = hashes;
    int[] ov = values;
    long[] on = names;
    hashes = new int[capacity];
    values = new int[capacity];
    names = new long[capacity];
    int mask = capacity - 1;
    for (int k = 0; k < ov.length; k++) {
      if (ov[k] != 0) {
        int i = oh[k] & mask;
        while (values[i] != 0) {
          i = (i + 1) & mask;
        }
        hashes[i] = oh[k];
        values[i] = ov[k];
        names[i] = on[k];
      }
    }
  }

  /** Copies the live names into a fresh arena, dropping those of removed entries. */
  private void compact() {
    byte[] old = arena;
    arena = new byte[Math.max(64, Integer.highestOneBit(Math.max(1, arenaUsed - garbage)) * 2)];
    arenaUsed = 0;
    for (int k = 0; k < values.length; k++) {
      if (values[k] != 0) {
        int len = (int) (names[k] & ((1 << LEN_BITS) - 1));
        int off = (int) (names[k] >>> LEN_BITS);
        System.arraycopy(old, off, arena, arenaUsed, len);
        names[k] = ((long) arenaUsed << LEN_BITS) | len;
        arenaUsed += len;
      }
    }
    garbage = 0;
  }

  /** A 32-bit hash of the name's bytes, mixed so that linear probing spreads similar names. */
  private static int hash(byte[] name) {
    int h = 0x9E3779B9;
    for (byte b : name) {
      h = (h ^ (b & 0xff)) * 0x01000193;
    }
    h ^= h >>> 16;
    h *= 0x85EBCA6B;
    h ^= h >>> 13;
    return h;
  }
}
