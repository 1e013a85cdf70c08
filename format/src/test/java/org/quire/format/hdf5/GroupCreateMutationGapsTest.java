package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.layout.DataspaceSelection;
import org.quire.format.hdf5.layout.VirtualMapping;

/**
 * The checks of {@link Group#createDataset(String, Datatype, long[], byte[])},
 * {@link Group#createStringDataset} and {@link Group#createVirtualDataset} at their edges: the
 * last value accepted (read back after reopening) and the first refused, with the message; a
 * refused dataset is not linked.
 */
class GroupCreateMutationGapsTest {

    private static final byte[] FILL = ElementCodec.encode(Datatype.INT64, new long[] {-7});

    @TempDir
    Path dir;

    private static DataspaceSelection block(long start, long count) {
        return DataspaceSelection.block(new long[] {start}, new long[] {count});
    }

    private static DataspaceSelection blocks(long[]... startCount) {
        DataspaceSelection.Block[] blocks = new DataspaceSelection.Block[startCount.length];
        for (int i = 0; i < blocks.length; i++) {
            blocks[i] = new DataspaceSelection.Block(new long[] {startCount[i][0]},
                    new long[] {startCount[i][1]});
        }
        return new DataspaceSelection.Hyperslab(List.of(blocks));
    }

    @Test
    void elementsNotMatchingTheShapeAreRefusedAndAScalarStringIsWritten() throws IOException {
        Path path = dir.resolve("whole.h5");
        try (Hdf5File file = Hdf5File.create(path)) {
            Group root = file.root();
            List<Executable> refused = List.of(
                    () -> root.createDataset("d", Datatype.VariableLengthStringType.UTF8,
                            new long[] {1}, new byte[16]),
                    () -> root.createDataset("d", Datatype.INT32, new long[] {2, 3},
                            new byte[23]),
                    () -> root.createStringDataset("s", new long[] {2}, List.of("a")));
            List<String> messages = List.of(
                    "variable-length strings are written with createStringDataset",
                    "23 bytes for shape [2, 3] of 4-byte elements", "1 strings for shape [2]");
            for (int i = 0; i < refused.size(); i++) {
                assertEquals(messages.get(i), assertThrows(IllegalArgumentException.class,
                        refused.get(i)).getMessage());
            }
            assertEquals(List.of(), root.memberNames());
            root.createDataset("d", Datatype.INT32, new long[] {2, 3},
                    ElementCodec.encode(Datatype.INT32, new int[] {1, 2, 3, 4, 5, 6}));
            root.createStringDataset("s", new long[0], List.of("only"));
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            assertArrayEquals(new int[] {4, 5, 6}, file.root().dataset("d")
                    .readInts(new long[] {1, 0}, new long[] {1, 3}));
            Dataset s = file.root().dataset("s");
            assertArrayEquals(new long[0], s.shape());
            assertEquals(StorageLayout.CONTIGUOUS, s.layout());
            assertEquals(List.of("only"), s.readStrings(new long[0], new long[0]));
        }
    }

