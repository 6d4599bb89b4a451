package blksim.cli;

import java.nio.file.Path;

/** Where the blksim installation is: {@code -Dblksim.home}, set by the launcher, or the cwd. */
final class Home {
  private Home() {}

  static Path dir() {
    String h = System.getProperty("blksim.home");
    return Path.of(h != null ? h : ".").toAbsolutePath().normalize();
  }

  static Path scenarios() {
    return dir().resolve("scenarios");
  }
}
