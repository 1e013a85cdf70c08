package org.quire.format.hdf5.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.layout.Addresses;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.ChunkIndexParameters;
import org.quire.format.hdf5.layout.ChunkRecord;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.OpenMode;
import org.quire.format.storage.Storage;

/**
 * libhdf5's implicit index: chunk {@code i} of the maximum shape at the base address plus
 * {@code i} chunks, every one inside the file; visited over the current shape.
 */
class ImplicitChunkIndexTest {

    @TempDir
    Path directory;
    private Storage storage;
    private BlockFile file;

    /** A file of 100 + 3 x 4 chunks of 8 bytes: exactly what a 3 x 4 grid at 100 needs. */
    @BeforeEach
    void openFile() throws IOException {
        storage = FileStorage.open(directory.resolve("f"), OpenMode.CREATE_NEW);
        storage.write(ByteBuffer.wrap(new byte[100 + 12 * 8]), 0);
        file = new BlockFile(storage);
    }

    @AfterEach
    void closeFile() throws IOException {
        storage.close();
    }

    private static final ChunkGrid GRID = new ChunkGrid(new long[] {2, 2}, new long[] {6, 8});

    @Test
    void chunksFollowEachOtherFromTheBaseAddress() throws IOException {
        ImplicitChunkIndex index = ImplicitChunkIndex.open(file, 100, GRID, new long[] {3, 3},
                8, false);
        assertEquals(100, index.address());
        assertEquals(new ChunkIndexParameters.Implicit(), index.parameters());
        assertEquals(new ChunkRecord(100, 8, 0), index.get(new long[] {0, 0}));
        assertEquals(new ChunkRecord(100 + (4 + 3) * 8, 8, 0), index.get(new long[] {1, 3}));
        List<String> visited = new ArrayList<>();
        index.forEachStoredChunk((scaled, record) -> visited.add(Arrays.toString(scaled) + "@"
                + record.address()));
        assertEquals(List.of("[0, 0]@100", "[0, 1]@108", "[1, 0]@132", "[1, 1]@140"), visited);
        assertThrows(UnsupportedOperationException.class,
                () -> index.put(new long[] {0, 0}, ChunkRecord.UNWRITTEN));
    }

    @Test
    void anEmptyShapeOrNoAllocationHasNoStoredChunks() throws IOException {
        for (long[] shape : new long[][] {{0, 3}, {3, 0}}) {
            ImplicitChunkIndex empty = ImplicitChunkIndex.open(file, 100, GRID, shape, 8, false);
            empty.forEachStoredChunk((scaled, record) -> {
                throw new AssertionError(Arrays.toString(scaled));
            });
        }
        ImplicitChunkIndex none = ImplicitChunkIndex.open(file, Addresses.UNDEFINED, GRID,
                new long[] {3, 3}, 8, false);
        assertEquals(ChunkRecord.UNWRITTEN, none.get(new long[] {1, 1}));
        none.forEachStoredChunk((scaled, record) -> {
            throw new AssertionError(Arrays.toString(scaled));
        });
    }

    @Test
    void everyChunkOfTheMaximumShapeMustLieInsideTheFile() throws IOException {
        ImplicitChunkIndex.open(file, 100, GRID, new long[] {6, 8}, 8, false);
        for (long address : new long[] {101, -2}) {
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> ImplicitChunkIndex.open(file, address, GRID, new long[] {6, 8}, 8,
                            false));
            assertEquals("address", e.field());
            assertEquals("12 chunks of 8 bytes inside the file of 196 bytes", e.expected());
            assertEquals(Long.toUnsignedString(address), e.found());
        }
        CorruptFileException overflow = assertThrows(CorruptFileException.class,
                () -> ImplicitChunkIndex.open(file, 100, GRID, new long[] {6, 8},
                        Long.MAX_VALUE / 4, false));
        assertEquals("100", overflow.found());
    }

    @Test
    void onlyUnfilteredFixedSizeDatasetsHaveOne() {
        ChunkGrid growing = new ChunkGrid(new long[] {2}, new long[] {-1});
        assertEquals("no filters and 1 unlimited dimensions", assertThrows(
                CorruptFileException.class, () -> ImplicitChunkIndex.open(file, 100, growing,
                        new long[] {2}, 8, false)).found());
        assertEquals("filters and 0 unlimited dimensions", assertThrows(
                CorruptFileException.class, () -> ImplicitChunkIndex.open(file, 100, GRID,
                        new long[] {2, 2}, 8, true)).found());
    }
}
