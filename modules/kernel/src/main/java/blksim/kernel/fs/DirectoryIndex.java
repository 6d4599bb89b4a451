package blksim.kernel.fs;

import java.util.Arrays;

/**
 * The entries of one directory, name -> inode slot, held compactly: an open-addressing table of
 * two int arrays (linear probing, deletion by backward shift, so no tombstones) pointing into one
 * byte arena per directory that holds each entry as its name's length (1 byte), the inode slot
 * (4 bytes) and the name's bytes. About 8 bytes of table per entry at the table's load (between
 * 3/8 and 3/4) plus 5 + the name's length in the arena; no object per entry.
 *
 * <p>A model of what a directory holds, not of XFS's on-disk directory formats (shortform, block,
 * leaf, node) or their costs. Removed entries leave garbage in the arena, which is compacted once
 * it is more than half of it. Iteration order is never used for behaviour.
 */
final class DirectoryIndex {
  private static final int MIN_CAPACITY = 8;
  /** Arena bytes per entry besides its name: the length byte and the slot. */
  private static final int ENTRY_HEADER = 5;

  /** Name hashes by table position. */
  private int[] hashes = new int[MIN_CAPACITY];
  /** Arena offset + 1 of the entry by table position; 0 = empty. */
  private int[] refs = new int[MIN_CAPACITY];
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
    int i = find(name, hash(name));
    return refs[i] == 0 ? -1 : slotAt(refs[i] - 1);
  }

  /** Adds {@code name} -> {@code slot}; the caller has checked that the name is absent. */
  void put(byte[] name, int slot) {
    if ((size + 1) * 4L > refs.length * 3L) {
      rehash(refs.length * 2);
    }
    int h = hash(name);
    int mask = refs.length - 1;
    int i = h & mask;
    while (refs[i] != 0) {
      i = (i + 1) & mask;
    }
    hashes[i] = h;
    refs[i] = store(name, slot) + 1;
    size++;
  }

  /** Removes {@code name}; its inode slot, or -1 if it was absent. */
  int remove(byte[] name) {
    int i = find(name, hash(name));
    if (refs[i] == 0) {
      return -1;
    }
    int off = refs[i] - 1;
    int slot = slotAt(off);
    garbage += ENTRY_HEADER + (arena[off] & 0xff);
    size--;
    // Backward-shift deletion: move later members of the probe run into the hole.
    int mask = refs.length - 1;
    int hole = i;
    for (int j = (i + 1) & mask; refs[j] != 0; j = (j + 1) & mask) {
      int home = hashes[j] & mask;
      // j's entry may move to the hole unless its home lies cyclically in (hole, j].
      boolean homeBetween = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
      if (!homeBetween) {
        hashes[hole] = hashes[j];
        refs[hole] = refs[j];
        hole = j;
      }
    }
    refs[hole] = 0;
    if (garbage > 4096 && garbage * 2 > arenaUsed) {
      compact();
    }
    if (size * 8L < refs.length && refs.length > MIN_CAPACITY) {
      rehash(refs.length / 2);
    }
    return slot;
  }

  /** Bytes held by this index's arrays, for the heap estimate. */
  long footprintBytes() {
    return 4L * hashes.length + 4L * refs.length + arena.length;
  }

  /** The table position of {@code name}, or of the empty position where it would go. */
  private int find(byte[] name, int h) {
    int mask = refs.length - 1;
    int i = h & mask;
    while (refs[i] != 0 && !(hashes[i] == h && nameEquals(refs[i] - 1, name))) {
      i = (i + 1) & mask;
    }
    return i;
  }

  private int slotAt(int off) {
    return (arena[off + 1] & 0xff) << 24 | (arena[off + 2] & 0xff) << 16
        | (arena[off + 3] & 0xff) << 8 | (arena[off + 4] & 0xff);
  }

  private int store(byte[] name, int slot) {
    int need = ENTRY_HEADER + name.length;
    if (arenaUsed + need > arena.length) {
      // Grow by a quarter: the arena is most of a directory's footprint.
      long want = Math.max((long) arena.length + (arena.length >> 2), (long) arenaUsed + need);
      if (want > Integer.MAX_VALUE - 8) {
        throw new IllegalStateException("directory name arena above 2 GiB");
      }
      arena = Arrays.copyOf(arena, (int) want);
    }
    int off = arenaUsed;
    arena[off] = (byte) name.length;
    arena[off + 1] = (byte) (slot >>> 24);
    arena[off + 2] = (byte) (slot >>> 16);
    arena[off + 3] = (byte) (slot >>> 8);
    arena[off + 4] = (byte) slot;
    System.arraycopy(name, 0, arena, off + ENTRY_HEADER, name.length);
    arenaUsed += need;
    return off;
  }

  private boolean nameEquals(int off, byte[] name) {
    int len = arena[off] & 0xff;
    if (len != name.length) {
      return false;
    }
    int from = off + ENTRY_HEADER;
    return Arrays.equals(arena, from, from + len, name, 0, len);
  }

  private void rehash(int capacity) {
    int[] oh = hashes;
    int[] or = refs;
    hashes = new int[capacity];
    refs = new int[capacity];
    int mask = capacity - 1;
    for (int k = 0; k < or.length; k++) {
      if (or[k] != 0) {
        int i = oh[k] & mask;
        while (refs[i] != 0) {
          i = (i + 1) & mask;
        }
        hashes[i] = oh[k];
        refs[i] = or[k];
      }
    }
  }

  /** Copies the live entries into a fresh arena, dropping those of removed entries. */
  private void compact() {
    byte[] old = arena;
    int live = arenaUsed - garbage;
    arena = new byte[Math.max(64, live + (live >> 2))];
    arenaUsed = 0;
    for (int k = 0; k < refs.length; k++) {
      if (refs[k] != 0) {
        int off = refs[k] - 1;
        int len = ENTRY_HEADER + (old[off] & 0xff);
        System.arraycopy(old, off, arena, arenaUsed, len);
        refs[k] = arenaUsed + 1;
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
