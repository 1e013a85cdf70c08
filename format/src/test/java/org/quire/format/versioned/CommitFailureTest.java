package org.quire.format.versioned;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quire.format.versioned.DeleteVersionsCrashTest.FILE;
import static org.quire.format.versioned.VersionedFileTest.DAY;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.quire.format.FormatException;
import org.quire.format.hdf5.Hdf5File;
import org.quire.format.hdf5.cache.AbandonedChangesException;
import org.quire.format.storage.FullDisk;
import org.quire.format.versioned.DeleteVersionsCrashTest.Snapshot;

/**
 * A {@link VersionedFile#commit} that throws (docs/versions.md): the disk fills ({@link
 * FullDisk}) at each write of a commit of r7 on the versions of {@link DeleteVersionsCrashTest}
 * in turn. The commit throws the disk's error; with the space back, the file is closed (which
 * may refuse) and recovered: it holds the old versions while the failure came before the
 * flush's journal was written whole, the new ones after (the journal then publishes them, as
 * after a kill), every dataset of every version reading its values and {@link
 * VersionedFile#verify()} passing. A commit whose flush failed never leaves its version for
 * {@code close()} to publish, nor shows it in the open session: that refuses instead, or shows
 * the old current version.
 */
class CommitFailureTest {

    private static void commitR7(VersionedFile vf) throws IOException {
        vf.commit("r7", "r6", DAY.plusSeconds(7),
                v -> v.dataset("x").write(new long[] {7}, new long[] {1}, new long[] {107}));
    }

    @Test
    void aCommitFailingAtAnyWriteLeavesTheOldVersionsUntilItsJournalIsWritten() throws IOException {
        Map<Path, byte[]> before = DeleteVersionsCrashTest.chain().files();
        Snapshot old = DeleteVersionsCrashTest.snapshot(before);
        FullDiskRuns.CleanRun clean = FullDiskRuns.cleanRun(before, CommitFailureTest::commitR7);
        int firstJournalWrite = clean.firstWriteTo(Hdf5File.journalPath(FILE));
        Snapshot committed = DeleteVersionsCrashTest.snapshot(clean.files());
        assertEquals(107L, committed.values().get("r7").get("x").get(7));
        assertTrue(firstJournalWrite > 0, "the commit writes chunks, then its flush's journal");

        List<String> outcomes = new ArrayList<>();
        List<Integer> abandonedAt = new ArrayList<>();
        for (long budget : clean.budgets()) {
            FullDiskRuns.Failed failed = FullDiskRuns.failedAt(before, budget,
                    CommitFailureTest::commitR7);
            VersionedFile vf = failed.session();
            try {
                assertEquals("r6", vf.currentVersion(), "budget " + budget);
            } catch (AbandonedChangesException abandoned) {
                abandonedAt.add(outcomes.size()); // what the session holds is not the file now
            }
            try {
                vf.close();
            } catch (FormatException refused) {
                // an abandoned or incomplete flush: close writes nothing, recover() repairs
            }
            outcomes.add(FullDiskRuns.recovered(failed.disk().files(), old, committed, budget));
        }
        assertTrue(abandonedAt.contains(firstJournalWrite), "a failed journal write leaves the "
                + "session showing the failed version: abandoned at " + abandonedAt);
        int firstNew = outcomes.indexOf("new");
        assertTrue(firstNew > firstJournalWrite, "the write of the journal failing must leave the "
                + "old versions: " + outcomes + ", journal from write " + firstJournalWrite);
        assertEquals(outcomes.size() - firstNew, outcomes.subList(firstNew, outcomes.size())
                .stream().filter("new"::equals).count(), "old before new only: " + outcomes);
    }
}
