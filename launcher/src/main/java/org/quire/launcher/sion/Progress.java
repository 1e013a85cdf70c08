package org.quire.launcher.sion;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A one-line progress report of a long operation on stderr, rewritten in place with a carriage
 * return, shown only when stderr is a terminal: output that is piped or redirected to a file
 * stays clean. Terminal detection reads the link {@code /proc/self/fd/2} (Linux): a terminal is
 * {@code /dev/pts/N}, {@code /dev/ttyN} or {@code /dev/console}. Elsewhere no progress is shown.
 * ({@code System.console()} is no substitute: in Java 17 it is null as soon as stdout is
 * redirected, which is exactly when {@code quire sion cat > out} should report progress.)
 */
final class Progress implements AutoCloseable {

    private static final long UPDATE_INTERVAL_NANOS = 250_000_000L;
    private static final Progress SILENT = new Progress(null, "", 0);

    private final PrintStream terminal;
    private final String label;
    private final long totalBytes;
    private long doneBytes;
    private long lastUpdateNanos;
    private boolean shown;

    private Progress(PrintStream terminal, String label, long totalBytes) {
        this.terminal = terminal;
        this.label = label;
        this.totalBytes = totalBytes;
    }

    /** Progress of {@code label} over {@code totalBytes}, shown on stderr if stderr is a terminal. */
    static Progress onStderr(String label, long totalBytes) {
        return stderrIsTerminal() ? new Progress(System.err, label, totalBytes) : SILENT;
    }

    static boolean stderrIsTerminal() {
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
        String percent = totalBytes > 0 ? String.format(Locale.ROOT, " (%d%%)", Math.min(100, 100 * doneBytes / totalBytes)) : "";
        terminal.print("\r" + label + ": " + mebibytes(doneBytes) + " of " + mebibytes(totalBytes) + percent + "\u001b[K");
        terminal.flush();
        shown = true;
    }

    private static String mebibytes(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
    }

    /** Shows the final state and ends the line, if anything was shown. */
    @Override
    public void close() {
        if (terminal != null && shown) {
            show();
            terminal.println();
        }
    }
}
