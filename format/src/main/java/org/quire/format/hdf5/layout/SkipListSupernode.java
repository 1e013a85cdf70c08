package org.quire.format.hdf5.layout;

import java.io.IOException;
import java.util.Arrays;

import org.quire.format.CorruptFileException;

/**
 * A supernode of a skip list chunk index (docs/hdf5.md, "The skip list chunk index", section
 * S.4): the records of K consecutive chunks and one link back per level of its height. The
 * ghost supernode (ordinal -1, all ones on disk) has the full height, undefined links and no
 * records; every link with no supernode to point at points at it.
 *
 * <pre>
 * +--------+---------+-----------+-------------+--------+----------------------------+
 * | "QSLN" | version | client ID | ordinal (L) | height | link at level 0 .. h-1 (O) |
 * |        |   (0)   |           |             |  (h)   |                            |
 * +--------+---------+-----------+-------------+--------+----------------------------+
 * | chunk record 0 .. K-1 (as the configuration's element size) | checksum (4)      |
 * +--------------------------------------------------------------+-------------------+
 * </pre>
 *
 * Ordinal and height are those {@link SkipListGeometry} derives; a reader checks both, so a
 * link to the wrong supernode is found at once. Records of chunks at or past the tail's count
 * are never read: an undefined address there is not an error.
 */
public record SkipListSupernode(long ordinal, long[] links, ChunkRecord[] records) {

    public static final BlockIdentity IDENTITY =
            BlockIdentity.signed("skip list supernode", "QSLN", 0);

    /** A supernode with every record unwritten. */
    public static SkipListSupernode empty(SkipListGeometry geometry, long ordinal, long[] links) {
        ChunkRecord[] records = new ChunkRecord[recordCount(geometry, ordinal)];
        Arrays.fill(records, ChunkRecord.UNWRITTEN);
        return new SkipListSupernode(ordinal, links, records);
    }

    /** The ghost supernode: full height, undefined links, no records. */
    public static SkipListSupernode ghost(SkipListGeometry geometry) {
        long[] links = new long[geometry.maxHeight()];
        Arrays.fill(links, Addresses.UNDEFINED);
        return new SkipListSupernode(SkipListGeometry.GHOST, links, new ChunkRecord[0]);
    }

    private static int recordCount(SkipListGeometry geometry, long ordinal) {
        return ordinal == SkipListGeometry.GHOST ? 0 : geometry.recordsPerSupernode();
    }

    public static int size(SkipListGeometry geometry, ChunkRecordFormat format, long ordinal) {
        return IDENTITY.prefixLength() + 1 + Addresses.SIZE_OF_LENGTHS + 1
                + geometry.height(ordinal) * Addresses.SIZE_OF_OFFSETS
                + recordCount(geometry, ordinal) * format.entrySize()
                + MetadataValidator.CHECKSUM_SIZE;
    }

    public byte[] encode(SkipListGeometry geometry, ChunkRecordFormat format) {
        LittleEndianWriter out = new LittleEndianWriter(size(geometry, format, ordinal));
        out.putBytes(IDENTITY.signature()).putByte(IDENTITY.version())
                .putByte(format.clientId()).putLength(ordinal).putByte(links.length);
        for (long link : links) {
            out.putAddress(link);
        }
        for (ChunkRecord record : records) {
            format.encode(record, out);
        }
        return out.putChecksumFrom(0).toByteArray();
    }

    /**
     * The supernode of {@code ordinal} at {@code address}, verified: checksum, client ID,
     * ordinal and height as {@code geometry} derives them.
     */
    public static SkipListSupernode read(BlockFile file, long address, long ordinal,
                                         SkipListGeometry geometry, ChunkRecordFormat format,
                                         long unfilteredChunkSize) throws IOException {
        LittleEndianReader in = file.reader(address, IDENTITY.structure(),
                file.readVerified(address, size(geometry, format, ordinal), IDENTITY));
        in.skip(IDENTITY.prefixLength());
        long clientAt = in.absolutePosition();
        int client = in.getUnsignedByte("client ID");
        if (client != format.clientId()) {
            throw in.corrupt(clientAt, "client ID", "the configuration's " + format.clientId(),
                    Integer.toString(client));
        }
        long ordinalAt = in.absolutePosition();
        long stored = in.getLength("ordinal");
        if (stored != ordinal) {
            throw in.corrupt(ordinalAt, "ordinal", ordinal + " (where the link leads)",
                    Long.toString(stored));
        }
        long heightAt = in.absolutePosition();
        int height = in.getUnsignedByte("height");
        if (height != geometry.height(ordinal)) {
            throw in.corrupt(heightAt, "height", Integer.toString(geometry.height(ordinal)),
                    Integer.toString(height));
        }
        long[] links = new long[height];
        for (int level = 0; level < height; level++) {
            links[level] = in.getAddress("link");
        }
        ChunkRecord[] records = new ChunkRecord[recordCount(geometry, ordinal)];
        for (int i = 0; i < records.length; i++) {
            records[i] = format.decode(in, unfilteredChunkSize);
        }
        return new SkipListSupernode(ordinal, links, records);
    }

    /**
     * Checks that the link at {@code level}, read at {@code address}, points where the geometry
     * says: at {@code expected}, the address of the supernode it must lead to.
     */
    public void checkLink(BlockFile file, long address, int level, long expected)
            throws CorruptFileException {
        if (links[level] != expected) {
            long at = address + IDENTITY.prefixLength() + 1 + Addresses.SIZE_OF_LENGTHS + 1
                    + (long) level * Addresses.SIZE_OF_OFFSETS;
            throw new CorruptFileException(file.path(), at, IDENTITY.structure(),
                    "link at level " + level, Long.toUnsignedString(expected),
                    Long.toUnsignedString(links[level]));
        }
    }
}
