package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.layout.JenkinsLookup3;
import org.quire.format.hdf5.layout.SuperblockV3;
import org.quire.format.storage.TrackingOpener;

/**
 * A superblock whose root group address leads to a dataset's header: a reader and a writer
 * refuse the file naming the address, and a writer refused there, after it opened the flush
 * journal, leaves no journal, changes nothing and closes every file it opened.
 */
class RootObjectMutationGapsTest {

    /** Where a version 3 superblock holds the root group's object header address. */
    private static final int ROOT_ADDRESS = 36;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aRootThatIsADatasetIsRefused(boolean forWriting) throws IOException {
        Path path = dir.resolve("root-dataset.h5");
        long dataset;
        try (Hdf5File file = Hdf5File.create(path)) {
            dataset = file.root().createDataset("d", Datatype.INT32, new long[] {2},
                    new byte[8]).address();
        }
        byte[] bytes = Files.readAllBytes(path);
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putLong(ROOT_ADDRESS, dataset)
                .putInt(SuperblockV3.SIZE - 4,
                        JenkinsLookup3.checksum(bytes, 0, SuperblockV3.SIZE - 4));
        Files.write(path, bytes);
        TrackingOpener opener = new TrackingOpener();
        CorruptFileException e = assertThrows(CorruptFileException.class, () -> {
            if (forWriting) {
                Hdf5File.openForWriting(path, opener, WriteOptions.DEFAULT).close();
            } else {
                Hdf5File.open(path, opener).close();
            }
        });
        assertEquals(path + ": corrupt object header at offset " + dataset
                + ": messages expected a group, found a dataset", e.getMessage());
        assertEquals(List.of(), opener.stillOpen());
        assertFalse(Files.exists(Hdf5File.journalPath(path)), "no journal left");
        assertArrayEquals(bytes, Files.readAllBytes(path));
    }
}
