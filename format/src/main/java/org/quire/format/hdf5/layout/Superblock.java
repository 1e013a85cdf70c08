package org.quire.format.hdf5.layout;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

import org.quire.format.UnsupportedFormatException;
import org.quire.format.WrongFormatException;

/**
 * What a reader needs from a superblock of any version (specification section II.A): versions
 * 0 and 1 ({@link SuperblockV0}, libhdf5's default "earliest" format) and versions 2 and 3
 * ({@link SuperblockV3}, checksummed; Quire writes version 3).
 */
public sealed interface Superblock permits SuperblockV0, SuperblockV3 {

    /** Offset of the version byte, right after the 8-byte signature, in every version. */
    int VERSION_OFFSET = 8;

    /** File consistency flags: b0 open for writing, b2 open for SWMR writing. */
    int consistencyFlags();

    /** End of file address, counted from the start of the file (user block included). */
    long endOfFileAddress();

    /** Absolute offset of the end-of-file address field, for error messages. */
    int endOfFileAddressOffset();

    /** Address of the root group's object header. */
    long rootGroupAddress();

    /**
     * Capacities of version-1 B-tree and symbol table nodes in this file, as far as the
     * superblock says (a superblock extension may hold others: {@link BTreeKValuesMessage}).
     */
    BTreeV1Ranks ranks();

    /** Address of the superblock extension's object header, or undefined (versions 0, 1: always). */
    long extensionAddress();

    /**
     * This superblock's bytes as stored in {@code file}, with the consistency flags cleared and
     * the end of file address moved to {@code endOfFile} (counted as {@link #endOfFileAddress}),
     * everything else as stored (base address, extension, checksum made again): what recovering
     * a crashed writer's file writes, as {@code h5clear} does.
     */
    byte[] clearedImage(BlockFile file, long endOfFile) throws IOException;

    /**
     * {@code stored} with the end of file address at {@code fieldAt} moved by as much as
     * {@code endOfFile} lies past {@code current}: however the stored value counts (with or
     * without a user block), it keeps counting so.
     */
    static void moveEndOfFile(ByteBuffer stored, int fieldAt, long current, long endOfFile) {
        stored.putLong(fieldAt, stored.getLong(fieldAt) + (endOfFile - current));
    }

    /**
     * Reads and checks the superblock, whatever its version, where libhdf5 looks for it: at
     * offset 0, or after a user block of 512, 1024, 2048, ... bytes. Addresses in {@code file}
     * are from then on relative to it.
     */
    static Superblock read(BlockFile file) throws IOException {
        int version = locate(file);
        if (version == NOT_FOUND) {
            throw new WrongFormatException(file.path(), "an HDF5", WrongFormatException.startInsteadOf(
                    file.read(0, (int) Math.min(file.size(), SIGNATURE_LENGTH), "superblock"))
                    + (file.size() == 0 ? "" : ", and no HDF5 signature 89 48 44 46 0d 0a 1a 0a (\".HDF....\") is"
                            + " at offset 0, 512, 1024, 2048, ..."));
        }
        return switch (version) {
            case 0, 1 -> SuperblockV0.read(file, version);
            case 2, 3 -> SuperblockV3.read(file);
            default -> throw new UnsupportedFormatException(file.path(), "superblock",
                    file.baseAddress(), "version " + version, "versions 0 to 3");
        };
    }

    /**
     * Finds the superblock as {@link #read} does, makes addresses in {@code file} relative to
     * it and returns its version byte, checking nothing else, or {@link #NOT_FOUND} (addresses
     * then count from the start of the file): a recovering writer learns the version before it
     * replays a journal, which may write the rest or, after a crash in create, the superblock.
     */
    static int locate(BlockFile file) throws IOException {
        file.useBaseAddress(0); // found again from the start: a journal replayed may move it
        long at = signatureOffset(file);
        if (at < 0) {
            return NOT_FOUND;
        }
        file.useBaseAddress(at);
        return file.read(0, VERSION_OFFSET + 1, "superblock")[VERSION_OFFSET] & 0xff;
    }

    /** What {@link #locate} returns when no offset holds the format signature. */
    int NOT_FOUND = -1;

    /**
     * Checks the stored base address: the superblock's own offset, or 0 in a file whose user
     * block was put before it after it was written ({@code cat block h5}); libhdf5 then takes
     * the superblock's offset as the base, and so does Quire (addresses stay relative to it).
     */
    static void checkBaseAddress(BlockFile file, long base, long baseAt)
            throws UnsupportedFormatException {
        if (base != file.baseAddress() && base != 0) {
            throw new UnsupportedFormatException(file.path(), "superblock base address", baseAt,
                    Long.toUnsignedString(base), "0 or the superblock's own offset "
                            + file.baseAddress());
        }
    }

    /**
     * The end of file address counted from the start of the file, as {@link #endOfFileAddress}
     * gives it: libhdf5 stores it counting the user block, so a user block prepended later
     * (stored base 0) moves it by the superblock's offset, as libhdf5 adjusts it.
     */
    static long endOfFileFromStart(BlockFile file, long storedBase, long storedEndOfFile) {
        return storedEndOfFile + (file.baseAddress() - storedBase);
    }

    /** The first offset of 0, 512, 1024, 2048, ... holding the format signature; else -1. */
    private static long signatureOffset(BlockFile file) throws IOException {
        byte[] signature = SuperblockV0.SIGNATURE_ONLY.signature();
        for (long at = 0; at <= file.size() - signature.length;
             at = at == 0 ? FIRST_USER_BLOCK_SIZE : 2 * at) {
            if (Arrays.equals(signature, file.read(at, signature.length,
                    "superblock"))) {
                return at;
            }
        }
        return -1;
    }

    /** Bytes of the format signature. */
    int SIGNATURE_LENGTH = 8;

    /** The smallest user block libhdf5 allows; larger ones are powers of two. */
    long FIRST_USER_BLOCK_SIZE = 512;
}
