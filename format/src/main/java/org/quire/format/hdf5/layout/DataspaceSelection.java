package org.quire.format.hdf5.layout;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;

/**
 * A selection of a dataspace as a virtual dataset's mapping stores it (specification section
 * IV.A.2.i, "Global Heap Block for Virtual Dataset": the source and virtual selections are
 * serialized as in the "Dataspace Selection" encoding of region references). Quire reads and
 * writes the "all" selection and bounded hyperslabs, held as their blocks in order.
 *
 * <pre>
 * every selection: type (4: 1 points, 2 hyperslab, 3 all) | version (4)
 * all, version 1:        reserved (4) | length (4) = 0
 * hyperslab, version 1:  reserved (4) | length (4) | rank (4) | number of blocks (4)
 *                        | per block: start (4 per dimension), end (4 per dimension, inclusive)
 * hyperslab, version 2:  flags (1: bit 0 regular) | length (4) | rank (4)
 *                        | regular: per dimension start, stride, count, block (8 each;
 *                          all ones = unlimited)
 *                        | irregular: number of blocks (8), per block start and end (8 each)
 * </pre>
 * libhdf5 1.10 writes hyperslab version 1 for every bounded hyperslab (so coordinates below
 * 2^32) and version 2 only for unlimited ones; Quire writes version 1 and reads both, a regular
 * version-2 hyperslab expanded into its blocks. Version 3 (libhdf5 1.12 and later, variable
 * field widths), point selections and unlimited hyperslabs are refused as unsupported.
 */
public sealed interface DataspaceSelection {

    /** Every element of the dataspace. */
    record All() implements DataspaceSelection {
    }

    /** The union of {@code blocks}, in the order stored (libhdf5's: row-major by start). */
    record Hyperslab(List<Block> blocks) implements DataspaceSelection {
        public Hyperslab {
            blocks = List.copyOf(blocks);
            if (blocks.isEmpty()) {
                throw new IllegalArgumentException("a hyperslab selection of no blocks");
            }
            for (Block block : blocks) {
                if (block.start().length != blocks.get(0).start().length) {
                    throw new IllegalArgumentException("blocks of different ranks");
                }
            }
        }

        public int rank() {
            return blocks.get(0).start().length;
        }
    }

    /** A box: {@code count[d]} elements from {@code start[d]} in each dimension. */
    record Block(long[] start, long[] count) {
        public Block {
            start = start.clone();
            count = count.clone();
            if (start.length != count.length) {
                throw new IllegalArgumentException("start of rank " + start.length
                        + ", count of rank " + count.length);
            }
            for (int d = 0; d < start.length; d++) {
                if (start[d] < 0 || count[d] < 1) {
                    throw new IllegalArgumentException("block start " + Arrays.toString(start)
                            + " count " + Arrays.toString(count) + ": starts from 0, counts from 1");
                }
            }
        }

        @Override
        public long[] start() {
            return start.clone();
        }

        @Override
        public long[] count() {
            return count.clone();
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Block block && Arrays.equals(start, block.start)
                    && Arrays.equals(count, block.count);
        }

        @Override
        public int hashCode() {
            return 31 * Arrays.hashCode(start) + Arrays.hashCode(count);
        }

        @Override
        public String toString() {
            return "start " + Arrays.toString(start) + " count " + Arrays.toString(count);
        }
    }

    static All all() {
        return new All();
    }

    /** One block as a hyperslab: what versioned-hdf5 writes, one per chunk. */
    static Hyperslab block(long[] start, long[] count) {
        return new Hyperslab(List.of(new Block(start, count)));
    }

    int TYPE_POINTS = 1;
    int TYPE_HYPERSLAB = 2;
    int TYPE_ALL = 3;
    /**
     * Block coordinates (blocks x rank) the regular version-2 hyperslabs of one mapping block may
     * expand into together: 83 bytes of file can describe 2^20 blocks, and a heap object can hold
     * thousands of such selections.
     */
    long MAX_EXPANDED_COORDINATES = 1 << 20;
    long UNLIMITED = -1L;

    /** The serialization libhdf5 1.10 writes: "all" version 1, hyperslab version 1. */
    default byte[] encode() {
        LittleEndianWriter out = new LittleEndianWriter();
        if (this instanceof Hyperslab hyperslab) {
            int rank = hyperslab.rank();
            out.putInt(TYPE_HYPERSLAB).putInt(1).putInt(0)
                    .putInt(8 + hyperslab.blocks().size() * rank * 8).putInt(rank)
                    .putInt(hyperslab.blocks().size());
            for (Block block : hyperslab.blocks()) {
                for (int d = 0; d < rank; d++) {
                    out.putInt((int) block.start[d]);
                }
                for (int d = 0; d < rank; d++) {
                    out.putInt((int) (block.start[d] + block.count[d] - 1));
                }
            }
        } else {
            out.putInt(TYPE_ALL).putInt(1).putInt(0).putInt(0);
        }
        return out.toByteArray();
    }

