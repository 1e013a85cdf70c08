package org.quire.format.hangar;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.quire.format.hdf5.Datatype;

/**
 * An array resolved from its record: the first {@code prod(shape)} elements of the record's row,
 * in C order, as stored (little-endian).
 *
 * @param record   where it was stored
 * @param dtype    its element type, the schema's
 * @param elements its elements' bytes (a copy is kept and handed out)
 */
public record StoredArray(LocatorRecord record, Datatype dtype, byte[] elements) {

    public StoredArray {
        elements = elements.clone();
    }

    /** The array's shape, the record's. */
    public long[] shape() {
        return record.shape();
    }

    @Override public byte[] elements() {
        return elements.clone();
    }

    public double[] doubles() {
        double[] out = new double[count(Datatype.FLOAT64)];
        buffer().asDoubleBuffer().get(out);
        return out;
    }

    public float[] floats() {
        float[] out = new float[count(Datatype.FLOAT32)];
        buffer().asFloatBuffer().get(out);
        return out;
    }

    /** The elements of a 64-bit integer array. */
    public long[] longs() {
        long[] out = new long[count(Datatype.INT64)];
        buffer().asLongBuffer().get(out);
        return out;
    }

    /** The elements of a 32-bit integer array. */
    public int[] ints() {
        int[] out = new int[count(Datatype.INT32)];
        buffer().asIntBuffer().get(out);
        return out;
    }

    private ByteBuffer buffer() {
        return ByteBuffer.wrap(elements).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** The element count, after checking the dtype is of {@code kind}'s class and size. */
    private int count(Datatype kind) {
        if (dtype.getClass() != kind.getClass() || dtype.size() != kind.size()) {
            throw new IllegalStateException("the array holds " + dtype + ", not " + kind);
        }
        return elements.length / dtype.size();
    }

    @Override public boolean equals(Object other) {
        return other instanceof StoredArray that && record.equals(that.record)
                && dtype.equals(that.dtype) && Arrays.equals(elements, that.elements);
    }

    @Override public int hashCode() {
        return 31 * record.hashCode() + Arrays.hashCode(elements);
    }

    @Override public String toString() {
        return "array " + Arrays.toString(record.shape()) + " " + dtype + " at " + record.format();
    }
}
