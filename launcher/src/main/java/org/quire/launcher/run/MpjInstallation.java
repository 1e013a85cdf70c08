package org.quire.launcher.run;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where MPJ Express is installed: {@code $MPJ_HOME} (its {@code lib/mpj.jar}) if set, else
 * Debian's {@code libmpj-java} ({@code /usr/share/java/mpj.jar}, home {@code /usr/share/mpj}).
 * Workers need the jar on their class path and {@code MPJ_HOME} for {@code conf/mpjexpress.conf}.
 */
record MpjInstallation(Path home, Path jar) {

    private static final Path DEBIAN_HOME = Path.of("/usr/share/mpj");
    private static final Path DEBIAN_JAR = Path.of("/usr/share/java/mpj.jar");

    static MpjInstallation locate(Map<String, String> env) {
        String home = env.get("MPJ_HOME");
        MpjInstallation found = home != null && !home.isBlank()
                ? new MpjInstallation(Path.of(home), Path.of(home, "lib", "mpj.jar"))
                : new MpjInstallation(DEBIAN_HOME, DEBIAN_JAR);
        if (!Files.isRegularFile(found.jar())) {
            throw new LaunchException("MPJ Express not found: " + found.jar() + " does not exist. Install Debian's"
                    + " libmpj-java (scripts/install-deps.sh does), set MPJ_HOME to an MPJ Express 0.44"
                    + " installation, or use --transport hazelcast");
        }
        return found;
    }
}
