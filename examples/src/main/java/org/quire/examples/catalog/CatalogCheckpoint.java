package org.quire.examples.catalog;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.NoSuchElementException;

import org.quire.format.FormatException;
import org.quire.format.catalog.CatalogEntry;
import org.quire.format.catalog.Checkpoint;
import org.quire.format.catalog.CheckpointCatalog;
import org.quire.format.hdf5.Attribute;
import org.quire.format.hdf5.DatasetSpec;
import org.quire.format.hdf5.Datatype;

/**
 * A 32 x 32 temperature field, heated at its left edge and relaxed by Jacobi steps, checkpointed
 * into a catalog file every EVERY steps (docs/versions.md, "Checkpoint catalog"):
 * <pre>
 * CatalogCheckpoint run CATALOG STEPS EVERY               from a cold field; checkpoints step-N
 * CatalogCheckpoint restart CATALOG VERSION STEPS EVERY   from checkpoint VERSION (a name, latest,
 *                                                         ~N or @TIME), STEPS more steps;
 *                                                         checkpoints step-N.rR, R the run's
 *                                                         number ({@link CatalogRuns})
 * </pre>
 * Prints each checkpoint and, at the end, the step and the SHA-256 of the field's bytes (a run
 * restarted from a checkpoint ends with the field of a run that never stopped). Exit 0 when done,
 * 1 when the catalog or checkpoint is refused (one line on stderr), 2 for bad arguments.
 */
public final class CatalogCheckpoint {

    static final int SIZE = 32;
    static final String FIELD = "t";
    private static final DatasetSpec SPEC = DatasetSpec.builder(Datatype.FLOAT64, SIZE, SIZE)
            .chunkShape(8, 8).build();
    private static final String USAGE = "usage: CatalogCheckpoint run CATALOG STEPS EVERY"
            + " | CatalogCheckpoint restart CATALOG VERSION STEPS EVERY";

    private CatalogCheckpoint() {
    }

    public static void main(String[] args) {
        boolean run = args.length == 4 && args[0].equals("run");
        boolean restart = args.length == 5 && args[0].equals("restart");
        if (!run && !restart) {
            usage();
        }
        int steps = count(args[args.length - 2]);
        int every = count(args[args.length - 1]);
        if (every == 0) {
            usage();
        }
        try (CheckpointCatalog catalog = CheckpointCatalog.open(Path.of(args[1]))) {
            if (run) {
                evolve(catalog, new double[SIZE * SIZE], 0, steps, every, CatalogRuns.next(catalog));
            } else {
                int number = CatalogRuns.next(catalog);
                CatalogEntry from = catalog.restart(args[2]);
                double[] field = catalog.dataset(from, FIELD)
                        .readDoubles(new long[] {0, 0}, new long[] {SIZE, SIZE});
                System.out.println("restart from " + from.version() + " (step " + from.step() + ", "
                        + from.timestamp() + ")");
                evolve(catalog, field, from.step(), steps, every, number);
            }
        } catch (FormatException | NoSuchElementException | IllegalArgumentException e) {
            fail(e.getMessage()); // each names the catalog already
        } catch (IOException e) {
            fail(args[1] + ": " + e);
        }
    }

    /**
     * {@code steps} Jacobi steps from {@code start}, a checkpoint of run {@code run} after every
     * {@code every}-th.
     */
    private static void evolve(CheckpointCatalog catalog, double[] field, long start, int steps, int every,
                               int run) throws IOException {
        double[] next = new double[field.length];
        for (int done = 1; done <= steps; done++) {
            relax(field, next);
            double[] swap = field;
            field = next;
            next = swap;
            long step = start + done;
            if (done % every == 0) {
                CatalogEntry entry = catalog.commit(Checkpoint.builder(CatalogRuns.name(step, run), step, 1)
                        .dataset(FIELD, SPEC, bytes(field))
                        .metadata(CatalogRuns.metadata(run))
                        .metadata(Attribute.of("method", "jacobi"))
                        .metadata(Attribute.of("edge_temperature", 1.0))
                        .build());
                System.out.println("checkpoint " + entry.version() + " (step " + step + ")");
            }
        }
        System.out.println("step " + (start + steps) + ": field sha256 " + sha256(bytes(field)));
    }

    /** One Jacobi step: the left column is held at 1, the other edges at 0. */
    static void relax(double[] field, double[] next) {
        for (int i = 0; i < SIZE; i++) {
            for (int j = 0; j < SIZE; j++) {
                int at = i * SIZE + j;
                if (j == 0) {
                    next[at] = 1.0;
                } else if (i == 0 || i == SIZE - 1 || j == SIZE - 1) {
                    next[at] = 0.0;
                } else {
                    next[at] = 0.25 * (field[at - 1] + field[at + 1] + field[at - SIZE] + field[at + SIZE]);
                }
            }
        }
    }

    private static byte[] bytes(double[] field) {
        ByteBuffer bytes = ByteBuffer.allocate(field.length * Double.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        bytes.asDoubleBuffer().put(field);
        return bytes.array();
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    private static int count(String text) {
        try {
            int count = Integer.parseInt(text);
            if (count >= 0) {
                return count;
            }
        } catch (NumberFormatException e) {
            // the usage below says what was expected
        }
        usage();
        return 0;
    }

    private static void usage() {
        System.err.println("CatalogCheckpoint: " + USAGE);
        System.exit(2);
    }

    private static void fail(String message) {
        System.err.println("CatalogCheckpoint: " + message);
        System.exit(1);
    }
}
