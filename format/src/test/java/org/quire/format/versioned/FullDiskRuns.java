package org.quire.format.versioned;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.quire.format.versioned.DeleteVersionsCrashTest.FILE;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.quire.format.FormatException;
import org.quire.format.hdf5.Hdf5File;
import org.quire.format.storage.CrashSimulator;
import org.quire.format.storage.FullDisk;
import org.quire.format.versioned.DeleteVersionsCrashTest.Snapshot;

/**
 * A change to the versions of {@link DeleteVersionsCrashTest} with the disk filling ({@link
 * FullDisk}) at each of its writes in turn: the budgets come from one run with space enough,
 * each failed run is recovered and must hold the old versions or the changed ones.
 */
final class FullDiskRuns {

    static final String NO_SPACE = "No space left on device";

    private FullDiskRuns() {
    }

    /** A change made in a session open for writing. */
    interface Change {
        void apply(VersionedFile vf) throws IOException;
    }

    /** What a change made with space enough: its writes, in order, and the files it left. */
    record CleanRun(List<CrashSimulator.Write> writes, Map<Path, byte[]> files) {

        /** The bytes written before each write: the budget that fills the disk at that write. */
        List<Long> budgets() {
            List<Long> budgets = new ArrayList<>();
            long written = 0;
            for (CrashSimulator.Write write : writes) {
                budgets.add(written);
                written += write.bytes().length;
            }
            return budgets;
        }

        /** The index of the first write to {@code path}, -1 if none. */
        int firstWriteTo(Path path) {
            for (int i = 0; i < writes.size(); i++) {
                if (writes.get(i).path().equals(path)) {
                    return i;
                }
            }
            return -1;
        }
    }

    /** {@code change} made once to {@code before}, with space enough. */
    static CleanRun cleanRun(Map<Path, byte[]> before, Change change) throws IOException {
        CrashSimulator clean = new CrashSimulator(before);
        List<CrashSimulator.Write> writes = new ArrayList<>();
        try (VersionedFile vf = VersionedFile.openForWriting(FILE, clean)) {
            int begin = clean.eventCount();
            change.apply(vf);
            for (CrashSimulator.Event event : clean.events().subList(begin, clean.eventCount())) {
                if (event instanceof CrashSimulator.Write write) {
                    writes.add(write);
                }
            }
        }
        return new CleanRun(writes, clean.files());
    }

    /** The open session whose change failed, and the disk under it (space back). */
    record Failed(VersionedFile session, CrashSimulator disk) {
    }

    /**
     * {@code change} made to {@code before} on a disk that fills after {@code budget} bytes:
     * it must throw the disk's error (itself or, from a flush, as the cause); the space is
     * then given back, the session left open.
     */
    static Failed failedAt(Map<Path, byte[]> before, long budget, Change change)
            throws IOException {
        CrashSimulator simulator = new CrashSimulator(before);
        FullDisk disk = new FullDisk(simulator);
        VersionedFile vf = VersionedFile.openForWriting(FILE, disk);
        disk.fillAfter(budget);
        IOException failed = assertThrows(IOException.class, () -> change.apply(vf),
                "budget " + budget);
        Throwable injected = failed instanceof FormatException ? failed.getCause() : failed;
        assertTrue(injected != null && injected.getMessage().startsWith(NO_SPACE),
                "budget " + budget + ": " + failed);
        disk.free();
        return new Failed(vf, simulator);
    }

    /**
     * "old" or "new": which of {@code old} and {@code changed} the {@code files} recover to
     * (any other state fails naming {@code budget}); {@link VersionedFile#verify()} passes.
     */
    static String recovered(Map<Path, byte[]> files, Snapshot old, Snapshot changed, long budget)
            throws IOException {
        CrashSimulator after = new CrashSimulator(files);
        Hdf5File.recover(FILE, after);
        try (VersionedFile recovered = VersionedFile.open(FILE, after)) {
            Snapshot found = DeleteVersionsCrashTest.snapshot(recovered);
            String outcome = found.equals(old) ? "old" : found.equals(changed) ? "new" : null;
            if (outcome == null) {
                fail("budget " + budget + ": " + found);
            }
            recovered.verify();
            return outcome;
        }
    }
}
