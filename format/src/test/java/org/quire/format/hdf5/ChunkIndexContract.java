package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.quire.format.hdf5.chunk.ChunkIndex;
import org.quire.format.hdf5.chunk.Shapes;
import org.quire.format.hdf5.layout.ChunkRecord;

/**
 * The read part of the contract every chunk index passes, run on a file holding one dataset of
 * the index's type with some chunks stored and others not: the dataset reports the index type;
 * every chunk the index visits is found by {@link ChunkIndex#get} with the same record, every
 * other chunk of the dataset's shape is unwritten; the elements read are the expected ones,
 * whole and in a hyperslab across chunk boundaries. {@link WritableChunkIndexContract} adds
 * the write part for the indexes Quire writes; read-only indexes run this part on files h5py
 * writes.
 */
abstract class ChunkIndexContract {

    /** A dataset to read: its file and path, its expected elements and stored chunk count. */
    record Fixture(Path file, String dataset, byte[] expected, long storedChunks) {
    }

    /** The index type under test. */
    abstract ChunkIndexType type();

    /** The dataset the read part checks. */
    abstract Fixture fixture() throws IOException;

    @Test
    void theDatasetReportsTheIndexType() throws IOException {
        Fixture fixture = fixture();
        try (Hdf5File file = Hdf5File.open(fixture.file())) {
            assertEquals(type(), dataset(file, fixture).chunkIndexType());
        }
    }

    @Test
    void getFindsExactlyTheStoredChunksWithTheirRecords() throws IOException {
        Fixture fixture = fixture();
        try (Hdf5File file = Hdf5File.open(fixture.file())) {
            Dataset dataset = dataset(file, fixture);
            Map<List<Long>, ChunkRecord> stored = storedChunks(dataset);
            assertEquals(fixture.storedChunks(), stored.size());
            assertGetAgrees(dataset, stored);
        }
    }

    @Test
    void readsTheExpectedElementsWholeAndAcrossChunkBoundaries() throws IOException {
        Fixture fixture = fixture();
        try (Hdf5File file = Hdf5File.open(fixture.file())) {
            Dataset dataset = dataset(file, fixture);
            long[] shape = dataset.shape();
            assertArrayEquals(fixture.expected(), dataset.read(new long[shape.length], shape)
                    .array());
            long[] start = new long[shape.length];
            long[] count = new long[shape.length];
            for (int d = 0; d < shape.length; d++) {
                start[d] = shape[d] / 3;
                count[d] = shape[d] - 2 * (shape[d] / 3);
            }
            assertArrayEquals(slice(fixture.expected(), shape, start, count,
                    dataset.type().size()), dataset.read(start, count).array());
        }
    }

    static Dataset dataset(Hdf5File file, Fixture fixture) throws IOException {
        return (Dataset) InteropCorpus.object(file, fixture.dataset());
    }

    /** The chunks the index visits, each once, with their records. */
    static Map<List<Long>, ChunkRecord> storedChunks(Dataset dataset) throws IOException {
        Map<List<Long>, ChunkRecord> stored = new LinkedHashMap<>();
        dataset.forEachStoredChunk((coordinates, record) -> {
            assertTrue(record.isWritten(), Arrays.toString(coordinates));
            ChunkRecord earlier = stored.put(key(coordinates), record);
            assertEquals(null, earlier, "visited twice: " + Arrays.toString(coordinates));
        });
        return stored;
    }

    /**
     * {@code get} finds each of {@code stored} with its record, and every other chunk of the
     * dataset's shape unwritten.
     */
    static void assertGetAgrees(Dataset dataset, Map<List<Long>, ChunkRecord> stored)
            throws IOException {
        long[] shape = dataset.shape();
        long[] chunk = dataset.chunkShape();
        long[] chunks = new long[shape.length];
        for (int d = 0; d < shape.length; d++) {
            chunks[d] = Shapes.ceilDiv(shape[d], chunk[d]);
        }
        ChunkIndex index = dataset.chunkIndex();
        long total = Shapes.elementCount(chunks);
        long[] scaled = new long[shape.length];
        for (long i = 0; i < total; i++) {
            long rest = i;
            for (int d = shape.length - 1; d >= 0; d--) {
                scaled[d] = rest % chunks[d];
                rest /= chunks[d];
            }
            ChunkRecord found = index.get(scaled.clone());
            ChunkRecord expected = stored.get(key(scaled));
            if (expected != null) {
                assertEquals(expected, found, Arrays.toString(scaled));
            } else {
                assertFalse(found.isWritten(), Arrays.toString(scaled) + " " + found);
            }
        }
    }

    static List<Long> key(long[] coordinates) {
        return Arrays.stream(coordinates).boxed().toList();
    }

    /** The box {@code start}/{@code count} of the row-major {@code whole} of {@code shape}. */
    static byte[] slice(byte[] whole, long[] shape, long[] start, long[] count, int size) {
        byte[] out = new byte[(int) Shapes.elementCount(count) * size];
        long[] position = new long[shape.length];
        for (int i = 0; i < out.length / size; i++) {
            long rest = i;
            long linear = 0;
            for (int d = shape.length - 1; d >= 0; d--) {
                position[d] = start[d] + rest % count[d];
                rest /= count[d];
            }
            for (int d = 0; d < shape.length; d++) {
                linear = linear * shape[d] + position[d];
            }
            System.arraycopy(whole, (int) linear * size, out, i * size, size);
        }
        return out;
    }
}
