package org.quire.format.hdf5.cache;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * The byte layout of Quire's flush journal, {@code <file>.qjnl} beside an HDF5 file being
 * written (Quire's own format, not part of HDF5; docs/hdf5.md, "Crashes and recovery"). All
 * integers little-endian.
 *
 * <pre>
 * header   | "QJNL" | version (1) | 3 reserved bytes (0) |                          8 bytes
 * block    | kind 1 | 3 reserved | address u64 | length u32 | CRC32C u32 | image | 20 + length
 * commit   | kind 2 | 3 reserved | block count u32 | CRC32C u32 |                  12 bytes
 * </pre>
 *
 * <p>A block record's CRC32C covers its address, length and image; the commit record's covers
 * every byte before its own CRC field (header, block records, kind, reserved, count). A journal
 * is committed when a commit record follows its blocks with the count and CRC matching; an
 * empty file (the writer truncates the journal once the blocks are in place) and anything
 * without a valid commit record hold nothing to replay.
 */
final class FlushJournalLayout {

    static final byte[] MAGIC = "QJNL".getBytes(StandardCharsets.US_ASCII);
    static final int VERSION = 1;
    static final int HEADER_SIZE = 8;
    static final int KIND_BLOCK = 1;
    static final int KIND_COMMIT = 2;
    /** kind, reserved, address, length, CRC. */
    static final int BLOCK_HEADER_SIZE = 4 + 8 + 4 + 4;
    /** kind, reserved, count, CRC. */
    static final int COMMIT_SIZE = 4 + 4 + 4;

    private FlushJournalLayout() {
    }

    static void putHeader(ByteBuffer out) {
        out.put(MAGIC).put((byte) VERSION).put(new byte[3]);
    }

    static void putBlock(ByteBuffer out, long address, byte[] image) {
        out.put((byte) KIND_BLOCK).put(new byte[3]).putLong(address).putInt(image.length)
                .putInt(blockChecksum(address, image)).put(image);
    }

    /** Appends the commit record; {@code out} holds the whole journal from position 0. */
    static void putCommit(ByteBuffer out, int blocks) {
        out.put((byte) KIND_COMMIT).put(new byte[3]).putInt(blocks);
        CRC32C crc = new CRC32C();
        crc.update(out.array(), 0, out.position());
        out.putInt((int) crc.getValue());
    }

    static int blockChecksum(long address, byte[] image) {
        CRC32C crc = new CRC32C();
        crc.update(ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN).putLong(address)
                .putInt(image.length).array());
        crc.update(image);
        return (int) crc.getValue();
    }

    static int recordSize(byte[] image) {
        return BLOCK_HEADER_SIZE + image.length;
    }
}
