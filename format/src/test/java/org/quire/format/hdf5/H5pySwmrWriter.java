package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A running {@code swmr_writer.py} (test resources, hdf5/): h5py's, that is libhdf5's, SWMR
 * writer, appending to the datasets {@code plain}, {@code packed} and {@code records} as the
 * test tells it (lockstep) or flat out, saying after each flush how many elements every dataset
 * holds. Public for the launcher's CLI tests (the format module's test jar).
 */
public final class H5pySwmrWriter implements AutoCloseable {

    private final Process process;
    private final BufferedReader out;
    private final Writer in;
    private final Path stderr;
    /** The directory the script was copied into, removed with it at close. */
    private final Path scriptDirectory;
    private long flushed;

    private H5pySwmrWriter(Process process, Path stderr, Path scriptDirectory) {
        this.process = process;
        this.stderr = stderr;
        this.scriptDirectory = scriptDirectory;
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
        this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    }

    /** Starts the writer of {@code file} with {@code arguments} and waits for "ready". */
    public static H5pySwmrWriter start(Path file, String... arguments) throws IOException {
        ExternalTools.requireH5py();
        Path scriptDirectory = Files.createTempDirectory("quire-swmr-writer");
        Path script = ExternalTools.resource("swmr_writer.py", scriptDirectory);
        Path stderr = Files.createTempFile("quire-swmr-writer", ".err");
        List<String> command = new ArrayList<>(List.of(ExternalTools.PYTHON.toString(),
                script.toString(), file.toString()));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
        H5pySwmrWriter writer = new H5pySwmrWriter(process, stderr, scriptDirectory);
        writer.expect("ready");
        return writer;
    }

    /** The next line of the writer, which must start with {@code word}; its number, if any. */
    public long expect(String word) throws IOException {
        String line = out.readLine();
        if (line == null || !line.startsWith(word)) {
            fail("h5py writer said " + line + " where '" + word + "' was expected; stderr: "
                    + Files.readString(stderr));
        }
        String[] words = line.split(" ");
        long number = words.length > 1 ? Long.parseLong(words[1]) : -1;
        if (word.equals("flushed")) {
            flushed = number;
        }
        return number;
    }

    /** Lockstep: appends {@code count} elements and waits for their flush; returns the total. */
    public long append(int count) throws IOException {
        return command("append " + count, "flushed");
    }

    /**
     * Lockstep: sends {@code line} (a command of swmr_writer.py) and waits for its answer, a line
     * starting with {@code reply}; returns the answer's number.
     */
    public long command(String line, String reply) throws IOException {
        in.write(line + "\n");
        in.flush();
        return expect(reply);
    }

    /** Elements flushed as of the last "flushed" line read. */
    public long flushed() {
        return flushed;
    }

    public long pid() {
        return process.pid();
    }

    /** SIGKILL (by its process id), and waits for it to be gone. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "writer " + pid() + " still runs");
    }

    /** Lockstep: closes the file cleanly; returns the total. */
    public long closeFile() throws IOException, InterruptedException {
        in.write("close\n");
        in.flush();
        return awaitClosed();
    }

    /** Waits for "closed N" and the exit. */
    public long awaitClosed() throws IOException, InterruptedException {
        String line;
        while ((line = out.readLine()) != null && !line.startsWith("closed")) {
            if (line.startsWith("flushed")) {
                flushed = Long.parseLong(line.split(" ")[1]);
            }
        }
        if (line == null) {
            fail("h5py writer ended without closing; stderr: " + Files.readString(stderr));
        }
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        return Long.parseLong(line.split(" ")[1]);
    }

    @Override
    public void close() throws IOException {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
        Files.deleteIfExists(stderr);
        Files.deleteIfExists(scriptDirectory.resolve("swmr_writer.py"));
        Files.deleteIfExists(scriptDirectory);
    }
}
