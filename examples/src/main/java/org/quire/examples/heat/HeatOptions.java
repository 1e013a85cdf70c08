package org.quire.examples.heat;

import java.nio.file.Path;

/**
 * {@link HeatDiffusion}'s command line. A bad one is an {@link IllegalArgumentException} whose
 * message is the one line the program prints (exit status 2).
 *
 * @param grid            n of the n x n grid; 0 when not given (1024 for a new run, the
 *                        checkpoint's for a restart)
 * @param steps           the step the run ends at (a restart continues up to it)
 * @param checkpointEvery a checkpoint every this many steps; 0 for none
 * @param directory       where the checkpoints go
 * @param restart         continue from a checkpoint: the latest complete one in the directory,
 *                        or the one {@code restartFrom} names in the catalog
 * @param verify          compare the final grid with a serial run bitwise
 * @param diagnostics     rank 0's per-step HDF5 file; null for none
 * @param inSitu          the last rank follows the diagnostics while rank 0 writes them
 * @param help            print the help and do nothing else
 * @param catalog         the checkpoint catalog rank 0 commits every checkpoint to; null for none
 * @param restartFrom     the catalog's checkpoint a restart continues from (latest, a name, ~N,
 *                        {@code @TIME}); "latest" when {@code --restart} has no value
 */
record HeatOptions(int grid, long steps, long checkpointEvery, Path directory, boolean restart, boolean verify,
                   Path diagnostics, boolean inSitu, boolean help, Path catalog, String restartFrom) {

    static final int DEFAULT_GRID = 1024;
    static final String LATEST = "latest";
    /** The smallest n: a grid with an interior. */
    static final int MIN_GRID = 2;
    /** The largest n whose n x n grid of doubles fits one Java array, as --verify gathers it on rank 0. */
    static final int MAX_GRID = 16_383;

    static final String USAGE = "usage: HeatDiffusion [--grid N] [--steps S] [--checkpoint-every K] [--dir DIR]"
            + " [--catalog FILE.h5] [--restart [CHECKPOINT]] [--verify] [--diagnostics FILE.h5 [--in-situ]] [--help]";

    static final String HELP = String.join("\n",
            USAGE,
            "2-D heat diffusion on an N x N grid (explicit 5-point finite differences, boundary at 0),",
            "the rows split over the ranks, halos exchanged with sendrecv.",
            "  --grid N              grid size (default " + DEFAULT_GRID + "; a restart takes the checkpoint's)",
            "  --steps S             run until step S (default 200)",
            "  --checkpoint-every K  a SION checkpoint DIR/heat-<step>.sion every K steps and at step S",
            "                        (default 50; 0: none)",
            "  --dir DIR             checkpoint directory (default heat-checkpoints)",
            "  --catalog FILE        commit every checkpoint to FILE (a versioned HDF5 file: quire versions",
            "                        ls|show|diff FILE); a restart's checkpoints go to DIR/run-R",
            "  --restart [CHECKPOINT] continue, on any rank count, from the latest complete checkpoint in",
            "                        DIR, or with --catalog from CHECKPOINT: latest (default), a name,",
            "                        ~N (N back from the latest) or @TIME (the latest at or before TIME)",
            "  --verify              check the final grid bitwise against a serial uninterrupted run",
            "  --diagnostics FILE    rank 0 appends step, time, energy, max temperature, wall clock",
            "                        per step to FILE (HDF5, dataset /diagnostics, SWMR mode)",
            "  --in-situ             the last rank follows FILE while rank 0 writes it and checks",
            "                        that the energy never increases (needs --diagnostics, 2+ ranks)",
            "A stop request (SIGTERM, SIGINT, SIGUSR1) ends the run after a final checkpoint (and",
            "skips --verify: the run that reaches step S verifies).",
            "Exit 0 done, 1 failed (no checkpoint to restart from, verification failed), 2 bad usage.");

    static HeatOptions parse(String[] args) {
        int grid = 0;
        long steps = 200;
        long checkpointEvery = 50;
        Path directory = Path.of("heat-checkpoints");
        boolean restart = false;
        boolean verify = false;
        Path diagnostics = null;
        boolean inSitu = false;
        Path catalog = null;
        String restartFrom = LATEST;
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            switch (option) {
                case "--restart" -> {
                    restart = true;
                    if (i + 1 < args.length && !args[i + 1].startsWith("--")) {
                        restartFrom = args[++i];
                    }
                }
                case "--verify" -> verify = true;
                case "--in-situ" -> inSitu = true;
                case "--help", "-h" -> {
                    return new HeatOptions(0, 0, 0, directory, false, false, null, false, true, null, LATEST);
                }
                case "--grid", "--steps", "--checkpoint-every", "--dir", "--diagnostics", "--catalog" -> {
                    if (i + 1 == args.length) {
                        throw new IllegalArgumentException(option + " needs a value");
                    }
                    String value = args[++i];
                    switch (option) {
                        case "--grid" -> grid = Math.toIntExact(number(option, value, MIN_GRID, MAX_GRID));
                        case "--steps" -> steps = number(option, value, 0, Long.MAX_VALUE);
                        case "--checkpoint-every" -> checkpointEvery = number(option, value, 0, Long.MAX_VALUE);
                        case "--dir" -> directory = Path.of(value);
                        case "--catalog" -> catalog = Path.of(value);
                        default -> diagnostics = Path.of(value);
                    }
                }
                default -> throw new IllegalArgumentException("unknown option " + option);
            }
        }
        if (inSitu && diagnostics == null) {
            throw new IllegalArgumentException("--in-situ follows the diagnostics file: give --diagnostics FILE");
        }
        if (catalog == null && !restartFrom.equals(LATEST)) {
            throw new IllegalArgumentException("--restart " + restartFrom + " picks a checkpoint of the catalog:"
                    + " give --catalog FILE");
        }
        return new HeatOptions(grid, steps, checkpointEvery, directory, restart, verify, diagnostics, inSitu, false,
                catalog, restartFrom);
    }

    /** {@code value} as a whole number in [min, max]. */
    private static long number(String option, String value, long min, long max) {
        long number;
        try {
            number = Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " must be a whole number, got \"" + value + "\"");
        }
        if (number < min || number > max) {
            throw new IllegalArgumentException(option + " must be between " + min + " and " + max + ", got " + number);
        }
        return number;
    }
}