    @Test
    void virtualMappingsAreCheckedAtTheirEdges() throws IOException {
        Path path = dir.resolve("virtual.h5");
        long last32 = 0xffffffffL;
        String v = path + ": virtual dataset /v: ";
        try (Hdf5File file = Hdf5File.create(path)) {
            Group root = file.root();
            root.createDataset("src", Datatype.INT64, new long[] {5},
                    ElementCodec.encode(Datatype.INT64, new long[] {10, 11, 12, 13, 14}));
            List<List<VirtualMapping>> bad = List.of(
                    List.of(VirtualMapping.sameFile("", DataspaceSelection.all(), block(0, 1))),
                    List.of(VirtualMapping.sameFile("/a\0b", DataspaceSelection.all(),
                            block(0, 1))),
                    List.of(VirtualMapping.sameFile("/far", block(last32 - 2, 4), block(0, 4))),
                    List.of(VirtualMapping.sameFile("/src", DataspaceSelection.all(),
                            block(6, 5))),
                    List.of(VirtualMapping.sameFile("/src", DataspaceSelection.all(),
                            DataspaceSelection.block(new long[] {0, 0}, new long[] {1, 1}))),
                    List.of(VirtualMapping.sameFile("/src", block(0, 4),
                            blocks(new long[] {0, 2}, new long[] {5, 3}))));
            List<String> messages = List.of(v + "mapping from : not a dataset path",
                    v + "mapping from /a\0b: not a dataset path",
                    v + "mapping from /far: a coordinate at or beyond 2^32",
                    v + "mapping from /src: virtual block start [6] count [5] outside the shape "
                            + "[10]",
                    v + "mapping from /src: virtual block start [0, 0] count [1, 1] outside the "
                            + "shape [10]",
                    v + "mapping from /src: virtual blocks [start [0] count [2], start [5] count "
                            + "[3]] hold 5 elements, source blocks [start [0] count [4]] 4");
            for (int i = 0; i < bad.size(); i++) {
                List<VirtualMapping> mappings = bad.get(i);
                assertEquals(messages.get(i), assertThrows(IllegalArgumentException.class,
                        () -> root.createVirtualDataset("v", Datatype.INT64, new long[] {10},
                                null, mappings)).getMessage());
            }
            assertEquals(v + "mapping from /src: a coordinate at or beyond 2^32", assertThrows(
                    IllegalArgumentException.class, () -> root.createVirtualDataset("v",
                            Datatype.INT64, new long[] {1L << 33}, null, List.of(
                                    VirtualMapping.sameFile("/src", block(0, 1),
                                            block(1L << 32, 1))))).getMessage());
            assertEquals(v + "fill value of 4 bytes for a type of 8", assertThrows(
                    IllegalArgumentException.class, () -> root.createVirtualDataset("v",
                            Datatype.INT64, new long[] {10}, new byte[4], List.of()))
                    .getMessage());
            assertEquals(List.of("src"), root.memberNames());
            // Accepted: the last coordinate 2^32 - 1 (a missing source: the fill value), two
            // virtual blocks of as many elements as the source block, a block ending at the
            // shape's end.
            root.createVirtualDataset("v", Datatype.INT64, new long[] {10}, FILL, List.of(
                    VirtualMapping.sameFile("/far", block(last32, 1), block(0, 1)),
                    VirtualMapping.sameFile("/src", block(0, 4),
                            blocks(new long[] {1, 2}, new long[] {3, 2})),
                    VirtualMapping.sameFile("/src", DataspaceSelection.all(), block(5, 5))));
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            assertArrayEquals(new long[] {-7, 10, 11, 12, 13, 10, 11, 12, 13, 14},
                    file.root().dataset("v").readLongs(new long[] {0}, new long[] {10}));
        }
    }

    /**
     * A source dataset named with "%": libhdf5 (1.10.8, through h5py) reads "%%" in a bounded
     * mapping's source name as "%" and refuses to open a virtual dataset whose source name has a
     * lone "%", so such a name is refused at creation and "%%" maps the dataset "a%b".
     */
    @Test
    void aPercentInASourceNameIsWrittenDoubled() throws IOException {
        Path path = dir.resolve("percent.h5");
        String v = path + ": virtual dataset /v: ";
        try (Hdf5File file = Hdf5File.create(path)) {
            Group root = file.root();
            root.createDataset("a%b", Datatype.INT64, new long[] {2},
                    ElementCodec.encode(Datatype.INT64, new long[] {20, 21}));
            for (String lone : List.of("/a%b", "/%", "/a%%%b")) {
                assertEquals(v + "mapping from " + lone + ": write \"%\" as \"%%\" in a source "
                        + "dataset name (libhdf5 reads a lone \"%\" as a printf-style specifier)",
                        assertThrows(IllegalArgumentException.class, () -> root
                                .createVirtualDataset(
                                "v", Datatype.INT64, new long[] {2}, null, List.of(VirtualMapping
                                        .sameFile(lone, DataspaceSelection.all(), block(0, 2)))))
                                .getMessage());
            }
            assertEquals(List.of("a%b"), root.memberNames());
            root.createVirtualDataset("v", Datatype.INT64, new long[] {2}, null, List.of(
                    VirtualMapping.sameFile("/a%%b", DataspaceSelection.all(), block(0, 2))));
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            assertArrayEquals(new long[] {20, 21},
                    file.root().dataset("v").readLongs(new long[] {0}, new long[] {2}));
        }
    }

