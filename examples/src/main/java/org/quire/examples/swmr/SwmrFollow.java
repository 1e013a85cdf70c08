package org.quire.examples.swmr;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

import org.quire.format.WrongFormatException;
import org.quire.format.hdf5.Dataset;
import org.quire.format.hdf5.Hdf5File;
import org.quire.format.hdf5.WriterStatus;
import org.quire.format.storage.NotARegularFileException;

/**
 * Follows a record dataset while an SWMR writer appends to it, verifying every record it sees
 * with {@link SwmrRecord#verify} (issue 10, item 3): the Quire counterpart of {@code
 * swmr_follow.py}.
 *
 * <pre>java -cp examples/target/quire-examples.jar org.quire.examples.swmr.SwmrFollow \
 *     FILE DATASET [--expect N] [--timeout S]</pre>
 *
 * <p>Opens FILE with {@link Hdf5File#openSwmr} (tried again while FILE is missing or empty or
 * its writer has not switched to SWMR writing; a file that is not HDF5 ends the run), then
 * loops {@link Dataset#refresh()} and checks the records that became visible, until N are visible or, without {@code --expect}, until no Quire writer is alive on
 * the file ({@link Hdf5File#writerStatus}), or S seconds (default 60) passed. Prints one JSON
 * line; exit status 0 when every record was ok (and N were seen), 1 otherwise, 2 for bad usage.
 */
public final class SwmrFollow {

    /** Records read at once: bounds the reader's buffer to 1 MiB. */
    private static final int READ_RECORDS = 16_384;
    private static final String USAGE = "usage: SwmrFollow FILE DATASET [--expect N] "
            + "[--timeout S]";
    private static final String HELP = String.join("\n",
            "Follows DATASET of the HDF5 file FILE as an SWMR reader (Hdf5File.openSwmr, retried",
            "until the writer has switched to SWMR writing) and verifies every record that",
            "becomes visible against the SwmrRecord contract, until N records are visible or,",
            "without --expect, until no Quire writer is alive on FILE (a libhdf5 writer keeps no",
            "record: give --expect), or S seconds (default 60) passed. Prints one JSON line.",
            "Exit 0 all records ok, 1 a bad record, shrinking extent, error or timeout, 2 bad "
                    + "usage.");

    private SwmrFollow() {
    }

    /** The parsed command line; {@code expect} 0 follows until the writer is gone. */
    record Arguments(Path file, String dataset, long expect, double timeoutSeconds) {

        static Arguments parse(String[] args) {
            if (args.length < 2) {
                throw new IllegalArgumentException("expected FILE and DATASET, got "
                        + args.length + " arguments");
            }
            long expect = 0;
            double timeout = 60;
            for (int i = 2; i < args.length; i += 2) {
                if (i + 1 == args.length) {
                    throw new IllegalArgumentException(args[i] + " needs a value");
                }
                switch (args[i]) {
                    case "--expect" -> expect = (long) positive("--expect", args[i + 1], true);
                    case "--timeout" -> timeout = positive("--timeout", args[i + 1], false);
                    default -> throw new IllegalArgumentException("unknown option " + args[i]
                            + " (--expect N, --timeout S)");
                }
            }
            String name = SwmrCommandLine.rootDatasetName(args[1]);
            return new Arguments(Path.of(args[0]), name, expect, timeout);
        }

        private static double positive(String name, String text, boolean whole) {
            double value;
            try {
                value = whole ? Long.parseLong(text) : Double.parseDouble(text);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(name + " must be a " + (whole ? "whole "
                        : "") + "number, got \"" + text + "\"");
            }
            if (!(value > 0) || Double.isInfinite(value)) {
                throw new IllegalArgumentException(name + " must be positive, got " + text);
            }
            return value;
        }
    }

    /** What a run saw: the counts of the JSON line. */
    static final class Tally {
        long records;
        long ok;
        long torn;
        long fill;
        long outOfOrder;
        long shrinks;
        long refreshes;
        long readRetries;
        final Set<Long> extents = new HashSet<>();
        String error;
        double seconds;

        boolean clean() {
            return torn + fill + outOfOrder + shrinks == 0 && error == null;
        }

        /** One JSON object, keys sorted as {@code swmr_follow.py} prints them. */
        String json(Arguments arguments) {
            return String.format(Locale.ROOT, "{\"dataset\": %s, \"error\": %s, \"expected\": "
                            + "%s, \"extents_seen\": %d, \"file\": %s, \"fill\": %d, \"ok\": %d, "
                            + "\"out_of_order\": %d, \"read_retries\": %d, \"records\": %d, "
                            + "\"refreshes\": %d, \"seconds\": %.3f, \"shrinks\": %d, \"torn\": "
                            + "%d}", quoted(arguments.dataset()), quoted(error),
                    arguments.expect() == 0 ? "null" : Long.toString(arguments.expect()),
                    extents.size(), quoted(arguments.file().toString()), fill, ok, outOfOrder,
                    readRetries, records, refreshes, seconds, shrinks, torn);
        }

        private static String quoted(String text) {
            if (text == null) {
                return "null";
            }
            StringBuilder out = new StringBuilder("\"");
            for (char c : text.toCharArray()) {
                switch (c) {
                    case '"' -> out.append("\\\"");
                    case '\\' -> out.append("\\\\");
                    default -> out.append(c < 0x20 ? String.format("\\u%04x", (int) c)
                            : String.valueOf(c));
                }
            }
            return out.append('"').toString();
        }
    }

