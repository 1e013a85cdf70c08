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
 * collections of at least 4,096 bytes. Free space of less than an object header at the end
 * has no header: readers take it as free space too.
 * </pre>
 *
 * <p>A collection being written ({@link #empty}, or one read whose free space is at its end)
 * takes new objects at its free space ({@link #add}): the bytes of the objects it holds never
 * change, so a reader of an earlier image finds every object it knew where it was.
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
    /** The whole collection as stored, header included. */
    private final byte[] image;
    /** Where each object's data starts in {@link #image}, and its length, by object index. */
    private final Map<Integer, long[]> objects;
    /** Where the free space starts in {@link #image}; its length when there is none. */
    private int freeStart;
    /** Whether objects may be added: the free space is the end of the collection. */
    private final boolean appendable;
    /** The index the next object added gets: one above the highest in use. */
    private int nextIndex;

    private GlobalHeapCollection(long address, byte[] image, Map<Integer, long[]> objects,
                                 int freeStart, boolean appendable) {
        this.address = address;
        this.image = image;
        this.objects = objects;
        this.freeStart = freeStart;
        this.appendable = appendable;
        int highest = 0;
        for (int index : objects.keySet()) {
            highest = Math.max(highest, index);
        }
        this.nextIndex = highest + 1;
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
        Map<Integer, long[]> objects = new HashMap<>();
        int freeStart = block.length;
        boolean appendable = true;
        while (in.remaining() >= OBJECT_HEADER_SIZE) {
            long at = in.absolutePosition();
            int index = in.getUnsignedShort("object index");
            in.skip(2 + 4);
            long objectSize = in.getLength("object size");
            if (index == FREE_SPACE_INDEX) {
                freeStart = (int) (at - address);
                // Free space libhdf5 or Quire left is the rest of the collection, header
                // included; anything else is taken as free space but never written into.
                appendable = objectSize == block.length - freeStart;
                break;
            }
            if (objectSize < 0 || objectSize > in.remaining()) {
                throw in.corrupt(at + 8, "object size", "at most the " + in.remaining()
                        + " bytes left in the collection", Long.toUnsignedString(objectSize));
            }
            long dataAt = in.absolutePosition() - address;
            if (objects.put(index, new long[] {dataAt, objectSize}) != null) {
                throw in.corrupt(at, "object index", "each index once", index + " twice");
            }
            in.skip((int) Math.min(in.remaining(), objectSize + padding(objectSize)));
        }
        if (freeStart == block.length) {
            freeStart = block.length - in.remaining();
        }
        file.countChecked(IDENTITY.structure());
        return new GlobalHeapCollection(address, block, objects, freeStart, appendable);
    }

    /**
     * A new collection of {@code size} bytes at {@code address}: no objects, all free space.
     *
     * @throws IllegalArgumentException the size is below {@link #MINIMUM_SIZE}, not a multiple
     *     of 8 or more than one array holds
     */
    public static GlobalHeapCollection empty(long address, long size) {
        if (size < MINIMUM_SIZE || size % 8 != 0 || size > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a global heap collection of " + size
                    + " bytes (at least " + MINIMUM_SIZE + ", a multiple of 8)");
        }
        GlobalHeapCollection collection = new GlobalHeapCollection(address, new byte[(int) size],
                new HashMap<>(), HEADER_SIZE, true);
        byte[] header = new LittleEndianWriter(HEADER_SIZE).putBytes(IDENTITY.signature())
                .putByte(IDENTITY.version()).putZeros(3).putLength(size).toByteArray();
        System.arraycopy(header, 0, collection.image, 0, HEADER_SIZE);
        collection.putFreeSpaceHeader();
        return collection;
    }

    public long address() {
        return address;
    }

    /** Bytes of the collection, header included. */
    public int size() {
        return image.length;
    }

    /** The collection as stored: {@link #size()} bytes. */
    public byte[] image() {
        return image.clone();
    }

    /**
     * Whether {@link #add} takes {@code object}: the free space is at the end, holds it, and an
     * object index is left.
     */
    public boolean fits(byte[] object) {
        return appendable && nextIndex <= MAXIMUM_OBJECTS
                && objectSize(object) <= image.length - freeStart;
    }

    /**
     * Puts {@code object} at the start of the free space, with reference count 1; the rest
     * stays free. Returns its index.
     *
     * @throws IllegalStateException it does not {@link #fits fit}
     */
    public int add(byte[] object) {
        if (!fits(object)) {
            throw new IllegalStateException("no room for an object of " + object.length
                    + " bytes in the global heap collection at " + address);
        }
        int index = nextIndex++;
        byte[] header = new LittleEndianWriter(OBJECT_HEADER_SIZE).putShort(index).putShort(1)
                .putInt(0).putLength(object.length).toByteArray();
        System.arraycopy(header, 0, image, freeStart, OBJECT_HEADER_SIZE);
        int dataAt = freeStart + OBJECT_HEADER_SIZE;
        System.arraycopy(object, 0, image, dataAt, object.length);
        objects.put(index, new long[] {dataAt, object.length});
        freeStart += (int) objectSize(object);
        Arrays.fill(image, dataAt + object.length, image.length, (byte) 0);
        putFreeSpaceHeader();
        return index;
    }

    /** Objects the collection holds. */
    public int objectCount() {
        return objects.size();
    }

    /** The free space's header, when there is room for one; the bytes after it are zero. */
    private void putFreeSpaceHeader() {
        int free = image.length - freeStart;
        if (free >= OBJECT_HEADER_SIZE) {
            byte[] header = new LittleEndianWriter(OBJECT_HEADER_SIZE).putShort(FREE_SPACE_INDEX)
                    .putShort(0).putInt(0).putLength(free).toByteArray();
            System.arraycopy(header, 0, image, freeStart, OBJECT_HEADER_SIZE);
        }
    }

    /**
     * All bytes of object {@code index} (a blob such as a virtual dataset's mappings) and
     * where they start.
     *
     * @throws CorruptFileException the collection has no such object
     */
    public GlobalHeapObject object(Path file, int index) throws CorruptFileException {
        long[] object = objects.get(index);
        if (object == null) {
            throw new CorruptFileException(file, address, IDENTITY.structure(), "object "
                    + index, "an object", "no such object");
        }
        return new GlobalHeapObject(address + object[0], Arrays.copyOfRange(image,
                (int) object[0], (int) (object[0] + object[1])));
    }

    /**
     * The bytes of object {@code id.objectIndex()}, the first {@code id.length()} of them.
     *
     * @throws CorruptFileException the collection has no such object, or a shorter one
     */
    public byte[] object(Path file, GlobalHeapId id) throws CorruptFileException {
        long[] object = objects.get(id.objectIndex());
        if (object == null || object[1] < id.length()) {
            throw new CorruptFileException(file, address, IDENTITY.structure(), "object "
                    + id.objectIndex(), "an object of at least " + id.length() + " bytes",
                    object == null ? "no such object" : object[1] + " bytes");
        }
        return Arrays.copyOfRange(image, (int) object[0], (int) (object[0] + id.length()));
    }

    /**
     * Bytes of a new collection holding {@code objects} and a free space header: at least
     * {@link #MINIMUM_SIZE}.
     */
    public static long sizeFor(List<byte[]> objects) {
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
