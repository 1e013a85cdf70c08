package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The selection checks of {@link Dataset}'s reads and writes at their limits, with the messages a
 * caller sees; reads and writes through byte buffers at a position other than 0, heap and
 * direct; and the accessors that refuse a dataset of the wrong layout or type.
 */
class DatasetSelectionMutationGapsTest {

    @TempDir
    Path dir;

    private static DatasetSpec longs(long rows, long columns) {
        return DatasetSpec.builder(Datatype.INT64, rows, columns).chunkShape(2, 2).build();
    }

    @Test
    void selectionsAreCheckedAgainstTheRankTheShapeAndTheArraySize() throws IOException {
        Path path = dir.resolve("checks.h5");
        try (Hdf5File file = Hdf5File.create(path)) {
            Dataset d = file.root().createDataset("d", longs(3, 4));
            assertEquals("selection rank 1/2, dataset rank 2", assertThrows(
                    IllegalArgumentException.class, () -> d.read(new long[] {0},
                            new long[] {1, 1})).getMessage());
            assertEquals("selection rank 2/1, dataset rank 2", assertThrows(
                    IllegalArgumentException.class, () -> d.read(new long[] {0, 0},
                            new long[] {1})).getMessage());
            assertEquals("selection start [1, 0] count [3, 1] outside shape [3, 4]",
                    assertThrows(IndexOutOfBoundsException.class, () -> d.readLongs(
                            new long[] {1, 0}, new long[] {3, 1})).getMessage());
            assertEquals("selection start [0, 0] count [1, -1] outside shape [3, 4]",
                    assertThrows(IndexOutOfBoundsException.class, () -> d.readLongs(
                            new long[] {0, 0}, new long[] {1, -1})).getMessage());
            assertEquals("selection start [0, -1] count [1, 1] outside shape [3, 4]",
                    assertThrows(IndexOutOfBoundsException.class, () -> d.readLongs(
                            new long[] {0, -1}, new long[] {1, 1})).getMessage());
            assertEquals("selection of 2 elements, array of 3", assertThrows(
                    IllegalArgumentException.class, () -> d.read(new long[] {0, 0},
                            new long[] {1, 2}, new long[3])).getMessage());
            assertEquals("selection of 2 elements, array of 1", assertThrows(
                    IllegalArgumentException.class, () -> d.write(new long[] {0, 0},
                            new long[] {1, 2}, new long[1])).getMessage());
            assertEquals("selection of 2 elements needs 16 bytes, got 15", assertThrows(
                    IllegalArgumentException.class, () -> d.read(new long[] {0, 0},
                            new long[] {1, 2}, ByteBuffer.allocate(15))).getMessage());
            assertEquals("selection of 2 elements needs 16 bytes, got 17", assertThrows(
                    IllegalArgumentException.class, () -> d.write(new long[] {0, 0},
                            new long[] {1, 2}, ByteBuffer.allocate(17))).getMessage());
            assertEquals("cannot read into a read-only buffer", assertThrows(
                    IllegalArgumentException.class, () -> d.read(new long[] {0, 0},
                            new long[] {1, 2}, ByteBuffer.allocate(16).asReadOnlyBuffer()))
                    .getMessage());
            // The last element and an empty selection at the end are inside.
            d.write(new long[] {2, 3}, new long[] {1, 1}, new long[] {23});
            assertArrayEquals(new long[] {23}, d.readLongs(new long[] {2, 3}, new long[] {1, 1}));
            assertArrayEquals(new long[0], d.readLongs(new long[] {3, 4}, new long[] {0, 0}));
        }
    }

    @Test
    void aSelectionLargerThanAJavaArrayIsRefusedBeforeAnythingIsAllocated() throws IOException {
        long limit = Integer.MAX_VALUE - 64;
        try (Hdf5File file = Hdf5File.create(dir.resolve("large.h5"))) {
            Dataset bytes = file.root().createDataset("b", DatasetSpec.builder(Datatype.INT8,
                    1L << 32).chunkShape(1 << 20).build());
            assertEquals("selection of " + (limit + 1) + " elements does not fit in one Java "
                    + "array; read it in parts", assertThrows(IllegalArgumentException.class,
                    () -> bytes.readBytes(new long[] {0}, new long[] {limit + 1})).getMessage());
            // At the limit the selection passes; the array given is then compared with it.
            assertEquals("selection of " + limit + " elements, array of 1", assertThrows(
                    IllegalArgumentException.class, () -> bytes.read(new long[] {0},
                            new long[] {limit}, new byte[1])).getMessage());
            Dataset longs = file.root().createDataset("l", DatasetSpec.builder(Datatype.INT64,
                    1L << 30).chunkShape(1 << 16).build());
            assertEquals("selection of " + (limit / 8 + 1) + " elements does not fit in one "
                    + "Java array; read it in parts", assertThrows(
                    IllegalArgumentException.class, () -> longs.read(new long[] {0},
                            new long[] {limit / 8 + 1}, new long[1])).getMessage());
        }
    }

