package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.StartsOutsideProgram;
import org.quire.format.hdf5.layout.DataspaceSelection;
import org.quire.format.hdf5.layout.VirtualMapping;

/**
 * Reads of virtual datasets that touch only some of their mappings: overlapping mappings (the
 * later one shows, as libhdf5 reads them, checked against h5py), unmapped gaps, requests
 * straddling mappings, a source deleted and created again by the writer, and a grid of many
 * mappings read in random boxes into every kind of target, each compared element by element
 * with a model of the mappings.
 */
class VirtualMappingReadsTest {

    private static final long FILL = -9;

    @TempDir
    Path dir;

    @Test
    @StartsOutsideProgram
    void aLaterOverlappingMappingShowsOverAnEarlierOneAsInLibhdf5() throws IOException {
        Path path = dir.resolve("overlap.h5");
        try (Hdf5File hdf5 = Hdf5File.create(path)) {
            Dataset raw = hdf5.root().createDataset("raw", DatasetSpec.builder(Datatype.INT64, 20)
                    .chunkShape(4).build());
            raw.write(new long[] {0}, new long[] {20}, LongStream.range(100, 120).toArray());
            // [0, 6) from raw[0..6), then [4, 8) from raw[10..14) over it, then a gap.
            hdf5.root().createVirtualDataset("v", Datatype.INT64, new long[] {10},
                    ElementCodec.encodeOne(Datatype.INT64, FILL), List.of(
                            block(0, 0, 6), block(10, 4, 4)));
        }
        long[] expected = {100, 101, 102, 103, 110, 111, 112, 113, FILL, FILL};
        try (Hdf5File hdf5 = Hdf5File.open(path)) {
            Dataset v = hdf5.root().dataset("v");
            assertArrayEquals(expected, v.readLongs(new long[] {0}, new long[] {10}));
            assertArrayEquals(Arrays.copyOfRange(expected, 3, 9),
                    v.readLongs(new long[] {3}, new long[] {6}));
            assertArrayEquals(new long[] {111}, v.readLongs(new long[] {5}, new long[] {1}));
        }
        ExternalTools.requireH5py();
        ExternalTools.Result result = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                "-c", "import sys, h5py\n"
                        + "with h5py.File(sys.argv[1], 'r') as f:\n"
                        + "    print(f['v'][0:8].tolist())", path.toString()), 60);
        assertEquals(0, result.exitCode(), result.output());
        // Only the mapped elements: libhdf5 skips the fill when the mappings' element counts,
        // overlaps counted twice, add up to the request, leaving the gap as the buffer held it
        // (h5py shows 0); Quire fills it.
        assertEquals(Arrays.toString(Arrays.copyOf(expected, 8)), result.stdout().strip());
    }

    @Test
    void aWriterSeesItsSourceDeletedAndCreatedAgain() throws IOException {
        try (Hdf5File hdf5 = Hdf5File.create(dir.resolve("writer.h5"))) {
            Group root = hdf5.root();
            root.createDataset("raw", DatasetSpec.builder(Datatype.INT64, 4).chunkShape(4)
                    .build()).write(new long[] {0}, new long[] {4}, new long[] {1, 2, 3, 4});
            Dataset v = root.createVirtualDataset("v", Datatype.INT64, new long[] {4},
                    ElementCodec.encodeOne(Datatype.INT64, FILL), List.of(block(0, 0, 4)));
            assertArrayEquals(new long[] {1, 2, 3, 4}, v.readLongs(new long[] {0}, new long[] {4}));
            root.delete("raw");
            assertArrayEquals(new long[] {FILL, FILL, FILL, FILL},
                    v.readLongs(new long[] {0}, new long[] {4}));
            root.createDataset("raw", DatasetSpec.builder(Datatype.INT64, 4).chunkShape(4)
                    .build()).write(new long[] {0}, new long[] {4}, new long[] {5, 6, 7, 8});
            assertArrayEquals(new long[] {5, 6, 7, 8}, v.readLongs(new long[] {0}, new long[] {4}));
        }
    }

    @Test
    void gapsReadAsFillAndRequestsStraddleMappings() throws IOException {
        Path path = dir.resolve("gaps.h5");
        try (Hdf5File hdf5 = Hdf5File.create(path)) {
            Dataset raw = hdf5.root().createDataset("raw", DatasetSpec.builder(Datatype.INT64, 12)
                    .chunkShape(3).build());
            raw.write(new long[] {0}, new long[] {12}, LongStream.range(0, 12).toArray());
            // [2, 5) and [5, 7) mapped, [0, 2) and [7, 10) not.
            hdf5.root().createVirtualDataset("v", Datatype.INT64, new long[] {10},
                    ElementCodec.encodeOne(Datatype.INT64, FILL), List.of(
                            block(9, 2, 3), block(0, 5, 2)));
        }
        long[] whole = {FILL, FILL, 9, 10, 11, 0, 1, FILL, FILL, FILL};
        try (Hdf5File hdf5 = Hdf5File.open(path)) {
            Dataset v = hdf5.root().dataset("v");
            for (int from = 0; from < 10; from++) {
                for (int to = from + 1; to <= 10; to++) {
                    assertArrayEquals(Arrays.copyOfRange(whole, from, to),
                            v.readLongs(new long[] {from}, new long[] {to - from}),
                            "[" + from + ", " + to + ")");
                }
            }
        }
    }

    /**
     * A 2-D grid of 24 x 20 chunks of 3 x 4, each mapped from a shuffled slot of a 1-D store
     * as one 3 x 4 box, one chunk in seven left unmapped; random boxes read into long arrays,
     * heap and direct buffers.
     */
    @Test
    void aGridOfManyMappingsReadsElementByElementAsModelled() throws IOException {
        int rows = 24;
        int cols = 20;
        int chunkRows = 3;
        int chunkCols = 4;
        int chunkElements = chunkRows * chunkCols;
        long[] store = LongStream.range(0, (long) rows * cols * chunkElements)
                .map(i -> i * 7 + 1).toArray();
        Random random = new Random(11);
        List<Integer> slots = new ArrayList<>();
        for (int i = 0; i < rows * cols; i++) {
            slots.add(i);
        }
        java.util.Collections.shuffle(slots, random);
        long height = (long) rows * chunkRows;
        long width = (long) cols * chunkCols;
        long[][] model = new long[(int) height][(int) width];
        for (long[] row : model) {
            Arrays.fill(row, FILL);
        }
        List<VirtualMapping> mappings = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                if ((r * cols + c) % 7 == 3) {
                    continue;
                }
                int slot = slots.get(r * cols + c);
                // A 2-D store of one chunk per row: (slot, 0..12) shaped 3 x 4 by the mapping.
                mappings.add(VirtualMapping.sameFile("/store", DataspaceSelection.block(
                        new long[] {(long) slot * chunkRows, 0},
                        new long[] {chunkRows, chunkCols}), DataspaceSelection.block(
                        new long[] {(long) r * chunkRows, (long) c * chunkCols},
                        new long[] {chunkRows, chunkCols})));
                for (int i = 0; i < chunkElements; i++) {
                    model[r * chunkRows + i / chunkCols][c * chunkCols + i % chunkCols] =
                            store[slot * chunkElements + i];
                }
            }
        }
        Path path = dir.resolve("grid.h5");
        try (Hdf5File hdf5 = Hdf5File.create(path)) {
            Dataset raw = hdf5.root().createDataset("store", DatasetSpec.builder(Datatype.INT64,
                    (long) rows * cols * chunkRows, chunkCols).chunkShape(chunkRows, chunkCols)
                    .build());
            raw.write(new long[] {0, 0}, new long[] {(long) rows * cols * chunkRows, chunkCols},
                    store);
            hdf5.root().createVirtualDataset("v", Datatype.INT64, new long[] {height, width},
                    ElementCodec.encodeOne(Datatype.INT64, FILL), mappings);
        }
        try (Hdf5File hdf5 = Hdf5File.open(path)) {
            Dataset v = hdf5.root().dataset("v");
            assertArrayEquals(expected(model, new long[] {0, 0}, new long[] {height, width}),
                    v.readLongs(new long[] {0, 0}, new long[] {height, width}));
            for (int trial = 0; trial < 300; trial++) {
                long[] start = {random.nextInt((int) height), random.nextInt((int) width)};
                long[] count = {1 + random.nextInt((int) (height - start[0])),
                        1 + random.nextInt((int) (width - start[1]))};
                long[] want = expected(model, start, count);
                String box = Arrays.toString(start) + " + " + Arrays.toString(count);
                assertArrayEquals(want, v.readLongs(start, count), box);
                int bytes = want.length * Long.BYTES;
                for (ByteBuffer buffer : List.of(ByteBuffer.allocate(bytes + 16),
                        ByteBuffer.allocateDirect(bytes + 16))) {
                    buffer.position(16);
                    v.read(start, count, buffer);
                    long[] got = new long[want.length];
                    buffer.slice(16, bytes).order(Datatype.INT64.byteOrder()).asLongBuffer()
                            .get(got);
                    assertArrayEquals(want, got, box + (buffer.isDirect() ? " direct" : " heap"));
                }
            }
        }
    }

    private static long[] expected(long[][] model, long[] start, long[] count) {
        long[] values = new long[(int) (count[0] * count[1])];
        for (int r = 0; r < count[0]; r++) {
            for (int c = 0; c < count[1]; c++) {
                values[(int) (r * count[1] + c)] = model[(int) start[0] + r][(int) start[1] + c];
            }
        }
        return values;
    }

    /** {@code count} elements of /raw from {@code from} onto the virtual dataset at {@code at}. */
    private static VirtualMapping block(long from, long at, long count) {
        return VirtualMapping.sameFile("/raw", DataspaceSelection.block(new long[] {from},
                new long[] {count}), DataspaceSelection.block(new long[] {at}, new long[] {count}));
    }
}
