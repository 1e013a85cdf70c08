package org.quire.format.hdf5;

import java.nio.ByteBuffer;
import java.util.Objects;

import org.quire.format.hdf5.chunk.Shapes;

/**
 * A small named value attached to a group or dataset: {@code shape} (empty for a scalar) of
 * elements of {@code type}, {@code data} holding them in row-major order in the type's encoding.
 */
public record Attribute(String name, Datatype type, long[] shape, byte[] data) {

    public Attribute {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        shape = shape.clone();
        long elements = Shapes.elementCount(shape);
        if (elements * type.size() != data.length) {
            throw new IllegalArgumentException("attribute " + name + " has " + data.length
                    + " bytes; shape and type need " + elements * type.size());
        }
        data = data.clone();
    }

    public static Attribute of(String name, String text) {
        Datatype.StringType type = Datatype.StringType.ascii(Math.max(1, text.length()));
        return new Attribute(name, type, new long[0], type.encode(text));
    }

    public static Attribute of(String name, long... values) {
        return new Attribute(name, Datatype.INT64, new long[] {values.length},
                ElementCodec.encode(Datatype.INT64, values));
    }

    public static Attribute of(String name, double... values) {
        return new Attribute(name, Datatype.FLOAT64, new long[] {values.length},
                ElementCodec.encode(Datatype.FLOAT64, values));
    }

    @Override
    public long[] shape() {
        return shape.clone();
    }

    @Override
    public byte[] data() {
        return data.clone();
    }

    /** The elements as longs; the type must be an integer type. */
    public long[] longs() {
        return ElementCodec.decodeLongs(type, ByteBuffer.wrap(data), data.length / type.size());
    }

    /** The elements as doubles; the type must be a number type. */
    public double[] doubles() {
        return ElementCodec.decodeDoubles(type, ByteBuffer.wrap(data), data.length / type.size());
    }

    /** The first element as text; the type must be a string type. */
    public String string() {
        if (!(type instanceof Datatype.StringType string)) {
            throw new IllegalStateException("attribute " + name + " is not a string: " + type);
        }
        return string.decode(data, 0);
    }
}
