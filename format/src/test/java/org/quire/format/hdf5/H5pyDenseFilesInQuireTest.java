package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.hdf5.layout.LinkMessage;

/**
 * Files libhdf5 writes (through h5py) with dense link and attribute storage and contiguous and
 * compact datasets, read by Quire. {@code make_h5py_dense_fixtures.py} wrote them (committed in
 * {@code make_h5py_dense_fixtures/}) with a manifest of member names in h5py's order, attribute values and
 * the bytes each dataset holds.
 */
class H5pyDenseFilesInQuireTest {

    private static H5pyFixtures fixtures;

    @BeforeAll
    static void readFixtures() throws IOException {
        fixtures = H5pyFixtures.of(H5pyFixtures.DENSE);
    }

    private static List<String[]> records(String kind) {
        return fixtures.records(kind);
    }

    private static Hdf5File open() throws IOException {
        return Hdf5File.open(fixtures.file("dense.h5"));
    }

    @Test
    void listsAndFindsEveryMemberOfDenseGroupsInH5pysOrder() throws IOException {
        List<String[]> groups = records("G");
        assertEquals(6, groups.size());
        try (Hdf5File file = open()) {
            for (String[] g : groups) {
                Group group = (Group) InteropCorpus.object(file, g[1]);
                List<String> expected = g[3].isEmpty() ? List.of() : List.of(g[3].split("/"));
                assertEquals(expected, group.memberNames(), g[1]);
                assertEquals(g[2].equals("dense"), group.denseLinks() != null, g[1]);
                for (String name : expected) {
                    assertTrue(group.contains(name), g[1] + "/" + name);
                    if (name.equals("soft")) {
                        // A soft link leads to its target, the object of its own path.
                        assertEquals("/twenty/group_00", group.get(name).path());
                        assertEquals(group.get("group_00").address(), group.get(name).address());
                    } else {
                        assertEquals(Hdf5Object.childPath(g[1], name), group.get(name).path());
                    }
                }
                assertFalse(group.contains("absent"), g[1]);
                assertThrows(NoSuchElementException.class, () -> group.get("absent"));
            }
        }
    }

    @Test
    void theThousandMemberGroupHasIndirectHeapBlocksAndADeepNameIndex() throws IOException {
        try (Hdf5File file = open()) {
            Group wide = file.root().group("wide");
            DenseMessageStorage<?, ?> dense = wide.denseLinks();
            assertEquals(1000, dense.nameIndex().size());
            int[] blocks = new int[2];
            long[] deepest = {0};
            dense.heap().forEachBlock((address, direct, offset, size) -> {
                blocks[direct ? 0 : 1]++;
                deepest[0] = Math.max(deepest[0], offset);
            });
            assertTrue(blocks[1] > 1, "indirect blocks: " + blocks[1]);
            assertTrue(blocks[0] > 36, "direct blocks: " + blocks[0]);
            // Beyond the 9 direct rows of the root (4 x (512 + 512 + ... + 64 Ki) bytes).
            assertTrue(deepest[0] >= 4L * 2 * 65536, "deepest block offset " + deepest[0]);
            List<Object> visited = new ArrayList<>();
            dense.nameIndex().forEach((a, b) -> 0, false, visited::add);
            assertEquals(1000, visited.size());
        }
    }

    @Test
    void everyDenseStorageVerifies() throws IOException {
        int[] verified = new int[2];
        try (Hdf5File file = open()) {
            verifyAll(file.root(), verified);
        }
        assertEquals(5, verified[0], "dense link storages");
        assertEquals(3, verified[1], "dense attribute storages");
    }

    private static void verifyAll(Hdf5Object object, int[] verified) throws IOException {
        if (object.denseAttributes() != null) {
            assertEquals(new HashSet<>(object.attributeNames()), object.denseAttributes().verify()
                    .stream().map(Hdf5Object.StoredAttribute::name).collect(Collectors.toSet()),
                    object.path());
            verified[1]++;
        }
        if (object instanceof Group group) {
            if (group.denseLinks() != null) {
                assertEquals(new HashSet<>(group.memberNames()), group.denseLinks().verify()
                        .stream().map(LinkMessage::name).collect(Collectors.toSet()), group.path());
                verified[0]++;
            }
            for (String name : group.memberNames()) {
                if (!name.equals("soft")) {
                    verifyAll(group.get(name), verified);
                }
            }
        }
    }

