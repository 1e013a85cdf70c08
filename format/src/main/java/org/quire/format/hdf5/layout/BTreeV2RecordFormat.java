package org.quire.format.hdf5.layout;

import org.quire.format.CorruptFileException;

/**
 * How the records of one kind of version-2 B-tree are stored (specification section III.A.2,
 * "Version 2 B-trees", the record layouts per tree type): the type number every node repeats,
 * the fixed record size, and the encoding. {@link BTreeV2Header}, {@link BTreeV2InternalNode}
 * and {@link BTreeV2LeafNode} read and write the nodes of every tree through it.
 *
 * @param <R> the record
 */
public interface BTreeV2RecordFormat<R> {

    /** The B-tree type stored in the header and every node. */
    int type();

    /** Bytes of one record. */
    int size();

    void encode(R record, LittleEndianWriter out);

    R decode(LittleEndianReader in) throws CorruptFileException;

    /** A resolver that accepts only {@code format}'s type and record size. */
    static <R> Resolver<R> exactly(BTreeV2RecordFormat<R> format) {
        return (in, at, type, recordSize) -> {
            if (type != format.type() || recordSize != format.size()) {
                throw in.corrupt(at, "tree type and record size", format.type() + " ("
                        + format.size() + " bytes)", type + " (" + recordSize + " bytes)");
            }
            return format;
        };
    }

    /**
     * What a header's type and record size give: the format of the tree a caller expects, or a
     * corrupt-file failure; {@code at} is the offset of the type field.
     */
    @FunctionalInterface
    interface Resolver<R> {
        BTreeV2RecordFormat<R> resolve(LittleEndianReader in, long at, int type, int recordSize)
                throws CorruptFileException;
    }
}
