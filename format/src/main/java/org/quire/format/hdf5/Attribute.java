package org.quire.format.hdf5;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.quire.format.hdf5.chunk.Shapes;

/**
 * A small named value attached to a group or dataset: {@code shape} (empty for a scalar) of
 * elements of {@code type}. For a variable-length string type the elements are
 * {@code strings} (the bytes of each, as stored) and {@code data} is empty; for every other
 * type {@code data} holds them in row-major order in the type's encoding and {@code strings}
 * is empty.
 */
public record Attribute(String name, Datatype type, long[] shape, byte[] data,
                        List<byte[]> strings) {

    public Attribute {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        shape = shape.clone();
        long elements = Shapes.elementCount(shape);
        if (type instanceof Datatype.VariableLengthStringType) {
            if (strings.size() != elements || data.length != 0) {
                throw new IllegalArgumentException("attribute " + name + " has "
                        + strings.size() + " strings; its shape holds " + elements);
            }
        } else if (elements * type.size() != data.length || !strings.isEmpty()) {
            throw new IllegalArgumentException("attribute " + name + " has " + data.length
                    + " bytes; shape and type need " + elements * type.size());
        }
        data = data.clone();
        List<byte[]> copies = new ArrayList<>();
        for (byte[] string : strings) {
            copies.add(string.clone());
        }
        strings = List.copyOf(copies);
    }

    /** An attribute of a type other than a variable-length string. */
    public Attribute(String name, Datatype type, long[] shape, byte[] data) {
        this(name, type, shape, data, List.of());
    }

    /** An attribute of variable-length strings, each given by its bytes. */
    public static Attribute ofStrings(String name, Datatype type, long[] shape,
                                      List<byte[]> strings) {
        return new Attribute(name, type, shape, new byte[0], strings);
    }

    /**
     * A text attribute the way h5py writes a Python {@code str}: a scalar variable-length
     * UTF-8 string.
     */
    public static Attribute of(String name, String text) {
        return ofStrings(name, Datatype.VariableLengthStringType.UTF8, new long[0],
                List.of(text.getBytes(StandardCharsets.UTF_8)));
    }

    /** Booleans the way h5py writes numpy's {@code bool}: {@link Datatype.EnumType#BOOLEAN}. */
    public static Attribute of(String name, boolean... values) {
        byte[] data = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            data[i] = (byte) (values[i] ? 1 : 0);
        }
        return new Attribute(name, Datatype.EnumType.BOOLEAN, new long[] {values.length}, data);
    }

    public static Attribute of(String name, long... values) {
        return new Attribute(name, Datatype.INT64, new long[] {values.length},
                ElementCodec.encode(Datatype.INT64, values));
    }

    public static Attribute of(String name, double... values) {
        return new Attribute(name, Datatype.FLOAT64, new long[] {values.length},
                ElementCodec.encode(Datatype.FLOAT64, values));
    }

    /** A scalar (shape {@code []}) attribute of {@code type} holding {@code value}. */
    public static Attribute scalar(String name, Datatype type, long value) {
        return new Attribute(name, type, new long[0], ElementCodec.encodeOne(type, value));
    }

    /** A scalar (shape {@code []}) attribute of {@code type} holding {@code value}. */
    public static Attribute scalar(String name, Datatype type, double value) {
        return new Attribute(name, type, new long[0], ElementCodec.encodeOne(type, value));
    }

    @Override
    public long[] shape() {
        return shape.clone();
    }

    @Override
    public byte[] data() {
        return data.clone();
    }

    /** Number of elements (1 for a scalar). */
    public long elementCount() {
        return Shapes.elementCount(shape);
    }

    /** The elements as longs; the type must be an integer or enumeration type. */
    public long[] longs() {
        return ElementCodec.decodeLongs(type, ByteBuffer.wrap(data), data.length / type.size());
    }

    /** The elements as doubles; the type must be a number type. */
    public double[] doubles() {
        return ElementCodec.decodeDoubles(type, ByteBuffer.wrap(data), data.length / type.size());
    }

    /**
     * The bytes of each element of a fixed-length (padding removed, as h5py returns them) or
     * variable-length string type.
     */
    public List<byte[]> stringBytes() {
        if (type instanceof Datatype.VariableLengthStringType) {
            return strings();
        }
        if (!(type instanceof Datatype.StringType string)) {
            throw new IllegalStateException("attribute " + name + " is not a string: " + type);
        }
        List<byte[]> out = new ArrayList<>();
        for (int offset = 0; offset < data.length; offset += string.size()) {
            out.add(string.decodeBytes(data, offset));
        }
        return out;
    }

    @Override
    public List<byte[]> strings() {
        List<byte[]> copies = new ArrayList<>();
        for (byte[] string : strings) {
            copies.add(string.clone());
        }
        return copies;
    }

    /** The first element as text; the type must be a string type. */
    public String string() {
        List<byte[]> texts = stringBytes();
        if (texts.isEmpty()) {
            throw new IllegalStateException("attribute " + name + " holds no element");
        }
        return Strings.decode(type, texts.get(0));
    }
}
