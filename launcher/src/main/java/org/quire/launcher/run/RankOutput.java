package org.quire.launcher.run;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Copies one stream of one rank to the launcher's stream, line by line, each line prefixed with
 * {@code [rank] }. Lines of different ranks never interleave within a line. A line longer than
 * {@value #MAX_LINE} bytes is cut into several prefixed lines, so a rank that never prints a
 * newline cannot make the launcher buffer without bound. The line a JVM started with
 * {@code -XX:+ExitOnOutOfMemoryError} prints before it exits ({@value #OUT_OF_MEMORY}...) is also
 * handed to a listener, so the launcher can say why the rank ended (when the rank also exited with
 * the JVM's out-of-memory status, {@link RankExit#OUT_OF_MEMORY_STATUS}: any program may print the line).
 */
final class RankOutput implements Runnable {

    static final int MAX_LINE = 64 * 1024;
    /** HotSpot's line for ExitOnOutOfMemoryError, followed by the error's message. */
    static final String OUT_OF_MEMORY = "Terminating due to java.lang.OutOfMemoryError: ";

    private final InputStream from;
    private final OutputStream to;
    private final byte[] prefix;
    private final Consumer<String> onOutOfMemory;

    /** {@code onOutOfMemory} gets the OutOfMemoryError's message when the rank reports one. */
    RankOutput(int rank, InputStream from, OutputStream to, Consumer<String> onOutOfMemory) {
        this.from = from;
        this.to = to;
        this.prefix = ("[" + rank + "] ").getBytes(StandardCharsets.US_ASCII);
        this.onOutOfMemory = onOutOfMemory;
    }

    @Override
    public void run() {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try (from) {
            int n;
            while ((n = from.read(buffer)) > 0) {
                for (int i = 0; i < n; i++) {
                    line.write(buffer[i]);
                    if (buffer[i] == '\n') {
                        emit(line);
                    } else if (line.size() >= MAX_LINE) {
                        line.write('\n');
                        emit(line);
                    }
                }
            }
            if (line.size() > 0) {
                line.write('\n');
                emit(line);
            }
        } catch (IOException e) {
            // The rank's pipe broke because the rank was killed; what it printed so far is out.
        }
    }

    /** Writes {@code line}, which ends with a newline, and empties it. */
    private void emit(ByteArrayOutputStream line) {
        if (line.size() <= OUT_OF_MEMORY.length() + 200) {
            String text = line.toString(StandardCharsets.UTF_8);
            if (text.startsWith(OUT_OF_MEMORY)) {
                onOutOfMemory.accept(text.substring(OUT_OF_MEMORY.length()).strip());
            }
        }
        synchronized (to) {
            try {
                to.write(prefix);
                line.writeTo(to);
                to.flush();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write rank output", e);
            }
        }
        line.reset();
    }
}
