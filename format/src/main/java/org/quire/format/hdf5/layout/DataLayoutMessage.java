package org.quire.format.hdf5.layout;

import java.util.Arrays;

import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;

/**
 * Data layout message version 4, chunked class (header message type 0x0008), specification
 * section IV.A.2.i.
 *
 * <pre>
 * +---------+-------------+-------+--------------------+-------------------------------+
 * | version | layout class| flags | dimensionality     | dimension size encoded length |
 * |   (4)   |  (2 chunked)|       | (rank + 1)         | (1..8 bytes)                  |
 * +---------+-------------+-------+--------------------+-------------------------------+
 * | chunk dimension sizes ... element size (each "encoded length" bytes)               |
 * +-----------------------+------------------------------------+-----------------------+
 * | chunk indexing type   | indexing information (per type)    | address (index, or    |
 * | (1 single, 2 implicit,| single+filtered: size (8), mask (4)|  the single chunk)    |
 * | 3 fixed array, 4 ext. | fixed array: page bits (1)         |                       |
 * | array, 5 v2 B-tree)   | ext. array: max bits, index elmts, |                       |
 * |                       |  min pointers, min elmts, page bits|                       |
 * |                       | v2 B-tree: node size (4), split,   |                       |
 * |                       |  merge percent (1 each)            |                       |
 * | 0x51 Quire skip list  | skip list: supernode bits, max     | (its configuration    |
 * | (Quire only)          |  height (1 each)                   |  node)                |
 * +-----------------------+------------------------------------+-----------------------+
 * flags b0: do not filter partial edge chunks; b1: single chunk is filtered.
 * </pre>
 *
 * An encoding's length depends only on the rank, chunk sizes and index type, so a writer can
 * rewrite the address (or single chunk size) in place.
 */
