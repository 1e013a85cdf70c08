package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

/**
 * The reference tools used as oracles: {@code /usr/bin/python3} with h5py (not the pyenv python
 * first on PATH, which has no h5py), {@code h5dump} and {@code h5debug}, and (through
 * {@code org.quire.format.sion.SionlibTools}) SIONlib's own tools. A missing tool fails the
 * test when the environment variable {@code CI} is set, and otherwise aborts it loudly (JUnit
 * "aborted", with the reason on stderr) - never a silent skip.
 */
public final class ExternalTools {

    public static final Path PYTHON = Path.of("/usr/bin/python3");
    private static Boolean h5pyPresent;

    private ExternalTools() {
    }

    public record Result(int exitCode, String stdout, String stderr) {
        /** Both streams, for assertion messages. */
        public String output() {
            return stdout + (stderr.isEmpty() ? "" : "\n--- stderr ---\n" + stderr);
        }
    }

    public static void requireH5py() {
        startsOutsideProgram(PYTHON + " with h5py");
        if (h5pyPresent == null) {
            h5pyPresent = Files.isExecutable(PYTHON)
                    && run(List.of(PYTHON.toString(), "-c", "import h5py, numpy"), 60).exitCode() == 0;
        }
        if (!h5pyPresent) {
            missing(PYTHON + " with h5py and numpy (Debian: apt-get install python3-h5py)");
        }
    }

    public static void requireTool(String name) {
        startsOutsideProgram(name);
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
                return;
            }
        }
        missing(name + " on PATH (Debian: apt-get install hdf5-tools)");
    }

    /**
     * Called just before a test starts {@code program}: with the system property
     * {@code quire.noOutsidePrograms=true} (mutation runs) fails the test at once, because only tests
     * tagged {@link org.quire.format.StartsOutsideProgram} may start one there.
     */
    public static void startsOutsideProgram(String program) {
        if (Boolean.getBoolean("quire.noOutsidePrograms")) {
            fail("this test starts " + program + " but is not tagged @StartsOutsideProgram");
        }
    }

    /** Fails (under CI) or loudly aborts the running test: the oracle {@code what} is missing. */
    public static void missing(String what) {
        String message = "REQUIRED ORACLE MISSING: " + what;
        System.err.println(message);
        if (System.getenv("CI") != null) {
            fail(message + " (CI is set, so this is a failure)");
        }
        Assumptions.abort(message);
    }

    /** Runs {@code command}, waiting at most {@code timeoutSeconds}. */
    public static Result run(List<String> command, int timeoutSeconds) {
        try {
            Path out = Files.createTempFile("quire-tool", ".out");
            try {
                Result result = run(command, out, timeoutSeconds);
                return result.exitCode() == -1 ? result
                        : new Result(result.exitCode(), Files.readString(out, StandardCharsets.UTF_8), result.stderr());
            } finally {
                Files.deleteIfExists(out);
            }
        } catch (IOException e) {
            return new Result(-1, "", "cannot run " + command + ": " + e);
        }
    }

    /**
     * Runs {@code command} with its standard output (binary data, e.g. {@code sioncat}'s) going to
     * {@code stdout}; the result's stdout is empty.
     */
    public static Result run(List<String> command, Path stdout, int timeoutSeconds) {
        try {
            startsOutsideProgram(command.get(0));
            Path err = Files.createTempFile("quire-tool", ".err");
            try {
                Process process = new ProcessBuilder(new ArrayList<>(command))
                        .redirectOutput(stdout.toFile()).redirectError(err.toFile()).start();
                if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    fail("timed out after " + timeoutSeconds + " s: " + command);
                }
                return new Result(process.exitValue(), "", Files.readString(err, StandardCharsets.UTF_8));
            } finally {
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            return new Result(-1, "", "cannot run " + command + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Copies a test resource under {@code hdf5/} to {@code dir} and returns its path. */
    static Path resource(String name, Path dir) throws IOException {
        try (var in = ExternalTools.class.getResourceAsStream("/hdf5/" + name)) {
            if (in == null) {
                throw new IOException("test resource hdf5/" + name + " is missing");
            }
            Path target = dir.resolve(name);
            Files.copy(in, target);
            return target;
        }
    }
}
