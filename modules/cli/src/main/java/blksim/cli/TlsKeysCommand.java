package blksim.cli;

import blksim.engine.InputException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code blksim tls-keys DIR}: a PKCS12 key store for a trial cluster, made with the JDK's
 * {@code keytool}: one EC P-256 key and its self-signed certificate, which every member uses both
 * to present and to trust, and a random password beside it (owner-only files).
 */
@Command(name = "tls-keys", mixinStandardHelpOptions = true,
    description = {"Make a key store for a TLS cluster (for a trial): DIR/blksim-cluster.p12 and"
        + " its password in DIR/blksim-cluster.p12.pass. Copy both to every member and start"
        + " each with --tls-keystore DIR/blksim-cluster.p12. For real use, issue certificates"
        + " from your own CA instead (see cluster-config/README.md).", "",
        "Example:", "  ./blksim tls-keys ~/.blksim-tls",
        "  ./blksim node --bind 10.0.0.5 --tls-keystore ~/.blksim-tls/blksim-cluster.p12"})
final class TlsKeysCommand implements Callable<Integer> {
  @Parameters(paramLabel = "DIR", description = "directory for the key store (created)")
  Path dir;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    Path ks = dir.resolve("blksim-cluster.p12");
    Path pass = dir.resolve("blksim-cluster.p12.pass");
    if (Files.exists(ks) || Files.exists(pass)) {
      throw new InputException(null, 0, "DIR", ks + " or its .pass exists already; remove it"
          + " or choose another directory");
    }
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      throw new InputException(null, 0, "DIR", dir + " is not a directory");
    }
    Files.createDirectories(dir);
    byte[] raw = new byte[24];
    new java.security.SecureRandom().nextBytes(raw);
    String pw = java.util.HexFormat.of().formatHex(raw);
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    Process p = new ProcessBuilder(List.of(keytool.toString(), "-genkeypair", "-alias",
        "blksim", "-keyalg", "EC", "-groupname", "secp256r1", "-sigalg", "SHA256withECDSA",
        "-validity", "825", "-dname", "CN=blksim cluster", "-storetype", "PKCS12",
        "-keystore", ks.toString(), "-storepass", pw, "-keypass", pw))
        .redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      Files.deleteIfExists(ks);
      throw new IOException("keytool failed: " + out.strip());
    }
    Files.writeString(pass, pw + "\n", StandardCharsets.UTF_8);
    if (dir.getFileSystem().supportedFileAttributeViews().contains("posix")) {
      Files.setPosixFilePermissions(ks, PosixFilePermissions.fromString("rw-------"));
      Files.setPosixFilePermissions(pass, PosixFilePermissions.fromString("rw-------"));
    }
    spec.commandLine().getOut().println("wrote " + ks + " and " + pass + " (owner-only)");
    return 0;
  }
}