    @Test
    void readsEveryAttributeOfDenseStorageInH5pysOrder() throws IOException {
        List<String[]> lists = records("A");
        assertEquals(3, lists.size());
        try (Hdf5File file = open()) {
            for (String[] a : lists) {
                Hdf5Object object = InteropCorpus.object(file, a[1]);
                assertNotNull(object.denseAttributes(), a[1]);
                assertEquals(List.of(a[2].split("/")), object.attributeNames(), a[1]);
                assertThrows(NoSuchElementException.class, () -> object.attribute("absent"));
            }
            List<String[]> values = records("V");
            assertEquals(10 + 31 + 12, values.size());
            for (String[] v : values) {
                Attribute attribute = InteropCorpus.object(file, v[1]).attribute(v[2]);
                assertEquals(v[2], attribute.name());
                assertEquals(v[3], H5pyFilesInQuireTest.typeCode(attribute.type()), v[2]);
                assertArrayEquals(longs(v[4]), attribute.shape(), v[2]);
                assertEquals(v[5], HexFormat.of().formatHex(attribute.data()), v[2]);
            }
            Attribute large = file.root().group("attributes").attribute("large");
            assertEquals(100_000, large.data().length);
            assertEquals(6249.5, large.doubles()[12499]);
        }
    }

    @Test
    void readsContiguousAndCompactDatasets() throws IOException {
        List<String[]> datasets = records("D");
        assertEquals(17, datasets.size());
        try (Hdf5File file = open()) {
            for (String[] d : datasets) {
                Dataset dataset = (Dataset) InteropCorpus.object(file, d[1]);
                assertEquals(d[2], dataset.layout().name().toLowerCase(), d[1]);
                long[] shape = longs(d[3]);
                assertArrayEquals(shape, dataset.shape(), d[1]);
                assertEquals(d[4], H5pyFilesInQuireTest.typeCode(dataset.type()), d[1]);
                byte[] fill = dataset.fillValue() != null ? dataset.fillValue()
                        : new byte[dataset.type().size()];
                assertEquals(d[5], HexFormat.of().formatHex(fill), d[1]);
                byte[] expected = Files.readAllBytes(fixtures.file(d[6]));
                assertArrayEquals(expected, dataset.read(new long[shape.length], shape).array(),
                        d[1]);
            }
        }
    }

    @Test
    void readsHyperslabsOfContiguousAndCompactDatasets() throws IOException {
        try (Hdf5File file = open()) {
            Group contiguous = file.root().group("contiguous");
            double[] doubles = contiguous.dataset("doubles_2d").readDoubles(new long[] {3, 5},
                    new long[] {4, 6});
            for (int r = 0; r < 4; r++) {
                for (int c = 0; c < 6; c++) {
                    assertEquals(((3 + r) * 40 + 5 + c) / 8.0, doubles[r * 6 + c]);
                }
            }
            short[] shorts = contiguous.dataset("big_endian_3d").readShorts(new long[] {1, 2, 3},
                    new long[] {3, 2, 2});
            for (int i = 0; i < 3; i++) {
                for (int j = 0; j < 2; j++) {
                    for (int k = 0; k < 2; k++) {
                        int index = (1 + i) * 30 + (2 + j) * 6 + 3 + k;
                        assertEquals(index * 13, shorts[(i * 2 + j) * 2 + k]);
                    }
                }
            }
            short[] compact = contiguous.dataset("compact_2d").readShorts(new long[] {1, 1},
                    new long[] {2, 2});
            assertArrayEquals(new short[] {-1, 0, 3, 4}, compact);
            float[] unwritten = contiguous.dataset("unwritten").readFloats(new long[] {10, 1},
                    new long[] {2, 2});
            assertArrayEquals(new float[] {-1.5f, -1.5f, -1.5f, -1.5f}, unwritten);
        }
    }

    @Test
    void refusesADatasetStoredInExternalFiles() throws IOException {
        try (Hdf5File file = Hdf5File.open(fixtures.file("external.h5"))) {
            UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class,
                    () -> file.root().dataset("outside"));
            assertTrue(e.getMessage().contains("external files"), e.getMessage());
        }
    }

    private static long[] longs(String csv) {
        return csv.isEmpty() ? new long[0]
                : Arrays.stream(csv.split(",")).mapToLong(Long::parseLong).toArray();
    }
}
