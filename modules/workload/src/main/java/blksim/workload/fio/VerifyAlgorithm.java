package blksim.workload.fio;

import blksim.workload.fio.FioValues.BadValue;

/**
 * fio's {@code verify=} checksums that blksim costs, each with its CPU time per byte checksummed.
 * fio computes the checksum over every written block ({@code populate_verify_io_u()}) and again
 * over every block it reads back to verify ({@code verify_io_u()}), in the job's thread (user
 * time). Data is not simulated: a verification never fails.
 *
 * <p>Sources of the costs (one reference machine, a 3.2 GHz Skylake, for all):
 * <ul>
 *   <li>{@code crc32c}, {@code crc32c-intel}: fio's {@code fio_crc32c()} ({@code crc/crc32c.h})
 *       takes {@code crc32c_intel()} whenever SSE4.2 is there, as on every x86 machine blksim
 *       models; that is one {@code crc32q} per 8 bytes in a serial chain
 *       ({@code crc/crc32c-intel.c}), and {@code crc32} on a 64-bit register has a latency of 3
 *       cycles (Intel, "Fast CRC Computation for iSCSI Polynomial Using CRC32 Instruction", 2011;
 *       Agner Fog's instruction tables, Skylake: CRC32 r64,r64 latency 3): 8 bytes per 3
 *       cycles, 8.53 GB/s at 3.2 GHz, 0.117 ns per byte.
 *   <li>{@code md5}: portable C MD5 (gcc -O2) at 661 MB/s on an Intel Core i5-6500 at 3.2 GHz
 *       (nayuki.io, "Fast MD5 hash implementation in x86 assembly", C baseline as quoted in the
 *       Zig std/crypto commit 0a280b6): 1.513 ns per byte. fio's {@code crc/md5.c} is such a
 *       portable C implementation.
 *   <li>{@code sha1}: portable C SHA-1 (gcc -O2) at 588 MB/s on the same machine (nayuki.io,
 *       "Fast SHA-1 hash implementation in x86 assembly", same commit): 1.701 ns per byte.
 *   <li>{@code crc64}: fio's {@code fio_crc64()} ({@code crc/crc64.c}) is Sarwate's
 *       byte-at-a-time table CRC, one dependent table load and two xors per byte, with no
 *       hardware path. A portable table CRC of that shape runs at about 5.4 cycles per byte
 *       (Crypto++'s C++ CRC-32C, "about 400 MB/s (about 5.4 cpb)" on a Core i5-5300 at 2.3
 *       GHz, weidai11/cryptopp issue #160, 2016); a 64-bit table entry does not lengthen the
 *       chain (an L1 load of 4-5 cycles plus an xor, Agner Fog's tables, Skylake). 5.4 cycles at
 *       3.2 GHz: 1.688 ns per byte.
 *   <li>{@code meta} ({@code VERIFY_HDR_ONLY}): fio checks only the verify header
 *       ({@code verify_header()} in {@code verify.c}: {@code fio_crc32c()} over the header up to
 *       its {@code crc32} field, 44 bytes of {@code struct verify_header}), one header per
 *       {@code verify_interval} (the block size by default), and fills it the same way on a write
 *       ({@code __fill_hdr()}); {@code populate_hdr()} computes no checksum of the data. So its
 *       cost is 44 bytes of crc32c per interval (see {@link #costNs(long, long)}).
 *   <li>{@code null}: fio only pretends to verify ({@code VERIFY_NULL}): no checksum.
 *   <li>{@code pattern} ({@code VERIFY_PATTERN_NO_HDR}): no header and no checksum. A read is
 *       checked by {@code verify_io_u_pattern()} ({@code verify.c}), whose
 *       {@code cmp_pattern()} ({@code lib/pattern.c}) memcmp()s the buffer against itself shifted
 *       by the pattern's size and then its first pattern-sized piece against the pattern: one
 *       memcmp() over every byte of the block. A write costs nothing per I/O:
 *       {@code fill_verify_pattern()} fills an io_u's buffer with the pattern once and then
 *       reuses it ("using already filled verify pattern", unless the pattern holds a format such
 *       as {@code %o}), and {@code populate_hdr()} does nothing for it. [D] the memcmp() cost:
 *       glibc's x86-64 {@code __memcmp_avx2_movbe} (glibc commit 935971ba, "Optimize x86-64
 *       memcmp/wmemcmp with AVX2 and MOVBE") compares 4 vectors of 32 bytes per loop, each
 *       vector compare two 32-byte loads; Skylake's L1 data cache serves two 32-byte loads per
 *       cycle (Intel 64 and IA-32 Architectures Optimization Reference Manual, the Skylake
 *       microarchitecture's cache table; not re-checked here: an upper bound on the rate), so 32
 *       bytes compared per cycle, 0.0098 ns per byte at 3.2 GHz. A sanity check on the development machine (a shared AMD EPYC, glibc
 *       2.36, 16 KiB blocks compared as cmp_pattern() does, warm): 0.016-0.040 ns per byte,
 *       the same order. Simplified: the block is taken to be in L1 (a block just read by DMA may
 *       not be, which only an LLC or memory bandwidth would bound), and the first fill of each
 *       io_u's buffer is not costed.
 * </ul>
 * The other algorithms fio has (crc32, crc16, crc7, sha256, sha512, sha3-*, xxhash,
 * pattern_hdr) are refused until a sourced figure is added here. Simplified: for the
 * checksumming algorithms the per-interval header fio writes and checks (44 bytes of crc32c per
 * {@code verify_interval}) and the random fill of each written buffer are not costed.
 */
