package org.quire.launcher.h5;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.quire.format.hdf5.Hdf5File;
import org.quire.launcher.CommandRun;
import org.quire.launcher.QuireVersion;
import org.quire.launcher.UsageException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * {@code quire watch FILE DATASET}: follows a dataset another process appends to, as an SWMR
 * reader ({@link Hdf5File#openSwmr}, {@link org.quire.format.hdf5.Dataset#refresh}), without
 * a word to the writer: every {@code --interval} it asks after the writer ({@link
 * WriterProbe}), refreshes the dataset and shows the look ({@link WatchReport}) on a {@link
 * WatchScreen}, until Ctrl-C or, with {@code --until-writer-exits}, until the writer is gone.
 * {@code --once} shows one look (two, an interval apart, while a writer may be writing: the
 * rate needs them) and exits. The file is held only while a writer may be writing it ({@link
 * WatchedFile}), so a watch left running never stops a restarted job's writer.
 */
@Command(name = "watch",
        mixinStandardHelpOptions = true,
        versionProvider = QuireVersion.class,
        description = "Follows DATASET of FILE while another process (a Quire or libhdf5/h5py SWMR"
                + " writer) appends to it, as an SWMR reader that never talks to the writer; a closed"
                + " file works too. DATASET is a table: rank 1 of numbers or of compounds of numbers"
                + " (a column per member), or rank 2 of numbers (a column per index of the second"
                + " dimension). Shows the row count, the rate in rows/s, the writer's state (alive or"
                + " dead by a Quire writer's lock and heartbeat; closed; unknown for a writer that keeps"
                + " no Quire record), the last row's values and a sparkline of one column over the last"
                + " 40 rows. On a terminal the view is redrawn in place; otherwise each look with new rows"
                + " or a new writer state is one line. Stops on Ctrl-C.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
            "0:stopped by Ctrl-C or --until-writer-exits, or --once showed its look",
            "1:the file cannot be read (not HDF5, damaged, open by a writer that is not an SWMR writer),"
                    + " has no such dataset, or the dataset is not a table of numbers",
            "2:bad arguments (no such file, no such column, --json without --once)"})
public final class WatchCommand implements Callable<Integer> {

    /** Rows the sparkline draws. */
    static final int DRAWN_ROWS = 40;

    /** How often a Quire writer's coming or going is asked after between looks. */
    private static final long RELEASE_POLL_NANOS = 50_000_000L;

    @Spec
    private CommandSpec spec;

    @Mixin
    private Hdf5Input input;

    @Parameters(index = "1", paramLabel = "DATASET", description = "path of a dataset, e.g. /diagnostics")
    private String datasetPath;

    @Option(names = "--column", paramLabel = "NAME",
            description = "the column the sparkline draws (default: the last one)")
    private String columnName;

    @Option(names = "--interval", paramLabel = "SECONDS", defaultValue = "1",
            description = "time between looks (default: ${DEFAULT-VALUE})")
    private double intervalSeconds;

    @Option(names = "--once", description = "show one look and exit (two looks an interval apart"
            + " while a writer may be writing, for the rate)")
    private boolean once;

    @Option(names = "--json", description = "with --once: one JSON object {file, dataset, rows,"
            + " columns: {name: latest value}, rate_rows_per_second, writer: {state, summary}}")
    private boolean json;

    @Option(names = "--until-writer-exits", description = "stop once the writer is dead or has"
            + " closed the file (never for a libhdf5 writer that died: its state stays unknown)")
    private boolean untilWriterExits;

    @Override
    public Integer call() {
        if (json && !once) {
            return CommandRun.usageError(spec, "--json needs --once: it prints one look");
        }
        if (once && untilWriterExits) {
            return CommandRun.usageError(spec, "--until-writer-exits and --once exclude each other");
        }
        if (!(intervalSeconds > 0) || intervalSeconds > 86_400) {
            return CommandRun.usageError(spec, "--interval must be more than 0 and at most 86400 "
                    + "seconds, got " + intervalSeconds);
        }
        return input.run(() -> {
            try (WatchedFile watched = new WatchedFile(input.file(), datasetPath, columnName,
                    DRAWN_ROWS)) {
                try {
                    WatchedFile.Look first = watched.look();
                    return once ? once(watched, first) : follow(watched, first);
                } catch (WatchedFile.NotFollowableException e) {
                    CommandRun.error(spec, e.getMessage());
                    return CommandRun.FAILED;
                }
            }
        });
    }

    private int once(WatchedFile watched, WatchedFile.Look first)
            throws IOException, UsageException, WatchedFile.NotFollowableException {
        RowRate rate = new RowRate();
        WatchReport report = report(first, rate);
        if (report.writer().mayStillWrite()) {
            pause(new CountDownLatch(1), watched);
            report = report(watched.look(), rate);
        }
        PrintWriter out = StandardOutput.open();
        out.print(json ? report.json() : String.join("\n", report.screen()) + "\n");
        out.flush();
        return out.checkError() ? CommandRun.BROKEN_PIPE : CommandRun.OK;
    }

    private int follow(WatchedFile watched, WatchedFile.Look first)
            throws IOException, UsageException, WatchedFile.NotFollowableException {
        CountDownLatch interrupted = new CountDownLatch(1);
        Signal interrupt = new Signal("INT");
        SignalHandler previous = Signal.handle(interrupt, signal -> interrupted.countDown());
        try (WatchScreen screen = new WatchScreen(StandardOutput.open(), System.console() != null)) {
            RowRate rate = new RowRate();
            WatchedFile.Look look = first;
            while (true) {
                WatchReport report = report(look, rate);
                screen.show(report);
                if (screen.failed()) {
                    return CommandRun.BROKEN_PIPE;
                }
                if (untilWriterExits && !report.writer().mayStillWrite()) {
                    return CommandRun.OK;
                }
                if (pause(interrupted, watched)) {
                    return CommandRun.OK;
                }
                look = watched.look();
            }
        } finally {
            Signal.handle(interrupt, previous);
        }
    }

    private WatchReport report(WatchedFile.Look look, RowRate rate) {
        rate.add(System.nanoTime(), look.sample().rows());
        return new WatchReport(input.file(), look.table(), look.drawn(), look.sample(),
                rate.perSecond(), look.writer(), look.cutBackFrom());
    }

    /**
     * Waits one interval, or less when a Quire writer exits, comes or is awaited to switch to
     * SWMR writing ({@link WatchedFile#lookNow}): the next look then releases the file at once,
     * so that a restarted writer is not refused, or follows the new writer from its start. True
     * when {@code stop} came first.
     */
    private boolean pause(CountDownLatch stop, WatchedFile watched) throws IOException {
        long end = System.nanoTime() + (long) (intervalSeconds * 1e9);
        try {
            while (true) {
                long left = end - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                boolean polling = watched.watchesForWriterChange();
                if (stop.await(polling ? Math.min(left, RELEASE_POLL_NANOS) : left,
                        TimeUnit.NANOSECONDS)) {
                    return true;
                }
                if (polling && watched.lookNow()) {
                    return false;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }
}
