package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.quire.format.hdf5.chunk.BTreeV2ChunkIndex;
import org.quire.format.hdf5.chunk.ImplicitChunkIndex;

/**
 * Files libhdf5 writes (through h5py), read by Quire. {@code make_h5py_fixtures.py} wrote them
 * (committed in {@code make_h5py_fixtures/}) with a manifest of shapes, types, fill values, the chunk index
 * libhdf5 chose (as h5debug reports it) and the bytes each dataset was given.
 */
class H5pyFilesInQuireTest {

    private static H5pyFixtures fixtures;

    @BeforeAll
    static void readFixtures() throws IOException {
        fixtures = H5pyFixtures.of(H5pyFixtures.CHUNKED);
    }

    private static List<String[]> records(String kind) {
        return fixtures.records(kind);
    }

    @Test
    void readsEveryDatasetWithTheIndexLibhdf5Chose() throws IOException {
        List<String[]> datasets = records("D");
        assertEquals(38, datasets.size());
        List<String> indexes = new ArrayList<>();
        try (Hdf5File file = Hdf5File.open(fixtures.file("h5py.h5"))) {
            for (String[] d : datasets) {
                String path = d[1];
                Dataset dataset = (Dataset) InteropCorpus.object(file, "/" + path);
                assertEquals(d[2], InteropCorpus.libhdf5IndexName(dataset.chunkIndexType()), path);
                indexes.add(d[2]);
                assertArrayEquals(longs(d[3]), dataset.shape(), path);
                assertArrayEquals(longs(d[4]), dataset.maxShape(), path);
                assertArrayEquals(longs(d[5]), dataset.chunkShape(), path);
                assertEquals(d[6], typeCode(dataset.type()), path);
                byte[] fill = dataset.fillValue() != null ? dataset.fillValue()
                        : new byte[dataset.type().size()];
                assertEquals(d[7], HexFormat.of().formatHex(fill), path);
                assertEquals(d[11], filterNames(dataset.filters()), path);
                byte[] expected = Files.readAllBytes(fixtures.file(d[10]));
                assertArrayEquals(expected, dataset.read(longs(d[8]), longs(d[9])).array(), path);
                if (path.startsWith("btree/")) {
                    assertBTreeVerifies(path, (BTreeV2ChunkIndex) dataset.chunkIndex());
                }
                if (path.equals("fixed/implicit_2d")) {
                    assertImplicitChunksFollowEachOther((ImplicitChunkIndex) dataset.chunkIndex());
                }
            }
        }
        assertTrue(indexes.containsAll(List.of("Fixed Array", "Extensible Array", "Single Chunk",
                "v2 B-tree", "Implicit")));
    }

    @Test
    void readsGroupsAndAttributes() throws IOException {
        try (Hdf5File file = Hdf5File.open(fixtures.file("h5py.h5"))) {
            for (String[] g : records("G")) {
                assertTrue(InteropCorpus.object(file, g[1]) instanceof Group, g[1]);
            }
            List<String[]> attributes = records("A");
            assertEquals(5, attributes.size());
            for (String[] a : attributes) {
                Attribute attribute = InteropCorpus.object(file, a[1]).attribute(a[2]);
                assertEquals(a[3], typeCode(attribute.type()), a[2]);
                assertArrayEquals(a[4].isEmpty() ? new long[0] : longs(a[4]), attribute.shape(),
                        a[2]);
                assertEquals(a[5], HexFormat.of().formatHex(attribute.data()), a[2]);
            }
            assertEquals("written by h5py", file.root().attribute("title").string());
            assertArrayEquals(new long[] {1, 2, 3}, file.root().attribute("sizes").longs());
        }
    }

    /** Chunks the generator wrote into each B-tree (the chunk ranges its writes cover). */
    private static final Map<String, Long> BTREE_CHUNKS = Map.of("btree/sparse_2d", 3L * 3 + 2 * 2,
            "btree/filtered_3d", 12L * 10 * 3, "btree/deep", 8000L);

    /** libhdf5's tree passes Quire's full verification, and btree/deep reaches depth 2. */
    private static void assertBTreeVerifies(String path, BTreeV2ChunkIndex index)
            throws IOException {
        long[] stored = {0};
        index.forEachStoredChunk((scaled, record) -> stored[0]++);
        assertEquals(BTREE_CHUNKS.get(path), stored[0], path);
        if (path.equals("btree/deep")) {
            assertTrue(index.depth() >= 2, path + " has depth " + index.depth());
        }
    }

    /**
     * fixed/implicit_2d (10 x 13 in chunks of 3 x 4, maximum 12 x 20): 4 x 4 chunks now, in a
     * row-major grid of 4 x 5 chunks of 48 bytes from the index address.
     */
    private static void assertImplicitChunksFollowEachOther(ImplicitChunkIndex index)
            throws IOException {
        List<String> visited = new ArrayList<>();
        index.forEachStoredChunk((scaled, record) -> {
            assertEquals(index.address() + (scaled[0] * 5 + scaled[1]) * 48, record.address());
            assertEquals(48, record.storedSize());
            visited.add(Arrays.toString(scaled));
        });
        assertEquals(16, visited.size());
        assertEquals("[3, 3]", visited.get(15));
    }

    private static long[] longs(String csv) {
        return Arrays.stream(csv.split(",")).mapToLong(Long::parseLong).toArray();
    }

    private static String filterNames(List<Filter> filters) {
        return filters.stream().map(f -> f instanceof Filter.Deflate ? "deflate"
                : f instanceof Filter.Shuffle ? "shuffle" : "fletcher32")
                .collect(Collectors.joining(","));
    }

    /** The type in the generator's notation (see make_h5py_fixtures.py). */
    static String typeCode(Datatype type) {
        String order = type.size() > 1 && type.byteOrder() == ByteOrder.BIG_ENDIAN ? ">" : "<";
        if (type instanceof Datatype.IntegerType integer) {
            return (integer.signed() ? "i" : "u") + type.size() + order;
        }
        if (type instanceof Datatype.FloatType) {
            return "f" + type.size() + order;
        }
        if (type instanceof Datatype.StringType string) {
            return "S" + type.size() + "/" + string.padding().ordinal();
        }
        Datatype.CompoundType compound = (Datatype.CompoundType) type;
        return "C" + compound.size() + "{" + compound.members().stream()
                .map(m -> m.name() + "@" + m.offset() + "=" + typeCode(m.type()))
                .collect(Collectors.joining(";")) + "}";
    }
}
