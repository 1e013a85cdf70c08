package org.quire.format.hangar;

import java.nio.ByteOrder;
import java.util.Arrays;
import org.quire.format.hdf5.Datatype;

/**
 * The fixed schema of a Hangar column whose arrays a {@link CollectionWriter} stores: every array
 * has this element type and exactly this shape (reference versioned-hdf5-layout.md §4.2). The
 * element types are those numpy and Hangar number by {@code dtype.num} in the collection file's
 * {@code schema_dtype_num} attribute: little-endian integers of 1 to 8 bytes and IEEE floats of
 * 4 and 8 bytes.
 *
 * @param dtype the element type
 * @param shape the extents of every array; {@code {}} for 0-d arrays (one element each)
 */
public record ArraySchema(Datatype dtype, long[] shape) {

    public ArraySchema {
        shape = shape.clone();
        numpyTypeNumber(dtype); // refuses an element type Hangar files do not hold
        if (Arrays.stream(shape).anyMatch(extent -> extent <= 0)) {
            // A 0 extent would make the chunk width 0, which HDF5 refuses (§4.4).
            throw new IllegalArgumentException("schema extents must be >= 1: "
                    + Arrays.toString(shape));
        }
        try {
            Math.multiplyExact(Arrays.stream(shape).reduce(1, Math::multiplyExact),
                    (long) dtype.size() * CollectionFileLayout.COLLECTION_SIZE);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("schema shape " + Arrays.toString(shape)
                    + " makes a collection dataset of more than 2^63 bytes");
        }
    }

    /** A schema of {@code dtype} arrays of exactly {@code shape}. */
    public static ArraySchema of(Datatype dtype, long... shape) {
        return new ArraySchema(dtype, shape);
    }

    @Override public long[] shape() {
        return shape.clone();
    }

    /**
     * The elements of one array: the width of a collection dataset's rows, where arrays are
     * stored flattened in C order (1 for a 0-d array).
     */
    public long elementCount() {
        return Arrays.stream(shape).reduce(1, Math::multiplyExact);
    }

    /** The shape as a record checks it: {@link SampleSchema#fixed}. */
    public SampleSchema sampleSchema() {
        return SampleSchema.fixed(shape);
    }

    /** numpy's {@code dtype.num} of the element type, as Hangar's {@code schema_dtype_num}. */
    public int numpyTypeNumber() {
        return numpyTypeNumber(dtype);
    }

    /**
     * numpy's type numbers on a 64-bit Linux build: int8 1, uint8 2, int16 3, uint16 4, int32 5,
     * uint32 6, int64 7 ({@code long}), uint64 8, float32 11, float64 12.
     */
    private static int numpyTypeNumber(Datatype dtype) {
        if (dtype.byteOrder() != ByteOrder.LITTLE_ENDIAN) {
            throw new IllegalArgumentException("Hangar stores little-endian numbers, not " + dtype);
        }
        if (dtype instanceof Datatype.IntegerType integer) {
            int bySize = switch (integer.size()) {
                case 1 -> 1;
                case 2 -> 3;
                case 4 -> 5;
                case 8 -> 7;
                default -> throw new IllegalArgumentException("no numpy integer of "
                        + integer.size() + " bytes: " + dtype);
            };
            return integer.signed() ? bySize : bySize + 1;
        }
        if (dtype instanceof Datatype.FloatType real) {
            return real.size() == 4 ? 11 : 12;
        }
        throw new IllegalArgumentException("a Hangar array schema holds integers or floats, not "
                + dtype);
    }

    /** As numpy names the element type and Python prints the shape: {@code float32 (20, 2, 3)}. */
    public String describe() {
        return typeName(dtype) + " " + sampleSchema().text();
    }

    /**
     * numpy's name of a little-endian number type ({@code float32}, {@code uint8}); other types
     * as {@link Datatype} prints them.
     */
    static String typeName(Datatype type) {
        if (type.byteOrder() == ByteOrder.LITTLE_ENDIAN) {
            if (type instanceof Datatype.FloatType) {
                return "float" + type.size() * 8;
            }
            if (type instanceof Datatype.IntegerType integer) {
                return (integer.signed() ? "int" : "uint") + type.size() * 8;
            }
        }
        return type.toString();
    }

    @Override public boolean equals(Object other) {
        return other instanceof ArraySchema that && dtype.equals(that.dtype)
                && Arrays.equals(shape, that.shape);
    }

    @Override public int hashCode() {
        return 31 * dtype.hashCode() + Arrays.hashCode(shape);
    }

    @Override public String toString() {
        return "schema " + describe();
    }
}
