package org.quire.examples.heat;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.NoSuchElementException;

import org.quire.format.catalog.CatalogEntry;
import org.quire.format.sion.RecordRange;
import org.quire.format.sion.SionCheckpointSeries;
import org.quire.runtime.Communicator;
import org.quire.runtime.Job;
import org.quire.runtime.Quire;

/**
 * A simulation that checkpoints, restarts on another rank count, stops when asked and is watched
 * while it runs: 2-D heat diffusion ({@link HeatStencil}) on an n x n grid whose rows are split
 * over the ranks ({@link RowBlock}), halos exchanged with the communicator's typed
 * {@code sendrecv}; a SION checkpoint of every rank's rows and the step every K steps
 * ({@link HeatCheckpoint}); {@code --restart} continues from the latest complete one
 * ({@link SionCheckpointSeries}) on any number of ranks; {@code --verify} checks the final grid
 * bitwise against a serial uninterrupted run; rank 0 writes per-step diagnostics to HDF5 in
 * SWMR mode ({@link HeatDiagnostics}) and {@code --in-situ} makes the last rank follow them
 * ({@link InSituReader}). docs/heat.md shows how to run it.
 *
 * <pre>
 * quire run -n 4 -cp examples/target/quire-examples.jar org.quire.examples.heat.HeatDiffusion \
 *     --steps 400 --checkpoint-every 100 --dir ckpt --diagnostics heat.h5 --in-situ
 * quire run -n 3 -cp examples/target/quire-examples.jar org.quire.examples.heat.HeatDiffusion \
 *     --steps 400 --checkpoint-every 100 --dir ckpt --diagnostics heat.h5 --restart --verify
 * </pre>
 */
public final class HeatDiffusion {

    /** How long the in-situ reader may go on once its rank has computed its last step. */
    private static final long IN_SITU_GRACE_MILLIS = 60_000;

    private HeatDiffusion() {
    }

    public static void main(String[] args) {
        int status;
        try (Job job = Quire.init(args)) {
            status = run(job);
        } catch (IOException e) {
            // A file this rank could not read or write: its message names the file and what was wrong.
            System.err.println("HeatDiffusion: " + e.getMessage());
            status = 1;
        }
        // Returning (not System.exit) on success lets Quire leave the world, delivering every message.
        if (status != 0) {
            System.exit(status);
        }
    }

    private static int run(Job job) throws IOException {
        Communicator world = job.world();
        boolean root = world.rank() == 0;
        HeatOptions options;
        try {
            options = HeatOptions.parse(job.arguments());
            if (options.inSitu() && world.size() < 2) {
                throw new IllegalArgumentException("--in-situ needs at least 2 ranks (the last one reads)");
            }
        } catch (IllegalArgumentException e) {
            return usageError(root, e.getMessage());
        }
        if (options.help()) {
            if (root) {
                System.out.println(HeatOptions.HELP);
            }
            return 0;
        }
        HeatCatalog catalog = null;
        try {
            // Rank 0 alone reads the catalog; every rank learns its verdict, so all go on or stop together.
            String opened = "";
            if (root && options.catalog() != null) {
                try {
                    catalog = HeatCatalog.open(options.catalog());
                } catch (IOException | RuntimeException e) {
                    opened = options.catalog() + ": " + e.getMessage();
                }
            }
            String refusal = new String(world.broadcast(root ? opened.getBytes(UTF_8) : null, 0), UTF_8);
            if (!refusal.isEmpty()) {
                if (root) {
                    System.err.println("HeatDiffusion: " + refusal);
                }
                return 1;
            }
            return options.restart() ? restart(job, options, catalog) : start(job, options, catalog);
        } finally {
            if (catalog != null) {
                catalog.close();
            }
        }
    }

