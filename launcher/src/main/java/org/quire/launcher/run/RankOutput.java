package org.quire.launcher.run;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Copies one stream of one rank to the launcher's stream, line by line, each line prefixed with
 * {@code [rank] }. Lines of different ranks never interleave within a line. A line longer than
 * {@value #MAX_LINE} bytes is cut into several prefixed lines, so a rank that never prints a
 * newline cannot make the launcher buffer without bound.
 */
final class RankOutput implements Runnable {

    static final int MAX_LINE = 64 * 1024;

    private final InputStream from;
    private final OutputStream to;
    private final byte[] prefix;

    RankOutput(int rank, InputStream from, OutputStream to) {
        this.from = from;
        this.to = to;
        this.prefix = ("[" + rank + "] ").getBytes(StandardCharsets.US_ASCII);
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
