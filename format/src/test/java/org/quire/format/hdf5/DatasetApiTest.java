package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.util.List;
import java.util.NoSuchElementException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatasetApiTest {

    @TempDir
    Path dir;

    @Test
    void typedArraysRoundTripInEveryWidthAndByteOrder() throws IOException {
        Path path = dir.resolve("typed.h5");
        ByteOrder be = ByteOrder.BIG_ENDIAN;
        long[] start = {1};
        long[] count = {3};
        try (Hdf5File file = Hdf5File.create(path)) {
            Group root = file.root();
            root.createDataset("b", spec(Datatype.INT8)).write(start, count, new byte[] {-1, 2, 3});
            root.createDataset("s", spec(Datatype.INT16.withByteOrder(be)))
                    .write(start, count, new short[] {-300, 2, 3});
            root.createDataset("i", spec(Datatype.UINT32)).write(start, count, new int[] {-1, 2, 3});
            root.createDataset("l", spec(Datatype.INT64.withByteOrder(be)))
                    .write(start, count, new long[] {Long.MIN_VALUE, 2, 3});
            root.createDataset("f", spec(Datatype.FLOAT32)).write(start, count,
                    new float[] {1.5f, -2, 3});
            root.createDataset("d", spec(Datatype.FLOAT64.withByteOrder(be))).write(start, count,
                    new double[] {Math.PI, -2, 3});
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            Group root = file.root();
            long[] all = {0};
            long[] five = {5};
            assertArrayEquals(new byte[] {0, -1, 2, 3, 0}, root.dataset("b").readBytes(all, five));
            assertArrayEquals(new short[] {0, -300, 2, 3, 0}, root.dataset("s").readShorts(all, five));
            assertArrayEquals(new int[] {0, -1, 2, 3, 0}, root.dataset("i").readInts(all, five));
            assertArrayEquals(new long[] {0, Long.MIN_VALUE, 2, 3, 0},
                    root.dataset("l").readLongs(all, five));
            assertArrayEquals(new float[] {0, 1.5f, -2, 3, 0}, root.dataset("f").readFloats(all, five));
            assertArrayEquals(new double[] {0, Math.PI, -2, 3, 0},
                    root.dataset("d").readDoubles(all, five));
            ByteBuffer raw = root.dataset("l").read(start, new long[] {1});
            assertEquals(be, raw.order());
            assertEquals(Long.MIN_VALUE, raw.getLong(0));
        }
    }

    private static DatasetSpec spec(Datatype type) {
        return DatasetSpec.builder(type, 5).chunkShape(2).build();
    }

    @Test
    void aFileBeingWrittenReadsItsOwnChunksAndFillValues() throws IOException {
        try (Hdf5File file = Hdf5File.create(dir.resolve("live.h5"))) {
            Dataset d = file.root().createDataset("t", DatasetSpec.builder(Datatype.INT32, 0, 3)
                    .maxShape(DatasetSpec.UNLIMITED, 3).chunkShape(2, 2).fillValue(-9).build());
            d.extend(5, 3);
            d.write(new long[] {1, 1}, new long[] {2, 2}, new int[] {1, 2, 3, 4});
            assertArrayEquals(new int[] {-9, -9, -9, -9, 1, 2, -9, 3, 4, -9, -9, -9, -9, -9, -9},
                    d.readInts(new long[] {0, 0}, new long[] {5, 3}));
            d.write(new long[] {4, 0}, new long[] {1, 3}, new int[] {7, 8, 9});
            assertArrayEquals(new int[] {3, 4, -9, -9, 8, 9},
                    concat(d.readInts(new long[] {2, 1}, new long[] {1, 2}),
                            d.readInts(new long[] {3, 1}, new long[] {2, 2})),
                    "rows 2-4 seen through two selections crossing chunk boundaries");
        }
    }

    /**
     * A new chunk written in part is the last thing in the file, and no flush has extended the
     * file to the end of its allocation yet: the rest of the chunk still reads as zeros (the
     * store's trailing zero byte makes the file cover it; without it the read ends past the end
     * of the file, a corrupt-file error).
     */
    @Test
    void theUnwrittenRestOfAChunkWrittenInPartReadsAsZerosBeforeAnyFlush() throws IOException {
        try (Hdf5File file = Hdf5File.create(dir.resolve("part.h5"))) {
            Dataset d = file.root().createDataset("t", DatasetSpec.builder(Datatype.INT64, 0)
                    .maxShape(DatasetSpec.UNLIMITED).chunkShape(1024).build());
            d.extend(1024);
            d.write(new long[] {0}, new long[] {3}, new long[] {5, 6, 7});
            long[] expected = new long[1024];
            expected[0] = 5;
            expected[1] = 6;
            expected[2] = 7;
            assertArrayEquals(expected, d.readIntegers(new long[] {0}, new long[] {1024}));
        }
    }

    private static int[] concat(int[] a, int[] b) {
        int[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Test
    void extendRefusesToShrinkOrPassTheMaximum() throws IOException {
        try (Hdf5File file = Hdf5File.create(dir.resolve("extend.h5"))) {
            Dataset d = file.root().createDataset("t", DatasetSpec.builder(Datatype.INT32, 4)
                    .maxShape(10).chunkShape(2).build());
            assertThrows(IllegalArgumentException.class, () -> d.extend(3));
            assertThrows(IllegalArgumentException.class, () -> d.extend(11));
            d.extend(10);
            assertArrayEquals(new long[] {10}, d.shape());
        }
    }

    @Test
    void selectionsOutsideTheShapeAndMismatchedArraysAreRefused() throws IOException {
        try (Hdf5File file = Hdf5File.create(dir.resolve("bounds.h5"))) {
            Dataset d = file.root().createDataset("t", spec(Datatype.INT32));
            assertThrows(IndexOutOfBoundsException.class,
                    () -> d.write(new long[] {4}, new long[] {2}, new int[2]));
            assertThrows(IndexOutOfBoundsException.class,
                    () -> d.read(new long[] {-1}, new long[] {1}));
            assertThrows(IllegalArgumentException.class,
                    () -> d.write(new long[] {0}, new long[] {2}, new long[2]));
            assertThrows(IllegalArgumentException.class,
                    () -> d.write(new long[] {0}, new long[] {2}, new int[3]));
            assertThrows(IllegalArgumentException.class,
                    () -> d.readDoubles(new long[] {0}, new long[] {2}));
            assertEquals(0, d.read(new long[] {5}, new long[] {0}).remaining());
        }
    }

    @Test
    void specsThatCannotBeStoredAreRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> DatasetSpec.builder(Datatype.INT32, 4, 4).chunkShape(2).build());
        assertThrows(IllegalArgumentException.class,
                () -> DatasetSpec.builder(Datatype.INT32, 4).maxShape(3).build());
        assertThrows(IllegalArgumentException.class,
                () -> DatasetSpec.builder(Datatype.INT32, 4).chunkShape(0).build());
        assertThrows(IllegalArgumentException.class, () -> DatasetSpec.builder(Datatype.INT8,
                1L << 62, 1L << 62).chunkShape(1, 1).build());
        assertThrows(IllegalArgumentException.class, () -> DatasetSpec.builder(Datatype.INT64,
                1 << 20, 1 << 20).chunkShape(1 << 20, 1 << 20).build());
    }

    @Test
    void namesAreUniqueAndMembersTyped() throws IOException {
        Path path = dir.resolve("names.h5");
        assertThrows(FileAlreadyExistsException.class, () -> {
            Hdf5File.create(path).close();
            Hdf5File.create(path);
        });
        try (Hdf5File file = Hdf5File.open(path)) {
            assertThrows(IllegalStateException.class, () -> file.root().createGroup("g"));
            assertThrows(NoSuchElementException.class, () -> file.root().get("missing"));
        }
        Path other = dir.resolve("members.h5");
        try (Hdf5File file = Hdf5File.create(other)) {
            Group g = file.root().createGroup("g");
            g.createDataset("d", spec(Datatype.INT8));
            assertThrows(IllegalArgumentException.class, () -> g.createGroup("d"));
            assertThrows(IllegalArgumentException.class, () -> g.group("d"));
            assertThrows(IllegalArgumentException.class, () -> file.root().dataset("g"));
            assertThrows(IllegalArgumentException.class, () -> g.createGroup("a/b"));
            g.setAttribute(Attribute.of("n", 1L));
            assertThrows(IllegalArgumentException.class, () -> g.setAttribute(Attribute.of("n", 2L)));
        }
        try (Hdf5File file = Hdf5File.open(other)) {
            Group g = file.root().group("g");
            assertEquals(List.of("d"), g.memberNames());
            assertArrayEquals(new long[] {1}, g.attribute("n").longs());
            assertNull(g.dataset("d").fillValue());
        }
    }
}
