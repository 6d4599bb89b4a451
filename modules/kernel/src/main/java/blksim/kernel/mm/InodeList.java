package blksim.kernel.mm;

/**
 * One of a {@link BdiWriteback}'s inode lists ({@code b_dirty}, {@code b_io},
 * {@code b_more_io}): an intrusive doubly linked list through {@link AddressSpace#ioPrev} and
 * {@link AddressSpace#ioNext}. The kernel adds at the head and takes from the tail
 * ({@code wb_inode(wb->b_io.prev)}), so the tail holds the oldest; here {@link #oldest()} is the
 * tail and {@link #addNewest} the head.
 */
final class InodeList {
  final String name;
  private AddressSpace newest;
  private AddressSpace oldest;
  private long size;

  InodeList(String name) {
    this.name = name;
  }

  boolean isEmpty() {
    return size == 0;
  }

  long size() {
    return size;
  }

  AddressSpace oldest() {
    return oldest;
  }

  AddressSpace newest() {
    return newest;
  }

  /** {@code list_move(&inode->i_io_list, head)}: the inode becomes the newest of this list. */
  void addNewest(AddressSpace as) {
    unlink(as);
    as.ioList = this;
    as.ioPrev = null;
    as.ioNext = newest;
    if (newest != null) {
      newest.ioPrev = as;
    } else {
      oldest = as;
    }
    newest = as;
    size++;
  }

  /** Adds as the oldest ({@code list_move_tail}-like on the kernel's reversed view). */
  void addOldest(AddressSpace as) {
    unlink(as);
    as.ioList = this;
    as.ioNext = null;
    as.ioPrev = oldest;
    if (oldest != null) {
      oldest.ioNext = as;
    } else {
      newest = as;
    }
    oldest = as;
    size++;
  }

  /** Removes {@code as} from whichever list holds it. */
  static void unlink(AddressSpace as) {
    InodeList l = as.ioList;
    if (l == null) {
      return;
    }
    if (as.ioPrev != null) {
      as.ioPrev.ioNext = as.ioNext;
    } else {
      l.newest = as.ioNext;
    }
    if (as.ioNext != null) {
      as.ioNext.ioPrev = as.ioPrev;
    } else {
      l.oldest = as.ioPrev;
    }
    as.ioPrev = null;
    as.ioNext = null;
    as.ioList = null;
    l.size--;
  }
}