    /** A new run from step 0. */
    private static int start(Job job, HeatOptions options, HeatCatalog catalog) throws IOException {
        Communicator world = job.world();
        boolean root = world.rank() == 0;
        SionCheckpointSeries series = HeatCheckpoint.series(options.directory());
        int n = options.grid() == 0 ? HeatOptions.DEFAULT_GRID : options.grid();
        if (n < world.size()) {
            return usageError(root, "a grid of " + n + " rows cannot be split over " + world.size() + " ranks");
        }
        // Rank 0 alone looks: a late rank would otherwise find the files this run's rank 0 just created.
        byte[] refusal = world.broadcast(root ? freshStartRefusal(options, series, catalog).getBytes(UTF_8) : null, 0);
        if (refusal.length > 0) {
            return usageError(root, new String(refusal, UTF_8));
        }
        RowBlock block = RowBlock.initial(n, RecordRange.balanced(n, world.rank(), world.size()));
        return simulate(job, options, series, catalog, 0, block, 0);
    }

    /**
     * A run continued from a checkpoint: the latest complete one in DIR, or with a catalog the one
     * {@code --restart CHECKPOINT} names there (rank 0 picks it, every rank reads it).
     */
    private static int restart(Job job, HeatOptions options, HeatCatalog catalog) throws IOException {
        Communicator world = job.world();
        boolean root = world.rank() == 0;
        long restartBegin = System.nanoTime();
        SionCheckpointSeries series;
        Path file;
        String from;
        if (options.catalog() != null) {
            String[] chosen = new String(world.broadcast(root ? catalogChoice(options, catalog).getBytes(UTF_8)
                    : null, 0), UTF_8).split("\0", -1);
            if (chosen.length == 1) {
                if (root) {
                    System.err.println("HeatDiffusion: " + chosen[0]);
                }
                return 1;
            }
            file = Path.of(chosen[0]);
            from = file + " (checkpoint " + chosen[1] + " of " + options.catalog() + ")";
            series = HeatCheckpoint.series(Path.of(chosen[2]));
        } else {
            series = HeatCheckpoint.series(options.directory());
            SionCheckpointSeries.Choice choice = series.latestComplete(world, HeatCheckpoint.COMPLETE);
            if (root) {
                for (SionCheckpointSeries.Skipped skipped : choice.skipped()) {
                    System.out.println("restart: skipped " + skipped.file() + ": " + skipped.reason());
                }
            }
            if (choice.latest().isEmpty()) {
                if (root) {
                    System.err.println("HeatDiffusion: no complete checkpoint " + HeatCheckpoint.SERIES
                            + "-<step>.sion in " + options.directory() + " to restart from");
                }
                return 1;
            }
            SionCheckpointSeries.Checkpoint checkpoint = choice.latest().get();
            file = checkpoint.file();
            from = file + (checkpoint.recovered() ? " (recovered from its journal: its job died before closing it)"
                    : "");
        }
        HeatCheckpoint.Restored restored = HeatCheckpoint.read(world, file);
        if (options.grid() != 0 && options.grid() != restored.block().n()) {
            return usageError(root, "--grid " + options.grid() + " differs from the checkpoint's grid "
                    + restored.block().n() + " (" + file + "); leave --grid out to restart");
        }
        if (restored.block().n() < world.size()) {
            return usageError(root, "the checkpoint's grid of " + restored.block().n() + " rows cannot be split"
                    + " over " + world.size() + " ranks");
        }
        if (restored.step() > options.steps()) {
            // Continuing would run no step, and the files already hold steps past S: say so, not "done".
            return usageError(root, "the checkpoint's step " + restored.step() + " (" + file
                    + ") is past --steps " + options.steps() + "; give --steps " + restored.step()
                    + " or more to continue the run");
        }
        long restartNanos = System.nanoTime() - restartBegin;
        if (root) {
            System.out.println("restart: from step " + restored.step() + " of " + from + " on " + world.size()
                    + " ranks");
        }
        return simulate(job, options, series, catalog, restored.step(), restored.block(), restartNanos);
    }

    /**
     * On rank 0: the container and version name of the catalog's checkpoint {@code --restart}
     * names and this run's checkpoint directory, separated by NUL; or the one line saying why
     * there is none.
     */
    private static String catalogChoice(HeatOptions options, HeatCatalog catalog) {
        try {
            CatalogEntry entry = catalog.restart(options.restartFrom());
            if (entry.sionContainer() == null) {
                return options.catalog() + ": checkpoint " + entry.version() + " has no SION container";
            }
            return entry.sionContainer().path() + "\0" + entry.version() + "\0"
                    + catalog.directory(options.directory());
        } catch (IOException | NoSuchElementException e) {
            return e.getMessage(); // names the catalog already
        } catch (IllegalArgumentException e) {
            return options.catalog() + ": " + e.getMessage();
        }
    }