public enum VerifyAlgorithm {
  /** {@code verify=0}: fio's default, no verification. */
  NONE("0", 0),
  /** {@code verify=null}: fio pretends to verify. */
  NULL("null", 0),
  /** {@code verify=crc32c}: fio_crc32c(), the SSE4.2 path on x86. */
  CRC32C("crc32c", 3.0 / 8 / 3.2),
  /** {@code verify=crc32c-intel}: the same code as crc32c on x86. */
  CRC32C_INTEL("crc32c-intel", 3.0 / 8 / 3.2),
  /** {@code verify=md5}. */
  MD5("md5", 1 / 0.661),
  /** {@code verify=sha1}. */
  SHA1("sha1", 1 / 0.588),
  /** {@code verify=crc64}: fio_crc64(), a byte-at-a-time table CRC. */
  CRC64("crc64", 5.4 / 3.2),
  /** {@code verify=meta}: fio's VERIFY_HDR_ONLY, the header's crc32c only. */
  META("meta", 3.0 / 8 / 3.2),
  /** {@code verify=pattern}: fio's VERIFY_PATTERN_NO_HDR, a memcmp() of each read block. */
  PATTERN("pattern", 1.0 / 32 / 3.2);

  /** {@code offsetof(struct verify_header, crc32)} ({@code verify.h}): what the header crc covers. */
  public static final int HEADER_CRC_BYTES = 44;

  private final String fioName;
  private final double nsPerByte;

  VerifyAlgorithm(String fioName, double nsPerByte) {
    this.fioName = fioName;
    this.nsPerByte = nsPerByte;
  }

  /** The name fio's {@code verify=} takes. */
  public String fioName() {
    return fioName;
  }

  /** CPU time per byte checksummed, ns. */
  public double nsPerByte() {
    return nsPerByte;
  }

  /** The user time of checksumming {@code bytes} bytes, ns. */
  public long costNs(long bytes) {
    return costNs(bytes, bytes);
  }

  /**
   * The user time of checksumming (or, for {@link #META}, of checking the headers of) an I/O of
   * {@code bytes} bytes with one verify header every {@code interval} bytes, ns.
   */
  public long costNs(long bytes, long interval) {
    if (this == META) {
      long headers = interval <= 0 ? 1 : Math.max(1, (bytes + interval - 1) / interval);
      return Math.round(headers * HEADER_CRC_BYTES * nsPerByte);
    }
    return Math.round(bytes * nsPerByte);
  }

  /**
   * The user time of verifying an I/O of {@code bytes} bytes: {@code write} its checksum
   * ({@code populate_verify_io_u()}), else a read's check ({@code verify_io_u()}), ns. The same
   * as {@link #costNs(long, long)} but for {@link #PATTERN}, whose writes reuse the buffer fio
   * filled with the pattern once and so cost nothing per I/O.
   */
  public long costNs(long bytes, long interval, boolean write) {
    if (this == PATTERN && write) {
      return 0;
    }
    return costNs(bytes, interval);
  }

  /** Whether fio verifies at all ({@code verify != VERIFY_NONE}). */
  public boolean enabled() {
    return this != NONE;
  }

  /** fio's other {@code verify=} values, which blksim refuses for now. */
  private static final java.util.List<String> UNCOSTED = java.util.List.of("crc32",
      "crc16", "crc7", "sha256", "sha512", "sha3-224", "sha3-256", "sha3-384", "sha3-512",
      "xxhash", "pattern_hdr");

  static VerifyAlgorithm parse(String value) {
    for (VerifyAlgorithm a : values()) {
      if (a.fioName.equals(value)) {
        return a;
      }
    }
    String modelled = "0, null, crc32c, crc32c-intel, md5, sha1, crc64, meta, pattern";
    if (UNCOSTED.contains(value)) {
      throw new BadValue("verify=" + value + " is not modelled by blksim: the CPU cost of its"
          + " checksum has no sourced figure yet; " + modelled + " are modelled");
    }
    throw new BadValue("must be one of " + modelled + ", " + String.join(", ", UNCOSTED)
        + ", was " + value);
  }
}
