package org.quire.launcher;

import org.junit.jupiter.api.Assumptions;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

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
        return missing("'" + program + "' is not on PATH; install " + providedBy);
    }

    /**
     * Returns {@code program} if running it with {@code probe} succeeds (e.g. {@code /usr/bin/python3 -c
     * "import h5py"}), or fails/aborts the test like {@link #require}.
     */
    public static Path requireWorking(Path program, String providedBy, String... probe) {
        List<String> command = new ArrayList<>(List.of(program.toString()));
        command.addAll(List.of(probe));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (process.waitFor(60, TimeUnit.SECONDS) && process.exitValue() == 0) {
                return program;
            }
            process.destroyForcibly();
        } catch (IOException e) {
            // not installed: reported below
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return missing("'" + String.join(" ", command) + "' does not run; install " + providedBy);
    }

    private static Path missing(String what) {
        String message = "REQUIRED TOOL MISSING: " + what + " (scripts/install-deps.sh does)";
        System.err.println("*** " + message);
        if (System.getenv("CI") != null) {
            throw new AssertionError(message);
        }
        Assumptions.abort(message);
        return null;
    }
}