    @Test
    void buffersAreReadAndWrittenFromTheirPositionInTheTypesByteOrder() throws IOException {
        Datatype bigEndian = new Datatype.IntegerType(4, true, ByteOrder.BIG_ENDIAN);
        Path path = dir.resolve("buffers.h5");
        try (Hdf5File file = Hdf5File.create(path)) {
            Dataset d = file.root().createDataset("d", DatasetSpec.builder(bigEndian, 6)
                    .chunkShape(4).build());
            for (ByteBuffer source : new ByteBuffer[] {ByteBuffer.allocate(16),
                    ByteBuffer.allocateDirect(16)}) {
                source.putInt(0x7f7f7f7f).putInt(1).putInt(-2).putInt(3).position(4);
                d.write(new long[] {1}, new long[] {3}, source);
                assertEquals(4, source.position());
            }
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            Dataset d = file.root().dataset("d");
            assertArrayEquals(new int[] {0, 1, -2, 3, 0, 0}, d.readInts(new long[] {0},
                    new long[] {6}));
            ByteBuffer whole = d.read(new long[] {1}, new long[] {2});
            assertEquals(ByteOrder.BIG_ENDIAN, whole.order());
            assertEquals(-2, whole.getInt(4));
            for (ByteBuffer target : new ByteBuffer[] {ByteBuffer.allocate(12),
                    ByteBuffer.allocateDirect(12)}) {
                target.putInt(0, 0x55555555).position(4);
                d.read(new long[] {2}, new long[] {2}, target);
                assertEquals(4, target.position());
                assertEquals(0x55555555, target.getInt(0));
                assertEquals(-2, target.order(ByteOrder.BIG_ENDIAN).getInt(4));
                assertEquals(3, target.getInt(8));
            }
        }
    }

    @Test
    void accessorsNameTheLayoutOrTypeThatRefusesThem() throws IOException {
        Path path = dir.resolve("kinds.h5");
        Datatype.StringType fixed = Datatype.StringType.ascii(4);
        try (Hdf5File file = Hdf5File.create(path)) {
            Group root = file.root();
            root.createDataset("c", Datatype.FLOAT64, new long[] {2},
                    ElementCodec.encode(Datatype.FLOAT64, new double[] {1.5, -2.5}));
            byte[] texts = new byte[8];
            System.arraycopy("ab".getBytes(StandardCharsets.US_ASCII), 0, texts, 0, 2);
            System.arraycopy("wxyz".getBytes(StandardCharsets.US_ASCII), 0, texts, 4, 4);
            root.createDataset("fixed", fixed, new long[] {2}, texts);
            root.createDataset("i16", Datatype.INT16, new long[] {2},
                    ElementCodec.encode(Datatype.INT16, new short[] {-3, 300}));
            Dataset d = root.createDataset("d", longs(4, 4));
            assertFalse(d.isChunkWritten(3, 3));
            d.write(new long[] {2, 2}, new long[] {1, 1}, new long[] {5});
            assertEquals(ChunkIndexType.FIXED_ARRAY, d.chunkIndexType());
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            Group root = file.root();
            Dataset c = root.dataset("c");
            assertEquals(path + ": /c is contiguous, not chunked", assertThrows(
                    IllegalStateException.class, c::chunkShape).getMessage());
            assertEquals(path + ": /c is contiguous, not virtual", assertThrows(
                    IllegalStateException.class, c::virtualMappings).getMessage());
            assertEquals("/c holds " + Datatype.FLOAT64 + ", not strings", assertThrows(
                    IllegalStateException.class, () -> c.readStrings(new long[] {0},
                            new long[] {2})).getMessage());
            assertThrows(IllegalArgumentException.class,
                    () -> c.readIntegers(new long[] {0}, new long[] {2}));
            assertEquals(List.of("ab", "wxyz"), root.dataset("fixed").readStrings(new long[] {0},
                    new long[] {2}));
            assertArrayEquals(new long[] {-3, 300}, root.dataset("i16").readIntegers(
                    new long[] {0}, new long[] {2}));
            Dataset d = root.dataset("d");
            assertEquals(path + ": /d is chunked, not virtual", assertThrows(
                    IllegalStateException.class, d::virtualMappings).getMessage());
            assertArrayEquals(new long[] {2, 2}, d.chunkShape());
            assertTrue(d.isChunkWritten(3, 3));
            assertFalse(d.isChunkWritten(0, 3));
            assertEquals("selection start [4, 0] count [1, 1] outside shape [4, 4]",
                    assertThrows(IndexOutOfBoundsException.class, () -> d.isChunkWritten(4, 0))
                            .getMessage());
        }
    }
}
