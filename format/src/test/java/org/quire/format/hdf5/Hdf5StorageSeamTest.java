package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.quire.format.storage.CrashSimulator;

/**
 * Every byte of an HDF5 file goes through the {@link org.quire.format.storage.StorageOpener} it
 * is given: a file written, read and verified in a simulator's memory never touches the disk.
 */
class Hdf5StorageSeamTest {

    @Test
    void writesReadsAndVerifiesAFileThroughItsStorageOpener() throws Exception {
        CrashSimulator memory = new CrashSimulator();
        Path path = Path.of("/simulated/seam.h5");
        try (Hdf5File file = Hdf5File.create(path, memory)) {
            Dataset dataset = file.root().createDataset("t", DatasetSpec.builder(Datatype.FLOAT64, 0)
                    .maxShape(DatasetSpec.UNLIMITED).chunkShape(4).build());
            dataset.extend(6);
            dataset.write(new long[] {0}, new long[] {6}, new double[] {1, 2, 3, 4, 5, 6});
        }
        assertFalse(Files.exists(path));
        assertThrows(FileAlreadyExistsException.class, () -> Hdf5File.create(path, memory));
        try (Hdf5File file = Hdf5File.open(path, memory)) {
            assertArrayEquals(new double[] {1, 2, 3, 4, 5, 6},
                    file.root().dataset("t").readDoubles(new long[] {0}, new long[] {6}));
        }
        VerificationReport report = Hdf5Verifier.verify(path, memory);
        assertEquals(1, report.datasets());
    }
}
