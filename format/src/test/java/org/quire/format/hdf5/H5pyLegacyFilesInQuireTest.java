package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.hdf5.chunk.Shapes;
import org.quire.format.hdf5.layout.BTreeV1ChunkKey;
import org.quire.format.hdf5.layout.BTreeV1Node;
import org.quire.format.hdf5.layout.BTreeV1Ranks;

/**
 * Files libhdf5 writes (through h5py) in its default, old format (superblock 0, version-1
 * object headers, symbol table groups, version-1 B-tree chunk indexes), with
 * {@code libver=('v108', 'v108')} (superblock 2, version-3 layouts), and both again with node
 * capacities other than the defaults (superblock 1; superblock 2 with a B-tree 'K' values
 * message in its extension), read and verified by Quire. {@code make_h5py_legacy_fixtures.py} wrote them (committed in
 * {@code make_h5py_legacy_fixtures/}) with a manifest of member names in h5py's order, attribute values, the bytes each dataset holds and libhdf5's chunk counts.
 */
class H5pyLegacyFilesInQuireTest {

    static final List<String> FILES = List.of("legacy.h5", "v108.h5", "ranks.h5",
            "ranks_v108.h5");

    private static H5pyFixtures fixtures;
    private static List<String[]> manifest;

    @BeforeAll
    static void readManifest() throws IOException {
        fixtures = H5pyFixtures.of(H5pyFixtures.LEGACY);
        manifest = fixtures.manifest();
    }

    private static List<String[]> records(String kind, String file) {
        return manifest.stream().filter(r -> r[0].equals(kind) && r[1].equals(file))
                .collect(Collectors.toList());
    }

    @Test
    void theFilesAreInTheFormatsTheyAreMeantToExercise() {
        assertEquals("0", records("F", "legacy.h5").get(0)[2]);
        assertEquals("2", records("F", "v108.h5").get(0)[2]);
        assertEquals("1", records("F", "ranks.h5").get(0)[2]);
        assertEquals("2", records("F", "ranks_v108.h5").get(0)[2]);
    }

    /** Superblock 0 or 1: groups are symbol tables. */
    private static boolean oldGroups(String file) {
        return Integer.parseInt(records("F", file).get(0)[2]) <= 1;
    }

    @Test
    void listsAndFindsEveryMemberInH5pysOrder() throws IOException {
        for (String name : FILES) {
            List<String[]> groups = records("G", name);
            assertEquals(7, groups.size());
            try (Hdf5File file = Hdf5File.open(fixtures.file(name))) {
                for (String[] g : groups) {
                    Group group = (Group) InteropCorpus.object(file, g[2]);
                    List<String> expected = List.of(g[3].split("/"));
                    List<String> found = group.memberNames();
                    if (oldGroups(name) || group.denseLinks() != null) {
                        assertEquals(expected, found, name + g[2]);
                    } else { // Quire lists compact links as stored; h5py by name
                        assertEquals(expected, found.stream().sorted().toList(), name + g[2]);
                    }
                    for (String member : expected) {
                        if (member.equals("link")) {
                            // A soft link (in a symbol table: its value in the local heap).
                            assertEquals("/nested/level_1", group.get(member).path(), name);
                        } else {
                            assertEquals(Hdf5Object.childPath(g[2], member),
                                    group.get(member).path());
                        }
                    }
                    assertFalse(group.contains("absent"));
                }
                assertEquals(260, file.root().group("many").memberNames().size());
            }
        }
    }

    @Test
    void readsEveryAttribute() throws IOException {
        for (String name : FILES) {
            List<String[]> values = records("V", name);
            assertEquals(1 + 14 + 2, values.size());
            try (Hdf5File file = Hdf5File.open(fixtures.file(name))) {
                for (String[] v : values) {
                    Attribute attribute = InteropCorpus.object(file, v[2]).attribute(v[3]);
                    assertEquals(v[4], H5pyFilesInQuireTest.typeCode(attribute.type()), v[3]);
                    assertArrayEquals(longs(v[5]), attribute.shape(), v[3]);
                    assertEquals(v[6], HexFormat.of().formatHex(attribute.data()), v[3]);
                }
                assertEquals("legacy run", file.root().attribute("title").string());
            }
        }
    }

    @Test
    void readsEveryDatasetWholeAndInHyperslabs() throws IOException {
        for (String name : FILES) {
            List<String[]> datasets = records("D", name);
            assertEquals(14, datasets.size());
            try (Hdf5File file = Hdf5File.open(fixtures.file(name))) {
                for (String[] d : datasets) {
                    Dataset dataset = (Dataset) InteropCorpus.object(file, d[2]);
                    String what = name + d[2];
                    assertEquals(d[3], dataset.layout().name().toLowerCase(), what);
                    long[] shape = longs(d[4]);
                    assertArrayEquals(shape, dataset.shape(), what);
                    if (d[3].equals("chunked")) {
                        assertArrayEquals(longs(d[5]), dataset.chunkShape(), what);
                        assertEquals(ChunkIndexType.VERSION_1_BTREE, dataset.chunkIndexType(),
                                what);
                    }
                    assertEquals(d[6], H5pyFilesInQuireTest.typeCode(dataset.type()), what);
                    byte[] fill = dataset.fillValue() != null ? dataset.fillValue()
                            : new byte[dataset.type().size()];
                    assertEquals(d[7], HexFormat.of().formatHex(fill), what);
                    byte[] expected = Files.readAllBytes(fixtures.file(d[9]));
                    assertArrayEquals(expected, dataset.read(new long[shape.length], shape)
                            .array(), what);
                    assertHyperslabMatches(dataset, shape, expected, what);
                }
            }
        }
    }

