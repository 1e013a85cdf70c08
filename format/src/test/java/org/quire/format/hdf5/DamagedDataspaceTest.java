package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.IntStream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.layout.ChunkRecord;
import org.quire.format.hdf5.layout.DataspaceMessage;

/**
 * Dataspace sizes from 2^63 up (other than the all-ones "unlimited" maximum) in an object
 * header whose checksum was recomputed: corrupt when the dataset is opened, never a negative
 * chunk count or an unchecked exception further on.
 */
class DamagedDataspaceTest {

    @TempDir
    static Path dir;
    private static Path intact;
    private static final long[] SHAPE = {4, 6};
    private static final long[] MAX_SHAPE = {DatasetSpec.UNLIMITED, 6};

    @BeforeAll
    static void writeIntactFile() throws IOException {
        intact = dir.resolve("intact.h5");
        try (Hdf5File hdf5 = Hdf5File.create(intact)) {
            Dataset d = hdf5.root().createDataset("d", DatasetSpec.builder(Datatype.INT32, SHAPE)
                    .maxShape(MAX_SHAPE).chunkShape(2, 3).build());
            d.write(new long[2], SHAPE, IntStream.range(0, 24).toArray());
        }
    }

    /** A copy of the file with size field {@code field} (0, 1: sizes; 2, 3: maxima) set. */
    private static Path withDataspaceField(String name, int field, long value)
            throws IOException {
        byte[] bytes = Files.readAllBytes(intact);
        byte[] message = new DataspaceMessage(SHAPE, MAX_SHAPE).encode();
        int at = DamagedField.indexOf(bytes, message, 0);
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putLong(at + 4 + 8 * field, value);
        long header;
        try (Hdf5File hdf5 = Hdf5File.open(intact)) {
            header = hdf5.root().dataset("d").address();
        }
        DamagedField.resealObjectHeader(bytes, (int) header);
        Path file = dir.resolve(name);
        Files.write(file, bytes);
        return file;
    }

    @Test
    void theIntactFileReadsAndVerifies() throws IOException {
        try (Hdf5File hdf5 = Hdf5File.open(intact)) {
            assertEquals(23, hdf5.root().dataset("d").readInts(new long[] {3, 5},
                    new long[] {1, 1})[0]);
        }
        assertEquals(4, Hdf5Verifier.verify(intact).chunks());
    }

    @Test
    void aMaximumSizeFrom2To63IsCorruptNotANegativeChunkCount() throws IOException {
        long max = Long.MIN_VALUE | 6;
        Path file = withDataspaceField("max-2-63.h5", 3, max);
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> hdf5.root().get("d"));
            assertEquals("dimension maximum size", e.field());
            assertEquals(Long.toUnsignedString(max), e.found());
        }
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> Hdf5Verifier.verify(file));
        assertEquals("dimension maximum size", e.field(), e.getMessage());
    }

    @Test
    void aSizeFrom2To63IsCorrupt() throws IOException {
        long size = Long.MIN_VALUE | 4;
        Path file = withDataspaceField("size-2-63.h5", 0, size);
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> Hdf5Verifier.verify(file));
        assertEquals("dimension size", e.field(), e.getMessage());
        assertTrue(e.getMessage().contains(Long.toUnsignedString(size)), e.getMessage());
    }

    @Test
    void aStoredChunkBeyondTheMaximumExtentFailsVerification() throws IOException {
        Path file = dir.resolve("chunk-beyond-max.h5");
        try (Hdf5File hdf5 = Hdf5File.create(file)) {
            // Two unlimited dimensions: a version-2 B-tree keyed by chunk coordinates.
            Dataset d = hdf5.root().createDataset("d", DatasetSpec.builder(Datatype.INT32, 1, 1, 6)
                    .maxShape(DatasetSpec.UNLIMITED, DatasetSpec.UNLIMITED, 6)
                    .chunkShape(1, 1, 3).build());
            d.write(new long[3], new long[] {1, 1, 6}, IntStream.range(0, 6).toArray());
            ChunkRecord[] first = new ChunkRecord[1];
            d.forEachStoredChunk((coordinates, record) -> first[0] = record);
            // The third dimension holds two chunks of 3; an index entry for a third one.
            d.chunkIndex().put(new long[] {0, 0, 2}, first[0]);
        }
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> Hdf5Verifier.verify(file));
        assertEquals("chunk coordinates", e.field(), e.getMessage());
        assertEquals("[0, 0, 2]", e.found());
    }
}
