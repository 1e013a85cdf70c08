package org.quire.launcher.h5;

import java.io.PrintWriter;
import java.util.List;
import java.util.Objects;

/**
 * Where {@code quire watch} shows its looks. On a terminal the view is redrawn in place with
 * ANSI escapes: the cursor moves back up over the lines last drawn, which are cleared; line
 * wrapping is off meanwhile (DECAWM), so a line wider than the terminal is cut rather than
 * wrapped and the count of lines to go back up stays right. Anywhere else each look that
 * shows new rows or a new writer state is one plain line.
 */
final class WatchScreen implements AutoCloseable {

    private static final String ESC = "\u001b[";
    private static final String WRAP_OFF = ESC + "?7l";
    private static final String WRAP_ON = ESC + "?7h";
    private static final String CURSOR_HIDDEN = ESC + "?25l";
    private static final String CURSOR_SHOWN = ESC + "?25h";

    private final PrintWriter out;
    private final boolean terminal;
    private int linesDrawn;
    /** Rows and writer state of the last plain line. */
    private String lastPlainKey;

    WatchScreen(PrintWriter out, boolean terminal) {
        this.out = out;
        this.terminal = terminal;
        if (terminal) {
            out.print(WRAP_OFF + CURSOR_HIDDEN);
        }
    }

    void show(WatchReport report) {
        if (terminal) {
            if (linesDrawn > 0) {
                out.print(ESC + linesDrawn + "F" + ESC + "J"); // up to the first line, clear below
            }
            List<String> lines = report.screen();
            lines.forEach(out::println);
            linesDrawn = lines.size();
        } else {
            String key = report.sample().rows() + " " + report.writer().state();
            if (!Objects.equals(key, lastPlainKey)) {
                out.println(report.line());
                lastPlainKey = key;
            }
        }
        out.flush();
    }

    /** Whether standard output failed (its reader went away). */
    boolean failed() {
        return out.checkError();
    }

    /** The terminal as it was. */
    @Override
    public void close() {
        if (terminal) {
            out.print(WRAP_ON + CURSOR_SHOWN);
        }
        out.flush();
    }
}
