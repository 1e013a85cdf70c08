package org.quire.format.hdf5.layout;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.quire.format.CorruptFileException;

/**
 * Global heap collection, specification section III.E: the bytes of variable-length elements
 * (strings of any length), as numbered objects in one block. No checksum: the signature,
 * version, sizes and object numbers are checked instead.
 *
 * <pre>
 * +--------+---------+--------------+---------------------------+
 * | "GCOL" | version | reserved (3) | collection size (8)       |   16 bytes, then objects:
 * |        |   (1)   |              | (this header included)    |
 * +--------+---------+--------------+---------------------------+
 * | object index (2) | reference count (2) | reserved (4) | object size (8) |
 * +------------------+---------------------+--------------+-----------------+
 * | object data (object size bytes, padded to a multiple of 8)               |
 * +--------------------------------------------------------------------------+
 * Object index 0 is the free space at the end of the collection (its size counts its own
 * 16-byte header); it, or the end of the collection, ends the list. libhdf5 allocates
 * collections of at least 4,096 bytes.
 * </pre>
 */
public final class GlobalHeapCollection {

    static final BlockIdentity IDENTITY = BlockIdentity.signed("global heap collection", "GCOL",
            1);
    private static final int HEADER_SIZE = 16;
    private static final int OBJECT_HEADER_SIZE = 16;
    /** libhdf5's smallest collection (H5HG_MINSIZE). */
    public static final int MINIMUM_SIZE = 4096;
    private static final int FREE_SPACE_INDEX = 0;
    /** Objects a collection can number: indexes 1 to 65,535 (2 bytes; 0 is free space). */
    public static final int MAXIMUM_OBJECTS = 0xFFFF;

    private final long address;
    private final Map<Integer, byte[]> objects;

    private GlobalHeapCollection(long address, Map<Integer, byte[]> objects) {
        this.address = address;
        this.objects = objects;
    }

    /** Reads and checks the collection at {@code address}. */
    public static GlobalHeapCollection read(BlockFile file, long address) throws IOException {
        byte[] header = file.read(address, HEADER_SIZE, IDENTITY.structure());
        MetadataValidator.verifyPrefix(file.path(), address, header, IDENTITY);
        LittleEndianReader head = file.reader(address, IDENTITY.structure(), header);
        head.skip(IDENTITY.prefixLength() + 3);
        long sizeAt = head.absolutePosition();
        long size = head.getLength("collection size");
        long largest = Math.min(file.size(), Integer.MAX_VALUE - 8);
        if (size < HEADER_SIZE || size > largest) {
            throw head.corrupt(sizeAt, "collection size", HEADER_SIZE + " to " + largest,
                    Long.toUnsignedString(size));
        }
        byte[] block = file.read(address, (int) size, IDENTITY.structure());
        LittleEndianReader in = file.reader(address, IDENTITY.structure(), block);
        in.skip(HEADER_SIZE);
        Map<Integer, byte[]> objects = new HashMap<>();
        while (in.remaining() >= OBJECT_HEADER_SIZE) {
            long at = in.absolutePosition();
            int index = in.getUnsignedShort("object index");
            in.skip(2 + 4);
            long objectSize = in.getLength("object size");
            if (index == FREE_SPACE_INDEX) {
                break;
            }
            if (objectSize < 0 || objectSize > in.remaining()) {
                throw in.corrupt(at + 8, "object size", "at most the " + in.remaining()
                        + " bytes left in the collection", Long.toUnsignedString(objectSize));
            }
            if (objects.put(index, in.getBytes((int) objectSize, "object data")) != null) {
                throw in.corrupt(at, "object index", "each index once", index + " twice");
            }
            in.skip((int) Math.min(in.remaining(), padding(objectSize)));
        }
        file.countChecked(IDENTITY.structure());
        return new GlobalHeapCollection(address, objects);
    }

    /**
     * The bytes of object {@code id.objectIndex()}, the first {@code id.length()} of them.
     *
     * @throws CorruptFileException the collection has no such object, or a shorter one
     */
    public byte[] object(Path file, GlobalHeapId id) throws CorruptFileException {
        byte[] object = objects.get(id.objectIndex());
        if (object == null || object.length < id.length()) {
            throw new CorruptFileException(file, address, IDENTITY.structure(), "object "
                    + id.objectIndex(), "an object of at least " + id.length() + " bytes",
                    object == null ? "no such object" : object.length + " bytes");
        }
        return object.length == id.length() ? object
                : Arrays.copyOf(object, (int) id.length());
    }

    /**
     * A collection holding {@code objects} as objects 1, 2, ..., each with
     * reference count 1, the rest free; {@link #encodedSize} bytes.
     *
     * @throws IllegalArgumentException more than {@link #MAXIMUM_OBJECTS} objects, or more
     *     bytes than one array holds
     */
    public static byte[] encode(List<byte[]> objects) {
        if (objects.size() > MAXIMUM_OBJECTS) {
            throw new IllegalArgumentException(objects.size()
                    + " objects in one global heap collection, at most " + MAXIMUM_OBJECTS);
        }
        long encodedSize = encodedSize(objects);
        if (encodedSize > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a global heap collection of " + encodedSize
                    + " bytes");
        }
        int size = (int) encodedSize;
        LittleEndianWriter out = new LittleEndianWriter(size);
        out.putBytes(IDENTITY.signature()).putByte(IDENTITY.version()).putZeros(3)
                .putLength(size);
        int index = 1;
        for (byte[] object : objects) {
            out.putShort(index++).putShort(1).putInt(0).putLength(object.length)
                    .putBytes(object).putZeros((int) padding(object.length));
        }
        int free = size - out.position();
        if (free >= OBJECT_HEADER_SIZE) {
            out.putShort(FREE_SPACE_INDEX).putShort(0).putInt(0).putLength(free);
        }
        return out.putZeros(size - out.position()).toByteArray();
    }

    /** Bytes of a collection holding {@code objects}: at least {@link #MINIMUM_SIZE}. */
    public static long encodedSize(List<byte[]> objects) {
        long size = HEADER_SIZE + OBJECT_HEADER_SIZE;
        for (byte[] object : objects) {
            size += objectSize(object);
        }
        return Math.max(MINIMUM_SIZE, size);
    }

    /** Bytes {@code object} takes in a collection: its header, its data, its padding. */
    public static long objectSize(byte[] object) {
        return OBJECT_HEADER_SIZE + object.length + padding(object.length);
    }

    private static long padding(long size) {
        return (8 - size % 8) % 8;
    }
}