    @Test
    void anOldStyleGroupTakesNewLinksInNameOrderAndRefusesANul() throws IOException {
        Path path = H5pyFixtures.copy(H5pyFixtures.LEGACY, "legacy.h5", dir);
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            Group nested = file.root().group("nested");
            assertEquals(List.of("level_1", "link"), nested.memberNames());
            assertEquals("not a link name for /nested, an old-style group (its local heap holds "
                    + "names up to a NUL): \"a\\0b\"", assertThrows(IllegalArgumentException.class,
                    () -> nested.createGroup("a\0b")).getMessage());
            nested.createGroup("a");
            nested.createDataset("m", Datatype.INT64, new long[] {1},
                    ElementCodec.encode(Datatype.INT64, new long[] {4}));
            assertEquals(List.of("a", "level_1", "link", "m"), nested.memberNames());
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            Group nested = file.root().group("nested");
            assertEquals(List.of("a", "level_1", "link", "m"), nested.memberNames());
            assertArrayEquals(new long[] {4}, nested.dataset("m").readLongs(new long[] {0},
                    new long[] {1}));
            assertEquals(List.of(), nested.group("a").memberNames());
        }
    }

    /**
     * The creations {@link GroupGuardsMutationGapsTest} does not name: a dataset written whole
     * and a virtual one check the name and the file as the others do.
     */
    @Test
    void wholeAndVirtualDatasetsCheckTheNameAndTheFile() throws IOException {
        Path path = dir.resolve("guards.h5");
        List<VirtualMapping> none = List.of();
        try (Hdf5File file = Hdf5File.create(path)) {
            Group root = file.root();
            Dataset d = root.createDataset("d", Datatype.INT64, new long[] {1},
                    ElementCodec.encode(Datatype.INT64, new long[] {6}));
            Dataset v = root.createVirtualDataset("v", Datatype.INT64, new long[] {1}, null,
                    List.of(VirtualMapping.sameFile("/d", DataspaceSelection.all(),
                            DataspaceSelection.all())));
            assertArrayEquals(new long[] {6}, d.readLongs(new long[] {0}, new long[] {1}));
            assertArrayEquals(new long[] {6}, v.readLongs(new long[] {0}, new long[] {1}));
            for (String name : new String[] {"", "a/b", "."}) {
                assertEquals("not a link name: \"" + name + "\"", assertThrows(
                        IllegalArgumentException.class, () -> root.createDataset(name,
                                Datatype.INT64, new long[] {1}, new byte[8])).getMessage());
                assertEquals("not a link name: \"" + name + "\"", assertThrows(
                        IllegalArgumentException.class, () -> root.createVirtualDataset(name,
                                Datatype.INT64, new long[] {1}, null, none)).getMessage());
            }
            assertEquals("/ already has a member \"v\"", assertThrows(
                    IllegalArgumentException.class, () -> root.createDataset("v",
                            Datatype.INT64, new long[] {1}, new byte[8])).getMessage());
            assertEquals("/ already has a member \"d\"", assertThrows(
                    IllegalArgumentException.class, () -> root.createVirtualDataset("d",
                            Datatype.INT64, new long[] {1}, null, none)).getMessage());
            assertEquals(path + ": virtual dataset /w: mapping from \0d: not a dataset path",
                    assertThrows(
                    IllegalArgumentException.class, () -> root.createVirtualDataset("w",
                            Datatype.INT64, new long[] {1}, null, List.of(VirtualMapping
                                    .sameFile("\0d", DataspaceSelection.all(),
                                            DataspaceSelection.all())))).getMessage());
            file.startSwmrWrite();
            assertThrows(SwmrWriteRefusedException.class, () -> root.createVirtualDataset("w",
                    Datatype.INT64, new long[] {1}, null, none));
            assertEquals(List.of("d", "v"), root.memberNames());
        }
        Hdf5File closed;
        try (Hdf5File file = Hdf5File.open(path)) {
            closed = file;
            assertEquals(path + " is open read-only", assertThrows(IllegalStateException.class,
                    () -> file.root().createVirtualDataset("w", Datatype.INT64, new long[] {1},
                            null, none)).getMessage());
        }
        assertEquals(path + " is closed", assertThrows(IllegalStateException.class,
                () -> closed.root().get("d")).getMessage());
    }
}
