package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.quire.format.hdf5.chunk.ChunkIndex;

/**
 * The contract of {@link ChunkIndex#forEachStoredChunk}, run against every index type Quire
 * writes (the implicit index, read only, is covered by {@code H5pyFilesInQuireTest}): exactly the chunks written are visited, with their chunk coordinates, both before
 * {@code flush} (changes in memory) and after reopening, and a file's index blocks are each
 * read once.
 */
class StoredChunksTest {

    @TempDir
    Path dir;

    /** A dataset layout and the chunk coordinates to write into it. */
    record Layout(String name, DatasetSpec spec, long[] finalShape, List<long[]> chunks,
                  ChunkIndexType index) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> layouts() {
        long u = DatasetSpec.UNLIMITED;
        return Stream.of(
                new Layout("single chunk", DatasetSpec.builder(Datatype.INT16, 6, 4)
                        .chunkShape(6, 4).build(), new long[] {6, 4},
                        List.of(new long[] {0, 0}), ChunkIndexType.SINGLE_CHUNK),
                new Layout("fixed array, unpaged, 3-D", DatasetSpec.builder(Datatype.INT32, 8, 9, 10)
                        .chunkShape(3, 4, 5).filter(Filter.deflate(1)).build(),
                        new long[] {8, 9, 10}, List.of(new long[] {0, 0, 0}, new long[] {2, 1, 1},
                        new long[] {1, 2, 0}), ChunkIndexType.FIXED_ARRAY),
                // 5,000 chunks: five pages, of which 0, 2 and 4 (the short last page) are written.
                new Layout("fixed array, paged", DatasetSpec.builder(Datatype.INT8, 5000)
                        .chunkShape(1).build(), new long[] {5000},
                        List.of(new long[] {0}, new long[] {1023}, new long[] {2048},
                                new long[] {4999}), ChunkIndexType.FIXED_ARRAY),
                // Index block elements, direct data blocks, super blocks, paged data blocks.
                new Layout("extensible array, 2-D, unlimited first", DatasetSpec.builder(
                        Datatype.FLOAT64, 0, 6).maxShape(u, 6).chunkShape(1, 3).build(),
                        new long[] {100_000, 6}, List.of(new long[] {0, 0}, new long[] {1, 1},
                        new long[] {10, 0}, new long[] {300, 1}, new long[] {99_999, 0}),
                        ChunkIndexType.EXTENSIBLE_ARRAY),
                new Layout("extensible array, unlimited last", DatasetSpec.builder(
                        Datatype.INT64, 4, 0).maxShape(4, u).chunkShape(2, 1)
                        .filter(Filter.fletcher32()).build(), new long[] {4, 70_000},
                        List.of(new long[] {1, 0}, new long[] {0, 5}, new long[] {1, 69_999}),
                        ChunkIndexType.EXTENSIBLE_ARRAY),
                // 300 chunks: several leaves under an internal node (a leaf holds 84 records).
                new Layout("v2 B-tree, two levels", DatasetSpec.builder(Datatype.INT16, 0, 0)
                        .maxShape(u, u).chunkShape(2, 3).build(), new long[] {60, 60},
                        checkerboard(30, 20), ChunkIndexType.VERSION_2_BTREE),
                new Layout("v2 B-tree, 3-D, filtered", DatasetSpec.builder(Datatype.INT32, 0, 5, 0)
                        .maxShape(u, 5, u).chunkShape(2, 5, 2).filter(Filter.deflate(1)).build(),
                        new long[] {10, 5, 1000}, List.of(new long[] {0, 0, 0},
                        new long[] {4, 0, 499}, new long[] {2, 0, 7}),
                        ChunkIndexType.VERSION_2_BTREE)
        ).map(Arguments::of);
    }

    /** The chunks (i, j) of a {@code rows} by {@code columns} grid with i + j even. */
    private static List<long[]> checkerboard(int rows, int columns) {
        List<long[]> chunks = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            for (int j = i % 2; j < columns; j += 2) {
                chunks.add(new long[] {i, j});
            }
        }
        return chunks;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("layouts")
    void visitsExactlyTheWrittenChunksBeforeAndAfterFlush(Layout layout) throws IOException {
        Path path = dir.resolve("chunks.h5");
        Set<String> expected = new TreeSet<>();
        for (long[] chunk : layout.chunks()) {
            expected.add(Arrays.toString(chunk));
        }
        try (Hdf5File file = Hdf5File.create(path)) {
            Dataset dataset = file.root().createDataset("d", layout.spec());
            dataset.extend(layout.finalShape());
            long[] chunkShape = dataset.chunkShape();
            for (long[] chunk : layout.chunks()) {
                long[] start = new long[chunk.length];
                long[] count = new long[chunk.length];
                for (int d = 0; d < chunk.length; d++) {
                    start[d] = chunk[d] * chunkShape[d];
                    count[d] = 1;
                }
                dataset.write(start, count, java.nio.ByteBuffer.wrap(
                        new byte[dataset.type().size()]));
            }
            assertEquals(layout.index(), dataset.chunkIndexType());
            assertEquals(expected, visited(dataset), "in memory, before flush");
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            assertEquals(expected, visited(file.root().dataset("d")), "after reopening");
        }
    }

    private static Set<String> visited(Dataset dataset) throws IOException {
        List<String> seen = new ArrayList<>();
        dataset.forEachStoredChunk((coordinates, record) -> {
            assertEquals(true, record.isWritten());
            seen.add(Arrays.toString(coordinates));
        });
        Set<String> distinct = new TreeSet<>(seen);
        assertEquals(seen.size(), distinct.size(), "a chunk visited twice: " + seen);
        return distinct;
    }
}
