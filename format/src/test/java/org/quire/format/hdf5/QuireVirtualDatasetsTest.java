package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.StartsOutsideProgram;
import org.quire.format.hdf5.layout.DataspaceSelection;
import org.quire.format.hdf5.layout.VirtualMapping;

/**
 * Virtual datasets Quire writes ({@link Group#createVirtualDataset}): versioned-hdf5's shape
 * (one hyperslab mapping per chunk of a chunk store, a chunk left unmapped), a 2-D grid of
 * edge chunks, h5py's stacking idiom ("all" sources), "all" onto "all" in big-endian, a missing
 * source, no mappings at all, and three blocks onto one (paired element by element); read back by Quire, by h5py (values and mappings) and by
 * h5dump, in a new file and after reopening one; bad mappings refused.
 */
class QuireVirtualDatasetsTest {

    private static final byte[] FILL = ElementCodec.encodeOne(Datatype.INT64, -7);
    private static final Datatype INT16_BE = Datatype.INT16.withByteOrder(ByteOrder.BIG_ENDIAN);

    @TempDir
    static Path dir;
    private static Path file;

    /** What each virtual dataset must read as, as h5py prints it (numpy's list form). */
    private static final List<String[]> EXPECTED = List.of(
            new String[] {"/versions/v1/x", "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]", "3"},
            new String[] {"/versions/v2/x", "[100, 1, 2, 3, 4, 5, 6, 7, -7, -7]", "2"},
            new String[] {"/grid", "[[0.0, 1.0, 4.0, 5.0, 8.0], [2.0, 3.0, 6.0, 7.0, 10.0], "
                    + "[12.0, 13.0, 16.0, 17.0, 20.0]]", "6"},
            new String[] {"/stacked", "[[0, 1, 2, 3, 4], [10, 11, 12, 13, 14], "
                    + "[20, 21, 22, 23, 24]]", "3"},
            new String[] {"/mirror", "[[0, -1, 2], [-3, 4, -5]]", "1"},
            new String[] {"/missing", "[-7, -7, -7]", "1"},
            new String[] {"/empty", "[-7, -7]", "0"},
            new String[] {"/interleaved", "[0, -7, 1, -7, 2, -7]", "1"},
            new String[] {"/reopened", "[8, 9, -7, -7, 100, 1]", "2"});

