package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.hdf5.layout.DataspaceSelection;
import org.quire.format.hdf5.layout.VirtualMapping;

/**
 * What a virtual dataset's reader sees when its sources change or its mappings do not fit:
 * a writer resizing the source to exactly the mapped block and below it, deleting it, putting
 * a group, a dataset of another type and a virtual dataset in its place, and a new source; "all"
 * against a block of another size and against an empty source; a bad source block refused on the
 * first read even where the request does not meet it; a damaged file whose virtual block ends
 * one element beyond the dataspace (next to the same block exactly at the edge); a selection of
 * more rows than the row-by-row walk holds, and one of exactly as many. Each refusal is one line
 * naming the file, the dataset, the mapping and what was found.
 */
class VirtualSourcesMutationGapsTest {

    private static final long FILL = -7;
    private static final String SUPPORTED = "; supported: selections of as many elements inside "
            + "datasets of the same file and type";

    @TempDir
    Path dir;

    private static byte[] fill() {
        return ElementCodec.encodeOne(Datatype.INT64, FILL);
    }

    private static VirtualMapping block(long from, long at, long count) {
        return VirtualMapping.sameFile("/raw", DataspaceSelection.block(new long[] {from},
                new long[] {count}), DataspaceSelection.block(new long[] {at}, new long[] {count}));
    }

    private static String refusal(Path file, String found) {
        return file + ": unsupported /v: virtual dataset mapping: found " + found
                + " in the mapping from . /raw" + SUPPORTED;
    }

    private static long[] readAll(Dataset v) throws IOException {
        return v.readLongs(new long[] {0}, v.shape());
    }

    /**
     * In a new file at {@code path}: the refusal of reading the first {@code elements} of /v (6
     * elements) whose {@code mappings} are from /raw, 8 zeros.
     */
    private static String readRefusal(Path path, long elements, VirtualMapping... mappings)
            throws IOException {
        try (Hdf5File hdf5 = Hdf5File.create(path)) {
            Group root = hdf5.root();
            root.createDataset("raw", Datatype.INT64, new long[] {8}, new byte[64]);
            Dataset v = root.createVirtualDataset("v", Datatype.INT64, new long[] {6}, fill(),
                    List.of(mappings));
            return assertThrows(UnsupportedFormatException.class,
                    () -> v.readLongs(new long[] {0}, new long[] {elements})).getMessage();
        }
    }

    @Test
    void aWriterSeesEachChangeToTheSourceOnTheNextRead() throws IOException {
        Path path = dir.resolve("writer.h5");
        try (Hdf5File hdf5 = Hdf5File.create(path)) {
            Group root = hdf5.root();
            Dataset raw = root.createDataset("raw", DatasetSpec.builder(Datatype.INT64, 8)
                    .maxShape(DatasetSpec.UNLIMITED).chunkShape(4).build());
            raw.write(new long[] {0}, new long[] {8}, LongStream.rangeClosed(1, 8).toArray());
            Dataset v = root.createVirtualDataset("v", Datatype.INT64, new long[] {6}, fill(),
                    List.of(block(2, 0, 4)));
            long[] mapped = {3, 4, 5, 6, FILL, FILL};
            assertArrayEquals(mapped, readAll(v));
            // The block [2, 6) ends exactly at the new extent, then one beyond it.
            raw.setExtent(6);
            assertArrayEquals(mapped, readAll(v));
            raw.setExtent(5);
            UnsupportedFormatException shrunk = assertThrows(UnsupportedFormatException.class,
                    () -> readAll(v));
            assertEquals(refusal(path, "source block start [2] count [4] outside the shape [5] "
                    + "(libhdf5 refuses to read it too)"), shrunk.getMessage());

            long[] unmapped = {FILL, FILL, FILL, FILL, FILL, FILL};
            root.delete("raw");
            assertArrayEquals(unmapped, readAll(v));
            root.createGroup("raw");
            assertArrayEquals(unmapped, readAll(v));

            root.delete("raw");
            root.createDataset("raw", Datatype.INT32, new long[] {8}, new byte[32]);
            UnsupportedFormatException typed = assertThrows(UnsupportedFormatException.class,
                    () -> readAll(v));
            assertEquals(refusal(path, "source type " + Datatype.INT32 + " (no conversion)"),
                    typed.getMessage());

            root.delete("raw");
            root.createVirtualDataset("raw", Datatype.INT64, new long[] {8}, null, List.of());
            UnsupportedFormatException virtual = assertThrows(UnsupportedFormatException.class,
                    () -> readAll(v));
            assertEquals(refusal(path, "a virtual source dataset"), virtual.getMessage());

            root.delete("raw");
            root.createDataset("raw", Datatype.INT64, new long[] {8}, ElementCodec.encode(
                    Datatype.INT64, LongStream.rangeClosed(11, 18).toArray()));
            assertArrayEquals(new long[] {13, 14, 15, 16, FILL, FILL}, readAll(v));
        }
    }

