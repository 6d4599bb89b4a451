package blksim.cli;

import blksim.engine.InputException;
import blksim.engine.pekko.ClusterRunner;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The cluster's TLS options, shared by {@code node}, {@code run --join} and
 * {@code sweep --join}: Artery's TLS transport with mutual authentication from one PKCS12 key
 * store that every member holds ({@code blksim tls-keys DIR} makes one for a trial).
 */
final class TlsOptions {
  @Option(names = "--tls", paramLabel = "auto|required", defaultValue = "auto",
      description = "auto (default): TLS when --tls-keystore is given; a bind address other than"
          + " loopback is refused without it. required: refuse to start without a key store"
          + " (TLS on loopback too, for trying it)")
  String mode;

  @Option(names = "--tls-keystore", paramLabel = "FILE",
      description = "PKCS12 key store holding this cluster's key and certificate (every member"
          + " the same; peers without it cannot join). Its password: --tls-password-file, else"
          + " $BLKSIM_TLS_PASSWORD, else FILE.pass")
  Path keyStore;

  @Option(names = "--tls-password-file", paramLabel = "FILE",
      description = "file whose first line is the key store's password")
  Path passwordFile;

  /** The TLS settings, or null for none; checks the options. */
  ClusterRunner.Tls resolve() {
    if (!mode.equals("auto") && !mode.equals("required")) {
      throw new InputException(null, 0, "--tls", "must be auto or required, was '" + mode + "'");
    }
    if (keyStore == null) {
      if (mode.equals("required")) {
        throw new InputException(null, 0, "--tls", "--tls=required needs --tls-keystore FILE"
            + " (make one with 'blksim tls-keys DIR')");
      }
      if (passwordFile != null) {
        throw new InputException(null, 0, "--tls-password-file", "needs --tls-keystore");
      }
      return null;
    }
    if (!Files.isRegularFile(keyStore)) {
      throw new InputException(null, 0, "--tls-keystore", keyStore + " is not a file");
    }
    String pw;
    Path pf = passwordFile != null ? passwordFile
        : Path.of(keyStore.toString() + ".pass");
    if (passwordFile == null && System.getenv("BLKSIM_TLS_PASSWORD") != null) {
      pw = System.getenv("BLKSIM_TLS_PASSWORD");
    } else {
      try {
        pw = Files.readAllLines(pf, StandardCharsets.UTF_8).stream().findFirst().orElse("")
            .strip();
      } catch (IOException e) {
        throw new InputException(null, 0, passwordFile != null ? "--tls-password-file"
            : "--tls-keystore", "cannot read the key store's password from " + pf
            + " (or set BLKSIM_TLS_PASSWORD): " + e.getMessage());
      }
    }
    try {
      java.security.KeyStore ks = java.security.KeyStore.getInstance("PKCS12");
      try (java.io.InputStream in = Files.newInputStream(keyStore)) {
        ks.load(in, pw.toCharArray());
      }
    } catch (IOException | java.security.GeneralSecurityException e) {
      throw new InputException(null, 0, "--tls-keystore", keyStore + ": cannot open it as a"
          + " PKCS12 key store with that password (" + e.getMessage() + ")");
    }
    return new ClusterRunner.Tls(keyStore, pw);
  }
}
