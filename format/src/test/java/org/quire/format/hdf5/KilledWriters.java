package org.quire.format.hdf5;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

import org.quire.format.storage.CrashSimulator;

/** The files writers killed at a chosen point leave, on a {@link CrashSimulator}. */
final class KilledWriters {

    private KilledWriters() {
    }

    /**
     * What a writer killed right after it committed the journal of its second flush leaves,
     * and how many writes to the file the flush made from that commit on (those {@link
     * Hdf5File#recover} replays).
     */
    record AfterCommit(Map<Path, byte[]> files, int inPlaceWrites) {
    }

    /**
     * A writer of {@code file} killed right after it committed the journal of its second flush:
     * the first flush holds an empty root group, the second adds dataset "d" = 1..6.
     */
    static AfterCommit afterCommittingTheSecondFlush(Path file) throws IOException {
        CrashSimulator simulator = new CrashSimulator();
        try (Hdf5File hdf5 = Hdf5File.create(file, simulator)) {
            Dataset d = hdf5.root().createDataset("d", Hdf5RecoveryTest.appendable());
            d.extend(6);
            d.write(new long[] {0}, new long[] {6}, new int[] {1, 2, 3, 4, 5, 6});
            int before = simulator.eventCount();
            hdf5.flush();
            int committed = simulator.firstEvent(before, CrashSimulator.Write.class,
                    Hdf5File.journalPath(file));
            int inPlace = (int) simulator.events().subList(committed, simulator.eventCount())
                    .stream().filter(event -> event instanceof CrashSimulator.Write
                            && event.path().equals(file)).count();
            return new AfterCommit(simulator.processCrash(committed + 1), inPlace);
        }
    }
}