    @Test
    void selectionsOfDifferentElementCountsAreRefused() throws IOException {
        Path path = dir.resolve("counts.h5");
        // "all" of 6 elements from a block of 4.
        assertEquals(refusal(path, "6 virtual and 4 source elements"), readRefusal(path, 6,
                VirtualMapping.sameFile("/raw", DataspaceSelection.block(new long[] {0},
                        new long[] {4}), DataspaceSelection.all())));
        Path empty = dir.resolve("empty.h5");
        try (Hdf5File hdf5 = Hdf5File.create(empty)) {
            Group root = hdf5.root();
            root.createDataset("raw", DatasetSpec.builder(Datatype.INT64, 0)
                    .maxShape(DatasetSpec.UNLIMITED).chunkShape(4).build());
            // A block of 2 from "all" of a source of no elements yet.
            Dataset v = root.createVirtualDataset("v", Datatype.INT64, new long[] {6}, fill(),
                    List.of(VirtualMapping.sameFile("/raw", DataspaceSelection.all(),
                            DataspaceSelection.block(new long[] {0}, new long[] {2}))));
            UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class,
                    () -> readAll(v));
            assertEquals(refusal(empty, "2 virtual and 0 source elements"), e.getMessage());
        }
    }

    /**
     * libhdf5 (1.10.8, checked by hand with h5py 3.7) reads "%%" in a source dataset name as
     * "%" and refuses to open a bounded mapping whose name has "%b" (a printf-style block
     * number, for unlimited mappings only) or "%" before anything else, first or last too.
     * Quire's writer refuses such names ({@link GroupCreateMutationGapsTest}), so the file gets
     * them as another writer would leave them: each mapping written with "X" for "%", then its
     * global heap object replaced by the encoding with "%" (as long, its own checksum).
     */
    @Test
    void percentSignsInSourceNamesAreReadAsLibhdf5ReadsThem() throws IOException {
        Path path = dir.resolve("printf.h5");
        List<String> names = List.of("/a%%b", "/a%%%%b", "/a%b", "/a%%%b", "/a%", "%b");
        try (Hdf5File hdf5 = Hdf5File.create(path)) {
            Group root = hdf5.root();
            root.createDataset("a%b", Datatype.INT64, new long[] {2}, ElementCodec.encode(
                    Datatype.INT64, new long[] {10, 11}));
            root.createDataset("a%%b", Datatype.INT64, new long[] {2}, ElementCodec.encode(
                    Datatype.INT64, new long[] {20, 21}));
            for (int i = 0; i < names.size(); i++) {
                root.createVirtualDataset("v" + i, Datatype.INT64, new long[] {2}, fill(),
                        List.of(wholeFrom(names.get(i).replace('%', 'X'))));
            }
        }
        for (String name : names) {
            DamagedVirtualMappingsTest.replaceMappingBlock(path, VirtualMapping.encode(
                    List.of(wholeFrom(name.replace('%', 'X')))),
                    VirtualMapping.encode(List.of(wholeFrom(name))));
        }
        try (Hdf5File hdf5 = Hdf5File.open(path)) {
            Group root = hdf5.root();
            assertArrayEquals(new long[] {10, 11}, readAll(root.dataset("v0")));
            assertArrayEquals(new long[] {20, 21}, readAll(root.dataset("v1")));
            for (int i = 2; i < names.size(); i++) {
                String name = names.get(i);
                Dataset v = root.dataset("v" + i);
                UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class,
                        () -> readAll(v), name);
                assertEquals(path + ": unsupported /v" + i + ": virtual dataset mapping: found "
                        + "source dataset name \"" + name + "\" (libhdf5 opens a bounded "
                        + "mapping's names with \"%\" only as \"%%\") in the mapping from . "
                        + name + SUPPORTED, e.getMessage());
            }
        }
    }

    private static VirtualMapping wholeFrom(String sourceDataset) {
        return VirtualMapping.sameFile(sourceDataset, DataspaceSelection.all(),
                DataspaceSelection.all());
    }

    /** Blocks are checked on the first read, all of them, not only those the request meets. */
    @Test
    void aSourceBlockBeyondTheSourceIsRefusedWhereverTheRequestLies() throws IOException {
        Path path = dir.resolve("beyond.h5");
        assertEquals(refusal(path, "source block start [6] count [4] outside the shape [8] "
                + "(libhdf5 refuses to read it too)"), readRefusal(path, 1, block(0, 0, 2),
                block(6, 2, 4)));
    }

    /**
     * A file whose mapping puts the virtual block [7, 11) in a dataspace of 10 (Quire writes
     * [6, 10), then the mapping object is overwritten, its checksum correct): refused on read
     * without blaming libhdf5's reading; [6, 10) itself reads.
     */
    @Test
    void aVirtualBlockOneBeyondTheDataspaceInADamagedFileIsRefused() throws IOException {
        Path path = dir.resolve("virtual-beyond.h5");
        List<VirtualMapping> written = List.of(block(0, 6, 4));
        try (Hdf5File hdf5 = Hdf5File.create(path)) {
            hdf5.root().createDataset("raw", Datatype.INT64, new long[] {4}, ElementCodec.encode(
                    Datatype.INT64, new long[] {1, 2, 3, 4}));
            hdf5.root().createVirtualDataset("v", Datatype.INT64, new long[] {10}, fill(),
                    written);
        }
        try (Hdf5File hdf5 = Hdf5File.open(path)) {
            assertArrayEquals(new long[] {FILL, FILL, FILL, FILL, FILL, FILL, 1, 2, 3, 4},
                    readAll(hdf5.root().dataset("v")));
        }
        DamagedVirtualMappingsTest.replaceMappingBlock(path, VirtualMapping.encode(written),
                VirtualMapping.encode(List.of(block(0, 7, 4))));
        try (Hdf5File hdf5 = Hdf5File.open(path)) {
            Dataset v = hdf5.root().dataset("v");
            UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class,
                    () -> v.readLongs(new long[] {0}, new long[] {1}));
            assertEquals(refusal(path, "virtual block start [7] count [4] outside the shape "
                    + "[10]"), e.getMessage());
        }
    }

    /**
     * A column of {@code rows} x 1 from two source blocks (so not one box): its rows are held
     * to walk them, 2^20 at most.
     */
    private static Dataset column(Group root, long rows) throws IOException {
        root.createDataset("raw", DatasetSpec.builder(Datatype.INT64, rows).chunkShape(4096)
                .fillValue(5L).build());
        return root.createVirtualDataset("v", Datatype.INT64, new long[] {rows, 1}, fill(),
                List.of(VirtualMapping.sameFile("/raw", new DataspaceSelection.Hyperslab(List.of(
                        new DataspaceSelection.Block(new long[] {0}, new long[] {1}),
                        new DataspaceSelection.Block(new long[] {1}, new long[] {rows - 1}))),
                        DataspaceSelection.block(new long[] {0, 0}, new long[] {rows, 1}))));
    }

    @Test
    void aSelectionOfMoreRowsThanTheWalkHoldsIsRefused() throws IOException {
        long most = 1 << 20;
        try (Hdf5File hdf5 = Hdf5File.create(dir.resolve("most.h5"))) {
            Dataset v = column(hdf5.root(), most);
            assertArrayEquals(new long[] {5, 5}, v.readLongs(new long[] {most - 2, 0},
                    new long[] {2, 1}));
        }
        Path path = dir.resolve("more.h5");
        try (Hdf5File hdf5 = Hdf5File.create(path)) {
            Dataset v = column(hdf5.root(), most + 1);
            UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class,
                    () -> v.readLongs(new long[] {0, 0}, new long[] {1, 1}));
            assertEquals(refusal(path, "a selection of more than 1048576 rows"),
                    e.getMessage());
        }
    }
}