    /** Why a fresh run must not start over an earlier run's files, or "" if it may. */
    private static String freshStartRefusal(HeatOptions options, SionCheckpointSeries series, HeatCatalog catalog)
            throws IOException {
        if (catalog != null && !catalog.isEmpty()) {
            return "--catalog " + options.catalog() + " holds checkpoints of an earlier run: continue it with"
                    + " --restart [CHECKPOINT], or give another --catalog";
        }
        long[] steps = series.steps();
        if (steps.length > 0) {
            return options.directory() + " holds checkpoints of an earlier run ("
                    + series.file(steps[steps.length - 1]).getFileName()
                    + "): continue it with --restart, or give another --dir";
        }
        if (options.diagnostics() != null && Files.exists(options.diagnostics())) {
            return "--diagnostics " + options.diagnostics() + " exists (an earlier run's?):"
                    + " continue that run with --restart, or remove the file or give another";
        }
        return "";
    }

    private static int usageError(boolean root, String message) {
        if (root) {
            System.err.println("HeatDiffusion: " + message);
            System.err.println(HeatOptions.USAGE);
        }
        return 2;
    }

    private static int simulate(Job job, HeatOptions options, SionCheckpointSeries series, HeatCatalog catalog,
                                long firstStep, RowBlock block, long restartNanos) throws IOException {
        Communicator world = job.world();
        boolean root = world.rank() == 0;
        int n = block.n();
        long started = System.nanoTime();
        HeatDiagnostics diagnostics = null;
        if (root && options.diagnostics() != null) {
            StringBuilder notes = new StringBuilder();
            diagnostics = HeatDiagnostics.open(options.diagnostics(), firstStep, notes);
            System.out.print(notes);
        }
        InSituReader inSitu = null;
        Thread reader = null;
        if (options.inSitu() && world.rank() == world.size() - 1 && firstStep >= options.steps()) {
            System.out.println("in-situ reader: nothing to follow, the run starts at its last step " + firstStep);
        } else if (options.inSitu() && world.rank() == world.size() - 1) {
            inSitu = new InSituReader(options.diagnostics(), options.steps());
            reader = new Thread(inSitu, "in-situ reader");
            reader.setDaemon(true); // never keeps a failed rank's JVM alive
            reader.start();
        }
        if (root) {
            System.out.printf(Locale.ROOT, "heat: %d x %d grid on %d ranks, steps %d..%d, dt %.3e%n", n, n,
                    world.size(), firstStep, options.steps(), HeatStencil.dt(n));
        }
        long step = firstStep;
        long checkpointed = firstStep;
        StepSummary summary = StepSummary.ofAllRanks(world, block, false);
        boolean stopped = false;
        long loopBegin = System.nanoTime();
        long checkpointNanos = 0;
        long checkpointBytes = 0;
        int checkpoints = 0;
        while (step < options.steps()) {
            block.exchangeHalos(world);
            block.step();
            step++;
            summary = StepSummary.ofAllRanks(world, block, job.stopRequested());
            if (diagnostics != null) {
                diagnostics.append(step, step * HeatStencil.dt(n), summary.energy(), summary.maxTemperature());
            }
            // A request that comes with the last step changes nothing: the run is done.
            stopped = summary.stopRequested() && step < options.steps();
            // The last step is checkpointed too, so that the run can be continued beyond it and a batch
            // script knows the run is done (slurm/heat.sbatch).
            boolean periodic = options.checkpointEvery() > 0
                    && (step % options.checkpointEvery() == 0 || step == options.steps());
            if (stopped || periodic) {
                long begin = System.nanoTime();
                checkpointBytes += checkpoint(world, series, catalog, step, block, started);
                checkpointNanos += System.nanoTime() - begin;
                checkpoints++;
                checkpointed = step;
            }
            if (stopped) {
                break;
            }
        }
        long computeNanos = System.nanoTime() - loopBegin - checkpointNanos;
        if (diagnostics != null) {
            diagnostics.close();
        }
        if (root) {
            System.out.printf(Locale.ROOT, "heat: %s at step %d after %.2f s: energy %.9g, max temperature %.6f%s%n",
                    stopped ? "stopped on request" : "done", step, (System.nanoTime() - started) / 1e9,
                    summary.energy(), summary.maxTemperature(),
                    checkpointed == step && step > firstStep ? ", last checkpoint " + series.file(step) : "");
            long computed = step - firstStep;
            System.out.println(new RunTiming(world.size(), n, firstStep, computed,
                    computed == 0 ? 0 : computeNanos / 1e9 / computed, checkpoints, checkpointBytes,
                    checkpointNanos / 1e9, restartNanos / 1e9).line());
        }
        int status = 0;
        if (options.verify() && stopped) {
            // Recomputing every step serially would outlast the grace period a stop request leaves.
            if (root) {
                System.out.println("verify: skipped: stopped at step " + step + " before step " + options.steps()
                        + "; the run that reaches it verifies");
            }
        } else if (options.verify()) {
            status = verify(world, block, step);
        }
        if (reader != null) {
            inSitu.giveUpAfter(IN_SITU_GRACE_MILLIS);
            try {
                reader.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the in-situ reader", e);
            }
            System.out.println(inSitu.report());
            status = inSitu.clean() ? status : 1;
        }
        return status;
    }

