package org.quire.format.versioned;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.Attribute;
import org.quire.format.hdf5.DatasetSpec;
import org.quire.format.hdf5.Datatype;

/**
 * A dataset staged for a commit, on §1.8's v1 (arange(10), chunks of 4, fill -7): the boxes it
 * accepts up to exactly its shape, reads that join staged chunks, the parent's chunks and the
 * fill, resizing through and onto chunk edges, and its attributes.
 */
class StagedDatasetTest {

    private static final long F = -7;

    @TempDir
    Path dir;
    private int files;

    private interface Check {
        void on(StagedDataset x) throws IOException;
    }

    /** Runs {@code check} on v1's "x" staged for a second version, then drops the version. */
    private void staged(Check check) throws IOException {
        Path path = dir.resolve("v" + files++ + ".h5");
        try (VersionedFile vf = VersionedFile.create(path)) {
            vf.commit("v1", "", VersionedFileTest.DAY, v -> v.createDataset("x",
                    VersionedFileTest.x10(), VersionedFileTest.int64(LongStream.range(0, 10).toArray())));
            vf.commit("v2", "v1", VersionedFileTest.DAY.plusSeconds(1), v -> check.on(v.dataset("x")));
        }
    }

    private static long[] longs(byte[] bytes) {
        long[] out = new long[bytes.length / 8];
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(out);
        return out;
    }

    private static long[] all(StagedDataset x) throws IOException {
        return longs(x.read(new long[] {0}, x.shape()));
    }

    private static void outside(String message, Executable access) {
        assertEquals(message, assertThrows(IndexOutOfBoundsException.class, access).getMessage());
    }

    @Test
    void boxesReachExactlyToTheShapeAndNoFurther() throws IOException {
        staged(x -> {
            assertArrayEquals(new long[] {8, 9}, longs(x.read(new long[] {8}, new long[] {2})));
            assertArrayEquals(new long[0], longs(x.read(new long[] {10}, new long[] {0})));
            x.write(new long[] {8}, new long[] {2}, new long[] {80, 90});
            outside("x: box start [9] count [2] outside the shape [10]",
                    () -> x.read(new long[] {9}, new long[] {2}));
            outside("x: box start [9] count [2] outside the shape [10]",
                    () -> x.write(new long[] {9}, new long[] {2}, new long[] {1, 2}));
            outside("x: box start [-1] count [1] outside the shape [10]",
                    () -> x.read(new long[] {-1}, new long[] {1}));
            outside("x: box start [2] count [-1] outside the shape [10]",
                    () -> x.read(new long[] {2}, new long[] {-1}));
            outside("x: box start [0, 0] count [1, 1] outside the shape [10]",
                    () -> x.read(new long[] {0, 0}, new long[] {1, 1}));
            outside("x: box start [0] count [1, 1] outside the shape [10]",
                    () -> x.read(new long[] {0}, new long[] {1, 1}));
            assertArrayEquals(new long[] {0, 1, 2, 3, 4, 5, 6, 7, 80, 90}, all(x));
        });
    }

    @Test
    void aReadJoinsStagedChunksTheParentsChunksAndTheFill() throws IOException {
        staged(x -> {
            // Parts of chunks 0 and 1 staged; chunk 2 still the parent's.
            x.write(new long[] {2}, new long[] {3}, new long[] {20, 30, 40});
            assertArrayEquals(new long[] {1, 20, 30, 40, 5, 6, 7, 8},
                    longs(x.read(new long[] {1}, new long[] {8})));
            x.resize(14);
            // Chunk 3 (12..13) has no slot in the parent and was never staged: the fill.
            assertArrayEquals(new long[] {0, 1, 20, 30, 40, 5, 6, 7, 8, 9, F, F, F, F}, all(x));
        });
    }

    @Test
    void eightByteArraysOnlyForEightByteTypesOfTheirKind() throws IOException {
        staged(x -> {
            assertEquals("x: a FloatType array for a dataset of " + Datatype.INT64,
                    assertThrows(IllegalArgumentException.class,
                            () -> x.write(new long[] {0}, new long[] {1}, new double[] {1})).getMessage());
            assertEquals("x: 16 bytes for 1 elements of 8", assertThrows(IllegalArgumentException.class,
                    () -> x.write(new long[] {0}, new long[] {1}, new byte[16])).getMessage());
        });
        Path path = dir.resolve("i.h5");
        try (VersionedFile vf = VersionedFile.create(path)) {
            vf.commit("v1", "", VersionedFileTest.DAY, v -> {
                StagedDataset small = v.createDataset("i", DatasetSpec.builder(Datatype.INT32, 2)
                        .chunkShape(2).build(), new byte[8]);
                assertEquals("i: a IntegerType array for a dataset of " + Datatype.INT32,
                        assertThrows(IllegalArgumentException.class, () -> small.write(new long[] {0},
                                new long[] {1}, new long[] {1})).getMessage());
            });
        }
    }

    /**
     * Cutting to 6 leaves chunk 1 with 2 of its 4 elements; growing back shows the fill past
     * them, not the old 6 and 7. Cutting onto a chunk edge (8) drops chunk 2 whole; to 0 is
     * allowed.
     */
    @Test
    void resizingThroughAndOntoChunkEdges() throws IOException {
        staged(x -> {
            x.resize(6);
            assertArrayEquals(new long[] {6}, x.shape());
            x.resize(10);
            assertArrayEquals(new long[] {0, 1, 2, 3, 4, 5, F, F, F, F}, all(x));
        });
        staged(x -> {
            x.resize(8);
            x.resize(10);
            assertArrayEquals(new long[] {0, 1, 2, 3, 4, 5, 6, 7, F, F}, all(x));
            x.resize(0);
            assertArrayEquals(new long[] {0}, x.shape());
            x.resize(3);
            assertArrayEquals(new long[] {F, F, F}, all(x));
            assertEquals("x: negative size in [-1]",
                    assertThrows(IllegalArgumentException.class, () -> x.resize(-1)).getMessage());
            assertEquals("x: shape of rank 2 for a dataset of rank 1",
                    assertThrows(IllegalArgumentException.class, () -> x.resize(3, 1)).getMessage());
        });
    }

    @Test
    void attributesAreSetListedAndDeleted() throws IOException {
        staged(x -> {
            Attribute units = Attribute.of("units", "m");
            x.setAttribute(units);
            assertEquals(Map.of("units", units), x.attributes());
            x.deleteAttribute("units");
            assertEquals(Map.of(), x.attributes());
            assertEquals("x has no attribute \"units\"",
                    assertThrows(NoSuchElementException.class, () -> x.deleteAttribute("units")).getMessage());
        });
    }
}
