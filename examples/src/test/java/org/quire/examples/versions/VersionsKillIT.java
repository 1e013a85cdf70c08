package org.quire.examples.versions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.ExternalTools;

/**
 * Real SIGKILLs of a process committing and deleting versions (issue 11; docs/versions.md,
 * "Killed processes"): {@link VersionKillRounds} with {@value #KILLS} kills on one file, the
 * seed printed (give {@code -Dversions.kill.seed=N} to repeat a run, {@code
 * -Dversions.kill.count=N} for more kills). After every kill the
 * recovered file holds exactly the versions the writer's log says, each read by Quire with its
 * values; every {@value #REFERENCE_EVERY}th round versioned-hdf5 1.7.0 and h5py read them too.
 */
class VersionsKillIT {

    private static final int KILLS = 30;
    private static final int REFERENCE_EVERY = 10;

    @TempDir
    Path dir;

    @Test
    void killedCommitsAndDeletesLeaveExactlyTheLoggedVersions() throws Exception {
        long seed = Long.getLong("versions.kill.seed", System.nanoTime());
        System.out.println("VersionsKillIT seed " + seed);
        ExternalTools.requireH5py();
        int kills = Integer.getInteger("versions.kill.count", KILLS);
        VersionKillRounds.Totals totals = new VersionKillRounds(dir, seed, REFERENCE_EVERY)
                .run(kills, System.out);
        assertEquals(kills, totals.kills, "seed " + seed);
        assertTrue(totals.insideCommit > 0 && totals.insideDelete > 0, "seed " + seed
                + ": of " + kills + " kills " + totals.insideCommit + " landed inside a commit, "
                + totals.insideDelete + " inside a delete; both must be hit");
    }
}
