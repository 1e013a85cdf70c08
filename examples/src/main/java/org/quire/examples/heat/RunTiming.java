package org.quire.examples.heat;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What one {@link HeatDiffusion} run measured, as rank 0 sees it (the ranks meet in an allgather
 * every step, so rank 0's clock is the job's), printed as one machine-readable line at the end of
 * the run and parsed back by {@link HeatScaling}:
 * {@code timing: ranks=4 grid=1024 from_step=0 steps=100 step_s=0.0512 checkpoints=2
 * checkpoint_bytes=17432704 checkpoint_s=0.508 restart_s=0}.
 *
 * @param ranks             the job's rank count
 * @param grid              n of the n x n grid
 * @param fromStep          the step the run started at (a restart's checkpoint step, else 0)
 * @param steps             steps computed by this run
 * @param stepSeconds       wall time per computed step (halo exchange, update, the step's
 *                          allgather, the diagnostics row), checkpoints excluded; 0 when no step
 * @param checkpoints       checkpoints written
 * @param checkpointBytes   their total file size
 * @param checkpointSeconds their total write time, from the barrier before each to its close
 * @param restartSeconds    choosing the latest complete checkpoint and reading it on every rank;
 *                          0 for a run that did not restart
 */
record RunTiming(int ranks, int grid, long fromStep, long steps, double stepSeconds, int checkpoints,
                 long checkpointBytes, double checkpointSeconds, double restartSeconds) {

    static final String PREFIX = "timing: ";

    String line() {
        return String.format(Locale.ROOT, PREFIX + "ranks=%d grid=%d from_step=%d steps=%d step_s=%.6g checkpoints=%d"
                        + " checkpoint_bytes=%d checkpoint_s=%.6g restart_s=%.6g", ranks, grid, fromStep, steps,
                stepSeconds, checkpoints, checkpointBytes, checkpointSeconds, restartSeconds);
    }

    /** Checkpoint write bandwidth in bytes per second; 0 without checkpoints. */
    double checkpointBytesPerSecond() {
        return checkpointSeconds > 0 ? checkpointBytes / checkpointSeconds : 0;
    }

    /**
     * The timing in {@code output} (a job's standard output, rank-prefixed or not): the last line
     * that holds {@link #PREFIX}. Empty when there is none; a malformed one is an
     * {@link IllegalArgumentException} naming the line and the field.
     */
    static Optional<RunTiming> find(String output) {
        String found = null;
        for (String line : output.split("\n")) {
            int at = line.indexOf(PREFIX);
            if (at >= 0) {
                found = line.substring(at + PREFIX.length());
            }
        }
        if (found == null) {
            return Optional.empty();
        }
        Map<String, String> fields = new HashMap<>();
        for (String pair : found.trim().split(" +")) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("timing line \"" + found + "\": expected key=value, got \"" + pair
                        + "\"");
            }
            fields.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        Field f = new Field(found, fields);
        return Optional.of(new RunTiming((int) f.whole("ranks"), (int) f.whole("grid"), f.whole("from_step"),
                f.whole("steps"), f.real("step_s"), (int) f.whole("checkpoints"), f.whole("checkpoint_bytes"),
                f.real("checkpoint_s"), f.real("restart_s")));
    }

    /** One timing line's fields, each read once with a clear error. */
    private record Field(String line, Map<String, String> fields) {

        private String text(String key) {
            String value = fields.get(key);
            if (value == null) {
                throw new IllegalArgumentException("timing line \"" + line + "\": no field " + key);
            }
            return value;
        }

        long whole(String key) {
            try {
                return Long.parseLong(text(key));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("timing line \"" + line + "\": " + key
                        + " must be a whole number, got \"" + text(key) + "\"");
            }
        }

        double real(String key) {
            try {
                return Double.parseDouble(text(key));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("timing line \"" + line + "\": " + key
                        + " must be a number, got \"" + text(key) + "\"");
            }
        }
    }
}