    /**
     * Whether version 1 can hold this selection: every block's last coordinate below 2^32.
     */
    default boolean fitsVersion1() {
        if (this instanceof Hyperslab hyperslab) {
            for (Block block : hyperslab.blocks()) {
                for (int d = 0; d < block.start.length; d++) {
                    if (block.start[d] + block.count[d] - 1 > 0xffffffffL) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /**
     * The block coordinates regular hyperslabs have expanded into so far while one mapping block
     * is decoded, checked against {@link #MAX_EXPANDED_COORDINATES} before each expansion.
     */
    final class Expansion {
        private long coordinates;
    }

    /**
     * The selection at {@code in}'s position; a regular hyperslab adds its blocks x rank to
     * {@code expansion}.
     */
    static DataspaceSelection decode(LittleEndianReader in, Expansion expansion)
            throws CorruptFileException, UnsupportedFormatException {
        long at = in.absolutePosition();
        int type = in.getInt("selection type");
        int version = in.getInt("selection version");
        if (type == TYPE_ALL && version == 1) {
            in.getInt("reserved");
            in.getInt("length");
            return all();
        }
        if (type == TYPE_HYPERSLAB && version == 1) {
            in.getInt("reserved");
            in.getInt("length");
            int rank = in.getCount(4, 32, "rank");
            int blocks = in.getCount(4, in.remaining() / 8, "number of blocks");
            return blocks(in, at, rank, blocks, 4);
        }
        if (type == TYPE_HYPERSLAB && version == 2) {
            int flags = in.getUnsignedByte("flags");
            in.getInt("length");
            int rank = in.getCount(4, 32, "rank");
            if ((flags & 1) == 0) {
                int blocks = in.getCount(8, in.remaining() / 16, "number of blocks");
                return blocks(in, at, rank, blocks, 8);
            }
            return regular(in, at, rank, expansion);
        }
        throw new UnsupportedFormatException(in.file(), "dataspace selection", at,
                "type " + type + ", version " + version,
                "\"all\" (type 3, version 1) and hyperslabs (type 2, versions 1 and 2)");
    }

    private static Hyperslab blocks(LittleEndianReader in, long at, int rank, int blocks,
                                    int width) throws CorruptFileException {
        if (rank == 0 || blocks == 0) {
            throw in.corrupt(at, "hyperslab selection", "a rank and a block",
                    "rank " + rank + ", " + blocks + " blocks");
        }
        List<Block> list = new ArrayList<>(blocks);
        for (int b = 0; b < blocks; b++) {
            long blockAt = in.absolutePosition();
            long[] start = new long[rank];
            long[] count = new long[rank];
            for (int d = 0; d < rank; d++) {
                start[d] = in.getUnsigned(width, "block start");
            }
            for (int d = 0; d < rank; d++) {
                long end = in.getUnsigned(width, "block end");
                // Unsigned on disk: a start or end of 2^63 or more reads as negative.
                if (start[d] < 0 || end < start[d] || end == Long.MAX_VALUE) {
                    throw in.corrupt(blockAt, "hyperslab block", "start <= end < 2^63 - 1",
                            "start " + Long.toUnsignedString(start[d]) + ", end "
                                    + Long.toUnsignedString(end) + " in dimension " + d);
                }
                count[d] = end - start[d] + 1;
            }
            list.add(new Block(start, count));
        }
        return new Hyperslab(list);
    }

    /** A regular hyperslab, expanded into its blocks in row-major order of their starts. */
    private static Hyperslab regular(LittleEndianReader in, long at, int rank, Expansion expansion)
            throws CorruptFileException, UnsupportedFormatException {
        if (rank == 0) {
            throw in.corrupt(at, "regular hyperslab", "a rank", "rank 0");
        }
        long[] start = new long[rank];
        long[] stride = new long[rank];
        long[] count = new long[rank];
        long[] block = new long[rank];
        long left = MAX_EXPANDED_COORDINATES - expansion.coordinates;
        long coordinates = rank;
        for (int d = 0; d < rank; d++) {
            start[d] = in.getLong("start");
            stride[d] = in.getLong("stride");
            count[d] = in.getLong("count");
            block[d] = in.getLong("block");
            if (count[d] == UNLIMITED || block[d] == UNLIMITED) {
                throw new UnsupportedFormatException(in.file(), "dataspace selection", at,
                        "an unlimited hyperslab (dimension " + d + ")", "bounded hyperslabs");
            }
            String fields = "start " + start[d] + ", stride " + stride[d] + ", count " + count[d]
                    + ", block " + block[d] + " in dimension " + d;
            if (start[d] < 0 || count[d] < 1 || block[d] < 1 || stride[d] < block[d]
                    && count[d] > 1) {
                throw in.corrupt(at, "regular hyperslab", "start >= 0, count and block >= 1, "
                        + "stride >= block", fields);
            }
            try {
                Math.addExact(Math.addExact(start[d],
                        Math.multiplyExact(count[d] - 1, stride[d])), block[d]);
            } catch (ArithmeticException e) {
                throw in.corrupt(at, "regular hyperslab", "a last block ending below 2^63 - 1",
                        fields);
            }
            // Checked before multiplying: the product could overflow.
            if (count[d] > left / coordinates) {
                throw new UnsupportedFormatException(in.file(), "dataspace selection", at,
                        "a regular hyperslab of more block coordinates (blocks x rank; " + fields
                                + ", rank " + rank + ") than the " + left + " left after "
                                + expansion.coordinates + " in earlier selections",
                        "at most " + MAX_EXPANDED_COORDINATES + " across a virtual dataset's "
                                + "mappings");
            }
            coordinates *= count[d];
        }
        expansion.coordinates += coordinates;
        int blocks = (int) (coordinates / rank);
        List<Block> list = new ArrayList<>(blocks);
        long[] index = new long[rank];
        for (int b = 0; b < blocks; b++) {
            long[] at0 = new long[rank];
            for (int d = 0; d < rank; d++) {
                at0[d] = start[d] + index[d] * stride[d];
            }
            list.add(new Block(at0, block));
            for (int d = rank - 1; d >= 0 && ++index[d] == count[d]; d--) {
                index[d] = 0;
            }
        }
        return new Hyperslab(list);
    }
}
