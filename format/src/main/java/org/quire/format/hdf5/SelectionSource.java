package org.quire.format.hdf5;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Where a write takes a selection's elements from: the caller's byte buffer or typed array,
 * addressed by element index in the selection's row-major order. Elements are encoded by one
 * bulk copy into the bytes to be stored, in the datatype's byte order; a direct byte buffer
 * offers its own memory ({@link #window}) so that it can be written to the file as it is.
 */
final class SelectionSource {

    /** Fills the remaining bytes of {@code into}, without moving its position, from element {@code element} on. */
    @FunctionalInterface
    private interface Encoder {
        void encode(int element, ByteBuffer into);
    }

    private final int elementSize;
    private final ByteOrder order;
    private final Encoder encoder;
    /** The caller's buffer and its position when the write began, or null for an array. */
    private final ByteBuffer buffer;
    private final int base;

    private SelectionSource(Datatype type, Encoder encoder, ByteBuffer buffer) {
        this.elementSize = type.size();
        this.order = type.byteOrder();
        this.encoder = encoder;
        this.buffer = buffer;
        this.base = buffer == null ? 0 : buffer.position();
    }

    /** The bytes from {@code buffer}'s position on, holding elements in {@code type}'s byte order. */
    static SelectionSource of(ByteBuffer buffer, Datatype type) {
        return new SelectionSource(type, null, buffer);
    }

    static SelectionSource of(byte[] values, Datatype type) {
        ElementCodec.requireMatch(type, values);
        return new SelectionSource(type, (at, into) -> into.put(into.position(), values, at,
                into.remaining()), null);
    }

    static SelectionSource of(short[] values, Datatype type) {
        ElementCodec.requireMatch(type, values);
        return new SelectionSource(type, (at, into) -> into.asShortBuffer().put(values, at,
                into.remaining() / Short.BYTES), null);
    }

    static SelectionSource of(int[] values, Datatype type) {
        ElementCodec.requireMatch(type, values);
        return new SelectionSource(type, (at, into) -> into.asIntBuffer().put(values, at,
                into.remaining() / Integer.BYTES), null);
    }

    static SelectionSource of(long[] values, Datatype type) {
        ElementCodec.requireMatch(type, values);
        return new SelectionSource(type, (at, into) -> into.asLongBuffer().put(values, at,
                into.remaining() / Long.BYTES), null);
    }

    static SelectionSource of(float[] values, Datatype type) {
        ElementCodec.requireMatch(type, values);
        return new SelectionSource(type, (at, into) -> into.asFloatBuffer().put(values, at,
                into.remaining() / Float.BYTES), null);
    }

    static SelectionSource of(double[] values, Datatype type) {
        ElementCodec.requireMatch(type, values);
        return new SelectionSource(type, (at, into) -> into.asDoubleBuffer().put(values, at,
                into.remaining() / Double.BYTES), null);
    }

    /**
     * The caller's bytes of {@code count} elements from {@code element}, to be written as they
     * are; null when the source is an array or a heap buffer, whose elements are copied into a
     * direct buffer first (as the JDK would, but into the file's one reusable buffer).
     */
    ByteBuffer window(long element, int count) {
        return buffer == null || !buffer.isDirect() ? null
                : buffer.slice(base + (int) element * elementSize, count * elementSize);
    }

    /** Fills the remaining bytes of {@code into} with the elements from {@code element} on. */
    void get(long element, ByteBuffer into) {
        if (buffer != null) {
            into.put(into.position(), buffer, base + (int) element * elementSize,
                    into.remaining());
        } else {
            encoder.encode((int) element, into.order(order));
        }
    }
}
