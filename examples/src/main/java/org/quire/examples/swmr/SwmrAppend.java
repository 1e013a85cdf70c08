package org.quire.examples.swmr;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

import org.quire.format.hdf5.Dataset;
import org.quire.format.hdf5.FileOpenForWritingException;
import org.quire.format.hdf5.DatasetSpec;
import org.quire.format.hdf5.Hdf5File;
import org.quire.format.hdf5.WriteOptions;
import org.quire.format.storage.Durability;

/**
 * Appends {@link SwmrRecord}s to an HDF5 dataset while readers follow it (SWMR writing):
 *
 * <pre>java -cp examples/target/quire-examples.jar org.quire.examples.swmr.SwmrAppend \
 *     FILE DATASET RECORDS BATCH [--fsync] [--progress] [--seconds S]</pre>
 *
 * <p>Creates FILE with the dataset (rank 1, chunks of 1,024 records, unlimited), or reopens it
 * and continues after its last record, switches to SWMR writing, then appends RECORDS records
 * in batches of BATCH, each batch extended, written and flushed ({@code --fsync}: each flush
 * forced to disk with {@code fdatasync}; {@code --progress}: a line {@code flushed N} after each
 * flush, N the records the file then holds; {@code --seconds S}: stop after S seconds if not
 * done), and prints one summary line. Exit status 0 when done
 * (and for {@code --help}), 1 when the file cannot be written (one line on stderr naming it), 2
 * for bad arguments.
 */
public final class SwmrAppend {

    /** Records per chunk of a dataset this program creates. */
    public static final int CHUNK_RECORDS = 1024;

    private static final String USAGE =
            "usage: SwmrAppend FILE DATASET RECORDS BATCH [--fsync] [--progress] [--seconds S]";
    private static final String HELP = String.join("\n",
            "Appends RECORDS SwmrRecords (64 bytes each) to DATASET of the HDF5 file FILE while",
            "SWMR readers (h5py swmr=True) follow it: creates FILE and DATASET (chunks of "
                    + CHUNK_RECORDS + " records,",
            "unlimited) or continues after the last record, switches to SWMR writing, then",
            "extends, writes and flushes BATCH records at a time; --fsync forces every flush",
            "(fdatasync); --progress prints \"flushed N\" after each flush (N: the records the",
            "file then holds; a crash test reads it); --seconds S stops after S seconds. Prints",
            "one summary line. Exit 0 done, 1 file error, 2 bad usage.");

    private SwmrAppend() {
    }

    /** The parsed command line. */
    record Arguments(Path file, String dataset, long records, int batch, boolean fsync,
                     boolean progress, double seconds) {

        /** Parses the command line; the dataset's name is kept without a leading "/". */
        static Arguments parse(String[] args) {
            if (args.length < 4) {
                throw new IllegalArgumentException("expected 4 arguments and options, got "
                        + args.length);
            }
            boolean fsync = false;
            boolean progress = false;
            double seconds = Double.POSITIVE_INFINITY;
            for (int i = 4; i < args.length; i++) {
                switch (args[i]) {
                    case "--fsync" -> fsync = true;
                    case "--progress" -> progress = true;
                    case "--seconds" -> {
                        if (++i == args.length) {
                            throw new IllegalArgumentException("--seconds needs a value");
                        }
                        seconds = seconds(args[i]);
                    }
                    default -> throw new IllegalArgumentException("unknown option " + args[i]
                            + " (--fsync, --progress, --seconds S)");
                }
            }
            String name = SwmrCommandLine.rootDatasetName(args[1]);
            long records = positive("RECORDS", args[2]);
            long batch = positive("BATCH", args[3]);
            if (batch > Integer.MAX_VALUE / SwmrRecord.SIZE) {
                throw new IllegalArgumentException("BATCH " + batch + " is above "
                        + Integer.MAX_VALUE / SwmrRecord.SIZE + " records");
            }
            return new Arguments(Path.of(args[0]), name, records, (int) batch, fsync, progress,
                    seconds);
        }

        private static double seconds(String text) {
            double value;
            try {
                value = Double.parseDouble(text);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--seconds must be a number, got \"" + text
                        + "\"");
            }
            if (!(value > 0) || Double.isInfinite(value)) {
                throw new IllegalArgumentException("--seconds must be positive, got " + text);
            }
            return value;
        }

