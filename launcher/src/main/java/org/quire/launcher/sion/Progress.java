package org.quire.launcher.sion;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A one-line progress report of a long operation on stderr, rewritten in place with a carriage
 * return at most four times a second and once more at the end; shown only when stderr is a
 * terminal, so that output piped or redirected to a file stays clean. Terminal detection reads
 * the link {@code /proc/self/fd/2} (Linux): a terminal is {@code /dev/pts/N}, {@code /dev/ttyN}
 * or {@code /dev/console}. Elsewhere no progress is shown.
 * ({@code System.console()} is no substitute: in Java 17 it is null as soon as stdout is
 * redirected, which is exactly when {@code quire sion cat > out} should report progress.)
 */
final class Progress implements AutoCloseable {

    private static final long UPDATE_INTERVAL_NANOS = 250_000_000L;

    private final PrintStream terminal;
    private final String label;
    private final long totalBytes;
    private long doneBytes;
    private long lastUpdateNanos;

    private Progress(PrintStream terminal, String label, long totalBytes) {
        this.terminal = terminal;
        this.label = label;
        this.totalBytes = totalBytes;
    }

    /** Progress of {@code label} over {@code totalBytes}, shown on stderr if stderr is a terminal. */
    static Progress onStderr(String label, long totalBytes) {
        return new Progress(stderrIsTerminal() ? System.err : null, label, totalBytes);
    }

    private static boolean stderrIsTerminal() {
        try {
            String device = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return device.startsWith("/dev/pts/") || device.startsWith("/dev/tty") || device.equals("/dev/console");
        } catch (IOException | UnsupportedOperationException noProcFileSystem) {
            return false;
        }
    }

    /** Whether anything will be shown: stderr is a terminal. */
    boolean active() {
        return terminal != null;
    }

    /** {@code bytes} more are done. */
    void advance(long bytes) {
        set(doneBytes + bytes);
    }

    /** {@code bytes} are done in all. */
    void set(long bytes) {
        doneBytes = bytes;
        long now = System.nanoTime();
        if (terminal != null && now - lastUpdateNanos >= UPDATE_INTERVAL_NANOS) {
            lastUpdateNanos = now;
            show();
        }
    }

    private void show() {
        String percent = totalBytes > 0
                ? String.format(Locale.ROOT, " (%d%%)", Math.min(100, 100 * doneBytes / totalBytes)) : "";
        terminal.print("\r" + label + ": " + size(doneBytes) + " of " + size(totalBytes) + percent + "\u001b[K");
        terminal.flush();
    }

    /** {@code bytes} in binary units with one decimal, e.g. {@code 9.3 KiB}. */
    static String size(long bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
        double value = bytes;
        int unit = 0;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return unit == 0 ? bytes + " B" : String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
    }

    /** Shows the final state and ends the line (on a terminal). */
    @Override
    public void close() {
        if (terminal != null) {
            show();
            terminal.println();
        }
    }
}
