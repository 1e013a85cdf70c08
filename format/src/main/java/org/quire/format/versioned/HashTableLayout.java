package org.quire.format.versioned;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;

import org.quire.format.hdf5.Datatype;

/**
 * One row of a dataset's {@code hash_table} (reference note §1.2, §1.4): the compound
 * {@code {hash: uint8[32], shape: int64[2]}}, 48 bytes, little-endian. {@code shape} holds the
 * raw_data rows {@code [start, stop)} along axis 0 of the chunk's slot, not a shape: start is
 * {@code slot * c0}, stop - start the rows the chunk uses (fewer for a chunk trimmed on axis 0).
 *
 * <pre>
 * offset  0: hash   32 x uint8   SHA-256 of the chunk ({@link ChunkDigest})
 * offset 32: start  int64 LE
 * offset 40: stop   int64 LE
 * </pre>
 * The table is chunked (4096,) with h5py's LZF filter, starts as one all-zero row and holds
 * exactly {@code largest_index} rows after a commit; only rows below largest_index count.
 */
final class HashTableLayout {

    static final int ROW_SIZE = 48;
    static final int HASH_OFFSET = 0;
    static final int START_OFFSET = 32;
    static final int STOP_OFFSET = 40;
    static final long CHUNK_ROWS = 4096;

    static final Datatype.CompoundType TYPE = new Datatype.CompoundType(ROW_SIZE, List.of(
            new Datatype.Member("hash", HASH_OFFSET, new Datatype.ArrayType(Datatype.UINT8, ChunkDigest.LENGTH)),
            new Datatype.Member("shape", START_OFFSET, new Datatype.ArrayType(Datatype.INT64, 2))));

    /** A row: the chunk's digest and its raw_data rows. */
    record Row(byte[] digest, long start, long stop) {
    }

    private HashTableLayout() {
    }

    /** Whether {@code type} is the table's compound (member names, offsets and element types). */
    static boolean matches(Datatype type) {
        return type instanceof Datatype.CompoundType compound && compound.size() == ROW_SIZE
                && compound.members().size() == 2
                && compound.members().get(0).name().equals("hash")
                && compound.members().get(0).offset() == HASH_OFFSET
                && compound.members().get(1).name().equals("shape")
                && compound.members().get(1).offset() == START_OFFSET
                && compound.members().get(0).type() instanceof Datatype.ArrayType hash
                && hash.size() == ChunkDigest.LENGTH
                && compound.members().get(1).type() instanceof Datatype.ArrayType shape
                && shape.base() instanceof Datatype.IntegerType integer && integer.size() == 8
                && integer.byteOrder() == ByteOrder.LITTLE_ENDIAN && shape.size() == 16;
    }

    static Row decode(ByteBuffer rows, int index) {
        ByteBuffer in = rows.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        int at = index * ROW_SIZE;
        byte[] digest = new byte[ChunkDigest.LENGTH];
        in.get(at + HASH_OFFSET, digest);
        return new Row(digest, in.getLong(at + START_OFFSET), in.getLong(at + STOP_OFFSET));
    }

    static void encode(Row row, ByteBuffer out, int index) {
        int at = index * ROW_SIZE;
        out.order(ByteOrder.LITTLE_ENDIAN);
        out.put(at + HASH_OFFSET, Arrays.copyOf(row.digest(), ChunkDigest.LENGTH));
        out.putLong(at + START_OFFSET, row.start());
        out.putLong(at + STOP_OFFSET, row.stop());
    }
}
