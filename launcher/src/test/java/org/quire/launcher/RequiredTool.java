package org.quire.launcher;

import org.junit.jupiter.api.Assumptions;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * An external program a test uses as a real component. If it is missing the test fails under CI
 * (scripts/install-deps.sh installs it there) and elsewhere is aborted with a message saying
 * what to install; it never skips silently.
 */
public final class RequiredTool {

    private RequiredTool() {
    }

    /** Returns the program's path, or fails/aborts the test naming the package that provides it. */
    public static Path require(String program, String providedBy) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, program);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        String message = "REQUIRED TOOL MISSING: '" + program + "' is not on PATH; install " + providedBy
                + " (scripts/install-deps.sh does)";
        System.err.println("*** " + message);
        if (System.getenv("CI") != null) {
            throw new AssertionError(message);
        }
        Assumptions.abort(message);
        return null;
    }
}
