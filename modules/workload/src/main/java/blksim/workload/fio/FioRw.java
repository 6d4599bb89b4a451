package blksim.workload.fio;

/**
 * The I/O pattern of a job: fio's {@code rw} / {@code readwrite} option.
 *
 * <p>Mirrors the {@code td_ddir} values and the {@code rw} posval table in fio's {@code options.c}
 * ({@code TD_DDIR_READ}, {@code TD_DDIR_RANDRW}, ...). The {@code :N} postfix is kept separately,
 * see {@link FioJob#rwSequencer()}. {@code readwrite} is accepted as a synonym of {@code rw}.
 */
public enum FioRw {
  READ("read"),
  WRITE("write"),
  TRIM("trim"),
  RANDREAD("randread"),
  RANDWRITE("randwrite"),
  RANDTRIM("randtrim"),
  RW("rw"),
  RANDRW("randrw"),
  TRIMWRITE("trimwrite"),
  RANDTRIMWRITE("randtrimwrite");

  private final String fioName;

  FioRw(String fioName) {
    this.fioName = fioName;
  }

  /** The name fio prints ({@code ddir_str()}), e.g. {@code randread} or {@code rw}. */
  public String fioName() {
    return fioName;
  }

  /** Whether offsets are random ({@code td_random()}). */
  public boolean isRandom() {
    return name().startsWith("RAND");
  }

  /** Whether the job issues reads. */
  public boolean reads() {
    return this == READ || this == RANDREAD || this == RW || this == RANDRW;
  }

  /** Whether the job issues writes (trimwrite patterns write after each trim). */
  public boolean writes() {
    return this == WRITE || this == RANDWRITE || this == RW || this == RANDRW
        || this == TRIMWRITE || this == RANDTRIMWRITE;
  }

  /** Whether the job issues trims (discards). */
  public boolean trims() {
    return this == TRIM || this == RANDTRIM || this == TRIMWRITE || this == RANDTRIMWRITE;
  }

  /** The pattern for an fio value without its {@code :N} postfix, or {@code null} if unknown. */
  static FioRw fromFioName(String value) {
    if (value.equals("readwrite")) {
      return RW;
    }
    for (FioRw rw : values()) {
      if (rw.fioName.equals(value)) {
        return rw;
      }
    }
    return null;
  }
}
