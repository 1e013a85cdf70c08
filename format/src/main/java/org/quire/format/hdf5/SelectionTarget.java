package org.quire.format.hdf5;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Where a read puts a selection's elements: the caller's byte buffer or typed array, addressed
 * by element index in the selection's row-major order. Elements arrive as runs of bytes in the
 * datatype's byte order and are decoded by one bulk copy straight into the caller's memory; a
 * direct byte buffer has the file's bytes read straight into it ({@link #read}).
 */
final class SelectionTarget {

    /** Decodes the remaining bytes of {@code bytes}, without moving its position, to element {@code element} onward. */
    @FunctionalInterface
    private interface Decoder {
        void decode(ByteBuffer bytes, int element);
    }

    /** Reads the stored bytes of a run's elements, {@code offset} elements into the run, into the remaining bytes of {@code into}. */
    @FunctionalInterface
    interface RunReader {
        void read(long offset, ByteBuffer into) throws IOException;
    }

    /** Largest run of fill values decoded at once. */
    private static final int FILL_RUN_BYTES = 8192;

    private final int elementSize;
    private final ByteOrder order;
    private final Decoder decoder;
    /** The caller's buffer and its position when the read began, or null for an array. */
    private final ByteBuffer buffer;
    private final int base;
    /** Whether the memory holds only zeros (allocated for this read): a zero fill is skipped. */
    private final boolean zeroed;

    private SelectionTarget(Datatype type, Decoder decoder, ByteBuffer buffer) {
        this(type.size(), type.byteOrder(), decoder, buffer,
                buffer == null ? 0 : buffer.position(), false);
    }

    private SelectionTarget(int elementSize, ByteOrder order, Decoder decoder, ByteBuffer buffer,
                            int base, boolean zeroed) {
        this.elementSize = elementSize;
        this.order = order;
        this.decoder = decoder;
        this.buffer = buffer;
        this.base = base;
        this.zeroed = zeroed;
    }

    /**
     * The same memory, known to hold only zeros (a buffer or array the read allocated): elements
     * of a zero fill value are then not written at all, so they cost no pass over the bytes.
     */
    SelectionTarget allocatedZeroed() {
        return new SelectionTarget(elementSize, order, decoder, buffer, base, true);
    }

    /**
     * The same memory from element {@code element} on: a part of a read (a virtual dataset's
     * mapping) lands there without a copy through a buffer of its own.
     */
    SelectionTarget from(long element) {
        if (buffer != null) {
            return new SelectionTarget(elementSize, order, null, buffer,
                    base + (int) element * elementSize, zeroed);
        }
        int offset = (int) element;
        return new SelectionTarget(elementSize, order,
                (bytes, at) -> decoder.decode(bytes, offset + at), null, 0, zeroed);
    }

    /**
     * The bytes from {@code buffer}'s position on, which receive the elements in {@code type}'s
     * byte order (the buffer's own order is left alone).
     */
    static SelectionTarget of(ByteBuffer buffer, Datatype type) {
        if (buffer.isReadOnly()) {
            throw new IllegalArgumentException("cannot read into a read-only buffer");
        }
        return new SelectionTarget(type, null, buffer);
    }

    static SelectionTarget of(byte[] values, Datatype type) {
        ElementCodec.requireMatch(type, values);
        return new SelectionTarget(type, (bytes, at) -> bytes.get(bytes.position(), values, at,
                bytes.remaining()), null);
    }

    static SelectionTarget of(short[] values, Datatype type) {
        ElementCodec.requireMatch(type, values);
        return new SelectionTarget(type, (bytes, at) -> bytes.asShortBuffer().get(values, at,
                bytes.remaining() / Short.BYTES), null);
    }

    static SelectionTarget of(int[] values, Datatype type) {
        ElementCodec.requireMatch(type, values);
        return new SelectionTarget(type, (bytes, at) -> bytes.asIntBuffer().get(values, at,
                bytes.remaining() / Integer.BYTES), null);
    }

    static SelectionTarget of(long[] values, Datatype type) {
        ElementCodec.requireMatch(type, values);
        return new SelectionTarget(type, (bytes, at) -> bytes.asLongBuffer().get(values, at,
                bytes.remaining() / Long.BYTES), null);
    }

    static SelectionTarget of(float[] values, Datatype type) {
        ElementCodec.requireMatch(type, values);
        return new SelectionTarget(type, (bytes, at) -> bytes.asFloatBuffer().get(values, at,
                bytes.remaining() / Float.BYTES), null);
    }

    static SelectionTarget of(double[] values, Datatype type) {
        ElementCodec.requireMatch(type, values);
        return new SelectionTarget(type, (bytes, at) -> bytes.asDoubleBuffer().get(values, at,
                bytes.remaining() / Double.BYTES), null);
    }

    /**
     * Stores {@code count} elements from {@code element} on, their bytes read by {@code reader}:
     * straight into the caller's buffer if it is direct, otherwise in pieces through
     * {@code transfer}, each decoded (or, into a heap buffer, copied) into the caller's memory,
     * so that no temporary buffer grows with the run.
     */
    void read(long element, long count, TransferBuffer transfer, RunReader reader)
            throws IOException {
        if (buffer != null && buffer.isDirect()) {
            reader.read(0, buffer.slice(base + (int) element * elementSize,
                    (int) count * elementSize));
            return;
        }
        int pieceElements = Math.max(1, TransferBuffer.READ_PIECE_BYTES / elementSize);
        for (long done = 0; done < count; done += pieceElements) {
            int piece = (int) Math.min(pieceElements, count - done);
            ByteBuffer bytes = transfer.get(piece * elementSize);
            reader.read(done, bytes);
            put(element + done, bytes.flip());
        }
    }

    /** Stores the elements held by the remaining bytes of {@code bytes} from {@code element} on. */
    void put(long element, ByteBuffer bytes) {
        if (buffer != null) {
            buffer.put(base + (int) element * elementSize, bytes, bytes.position(),
                    bytes.remaining());
        } else {
            decoder.decode(bytes.order(order), (int) element);
        }
    }

    /** Stores {@code count} copies of {@code fillElement} from {@code element} on. */
    void fill(long element, long count, byte[] fillElement) {
        if (zeroed && isZero(fillElement)) {
            return;
        }
        int runElements = (int) Math.min(count, Math.max(1, FILL_RUN_BYTES / elementSize));
        ByteBuffer run = ByteBuffer.allocate(runElements * elementSize);
        for (int i = 0; i < runElements; i++) {
            run.put(fillElement);
        }
        for (long done = 0; done < count; done += runElements) {
            int elements = (int) Math.min(runElements, count - done);
            put(element + done, run.clear().limit(elements * elementSize));
        }
    }

    private static boolean isZero(byte[] bytes) {
        for (byte b : bytes) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }
}