    public static void main(String[] args) {
        SwmrCommandLine.parse("SwmrFollow", USAGE, HELP, args, Arguments::parse)
                .ifPresent(SwmrFollow::run);
    }

    /** Follows, prints the JSON line and exits: 0 when every record was ok, else 1. */
    private static void run(Arguments arguments) {
        Tally tally = follow(arguments);
        System.out.println(tally.json(arguments));
        System.exit(tally.clean() ? 0 : 1);
    }

    /** Follows as the arguments say; every failure ends up in the tally's error. */
    static Tally follow(Arguments arguments) {
        long started = System.nanoTime();
        long deadline = started + (long) (arguments.timeoutSeconds() * 1e9);
        Tally tally = new Tally();
        Hdf5File opened = null;
        try (Hdf5File file = openWhenReady(arguments.file(), deadline)) {
            opened = file;
            Dataset records = file.root().dataset(arguments.dataset());
            followDataset(file, records, arguments, deadline, tally);
        } catch (IOException | RuntimeException e) {
            String message = String.valueOf(e.getMessage());
            tally.error = message.contains(arguments.file().toString()) ? message
                    : arguments.file() + ": " + message;
        }
        if (opened != null) {
            // Those of a read that failed too (its error says "N reads": N - 1 retries).
            tally.readRetries = opened.metadataReadRetries();
        }
        tally.seconds = (System.nanoTime() - started) / 1e9;
        return tally;
    }

    /**
     * The file opened as an SWMR reader. Until the deadline a refusal is tried again: the file
     * may not exist yet, or its writer may not have switched to SWMR writing.
     */
    private static Hdf5File openWhenReady(Path path, long deadline) throws IOException {
        while (true) {
            String why;
            try {
                // An empty file is being created: its writer takes its locks next, and an
                // SWMR reader's lock taken now would refuse that writer.
                if (Files.size(path) > 0) {
                    return Hdf5File.openSwmr(path);
                }
                why = "the file is empty";
            } catch (NoSuchFileException e) {
                why = "no such file";
            } catch (WrongFormatException | NotARegularFileException e) {
                throw e; // no writer turns it into an HDF5 file: waiting would not help
            } catch (IOException e) {
                why = e.getMessage();
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new IOException("could not open " + path + " as an SWMR reader: " + why);
            }
            sleepMillis(10);
        }
    }

    private static void followDataset(Hdf5File file, Dataset records, Arguments arguments,
                                      long deadline, Tally tally) throws IOException {
        if (records.shape().length != 1 || records.type().size() != SwmrRecord.SIZE) {
            throw new IOException(file.path() + ": dataset /" + arguments.dataset() + " is not "
                    + "a rank-1 dataset of 64-byte records (type " + records.type() + ")");
        }
        ByteBuffer buffer = ByteBuffer.allocateDirect(READ_RECORDS * SwmrRecord.SIZE);
        long seen = 0;
        while (true) {
            // Without --expect, a refresh after the writer was seen gone shows its last commit.
            boolean lastLook = arguments.expect() == 0 && Hdf5File.writerStatus(file.path()).state()
                    != WriterStatus.State.ALIVE;
            records.refresh();
            tally.refreshes++;
            long visible = records.shape()[0];
            boolean grew = visible > seen;
            if (visible < seen) {
                tally.shrinks++;
                seen = visible;
            } else if (grew) {
                tally.extents.add(visible);
                verify(records, seen, visible, buffer, tally);
                seen = visible;
            }
            tally.records = seen;
            tally.readRetries = file.metadataReadRetries();
            if (arguments.expect() > 0 ? seen >= arguments.expect() : lastLook) {
                return;
            }
            if (System.nanoTime() - deadline >= 0) {
                tally.error = String.format(Locale.ROOT, "timed out after %.1f s with %d%s "
                                + "records", arguments.timeoutSeconds(), seen,
                        arguments.expect() > 0 ? " of " + arguments.expect() : "");
                return;
            }
            if (!grew) {
                sleepMillis(1); // nothing new: leave the processor to the writer
            }
        }
    }

    /** Verifies records {@code from} (inclusive) to {@code to}, a slice at a time. */
    private static void verify(Dataset records, long from, long to, ByteBuffer buffer,
                               Tally tally) throws IOException {
        for (long start = from; start < to; start += READ_RECORDS) {
            int count = (int) Math.min(READ_RECORDS, to - start);
            buffer.clear().limit(count * SwmrRecord.SIZE);
            records.read(new long[] {start}, new long[] {count}, buffer);
            for (int i = 0; i < count; i++) {
                switch (SwmrRecord.verify(buffer.position(i * SwmrRecord.SIZE), start + i)) {
                    case OK -> tally.ok++;
                    case FILL -> tally.fill++;
                    case TORN -> tally.torn++;
                    case WRONG_SEQ -> tally.outOfOrder++;
                }
            }
        }
    }

    /**
     * Sleeps; an interrupt ends the run (the flag set again for the caller): swallowed, every
     * later sleep would return at once and the loop would spin until the deadline.
     */
    private static void sleepMillis(long millis) throws InterruptedIOException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while following");
        }
    }
}
