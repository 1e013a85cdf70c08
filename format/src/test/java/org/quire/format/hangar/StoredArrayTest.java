package org.quire.format.hangar;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;
import org.quire.format.hdf5.Datatype;

/** An array as a record resolves to, and the identity of records. */
class StoredArrayTest {

    private static final LocatorRecord RECORD = new LocatorRecord("AbC123", 2, 7, 2, 2);

    private static byte[] longBytes(long... values) {
        ByteBuffer out = ByteBuffer.allocate(values.length * Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        out.asLongBuffer().put(values);
        return out.array();
    }

    @Test
    void theElementsReadAsTheirOwnTypeOnly() {
        StoredArray array = new StoredArray(RECORD, Datatype.INT64, longBytes(1, -2, 3L << 40, 4));
        assertArrayEquals(new long[] {1, -2, 3L << 40, 4}, array.longs());
        assertArrayEquals(new long[] {2, 2}, array.shape());
        IllegalStateException wrong = assertThrows(IllegalStateException.class, array::doubles);
        assertEquals("the array holds " + Datatype.INT64 + ", not " + Datatype.FLOAT64, wrong.getMessage());
        // Same class, other size.
        assertThrows(IllegalStateException.class, array::ints);
        assertEquals("array [2, 2] " + Datatype.INT64 + " at 00:AbC123$2 7*2 2", array.toString());
    }

    @Test
    void arraysAreEqualByRecordTypeAndBytes() {
        byte[] bytes = longBytes(1, 2, 3, 4);
        StoredArray array = new StoredArray(RECORD, Datatype.INT64, bytes);
        bytes[0] = 9; // a copy was kept
        StoredArray same = new StoredArray(new LocatorRecord("AbC123", 2, 7, 2, 2), Datatype.INT64,
                longBytes(1, 2, 3, 4));
        assertEquals(same, array);
        assertEquals(same.hashCode(), array.hashCode());
        assertNotEquals(new StoredArray(RECORD, Datatype.INT64, longBytes(1, 2, 3, 5)), array);
        assertNotEquals(new StoredArray(RECORD, Datatype.UINT64, longBytes(1, 2, 3, 4)), array);
        StoredArray elsewhere = new StoredArray(new LocatorRecord("AbC123", 2, 8, 2, 2),
                Datatype.INT64, longBytes(1, 2, 3, 4));
        assertNotEquals(elsewhere, array);
        assertNotEquals(elsewhere.hashCode(), array.hashCode());
        assertNotEquals(array, RECORD);
    }

    @Test
    void recordsAreEqualByEveryField() {
        String sum = "0123456789abcdef";
        LocatorRecord withSum = new LocatorRecord("AbC123", sum, 2, 7, new long[] {2, 2});
        assertEquals(new LocatorRecord("AbC123", sum, 2, 7, new long[] {2, 2}), withSum);
        assertEquals(new LocatorRecord("AbC123", sum, 2, 7, new long[] {2, 2}).hashCode(), withSum.hashCode());
        assertNotEquals(RECORD, withSum);
        assertNotEquals(RECORD.hashCode(), withSum.hashCode());
        assertNotEquals(new LocatorRecord("AbC124", 2, 7, 2, 2), RECORD);
        assertNotEquals(new LocatorRecord("AbC123", 3, 7, 2, 2), RECORD);
        assertNotEquals(new LocatorRecord("AbC123", 2, 7, 2, 3), RECORD);
        assertNotEquals(RECORD, "00:AbC123$2 7*2 2");
        assertEquals("00:AbC123$2 7*2 2", RECORD.toString());
        assertEquals("00:AbC123$2 7*2 2 (xxh64 " + sum + ")", withSum.toString());
    }
}
