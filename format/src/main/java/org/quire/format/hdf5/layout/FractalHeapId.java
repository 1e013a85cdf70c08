package org.quire.format.hdf5.layout;

import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;

/**
 * A fractal heap ID, specification section III.G ("Fractal Heap ID"): how a B-tree record
 * names an object in a heap.
 *
 * <pre>
 * first byte: b6-7 version (0), b4-5 type (0 managed, 1 huge, 2 tiny), b0-3 see below
 * managed: | first byte | offset in the heap's address space | length |   (heap offset and
 *                                                                        length sizes)
 * tiny:    | first byte (b0-3: length - 1) | the object's bytes |        (IDs up to 18 bytes)
 *          | first byte (b0-3: high bits of length - 1) | low byte | bytes | (longer IDs)
 * huge:    | first byte | key in the huge objects' v2 B-tree (up to 8 bytes) |
 *          | first byte | address (O) | length (L) |  (when that fits: "directly accessed")
 * </pre>
 */
public sealed interface FractalHeapId {

    /** An object in a direct block, {@code length} bytes at {@code offset} of the heap. */
    record Managed(long offset, long length) implements FractalHeapId {
    }

    /** An object stored in the ID itself. */
    record Tiny(byte[] bytes) implements FractalHeapId {
    }

    /** A huge object found through the heap's huge-object B-tree by {@code key}. */
    record HugeByKey(long key) implements FractalHeapId {
    }

    /** A huge object whose address and length are in the ID. */
    record HugeDirect(long address, long length) implements FractalHeapId {
    }

    int TYPE_MANAGED = 0;
    int TYPE_HUGE = 1;
    int TYPE_TINY = 2;
    /** Tiny objects in IDs longer than this use 12 bits for their length. */
    int SHORT_TINY_ID_LENGTH = 18;

    /** Decodes {@code id}, a heap ID of the heap with {@code header}, read by {@code in}. */
    static FractalHeapId decode(LittleEndianReader in, FractalHeapHeader header)
            throws CorruptFileException, UnsupportedFormatException {
        long at = in.absolutePosition();
        int first = in.getUnsignedByte("heap ID flags");
        int version = first >>> 6;
        int type = (first >>> 4) & 3;
        if (version != 0) {
            throw new UnsupportedFormatException(in.file(), "fractal heap ID", at,
                    "version " + version, "version 0");
        }
        int idLength = header.heapIdLength();
        switch (type) {
            case TYPE_MANAGED -> {
                FractalHeapDoublingTable table = header.table();
                return new Managed(in.getUnsigned(table.heapOffsetSize(), "object offset"),
                        in.getUnsigned(table.heapLengthSize(), "object length"));
            }
            case TYPE_TINY -> {
                int length = (first & 0x0f) + 1;
                if (idLength > SHORT_TINY_ID_LENGTH) {
                    length = ((first & 0x0f) << 8 | in.getUnsignedByte("tiny object length")) + 1;
                }
                return new Tiny(in.getBytes(length, "tiny object"));
            }
            case TYPE_HUGE -> {
                if (idLength - 1 >= Addresses.SIZE_OF_OFFSETS + Addresses.SIZE_OF_LENGTHS) {
                    return new HugeDirect(in.getAddress("huge object address"),
                            in.getLength("huge object length"));
                }
                return new HugeByKey(in.getUnsigned(Math.min(idLength - 1, 8), "huge object ID"));
            }
            default -> throw in.corrupt(at, "heap ID type", "0 (managed), 1 (huge) or 2 (tiny)",
                    Integer.toString(type));
        }
    }
}
