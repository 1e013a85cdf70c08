package org.quire.format.versioned;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quire.format.versioned.DeleteVersionsCrashTest.DOOMED;
import static org.quire.format.versioned.DeleteVersionsCrashTest.FILE;
import static org.quire.format.versioned.VersionedFileTest.DAY;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.quire.format.FormatException;
import org.quire.format.hdf5.DatasetSpec;
import org.quire.format.hdf5.Datatype;
import org.quire.format.hdf5.Hdf5File;
import org.quire.format.hdf5.cache.AbandonedChangesException;
import org.quire.format.storage.CrashSimulator;
import org.quire.format.storage.FullDisk;
import org.quire.format.versioned.DeleteVersionsCrashTest.Snapshot;

/**
 * A {@link VersionedFile#deleteVersions} that throws part-way (docs/versions.md, "Deleting
 * versions"): the disk fills ({@link FullDisk}) at each write of the deletion in turn, on the
 * versions of {@link DeleteVersionsCrashTest}. The deletion throws the disk's error (itself or,
 * from a flush's in-place writes, as the cause of an incomplete flush); every later change is
 * refused naming the file, the deletion and {@code quire h5 clear}; with the space back,
 * closing writes nothing to the file or its journal; recovered, the file holds the old versions
 * or the new ones, every dataset of every version reading its values, {@link
 * VersionedFile#verify()} passing.
 */
class DeleteVersionsFailureTest {

    @Test
    void aDeletionFailingAtAnyWriteLeavesTheLastFlushAndClosingWritesNothing() throws IOException {
        Map<Path, byte[]> before = DeleteVersionsCrashTest.chain().files();
        Snapshot old = DeleteVersionsCrashTest.snapshot(before);
        FullDiskRuns.Change deletion = vf -> vf.deleteVersions(DOOMED.toArray(String[]::new));
        FullDiskRuns.CleanRun clean = FullDiskRuns.cleanRun(before, deletion);
        List<Long> budgets = clean.budgets();
        Snapshot deleted = DeleteVersionsCrashTest.snapshot(clean.files());

        int olds = 0;
        int news = 0;
        for (long budget : budgets) {
            FullDiskRuns.Failed failed = FullDiskRuns.failedAt(before, budget, deletion);
            VersionedFile vf = failed.session();
            CrashSimulator simulator = failed.disk();
            // A first version (no parent to read); object headers wrap what the cache throws at
            // insertion in an UncheckedIOException.
            Exception refused = assertThrows(Exception.class, () -> vf.commit("after", "", DAY,
                    v -> v.createDataset("w", DatasetSpec.builder(Datatype.INT64, 1).build(), null)));
            Throwable abandoned = refused instanceof UncheckedIOException ? refused.getCause() : refused;
            assertInstanceOf(AbandonedChangesException.class, abandoned, "budget " + budget);
            String line = abandoned.getMessage();
            assertTrue(line.startsWith(FILE + ": deleting versions r1, r2, r4 failed part-way (")
                    && line.contains(FullDiskRuns.NO_SPACE)
                    && line.contains("quire h5 clear " + FILE) && !line.contains("\n"), line);
            Map<Path, byte[]> left = simulator.files();
            assertThrows(FormatException.class, vf::close);
            Map<Path, byte[]> closed = simulator.files();
            for (Path path : List.of(FILE, Hdf5File.journalPath(FILE))) {
                assertArrayEquals(left.get(path), closed.get(path), "budget " + budget + ": " + path);
            }

            if (FullDiskRuns.recovered(closed, old, deleted, budget).equals("old")) {
                olds++;
            } else {
                news++;
            }
        }
        assertTrue(olds > 0 && news > 0, olds + " old, " + news + " new");
        assertEquals(budgets.size(), olds + news);
    }
}