    /** The middle third of every dimension, against the same elements of the whole. */
    private static void assertHyperslabMatches(Dataset dataset, long[] shape, byte[] whole,
                                               String what) throws IOException {
        int rank = shape.length;
        long[] start = new long[rank];
        long[] count = new long[rank];
        for (int d = 0; d < rank; d++) {
            start[d] = shape[d] / 3;
            count[d] = Math.max(0, shape[d] - 2 * (shape[d] / 3));
        }
        byte[] slab = dataset.read(start, count).array();
        int size = dataset.type().size();
        long elements = Shapes.elementCount(count);
        for (long i = 0; i < elements; i++) {
            long rest = i;
            long index = 0;
            long[] position = new long[rank];
            for (int d = rank - 1; d >= 0; d--) {
                position[d] = start[d] + rest % count[d];
                rest /= count[d];
            }
            for (int d = 0; d < rank; d++) {
                index = index * shape[d] + position[d];
            }
            assertArrayEquals(Arrays.copyOfRange(whole, (int) (index * size),
                    (int) ((index + 1) * size)), Arrays.copyOfRange(slab, (int) (i * size),
                    (int) ((i + 1) * size)), what + " element " + i);
        }
    }

    @Test
    void theTreesHaveSeveralLevelsAndTheCapacitiesTheFileDeclares() throws IOException {
        BTreeV1Ranks other = new BTreeV1Ranks(6, 8, 16);
        for (String name : FILES) {
            try (Hdf5File file = Hdf5File.open(fixtures.file(name))) {
                BTreeV1Ranks ranks = name.startsWith("ranks") ? other : BTreeV1Ranks.DEFAULT;
                assertEquals(ranks, file.ranks(), name);
                if (oldGroups(name)) {
                    long groupTree = file.root().group("many").symbolTable().bTreeAddress();
                    assertEquals(1, BTreeV1Node.read(file.blocks(), groupTree,
                            BTreeV1Node.GROUP_KEYS, ranks.groupInternalNodeK()).level(), name);
                }
                Dataset resizable = file.root().group("chunked").dataset("resizable");
                // 5,000 chunks: three levels of nodes of 64 or 32 children
                assertEquals(2, BTreeV1Node.read(file.blocks(),
                        resizable.chunkIndex().address(), BTreeV1ChunkKey.format(1),
                        ranks.chunkNodeK()).level(), name);
            }
        }
    }

    @Test
    void theWalkOfEveryChunkAndTheLookupOfEachAgree() throws IOException {
        for (String name : FILES) {
            try (Hdf5File file = Hdf5File.open(fixtures.file(name))) {
                for (String[] d : records("D", name)) {
                    if (!d[3].equals("chunked")) {
                        continue;
                    }
                    Dataset dataset = (Dataset) InteropCorpus.object(file, d[2]);
                    long[] visited = {0};
                    dataset.forEachStoredChunk((coordinates, record) -> {
                        assertEquals(record, dataset.chunkIndex().get(coordinates),
                                name + d[2] + Arrays.toString(coordinates));
                        visited[0]++;
                    });
                    assertEquals(Long.parseLong(d[8]), visited[0], name + d[2]);
                }
            }
        }
    }

    @Test
    void theVerifierWalksEveryBlockOnceAndCountsWhatLibhdf5Counts() throws IOException {
        for (String name : FILES) {
            Path path = fixtures.file(name);
            VerificationReport report = Hdf5Verifier.verify(path);
            // the root, /many and its 130 groups, nested/level_1/level_2 and its 5 leaves,
            // /contiguous, /chunked
            assertEquals(1 + 1 + 130 + 3 + 5 + 2, report.groups(), name);
            long chunks = records("D", name).stream().mapToLong(d -> Long.parseLong(d[8])).sum();
            assertEquals(chunks, report.chunks(), name);
            assertEquals(records("D", name).size() + 130, report.datasets(), name);
            assertEquals(1, report.linksNotFollowed(), name);
            assertEquals(records("V", name).size(), report.attributes(), name);
            byte[] bytes = Files.readAllBytes(path);
            Map<String, Long> checked = report.checkedBlocks();
            assertEquals(signatures(bytes, "TREE"), checked.get("version 1 B-tree node"), name);
            if (oldGroups(name)) {
                assertEquals(signatures(bytes, "SNOD"), checked.get("symbol table node"));
                assertEquals(signatures(bytes, "HEAP"), checked.get("local heap"));
                assertEquals(report.groups(), checked.get("local heap"));
                assertEquals(report.groups() + report.datasets(),
                        checked.get("version 1 object header"));
                assertEquals(1L, checked.get("superblock"));
            } else {
                assertEquals(1L, report.metadataBlocks().get("superblock"));
                long extension = name.equals("ranks_v108.h5") ? 1 : 0;
                assertEquals(report.groups() + report.datasets() + extension,
                        report.metadataBlocks().get("object header"), name);
            }
        }
    }

    /** How often {@code signature} occurs in {@code bytes}. */
    static long signatures(byte[] bytes, String signature) {
        byte[] wanted = signature.getBytes(StandardCharsets.US_ASCII);
        long count = 0;
        for (int i = 0; i + wanted.length <= bytes.length; i++) {
            if (Arrays.equals(bytes, i, i + wanted.length, wanted, 0, wanted.length)) {
                count++;
            }
        }
        return count;
    }

    private static long[] longs(String csv) {
        return csv.isEmpty() ? new long[0]
                : Arrays.stream(csv.split(",")).mapToLong(Long::parseLong).toArray();
    }
}
