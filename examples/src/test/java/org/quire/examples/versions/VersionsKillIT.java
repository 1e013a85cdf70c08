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
    private static final int DEFAULT_FORMAT_KILLS = 12;

    @TempDir
    Path dir;

    @Test
    void killedCommitsAndDeletesLeaveExactlyTheLoggedVersions() throws Exception {
        long seed = Long.getLong("versions.kill.seed", System.nanoTime());
        System.out.println("VersionsKillIT seed " + seed);
        ExternalTools.requireH5py();
        int kills = Integer.getInteger("versions.kill.count", KILLS);
        VersionKillRounds.Totals totals = new VersionKillRounds(dir, seed, REFERENCE_EVERY, false)
                .run(kills, System.out);
        assertEquals(kills, totals.kills, "seed " + seed);
        assertTrue(totals.insideCommit > 0 && totals.insideDelete > 0, "seed " + seed
                + ": of " + kills + " kills " + totals.insideCommit + " landed inside a commit, "
                + totals.insideDelete + " inside a delete; both must be hit");
    }

    /**
     * The same rounds, {@value #DEFAULT_FORMAT_KILLS} kills during commits and deletes, on a
     * file versioned-hdf5 created with h5py's defaults (libhdf5's default format: superblock
     * 0, the versions group and {@code /_version_data} old-style groups): after each kill h5py
     * refuses the file (Quire's writing guard) until {@code Hdf5File.recover}, which leaves
     * superblock 0 with its true end of file; then the logged versions, read by Quire and
     * (every third round and the last) versioned-hdf5 and h5py.
     */
    @Test
    void killedWritersOfADefaultFormatFileLeaveTheLoggedVersions() throws Exception {
        long seed = Long.getLong("versions.kill.seed", System.nanoTime());
        System.out.println("VersionsKillIT default format seed " + seed);
        ExternalTools.requireH5py();
        VersionKillRounds.Totals totals = new VersionKillRounds(dir, seed, 3, true)
                .run(DEFAULT_FORMAT_KILLS, System.out);
        assertEquals(DEFAULT_FORMAT_KILLS, totals.kills, "seed " + seed);
        assertTrue(totals.insideCommit > 0 && totals.insideDelete > 0, "seed " + seed
                + ": of " + DEFAULT_FORMAT_KILLS + " kills " + totals.insideCommit
                + " landed inside a commit, " + totals.insideDelete + " inside a delete; both "
                + "must be hit");
    }
}
