package org.quire.format.hdf5.layout;

import java.nio.file.Path;

import org.quire.format.CorruptFileException;

/**
 * Reads the fields of one structure that was read from {@code file} at {@code baseAddress},
 * little-endian. Reading past the end is reported as a corrupt structure at the absolute offset
 * of the field, never as an {@link IndexOutOfBoundsException}.
 */
public final class LittleEndianReader {

    private final Path file;
    private final long baseAddress;
    private final String structure;
    private final byte[] bytes;
    private final int limit;
    private int position;

    public LittleEndianReader(Path file, long baseAddress, String structure, byte[] bytes) {
        this(file, baseAddress, structure, bytes, 0, bytes.length);
    }

    public LittleEndianReader(Path file, long baseAddress, String structure, byte[] bytes,
                              int offset, int length) {
        this.file = file;
        this.baseAddress = baseAddress;
        this.structure = structure;
        this.bytes = bytes;
        this.position = offset;
        this.limit = offset + length;
    }

    public Path file() {
        return file;
    }

    public String structure() {
        return structure;
    }

    /** Position relative to the start of the structure's bytes. */
    public int position() {
        return position;
    }

    public int remaining() {
        return limit - position;
    }

    /** Absolute file offset of the next byte to read. */
    public long absolutePosition() {
        return baseAddress + position;
    }

    public void skip(int count) throws CorruptFileException {
        require(count, "bytes");
        position += count;
    }

    public int getUnsignedByte(String field) throws CorruptFileException {
        require(1, field);
        return bytes[position++] & 0xff;
    }

    public int getUnsignedShort(String field) throws CorruptFileException {
        return (int) getUnsigned(2, field);
    }

    public int getInt(String field) throws CorruptFileException {
        return (int) getUnsigned(4, field);
    }

    public long getLong(String field) throws CorruptFileException {
        return getUnsigned(8, field);
    }

    public long getAddress(String field) throws CorruptFileException {
        return getUnsigned(Addresses.SIZE_OF_OFFSETS, field);
    }

    public long getLength(String field) throws CorruptFileException {
        return getUnsigned(Addresses.SIZE_OF_LENGTHS, field);
    }

    /** An unsigned little-endian integer of {@code width} (1..8) bytes. */
    public long getUnsigned(int width, String field) throws CorruptFileException {
        require(width, field);
        long value = 0;
        for (int i = 0; i < width; i++) {
            value |= (bytes[position++] & 0xffL) << (8 * i);
        }
        return value;
    }

    public byte[] getBytes(int count, String field) throws CorruptFileException {
        require(count, field);
        byte[] out = new byte[count];
        System.arraycopy(bytes, position, out, 0, count);
        position += count;
        return out;
    }

    /** A length that must fit in a Java array: {@code 0 <= value <= max}. */
    public int getCount(int width, int max, String field) throws CorruptFileException {
        long at = absolutePosition();
        long value = getUnsigned(width, field);
        if (value < 0 || value > max) {
            throw corrupt(at, field, "at most " + max, Long.toUnsignedString(value));
        }
        return (int) value;
    }

    /** {@code count} bytes holding a name, cut at the first NUL if any ({@link LosslessUtf8}). */
    public String getString(int count, String field) throws CorruptFileException {
        byte[] raw = getBytes(count, field);
        int end = 0;
        while (end < raw.length && raw[end] != 0) {
            end++;
        }
        return LosslessUtf8.decode(raw, 0, end);
    }

    /** A second reader over the same bytes, at the same position, moving on its own. */
    public LittleEndianReader duplicate() {
        return new LittleEndianReader(file, baseAddress, structure, bytes, position,
                limit - position);
    }

    /** A reader over the next {@code count} bytes, which this reader then skips. */
    public LittleEndianReader slice(int count, String field) throws CorruptFileException {
        require(count, field);
        LittleEndianReader slice = new LittleEndianReader(file, baseAddress, structure, bytes,
                position, count);
        position += count;
        return slice;
    }

    /** A corrupt-structure failure at absolute offset {@code at} of this reader's structure. */
    public CorruptFileException corrupt(long at, String field, String expected, String found) {
        return new CorruptFileException(file, at, structure, field, expected, found);
    }

    private void require(int count, String field) throws CorruptFileException {
        if (count < 0 || count > limit - position) {
            throw corrupt(absolutePosition(), field, count + " more bytes inside the structure",
                    (limit - position) + " bytes left");
        }
    }
}
