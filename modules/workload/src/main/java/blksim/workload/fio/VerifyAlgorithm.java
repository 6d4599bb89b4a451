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
 *   <li>{@code null}: fio only pretends to verify ({@code VERIFY_NULL}): no checksum.
 * </ul>
 * The other algorithms fio has (crc64, crc32, crc16, crc7, sha256, sha512, sha3-*, xxhash,
 * meta, pattern, pattern_hdr) are refused until a sourced figure is added here. Simplified:
 * the per-interval header fio writes and checks ({@code verify_interval}) and the random fill
 * of each written buffer are not costed.
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
  SHA1("sha1", 1 / 0.588);

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
    return Math.round(bytes * nsPerByte);
  }

  /** Whether fio verifies at all ({@code verify != VERIFY_NONE}). */
  public boolean enabled() {
    return this != NONE;
  }

  /** fio's other {@code verify=} values, which blksim refuses for now. */
  private static final java.util.List<String> UNCOSTED = java.util.List.of("crc64", "crc32",
      "crc16", "crc7", "sha256", "sha512", "sha3-224", "sha3-256", "sha3-384", "sha3-512",
      "xxhash", "meta", "pattern", "pattern_hdr");

  static VerifyAlgorithm parse(String value) {
    for (VerifyAlgorithm a : values()) {
      if (a.fioName.equals(value)) {
        return a;
      }
    }
    String modelled = "0, null, crc32c, crc32c-intel, md5, sha1";
    if (UNCOSTED.contains(value)) {
      throw new BadValue("verify=" + value + " is not modelled by blksim: the CPU cost of its"
          + " checksum has no sourced figure yet; " + modelled + " are modelled");
    }
    throw new BadValue("must be one of " + modelled + ", " + String.join(", ", UNCOSTED)
        + ", was " + value);
  }
}
