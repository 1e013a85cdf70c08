package org.quire.format.hdf5.layout;

import java.util.Arrays;

/**
 * Builds the bytes of one structure, little-endian, growing as needed. Positions are relative to
 * the structure's first byte.
 */
public final class LittleEndianWriter {

    private byte[] bytes;
    private int position;

    public LittleEndianWriter() {
        this(64);
    }

    public LittleEndianWriter(int initialCapacity) {
        bytes = new byte[Math.max(16, initialCapacity)];
    }

    public int position() {
        return position;
    }

    public LittleEndianWriter putByte(int value) {
        ensure(1);
        bytes[position++] = (byte) value;
        return this;
    }

    public LittleEndianWriter putShort(int value) {
        return putUnsigned(value & 0xffffL, 2);
    }

    public LittleEndianWriter putInt(int value) {
        return putUnsigned(value & 0xffffffffL, 4);
    }

    public LittleEndianWriter putLong(long value) {
        return putUnsigned(value, 8);
    }

    public LittleEndianWriter putAddress(long address) {
        return putUnsigned(address, Addresses.SIZE_OF_OFFSETS);
    }

    public LittleEndianWriter putLength(long length) {
        return putUnsigned(length, Addresses.SIZE_OF_LENGTHS);
    }

    /** The low {@code width} bytes of {@code value} (1..8), for variable-width fields. */
    public LittleEndianWriter putUnsigned(long value, int width) {
        ensure(width);
        for (int i = 0; i < width; i++) {
            bytes[position++] = (byte) (value >>> (8 * i));
        }
        return this;
    }

    public LittleEndianWriter putBytes(byte[] source) {
        return putBytes(source, 0, source.length);
    }

    public LittleEndianWriter putBytes(byte[] source, int offset, int length) {
        ensure(length);
        System.arraycopy(source, offset, bytes, position, length);
        position += length;
        return this;
    }

    /** {@code count} zero bytes. */
    public LittleEndianWriter putZeros(int count) {
        ensure(count);
        position += count;
        return this;
    }

    /** Overwrites 4 bytes already written at {@code at}. */
    public void patchInt(int at, int value) {
        for (int i = 0; i < 4; i++) {
            bytes[at + i] = (byte) (value >>> (8 * i));
        }
    }

    /** Appends the lookup3 checksum of every byte from {@code from} to the current position. */
    public LittleEndianWriter putChecksumFrom(int from) {
        return putInt(JenkinsLookup3.checksum(bytes, from, position - from));
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(bytes, position);
    }

    private void ensure(int more) {
        if (position + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, position + more));
        }
    }
}
