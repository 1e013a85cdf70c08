package org.quire.format.hdf5.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.quire.format.hdf5.layout.Addresses;
import org.quire.format.hdf5.layout.ChunkIndexParameters;
import org.quire.format.hdf5.layout.ChunkRecord;

/**
 * The index of a dataset libhdf5 never wrote: everything reads as unwritten, and in a writable
 * file the first put creates the real index once, which answers from then on.
 */
class UnallocatedChunkIndexTest {

    private static final ChunkIndexParameters NAMED = ChunkIndexParameters.FixedArray.DEFAULT;
    private static final long[] AT = {2, 3};

    private static List<ChunkRecord> stored(ChunkIndex index) throws IOException {
        List<ChunkRecord> records = new ArrayList<>();
        index.forEachStoredChunk((scaled, record) -> records.add(record));
        return records;
    }

    @Test
    void readOnlyEveryChunkIsUnwrittenAndAPutIsRefused() throws IOException {
        UnallocatedChunkIndex index = new UnallocatedChunkIndex(NAMED, null);
        assertEquals(NAMED, index.parameters());
        assertEquals(Addresses.UNDEFINED, index.address());
        assertEquals(ChunkRecord.UNWRITTEN, index.get(AT));
        assertEquals(List.of(), stored(index));
        assertTrue(index.recordsInLayoutMessage());
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> index.put(AT, new ChunkRecord(4096, 8, 0)));
        assertEquals("the file is open read-only", e.getMessage());
    }

    @Test
    void theFirstPutCreatesTheIndexOnceAndItAnswersFromThen() throws IOException {
        List<SingleChunkIndex> created = new ArrayList<>();
        UnallocatedChunkIndex index = new UnallocatedChunkIndex(NAMED, () -> {
            SingleChunkIndex real = new SingleChunkIndex(2, true, ChunkRecord.UNWRITTEN);
            created.add(real);
            return real;
        });
        assertEquals(Addresses.UNDEFINED, index.address());
        assertEquals(NAMED, index.parameters());
        assertEquals(List.of(), created);
        ChunkRecord first = new ChunkRecord(4096, 8, 0);
        index.put(AT, first);
        assertEquals(1, created.size());
        assertEquals(first, created.get(0).get(AT));
        assertEquals(4096, index.address());
        assertEquals(new ChunkIndexParameters.SingleChunk(8, 0), index.parameters());
        assertEquals(first, index.get(AT));
        assertEquals(List.of(first), stored(index));
        ChunkRecord second = new ChunkRecord(8192, 9, 1);
        index.put(AT, second);
        assertEquals(1, created.size());
        assertEquals(second, index.get(AT));
        assertTrue(index.recordsInLayoutMessage());
    }
}
