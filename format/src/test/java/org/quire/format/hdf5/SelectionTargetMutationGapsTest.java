package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.layout.DataspaceSelection;
import org.quire.format.hdf5.layout.VirtualMapping;

/**
 * Where reads put elements ({@link SelectionTarget}, through the file's {@link TransferBuffer}):
 * runs longer than one transfer piece (256 KiB), fill values over the caller's own array (which
 * may hold anything, unlike an array the read allocates) in runs longer than one fill run (8 KiB),
 * and a virtual dataset's mappings (from a chunked source, in runs) landing at their offsets of
 * an array and of a buffer read at a position other than 0.
 */
class SelectionTargetMutationGapsTest {

    /** More longs than one 256 KiB transfer piece holds (32768), not a multiple of it. */
    private static final int LONG_RUN = 70_001;

    @TempDir
    Path dir;

    @Test
    void runsLongerThanATransferPieceArriveWhole() throws IOException {
        Path path = dir.resolve("long-run.h5");
        long[] values = new long[LONG_RUN];
        for (int i = 0; i < values.length; i++) {
            values[i] = 3L * i - 5;
        }
        try (Hdf5File file = Hdf5File.create(path)) {
            file.root().createDataset("c", Datatype.INT64, new long[] {LONG_RUN},
                    ElementCodec.encode(Datatype.INT64, values));
            file.root().createDataset("b", Datatype.INT8, new long[] {5},
                    new byte[] {1, 2, 3, 4, 5});
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            Dataset c = file.root().dataset("c");
            // A small read first: the transfer buffer must grow for the long one.
            assertArrayEquals(new byte[] {2, 3}, file.root().dataset("b").readBytes(
                    new long[] {1}, new long[] {2}));
            assertArrayEquals(values, c.readLongs(new long[] {0}, new long[] {LONG_RUN}));
            long[] tail = new long[LONG_RUN - 3];
            c.read(new long[] {3}, new long[] {tail.length}, tail);
            assertArrayEquals(Arrays.copyOfRange(values, 3, LONG_RUN), tail);
            ByteBuffer heap = ByteBuffer.allocate(8 * LONG_RUN);
            c.read(new long[] {0}, new long[] {LONG_RUN}, heap);
            assertEquals(values[LONG_RUN - 1], heap.order(ByteOrder.LITTLE_ENDIAN)
                    .getLong(8 * (LONG_RUN - 1)));
            assertEquals(values[40_000], heap.getLong(8 * 40_000));
        }
    }

    @Test
    void fillValuesOverwriteWhatTheCallersArrayHeld() throws IOException {
        try (Hdf5File file = Hdf5File.create(dir.resolve("fill.h5"))) {
            Dataset zero = file.root().createDataset("zero", DatasetSpec.builder(
                    Datatype.INT64, 3000).chunkShape(3000).build());
            Dataset filled = file.root().createDataset("filled", DatasetSpec.builder(
                    Datatype.INT64, 3000).chunkShape(1000).fillValue(-7L).build());
            filled.write(new long[] {1000}, new long[] {1}, new long[] {42});
            long[] target = new long[3000];
            Arrays.fill(target, 99);
            zero.read(new long[] {0}, new long[] {3000}, target);
            assertArrayEquals(new long[3000], target);
            long[] expected = new long[3000];
            Arrays.fill(expected, -7);
            expected[1000] = 42;
            assertArrayEquals(expected, filled.readLongs(new long[] {0}, new long[] {3000}));
            Arrays.fill(target, 99);
            filled.read(new long[] {0}, new long[] {3000}, target);
            assertArrayEquals(expected, target);
        }
    }

    @Test
    void mappingsLandAtTheirOffsetsOfAnArrayAndOfABuffer() throws IOException {
        Path path = dir.resolve("virtual.h5");
        try (Hdf5File file = Hdf5File.create(path)) {
            Group root = file.root();
            // Chunks of 2: a mapping's elements arrive in two runs.
            root.createDataset("src", DatasetSpec.builder(Datatype.INT32, 4).chunkShape(2)
                    .build()).write(new long[] {0}, new long[] {4}, new int[] {10, 11, 12, 13});
            root.createVirtualDataset("v", Datatype.INT32, new long[] {8},
                    ElementCodec.encode(Datatype.INT32, new int[] {-1}), List.of(
                            VirtualMapping.sameFile("/src", DataspaceSelection.all(),
                                    DataspaceSelection.block(new long[] {3},
                                            new long[] {4}))));
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            Dataset v = file.root().dataset("v");
            int[] array = new int[6];
            Arrays.fill(array, 99);
            v.read(new long[] {1}, new long[] {6}, array);
            assertArrayEquals(new int[] {-1, -1, 10, 11, 12, 13}, array);
            for (ByteBuffer buffer : new ByteBuffer[] {ByteBuffer.allocate(28),
                    ByteBuffer.allocateDirect(28)}) {
                buffer.order(ByteOrder.LITTLE_ENDIAN).position(4);
                v.read(new long[] {2}, new long[] {6}, buffer);
                int[] got = new int[6];
                for (int i = 0; i < got.length; i++) {
                    got[i] = buffer.getInt(4 + 4 * i);
                }
                assertArrayEquals(new int[] {-1, 10, 11, 12, 13, -1}, got, buffer.toString());
            }
        }
    }
}
