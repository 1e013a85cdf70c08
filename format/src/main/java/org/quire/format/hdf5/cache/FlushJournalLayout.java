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
 * header   | "QJNL" | version (2) | 3 reserved bytes (0) |                          8 bytes
 * previous | kind 3 | 3 reserved | address u64 | length u32 | CRC32C u32 | bytes | 20 + length
 * block    | kind 1 | 3 reserved | address u64 | length u32 | CRC32C u32 | image | 20 + length
 * ...        (one block record per block of the flush, in the order written)
 * commit   | kind 2 | 3 reserved | block count u32 | CRC32C u32 |                  12 bytes
 * </pre>
 *
 * <p>The previous record holds the file's bytes, before this flush, where the flush's last
 * block goes (the superblock, which a flush always rewrites; cut at the file's end): with that
 * block's image it identifies the file the journal belongs to, which holds one or the other. A
 * record's CRC32C covers its address, length and bytes; the commit record's covers every byte
 * before its own CRC field (header, records, kind, reserved, count). A journal is committed
 * when a commit record ends it with the count and CRC matching. An empty file (the writer
 * truncates the journal once the blocks are in place), a header never written (zeros) and
 * anything without a valid commit record at its end hold nothing to replay: a write of the
 * journal cut off by a crash.
 */
final class FlushJournalLayout {

    static final byte[] MAGIC = "QJNL".getBytes(StandardCharsets.US_ASCII);
    static final int VERSION = 2;
    static final int HEADER_SIZE = 8;
    static final int KIND_BLOCK = 1;
    static final int KIND_COMMIT = 2;
    static final int KIND_PREVIOUS = 3;
    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 4;
    /** kind, reserved, address, length, CRC. */
    static final int BLOCK_HEADER_SIZE = 4 + 8 + 4 + 4;
    /** kind, reserved, count, CRC. */
    static final int COMMIT_SIZE = 4 + 4 + 4;

    private FlushJournalLayout() {
    }

    static void putHeader(ByteBuffer out) {
        out.put(MAGIC).put((byte) VERSION).put(new byte[3]);
    }

    static void putRecord(ByteBuffer out, int kind, long address, byte[] image) {
        out.put((byte) kind).put(new byte[3]).putLong(address).putInt(image.length)
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