    /**
     * Writes step's checkpoint (collective), and commits it to the catalog on rank 0; its size in
     * bytes on rank 0, 0 elsewhere.
     */
    private static long checkpoint(Communicator world, SionCheckpointSeries series, HeatCatalog catalog, long step,
                                   RowBlock block, long started) throws IOException {
        Path file = series.file(step);
        if (world.rank() == 0) {
            Files.createDirectories(series.directory());
        }
        world.barrier(); // the directory exists before any rank opens
        long begin = System.nanoTime();
        HeatCheckpoint.write(world, file, step, block);
        if (world.rank() != 0) {
            return 0;
        }
        long bytes = Files.size(file);
        System.out.printf(Locale.ROOT, "checkpoint step %d: %s, %d bytes, in %.3f s (at %.2f s)%n", step, file,
                bytes, (System.nanoTime() - begin) / 1e9, (System.nanoTime() - started) / 1e9);
        if (catalog != null) {
            System.out.println("catalog: committed " + catalog.commit(file, step, world.size(), block.n()));
        }
        return bytes;
    }

    /**
     * Rank 0 gathers the final grid and recomputes {@code steps} steps serially from the start:
     * every cell must have the same bits. The verdict is every rank's exit status.
     */
    private static int verify(Communicator world, RowBlock block, long steps) {
        byte[][] blocks = world.gather(block.interiorBytes().array(), 0);
        int status = 0;
        if (world.rank() == 0) {
            int n = block.n();
            ByteBuffer computed = ByteBuffer.allocate(n * n * Double.BYTES); // fits: HeatOptions.MAX_GRID
            for (byte[] part : blocks) {
                computed.put(part);
            }
            byte[] expected = serialRun(n, steps);
            long cells = (long) n * n;
            int differs = Arrays.mismatch(computed.array(), expected);
            if (differs < 0) {
                System.out.println("verify: final grid bitwise identical to an uninterrupted run (" + cells
                        + " cells)");
            } else {
                int cell = differs / Double.BYTES;
                ByteBuffer found = computed.order(ByteOrder.LITTLE_ENDIAN);
                ByteBuffer wanted = ByteBuffer.wrap(expected).order(ByteOrder.LITTLE_ENDIAN);
                System.out.printf(Locale.ROOT, "verify: FAILED: the final grid differs from an uninterrupted run,"
                                + " first at row %d, column %d: %.17g, expected %.17g%n", cell / n, cell % n,
                        found.getDouble(cell * Double.BYTES), wanted.getDouble(cell * Double.BYTES));
                status = 1;
            }
        }
        return world.broadcast(new byte[] {(byte) status}, 0)[0];
    }

    /** The grid after {@code steps} steps from the start on one block of all rows, as little-endian bytes. */
    private static byte[] serialRun(int n, long steps) {
        RowBlock whole = RowBlock.initial(n, new RecordRange(0, n));
        for (long s = 0; s < steps; s++) {
            whole.step(); // ghost rows stay 0: the boundary
        }
        return whole.interiorBytes().array();
    }
}
