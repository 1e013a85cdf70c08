package org.quire.examples.swmr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.launcher.RequiredTool;

/**
 * Real SIGKILLs of an SWMR writer process (issue 10, item 6): {@link SwmrKillRounds} with 20
 * kills, the seed printed (give {@code -Dswmr.kill.seed=N} to repeat a run). Every round's
 * flushed records must be intact for Quire's and h5py's SWMR readers and, after {@code quire h5
 * clear}, for h5dump and plain h5py; some rounds restart the writer on the killed file.
 */
class SwmrKillIT {

    private static final int KILLS = 20;

    @TempDir
    Path dir;

    @Test
    void twentyKilledWritersLoseNoFlushedRecord() throws Exception {
        long seed = Long.getLong("swmr.kill.seed", System.nanoTime());
        System.out.println("SwmrKillIT seed " + seed);
        RequiredTool.requireWorking(SwmrKillRounds.PYTHON, "python3-h5py", "-c",
                "import h5py, numpy");
        Path h5dump = RequiredTool.require("h5dump", "hdf5-tools");
        SwmrKillRounds.Totals totals = new SwmrKillRounds(dir, seed, h5dump).run(KILLS, seed,
                System.out);
        assertEquals(KILLS, totals.kills);
        assertTrue(totals.continued > 0, "no round restarted a killed file's writer");
    }
}
