package org.quire.launcher;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the repository's {@code quire} script as a real process, the way a user does, and
 * captures what it prints. Tests that need the running process (to signal it, or a rank) use
 * {@link #start}; other real programs (mpjrun, srun, java) go through {@link #runProcess}.
 */
public final class QuireCommand {

    /** The repository root: surefire/failsafe set QUIRE_REPO_ROOT; else walk up to the parent pom. */
    public static Path repositoryRoot() {
        String fromBuild = System.getenv("QUIRE_REPO_ROOT");
        if (fromBuild != null) {
            return Path.of(fromBuild);
        }
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isRegularFile(dir.resolve("quire"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException("cannot find the repository root (the directory with the quire script)");
        }
        return dir;
    }

    /** Class path of this module's test workers. */
    public static String testWorkers() {
        return repositoryRoot().resolve("launcher/target/test-classes").toString();
    }

    /** A module's jar as the build copied it to launcher/target/lib, e.g. {@code moduleJar("runtime")}. */
    public static Path moduleJar(String module) {
        Path lib = repositoryRoot().resolve("launcher/target/lib");
        try (var jars = Files.list(lib)) {
            return jars.filter(p -> p.getFileName().toString().matches("quire-" + module + "-.*\\.jar")).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no quire-" + module + " jar in " + lib));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What a finished command printed and returned. */
    public record Result(int exitCode, String stdout, String stderr, Duration took) {
        public List<String> stdoutLines() {
            return stdout.lines().toList();
        }

        @Override
        public String toString() {
            return "exit " + exitCode + " after " + took.toMillis() + " ms\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
        }
    }

    /** A started command whose output is being collected. */
    public static final class Running {
        private final Process process;
        private final long startNanos = System.nanoTime();
        private final Collector out;
        private final Collector err;

        private Running(Process process) {
            this.process = process;
            this.out = new Collector(process.getInputStream());
            this.err = new Collector(process.getErrorStream());
        }

        public Process process() {
            return process;
        }

        public String stdoutSoFar() {
            return out.text();
        }

        /** What the command wrote on stderr so far (e.g. {@code quire run --show-pids}' lines). */
        public String stderrSoFar() {
            return err.text();
        }

        /** Waits for the end; a command still running after {@code limit} is killed and fails the test. */
        public Result await(Duration limit) throws InterruptedException {
            if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                throw new AssertionError(process.info().commandLine().orElse("the command") + " did not end within " + limit + "\n--- stdout\n" + out.text()
                        + "--- stderr\n" + err.text());
            }
            Duration took = Duration.ofNanos(System.nanoTime() - startNanos);
            out.thread.join(5000);
            err.thread.join(5000);
            return new Result(process.exitValue(), out.text(), err.text(), took);
        }
    }

    private static final class Collector {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final Thread thread;

        Collector(InputStream in) {
            thread = new Thread(() -> {
                byte[] buffer = new byte[8192];
                try (in) {
                    int n;
                    while ((n = in.read(buffer)) > 0) {
                        synchronized (bytes) {
                            bytes.write(buffer, 0, n);
                        }
                    }
                } catch (IOException streamClosedByProcessEnd) {
                    // The process was killed: what it printed before is kept.
                }
            });
            thread.setDaemon(true);
            thread.start();
        }

        String text() {
            synchronized (bytes) {
                return bytes.toString(StandardCharsets.UTF_8);
            }
        }
    }

    private QuireCommand() {
    }

    /** Starts {@code quire ARGS...} with {@code extraEnv} added to this process's environment. */
    public static Running start(Map<String, String> extraEnv, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(repositoryRoot().resolve("quire").toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        builder.environment().putAll(extraEnv);
        return new Running(builder.start());
    }

    public static Result run(Duration limit, String... args) throws IOException, InterruptedException {
        return start(Map.of(), args).await(limit);
    }

    /** Starts any command with the same output capture, e.g. a wrapper around quire. */
    public static Running startProcess(ProcessBuilder command) throws IOException {
        return new Running(command.start());
    }

    /** Runs any command to its end, with the same output capture and hang detection. */
    public static Result runProcess(ProcessBuilder command, Duration limit) throws IOException, InterruptedException {
        return new Running(command.start()).await(limit);
    }
}
