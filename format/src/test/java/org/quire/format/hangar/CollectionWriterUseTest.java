package org.quire.format.hangar;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.Datatype;

/** Each way of handing the writer an array, and a checkout used after it was closed. */
class CollectionWriterUseTest {

    @TempDir
    Path dir;

    private static void refusedLength(String expected, Executable write) {
        assertEquals(expected, assertThrows(IllegalArgumentException.class, write).getMessage());
    }

    @Test
    void everyElementKindIsStoredAndReadBack() throws Exception {
        ArraySchema doubles = ArraySchema.of(Datatype.FLOAT64, 3);
        try (CollectionWriter writer = CollectionWriter.checkout(dir, doubles)) {
            assertSame(doubles, writer.schema());
            refusedLength("an array of the float64 (3,) has 3 elements, got 2",
                    () -> writer.write(new double[2]));
            assertTrue(writer.uids().isEmpty(), "a refused array makes no file");
            LocatorRecord record = writer.write(new double[] {1.5, -2, 3e300});
            assertArrayEquals(new double[] {1.5, -2, 3e300}, writer.read(record).doubles());
        }
        ArraySchema floats = ArraySchema.of(Datatype.FLOAT32, 2);
        try (CollectionWriter writer = CollectionWriter.checkout(dir, floats)) {
            refusedLength("an array of the float32 (2,) has 2 elements, got 3",
                    () -> writer.write(new float[3]));
            assertArrayEquals(new float[] {0.25f, 7},
                    writer.read(writer.write(new float[] {0.25f, 7})).floats());
        }
        ArraySchema longs = ArraySchema.of(Datatype.INT64, 2);
        try (CollectionWriter writer = CollectionWriter.checkout(dir, longs)) {
            refusedLength("an array of the int64 (2,) has 2 elements, got 1",
                    () -> writer.write(new long[1]));
            assertArrayEquals(new long[] {Long.MIN_VALUE, 5},
                    writer.read(writer.write(new long[] {Long.MIN_VALUE, 5})).longs());
        }
        ArraySchema ints = ArraySchema.of(Datatype.INT32, 2);
        try (CollectionWriter writer = CollectionWriter.checkout(dir, ints)) {
            refusedLength("an array of the int32 (2,) has 2 elements, got 0",
                    () -> writer.write(new int[0]));
            assertArrayEquals(new int[] {-1, 9}, writer.read(writer.write(new int[] {-1, 9})).ints());
        }
    }

    /** Bytes are taken as little-endian whatever the buffer's order, from its position on. */
    @Test
    void bytesAreStoredFromThePositionWithoutMovingIt() throws Exception {
        ArraySchema ints = ArraySchema.of(Datatype.INT32, 2);
        try (CollectionWriter writer = CollectionWriter.checkout(dir, ints)) {
            ByteBuffer buffer = ByteBuffer.allocate(12).order(ByteOrder.BIG_ENDIAN);
            buffer.put(new byte[] {9, 9, 9, 9, 1, 0, 0, 0, 0, 1, 0, 0}).position(4);
            LocatorRecord record = writer.write(buffer);
            assertEquals(4, buffer.position());
            assertArrayEquals(new int[] {1, 256}, writer.read(record).ints());
            refusedLength("an array of the int32 (2,) has 8 bytes, got 7",
                    () -> writer.write(buffer.position(5)));
        }
    }

    @Test
    void aClosedCheckoutRefusesEveryUseAndClosesOnce() throws Exception {
        CollectionWriter writer = CollectionWriter.checkout(dir, ArraySchema.of(Datatype.INT32, 2));
        LocatorRecord record = writer.write(new int[] {1, 2});
        writer.close();
        String closed = "the writer checkout of " + dir + " is closed";
        assertEquals(closed, assertThrows(IllegalStateException.class,
                () -> writer.write(new int[] {3, 4})).getMessage());
        assertEquals(closed, assertThrows(IllegalStateException.class, writer::flush).getMessage());
        assertEquals(closed, assertThrows(IllegalStateException.class,
                () -> writer.read(record)).getMessage());
        writer.close();
        try (RecordResolver resolver = new RecordResolver(dir, ArraySchema.of(Datatype.INT32, 2))) {
            assertArrayEquals(new int[] {1, 2}, resolver.read(record).ints());
        }
    }
}
