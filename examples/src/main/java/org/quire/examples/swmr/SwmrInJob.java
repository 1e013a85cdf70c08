package org.quire.examples.swmr;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

import org.quire.runtime.Communicator;
import org.quire.runtime.Job;
import org.quire.runtime.Quire;

/**
 * One job, one writer, N - 1 followers of the same HDF5 dataset (issue 10, item 3):
 *
 * <pre>quire run -n 3 -cp examples/target/quire-examples.jar org.quire.examples.swmr.SwmrInJob FILE RECORDS BATCH
 * srun -K -n 3 java -cp ... org.quire.examples.swmr.SwmrInJob FILE RECORDS BATCH</pre>
 *
 * <p>Rank 0 creates FILE (which must not exist: a follower could open an old file before the writer replaced
 * it) and appends RECORDS {@link SwmrRecord}s to its dataset {@value #DATASET} in SWMR mode, BATCH per flush
 * ({@link SwmrAppend}). Every other rank follows
 * the same dataset as an SWMR reader at the same time ({@link SwmrFollow} without {@code --expect}: until no
 * Quire writer is alive on FILE) and checks every record it sees. While appending, writer and followers exchange no
 * messages: they meet only in the file. At the end one gather brings each rank's verdict to rank 0, which checks that every
 * follower saw every record the file holds, all intact, and prints the verdict; the job exits 1 otherwise, 2 for
 * bad arguments. Before that, rank 0 broadcasts once, before its first append, whether the file is SWMR writing or
 * it failed before (a missing directory, an existing file): the followers then stop at once (the writer's line says
 * why) instead of waiting their whole timeout for a file that will not come.
 */
public final class SwmrInJob {

    /** The dataset of the root group that rank 0 appends to. */
    public static final String DATASET = "records";
    /** How long a follower waits at most for the writer (to start, and to finish). */
    static final double FOLLOW_TIMEOUT_SECONDS = 600;

    private static final String USAGE = "usage: SwmrInJob FILE RECORDS BATCH";
    private static final int WORDS = 2;
    /** Rank 0's one message to the followers: the file is SWMR writing, or the writer failed before that. */
    private static final byte STARTED = 1;
    private static final byte FAILED = 0;

    private SwmrInJob() {
    }

    /**
     * What the job saw, at rank 0: the records in the file when the writer closed it ({@code -1} if it failed),
     * and per follower rank (index 1..N-1) the records it saw and whether all were intact.
     */
    public record Verdict(long written, long[] seen, boolean[] intact) {

        /** Whether the writer succeeded and every follower saw all its records intact. */
        public boolean passed() {
            if (written < 0) {
                return false;
            }
            for (int rank = 1; rank < seen.length; rank++) {
                if (seen[rank] != written || !intact[rank]) {
                    return false;
                }
            }
            return true;
        }

        String line() {
            StringBuilder out = new StringBuilder(passed() ? "passed: " : "FAILED: ");
            out.append(written < 0 ? "the writer failed" : "the file holds " + written + " records");
            for (int rank = 1; rank < seen.length; rank++) {
                out.append("; rank ").append(rank).append(" saw ").append(seen[rank])
                        .append(intact[rank] ? " intact" : " with errors");
            }
            return out.toString();
        }
    }

    public static void main(String[] args) {
        int status;
        try (Job job = Quire.init(args)) {
            SwmrAppend.Arguments arguments;
            try {
                arguments = arguments(job.arguments());
            } catch (IllegalArgumentException e) {
                System.err.println("SwmrInJob: " + e.getMessage() + "; " + USAGE);
                System.exit(2);
                return;
            }
            Verdict verdict = run(job.world(), arguments.file(), arguments.records(), arguments.batch());
            status = verdict == null || verdict.passed() ? 0 : 1;
            if (verdict != null) {
                System.out.println(verdict.line());
            }
        }
        // Returning (not System.exit) on success lets Quire leave the world, delivering every message.
        if (status != 0) {
            System.exit(status);
        }
    }

    private static SwmrAppend.Arguments arguments(String[] args) {
        if (args.length != 3) {
            throw new IllegalArgumentException("expected FILE, RECORDS and BATCH, got " + args.length + " arguments");
        }
        return SwmrAppend.Arguments.parse(new String[] {args[0], DATASET, args[1], args[2]});
    }

    /**
     * Rank 0 writes, every other rank follows, each printing its own line; then the verdicts are gathered. Returns
     * the verdict at rank 0, null elsewhere.
     */
    public static Verdict run(Communicator world, Path file, long records, int batch) {
        long[] mine = world.rank() == 0 ? write(world, new SwmrAppend.Arguments(file, DATASET, records, batch, false,
                false, Double.POSITIVE_INFINITY))
                : follow(world, file);
        ByteBuffer packed = ByteBuffer.allocate(WORDS * Long.BYTES);
        for (long word : mine) {
            packed.putLong(word);
        }
        byte[][] all = world.gather(packed.array(), 0);
        if (world.rank() != 0) {
            return null;
        }
        long[] seen = new long[all.length];
        boolean[] intact = new boolean[all.length];
        for (int rank = 1; rank < all.length; rank++) {
            ByteBuffer words = ByteBuffer.wrap(all[rank]);
            seen[rank] = words.getLong(0);
            intact[rank] = words.getLong(Long.BYTES) == 1;
        }
        return new Verdict(ByteBuffer.wrap(all[0]).getLong(0), seen, intact);
    }

    /**
     * Appends as {@link SwmrAppend} does to a new file; returns the records written, or -1 if writing failed. Tells
     * the followers once, before the first append, whether the file is open for them ({@link #started}): without
     * it they would wait the whole follow timeout for a file a failed writer never created.
     */
    private static long[] write(Communicator world, SwmrAppend.Arguments arguments) {
        boolean[] told = {false};
        try {
            if (Files.exists(arguments.file())) {
                throw new IOException(arguments.file() + " exists; SwmrInJob writes a new file (its followers"
                        + " could open an old one before the writer replaced it)");
            }
            SwmrAppend.Summary summary = SwmrAppend.append(arguments, () -> {
                told[0] = true;
                world.broadcast(new byte[] {STARTED}, 0);
            });
            System.out.println(summary.line(arguments));
            return new long[] {summary.records(), 1};
        } catch (IOException | RuntimeException e) {
            System.err.println("SwmrInJob: " + e.getMessage());
            if (!told[0]) {
                world.broadcast(new byte[] {FAILED}, 0);
            }
            return new long[] {-1, 0};
        }
    }

    /**
     * Follows as {@link SwmrFollow} does until the writer is gone, once the writer said the file is open for SWMR
     * readers; returns the records seen and whether all were ok (none if the writer failed to start: it said why).
     */
    private static long[] follow(Communicator world, Path file) {
        if (world.broadcast(null, 0)[0] != STARTED) {
            return new long[] {0, 0};
        }
        SwmrFollow.Arguments arguments = new SwmrFollow.Arguments(file, DATASET, 0, FOLLOW_TIMEOUT_SECONDS);
        SwmrFollow.Tally tally = SwmrFollow.follow(arguments);
        System.out.println(tally.json(arguments));
        return new long[] {tally.records, tally.clean() ? 1 : 0};
    }
}