    @BeforeAll
    static void write() throws IOException {
        file = dir.resolve("virtual.h5");
        try (Hdf5File hdf5 = Hdf5File.create(file)) {
            Group root = hdf5.root();
            Dataset raw = root.createGroup("store").createDataset("raw_data",
                    DatasetSpec.builder(Datatype.INT64, 16).maxShape(DatasetSpec.UNLIMITED)
                            .chunkShape(4).fillValue(-7L).build());
            raw.write(new long[] {0}, new long[] {10}, LongStream.range(0, 10).toArray());
            raw.write(new long[] {12}, new long[] {4}, new long[] {100, 1, 2, 3});
            Group versions = root.createGroup("versions");
            versions.createGroup("v1").createVirtualDataset("x", Datatype.INT64,
                    new long[] {10}, FILL, List.of(chunk(0, 0, 4), chunk(4, 4, 4),
                            chunk(8, 8, 2)));
            // v2: chunk 0 from slot 3, chunk 2 unmapped (reads as the fill value).
            Dataset v2 = versions.createGroup("v2").createVirtualDataset("x", Datatype.INT64,
                    new long[] {10}, FILL, List.of(chunk(12, 0, 4), chunk(4, 4, 4)));
            // Read by the writer: mappings and sources through its own cache.
            assertArrayEquals(new long[] {2, 3, 4, 5, 6, 7, -7},
                    v2.readLongs(new long[] {2}, new long[] {7}));

            Dataset raw2 = root.createDataset("raw_2d", DatasetSpec.builder(Datatype.FLOAT64, 20, 2)
                    .maxShape(DatasetSpec.UNLIMITED, 2).chunkShape(2, 2).build());
            raw2.write(new long[] {0, 0}, new long[] {20, 2},
                    LongStream.range(0, 40).mapToDouble(i -> i).toArray());
            List<VirtualMapping> grid = new ArrayList<>();
            int slot = 0;
            for (int row = 0; row < 3; row += 2) {
                for (int col = 0; col < 5; col += 2) {
                    long[] count = {Math.min(2, 3 - row), Math.min(2, 5 - col)};
                    grid.add(VirtualMapping.sameFile("/raw_2d",
                            DataspaceSelection.block(new long[] {2L * slot, 0}, count),
                            DataspaceSelection.block(new long[] {row, col}, count)));
                    slot++;
                }
            }
            root.createVirtualDataset("grid", Datatype.FLOAT64, new long[] {3, 5}, null, grid);

            List<VirtualMapping> rows = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                int first = 10 * i;
                root.createDataset("part" + i, Datatype.INT32, new long[] {5},
                        ElementCodec.encode(Datatype.INT32, new int[] {first, first + 1,
                                first + 2, first + 3, first + 4}));
                rows.add(VirtualMapping.sameFile("/part" + i, DataspaceSelection.all(),
                        DataspaceSelection.block(new long[] {i, 0}, new long[] {1, 5})));
            }
            root.createVirtualDataset("stacked", Datatype.INT32, new long[] {3, 5}, null, rows);

            root.createDataset("signed", INT16_BE, new long[] {2, 3}, ElementCodec.encode(
                    INT16_BE, new short[] {0, -1, 2, -3, 4, -5}));
            root.createVirtualDataset("mirror", INT16_BE, new long[] {2, 3}, null, List.of(
                    VirtualMapping.sameFile("/signed", DataspaceSelection.all(),
                            DataspaceSelection.all())));
            root.createVirtualDataset("missing", Datatype.INT64, new long[] {3}, FILL, List.of(
                    VirtualMapping.sameFile("/nothing/here", DataspaceSelection.all(),
                            DataspaceSelection.all())));
            root.createVirtualDataset("empty", Datatype.INT64, new long[] {2}, FILL, List.of());
            // Three virtual blocks of one element from one source block of three: paired
            // element by element.
            root.createVirtualDataset("interleaved", Datatype.INT64, new long[] {6}, FILL,
                    List.of(VirtualMapping.sameFile("/store/raw_data",
                            DataspaceSelection.block(new long[] {0}, new long[] {3}),
                            new DataspaceSelection.Hyperslab(List.of(
                                    new DataspaceSelection.Block(new long[] {0}, new long[] {1}),
                                    new DataspaceSelection.Block(new long[] {2}, new long[] {1}),
                                    new DataspaceSelection.Block(new long[] {4},
                                            new long[] {1}))))));
        }
        try (Hdf5File hdf5 = Hdf5File.openForWriting(file)) {
            hdf5.root().createVirtualDataset("reopened", Datatype.INT64, new long[] {6}, FILL,
                    List.of(chunk(8, 0, 2), chunk(12, 4, 2)));
        }
    }

    /** versioned-hdf5's mapping: raw_data rows from {@code slot} onto the chunk at {@code at}. */
    private static VirtualMapping chunk(long slot, long at, long count) {
        return VirtualMapping.sameFile("/store/raw_data",
                DataspaceSelection.block(new long[] {slot}, new long[] {count}),
                DataspaceSelection.block(new long[] {at}, new long[] {count}));
    }

    @Test
    void quireReadsWhatItWrote() throws IOException {
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            Dataset v2 = dataset(hdf5, "/versions/v2/x");
            assertEquals(StorageLayout.VIRTUAL, v2.layout());
            assertArrayEquals(new long[] {100, 1, 2, 3, 4, 5, 6, 7, -7, -7},
                    v2.readLongs(new long[] {0}, new long[] {10}));
            assertArrayEquals(new long[] {3, 4, 5, 6, 7, -7},
                    v2.readLongs(new long[] {3}, new long[] {6}));
            assertEquals(List.of(chunk(12, 0, 4), chunk(4, 4, 4)), v2.virtualMappings());
            assertArrayEquals(new double[] {6, 7, 10, 16, 17, 20},
                    dataset(hdf5, "/grid").readDoubles(new long[] {1, 2}, new long[] {2, 3}));
            assertArrayEquals(new int[] {13, 14, 23, 24},
                    dataset(hdf5, "/stacked").readInts(new long[] {1, 3}, new long[] {2, 2}));
            assertArrayEquals(new short[] {0, -1, 2, -3, 4, -5},
                    dataset(hdf5, "/mirror").readShorts(new long[] {0, 0}, new long[] {2, 3}));
            assertArrayEquals(new long[] {-7, -7, -7},
                    dataset(hdf5, "/missing").readLongs(new long[] {0}, new long[] {3}));
            assertArrayEquals(new long[] {-7, -7},
                    dataset(hdf5, "/empty").readLongs(new long[] {0}, new long[] {2}));
            assertArrayEquals(new long[] {8, 9, -7, -7, 100, 1},
                    dataset(hdf5, "/reopened").readLongs(new long[] {0}, new long[] {6}));
            Hdf5Verifier.verify(file);
        }
    }

    @Test
    @StartsOutsideProgram
    void h5pyReadsTheValuesAndTheMappings() {
        ExternalTools.requireH5py();
        String script = String.join("\n",
                "import sys, h5py",
                "with h5py.File(sys.argv[1], 'r') as f:",
                "    for path in sys.argv[2:]:",
                "        d = f[path]",
                "        files = sorted({m.file_name for m in d.virtual_sources()})",
                "        print('%s|%s|%s|%d|%s' % (path, d.is_virtual, d[()].tolist(),",
                "              len(d.virtual_sources()), ','.join(files)))");
        List<String> command = new ArrayList<>(List.of(ExternalTools.PYTHON.toString(), "-c",
                script, file.toString()));
        EXPECTED.forEach(e -> command.add(e[0]));
        ExternalTools.Result result = ExternalTools.run(command, 120);
        assertEquals(0, result.exitCode(), result.output());
        List<String> expected = EXPECTED.stream().map(e -> e[0] + "|True|" + e[1] + "|" + e[2]
                + "|" + (e[2].equals("0") ? "" : ".")).collect(Collectors.toList());
        assertEquals(expected, result.stdout().lines().toList(), result.output());
    }

    @Test
    @StartsOutsideProgram
    void h5dumpPrintsTheValuesAndTheMappings() {
        ExternalTools.requireTool("h5dump");
        ExternalTools.Result whole = ExternalTools.run(List.of("h5dump", file.toString()), 120);
        assertEquals(0, whole.exitCode(), whole.output());
        ExternalTools.Result v2 = ExternalTools.run(List.of("h5dump", "-p", "-d",
                "/versions/v2/x", file.toString()), 120);
        assertEquals(0, v2.exitCode(), v2.output());
        String text = v2.stdout().replaceAll("\\s+", " ");
        assertTrue(text.contains("MAPPING 0 { VIRTUAL { SELECTION REGULAR_HYPERSLAB { START (0) "
                + "STRIDE (1) COUNT (1) BLOCK (4) } } SOURCE { FILE \".\" DATASET "
                + "\"/store/raw_data\" SELECTION REGULAR_HYPERSLAB { START (12) STRIDE (1) "
                + "COUNT (1) BLOCK (4) } } }"), text);
        assertTrue(text.contains("(0): 100, 1, 2, 3, 4, 5, 6, 7, -7, -7"), text);
    }

    /**
     * 5,000 mappings (one per chunk of 2, the store's slots in reverse): a mapping block of
     * about 400 KB in a global heap collection of its own, read by Quire and h5py.
     */
    @Test
    @StartsOutsideProgram
    void aVirtualDatasetOfThousandsOfMappings() throws IOException {
        Path many = dir.resolve("many.h5");
        int chunks = 5000;
        try (Hdf5File hdf5 = Hdf5File.create(many)) {
            Dataset raw = hdf5.root().createDataset("raw", DatasetSpec.builder(Datatype.INT64,
                    2L * chunks).chunkShape(2).build());
            raw.write(new long[] {0}, new long[] {2L * chunks},
                    LongStream.range(0, 2L * chunks).toArray());
            List<VirtualMapping> mappings = new ArrayList<>();
            for (int c = 0; c < chunks; c++) {
                mappings.add(VirtualMapping.sameFile("/raw", DataspaceSelection.block(
                        new long[] {2L * (chunks - 1 - c)}, new long[] {2}),
                        DataspaceSelection.block(new long[] {2L * c}, new long[] {2})));
            }
            hdf5.root().createVirtualDataset("reversed", Datatype.INT64,
                    new long[] {2L * chunks}, null, mappings);
        }
        long[] expected = new long[2 * chunks];
        for (int c = 0; c < chunks; c++) {
            expected[2 * c] = 2L * (chunks - 1 - c);
            expected[2 * c + 1] = 2L * (chunks - 1 - c) + 1;
        }
        try (Hdf5File hdf5 = Hdf5File.open(many)) {
            assertArrayEquals(expected, hdf5.root().dataset("reversed").readLongs(new long[] {0},
                    new long[] {2L * chunks}));
        }
        ExternalTools.requireH5py();
        ExternalTools.Result result = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                "-c", "import sys, h5py, numpy as np\n"
                        + "with h5py.File(sys.argv[1], 'r') as f:\n"
                        + "    d = f['reversed']\n"
                        + "    n = len(d.virtual_sources())\n"
                        + "    want = (np.arange(10000).reshape(5000, 2)[::-1]).ravel()\n"
                        + "    print(n, (d[()] == want).all())", many.toString()), 120);
        assertEquals(0, result.exitCode(), result.output());
        assertEquals("5000 True", result.stdout().strip());
    }

    @Test
    void badMappingsAreRefusedWithTheReason() throws IOException {
        try (Hdf5File hdf5 = Hdf5File.create(dir.resolve("refused.h5"))) {
            Group root = hdf5.root();
            List<List<VirtualMapping>> bad = List.of(
                    List.of(new VirtualMapping("other.h5", "/x", DataspaceSelection.all(),
                            DataspaceSelection.all())),
                    List.of(chunk(0, 8, 4)),
                    List.of(VirtualMapping.sameFile("/x", DataspaceSelection.block(
                            new long[] {0}, new long[] {4}), DataspaceSelection.block(
                            new long[] {0}, new long[] {3}))),
                    List.of(VirtualMapping.sameFile("/x", DataspaceSelection.block(
                            new long[] {1L << 32}, new long[] {4}), DataspaceSelection.block(
                            new long[] {0}, new long[] {4}))));
            List<String> reasons = List.of("source file \"other.h5\"", "outside the shape [10]",
                    "hold 3 elements, source blocks [start [0] count [4]] 4", "2^32");
            for (int i = 0; i < bad.size(); i++) {
                List<VirtualMapping> mappings = bad.get(i);
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> root.createVirtualDataset("v", Datatype.INT64, new long[] {10},
                                null, mappings));
                assertTrue(e.getMessage().contains(reasons.get(i)), e.getMessage());
            }
            assertEquals(List.of(), root.memberNames());
            Dataset empty = root.createVirtualDataset("v", Datatype.INT64, new long[] {10}, null,
                    List.of());
            assertThrows(IllegalStateException.class,
                    () -> empty.write(new long[] {0}, new long[] {1}, new long[] {1}));
        }
    }

    private static Dataset dataset(Hdf5File hdf5, String path) throws IOException {
        Group group = hdf5.root();
        String[] parts = path.substring(1).split("/");
        for (int i = 0; i < parts.length - 1; i++) {
            group = group.group(parts[i]);
        }
        return group.dataset(parts[parts.length - 1]);
    }
}