        private static long positive(String name, String text) {
            long value;
            try {
                value = Long.parseLong(text);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(name + " must be a whole number, got \""
                        + text + "\"");
            }
            if (value <= 0) {
                throw new IllegalArgumentException(name + " must be positive, got " + value);
            }
            return value;
        }
    }

    /** What a run did, for its summary line. */
    record Summary(long firstSeq, long records, long flushes, long nanos) {

        String line(Arguments arguments) {
            double seconds = nanos / 1e9;
            return String.format(Locale.ROOT, "appended %d records (seq %d..%d) to %s:%s in "
                            + "%d flushes of up to %d records%s, %.3f s, %.0f records/s",
                    records, firstSeq, firstSeq + records - 1, arguments.file(),
                    arguments.dataset(), flushes, arguments.batch(),
                    arguments.fsync() ? " (fdatasync each)" : "", seconds,
                    records / Math.max(seconds, 1e-9));
        }
    }

    public static void main(String[] args) {
        SwmrCommandLine.parse("SwmrAppend", USAGE, HELP, args, Arguments::parse)
                .ifPresent(SwmrAppend::run);
    }

    /** Appends and prints the summary line; a failure is one line and exit status 1. */
    private static void run(Arguments arguments) {
        try {
            System.out.println(append(arguments, () -> { }).line(arguments));
        } catch (FileOpenForWritingException e) {
            System.err.println("SwmrAppend: " + e.commandLineMessage());
            System.exit(1);
        } catch (IOException | RuntimeException e) {
            System.err.println("SwmrAppend: " + e.getMessage());
            System.exit(1);
        }
    }

    /**
     * Opens or creates the file, switches to SWMR writing, runs {@code swmrStarted} (SWMR readers may open the
     * file from here on) and appends.
     */
    static Summary append(Arguments arguments, Runnable swmrStarted) throws IOException {
        WriteOptions options = WriteOptions.DEFAULT.withDurability(
                arguments.fsync() ? Durability.EVERY_FLUSH : Durability.ON_CLOSE);
        boolean exists = Files.exists(arguments.file());
        try (Hdf5File file = exists ? Hdf5File.openForWriting(arguments.file(), options)
                : Hdf5File.create(arguments.file(), options)) {
            Dataset dataset = recordDataset(file, arguments.dataset());
            file.startSwmrWrite();
            swmrStarted.run();
            long first = dataset.shape()[0];
            long next = first;
            long flushes = 0;
            ByteBuffer batch = ByteBuffer.allocateDirect(arguments.batch() * SwmrRecord.SIZE);
            long started = System.nanoTime();
            long stop = started + (long) Math.min(arguments.seconds() * 1e9, Long.MAX_VALUE / 2);
            while (next - first < arguments.records() && System.nanoTime() - stop < 0) {
                int count = (int) Math.min(arguments.batch(), arguments.records() - (next - first));
                batch.clear().limit(count * SwmrRecord.SIZE);
                for (int i = 0; i < count; i++) {
                    SwmrRecord.encode(next + i, System.nanoTime(), batch);
                }
                batch.flip();
                dataset.extend(next + count);
                dataset.write(new long[] {next}, new long[] {count}, batch);
                file.flush();
                flushes++;
                next += count;
                if (arguments.progress()) {
                    System.out.println("flushed " + next); // after the flush returned: committed
                }
            }
            return new Summary(first, next - first, flushes, System.nanoTime() - started);
        }
    }

    /** The root group's record dataset {@code name}: found (and checked) or created. */
    private static Dataset recordDataset(Hdf5File file, String name) throws IOException {
        if (!file.root().contains(name)) {
            return file.root().createDataset(name, DatasetSpec.builder(SwmrRecord.TYPE, 0)
                    .maxShape(DatasetSpec.UNLIMITED).chunkShape(CHUNK_RECORDS).build());
        }
        Dataset dataset = file.root().dataset(name);
        if (!dataset.type().equals(SwmrRecord.TYPE) || dataset.shape().length != 1) {
            throw new IllegalArgumentException(file.path() + ": dataset /" + name + " is not a "
                    + "rank-1 dataset of SwmrRecord's compound type (shape "
                    + Arrays.toString(dataset.shape()) + ", type " + dataset.type() + ")");
        }
        return dataset;
    }
}