public record DataLayoutMessage(long[] chunkDimensions, int elementSize,
                                ChunkIndexParameters index, long indexAddress)
        implements DataLayout {

    public static final int TYPE = 0x0008;

    private static final int VERSION = 4;
    static final int CLASS_CHUNKED = 2;
    private static final int FLAG_DONT_FILTER_PARTIAL_CHUNKS = 0x01;
    private static final int FLAG_SINGLE_CHUNK_FILTERED = 0x02;
    private static final long MAX_CHUNK_DIMENSION = 0xffffffffL;

    public int rank() {
        return chunkDimensions.length;
    }

    /** The version-4 message; Quire writes no version-3 (version-1 B-tree) layouts. */
    public byte[] encode() {
        if (index instanceof ChunkIndexParameters.BTreeV1) {
            throw new UnsupportedOperationException("Quire writes no version-1 B-tree index");
        }
        long largest = elementSize;
        for (long dimension : chunkDimensions) {
            largest = Math.max(largest, dimension);
        }
        int width = (63 - Long.numberOfLeadingZeros(largest)) / 8 + 1;
        boolean filteredSingle = index instanceof ChunkIndexParameters.SingleChunk single
                && single.filteredSize() >= 0;
        LittleEndianWriter out = new LittleEndianWriter();
        out.putByte(VERSION).putByte(CLASS_CHUNKED)
                .putByte(filteredSingle ? FLAG_SINGLE_CHUNK_FILTERED : 0)
                .putByte(rank() + 1).putByte(width);
        for (long dimension : chunkDimensions) {
            out.putUnsigned(dimension, width);
        }
        out.putUnsigned(elementSize, width).putByte(index.code());
        if (index instanceof ChunkIndexParameters.SingleChunk single) {
            if (filteredSingle) {
                out.putLength(single.filteredSize()).putInt(single.filterMask());
            }
        } else if (index instanceof ChunkIndexParameters.FixedArray array) {
            out.putByte(array.pageBits());
        } else if (index instanceof ChunkIndexParameters.ExtensibleArray array) {
            out.putByte(array.maxBits()).putByte(array.indexBlockElements())
                    .putByte(array.superBlockMinDataPointers())
                    .putByte(array.dataBlockMinElements()).putByte(array.dataBlockPageBits());
        } else if (index instanceof ChunkIndexParameters.BTreeV2 tree) {
            out.putInt((int) tree.nodeSize()).putByte(tree.splitPercent())
                    .putByte(tree.mergePercent());
        } else if (index instanceof ChunkIndexParameters.SkipList list) {
            out.putByte(list.supernodeBits()).putByte(list.maxHeight());
        } // the implicit index has no indexing information
        return out.putAddress(indexAddress).toByteArray();
    }

    public static DataLayoutMessage decode(LittleEndianReader in)
            throws CorruptFileException, UnsupportedFormatException {
        long at = in.absolutePosition();
        int version = in.getUnsignedByte("version");
        int layoutClass = in.getUnsignedByte("layout class");
        if (version != VERSION || layoutClass != CLASS_CHUNKED) {
            throw new UnsupportedFormatException(in.file(), "data layout message", at,
                    "version " + version + ", class " + layoutClass, "version 4, class 2 (chunked)");
        }
        return decodeChunked(in, at);
    }

    /** The fields after version and layout class of the message at {@code at}. */
    static DataLayoutMessage decodeChunked(LittleEndianReader in, long at)
            throws CorruptFileException, UnsupportedFormatException {
        int flags = in.getUnsignedByte("flags");
        int dimensionality = in.getCount(1, 33, "dimensionality");
        if (dimensionality < 2) {
            throw in.corrupt(at + 3, "dimensionality", "2..33", Integer.toString(dimensionality));
        }
        long widthAt = in.absolutePosition();
        int width = in.getUnsignedByte("dimension size encoded length");
        if (width < 1 || width > 8) {
            throw in.corrupt(widthAt, "dimension size encoded length", "1..8",
                    Integer.toString(width));
        }
        long[] chunk = new long[dimensionality - 1];
        for (int i = 0; i < chunk.length; i++) {
            long dimensionAt = in.absolutePosition();
            chunk[i] = in.getUnsigned(width, "chunk dimension size");
            if (chunk[i] < 1 || chunk[i] > MAX_CHUNK_DIMENSION) {
                throw in.corrupt(dimensionAt, "chunk dimension size", "1.." + MAX_CHUNK_DIMENSION,
                        Long.toUnsignedString(chunk[i]));
            }
        }
        long elementAt = in.absolutePosition();
        long elementSize = in.getUnsigned(width, "element size");
        if (elementSize < 1 || elementSize > Integer.MAX_VALUE) {
            throw in.corrupt(elementAt, "element size", "1.." + Integer.MAX_VALUE,
                    Long.toUnsignedString(elementSize));
        }
        if ((flags & FLAG_DONT_FILTER_PARTIAL_CHUNKS) != 0) {
            throw new UnsupportedFormatException(in.file(), "data layout message", at,
                    "flag 'do not filter partial edge chunks'", "partial edge chunks filtered like the others");
        }
        int code = in.getUnsignedByte("chunk indexing type");
        ChunkIndexParameters index = switch (code) {
            case 1 -> (flags & FLAG_SINGLE_CHUNK_FILTERED) != 0
                    ? new ChunkIndexParameters.SingleChunk(in.getLength("size of filtered chunk"),
                            in.getInt("filter mask"))
                    : new ChunkIndexParameters.SingleChunk(-1, 0);
            case 3 -> new ChunkIndexParameters.FixedArray(in.getUnsignedByte("page bits"));
            case 4 -> new ChunkIndexParameters.ExtensibleArray(in.getUnsignedByte("maximum bits"),
                    in.getUnsignedByte("index elements"), in.getUnsignedByte("minimum pointers"),
                    in.getUnsignedByte("minimum elements"), in.getUnsignedByte("page bits"));
            case 2 -> new ChunkIndexParameters.Implicit();
            case 5 -> new ChunkIndexParameters.BTreeV2(in.getInt("node size") & 0xffffffffL,
                    in.getUnsignedByte("split percent"), in.getUnsignedByte("merge percent"));
            case ChunkIndexParameters.SkipList.CODE -> new ChunkIndexParameters.SkipList(
                    in.getUnsignedByte("supernode bits"), in.getUnsignedByte("max height"));
            default -> throw in.corrupt(in.absolutePosition() - 1, "chunk indexing type",
                    "1..5, or 0x" + Integer.toHexString(ChunkIndexParameters.SkipList.CODE)
                            + " (Quire's skip list)",
                    Integer.toString(code));
        };
        return new DataLayoutMessage(chunk, (int) elementSize, index, in.getAddress("address"));
    }

    /**
     * The fields after version and layout class of the version-3 chunked message at {@code at}:
     * dimensionality (1, rank + 1), the B-tree's address (8), then 4-byte chunk dimension sizes,
     * the last being the element size.
     */
    static DataLayoutMessage decodeVersion3Chunked(LittleEndianReader in, long at)
            throws CorruptFileException {
        int dimensionality = in.getCount(1, 33, "dimensionality");
        if (dimensionality < 2) {
            throw in.corrupt(at + 2, "dimensionality", "2..33", Integer.toString(dimensionality));
        }
        long address = in.getAddress("v1 B-tree address");
        long[] sizes = new long[dimensionality];
        for (int i = 0; i < dimensionality; i++) {
            long sizeAt = in.absolutePosition();
            sizes[i] = in.getInt("chunk dimension size") & 0xffffffffL;
            if (sizes[i] < 1 || sizes[i] > Integer.MAX_VALUE) {
                throw in.corrupt(sizeAt, i == dimensionality - 1 ? "element size"
                        : "chunk dimension size", "1.." + Integer.MAX_VALUE,
                        Long.toString(sizes[i]));
            }
        }
        return new DataLayoutMessage(Arrays.copyOf(sizes, dimensionality - 1),
                (int) sizes[dimensionality - 1], new ChunkIndexParameters.BTreeV1(), address);
    }
}
