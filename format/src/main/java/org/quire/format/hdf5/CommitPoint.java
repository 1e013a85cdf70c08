package org.quire.format.hdf5;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;

import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.DataLayoutMessage;
import org.quire.format.hdf5.layout.DataspaceMessage;
import org.quire.format.hdf5.layout.HeaderMessage;
import org.quire.format.hdf5.layout.LittleEndianReader;
import org.quire.format.hdf5.layout.MetadataValidator;
import org.quire.format.hdf5.layout.ObjectHeaderV2;

/**
 * What an SWMR reader watches to tell a dataset's writer committed something: the block of its
 * (version-2) object header that holds both the dataspace and the data layout message, as last
 * read, verified and parsed. A writer commits by rewriting that block in place (the dataspace
 * is its commit point), so while the block reads back byte for byte the same, nothing was
 * committed and a refresh costs one read (into a buffer kept for it). When only the dataspace
 * message's body changed and the block's checksum holds (a writer's extend), that body is the
 * new extent ({@link #extendedSpace}); anything else (another message, a torn read) sends the
 * reader through the full, verified read of the header.
 */
final class CommitPoint {

    private final long address;
    private final byte[] image;
    /** Where the dataspace message's body lies in {@link #image}. */
    private final int spaceFrom;
    private final int spaceTo;
    /** The block as last read again, and the buffer over it. */
    private final byte[] reread;
    private final ByteBuffer rereadBuffer;

    private CommitPoint(long address, byte[] image, int spaceFrom, int spaceTo) {
        this.address = address;
        this.image = image;
        this.spaceFrom = spaceFrom;
        this.spaceTo = spaceTo;
        this.reread = new byte[image.length];
        this.rereadBuffer = ByteBuffer.wrap(reread);
    }

    /** The block of {@code header} holding both messages, or null when none holds both. */
    static CommitPoint of(ObjectHeaderV2.StoredHeader header) {
        for (ObjectHeaderV2.StoredChunk chunk : header.chunks()) {
            HeaderMessage dataspace = null;
            boolean layout = false;
            for (HeaderMessage message : chunk.messages()) {
                if (message.type() == DataspaceMessage.TYPE) {
                    dataspace = message;
                }
                layout |= message.type() == DataLayoutMessage.TYPE;
            }
            if (dataspace != null && layout) {
                int from = (int) (dataspace.bodyAddress() - chunk.address());
                return new CommitPoint(chunk.address(), chunk.image(), from,
                        from + dataspace.body().length);
            }
        }
        return null;
    }

    /** Reads the block again: whether it reads back as it was (no commit since). */
    boolean unchanged(BlockFile blocks) throws IOException {
        rereadBuffer.clear();
        blocks.read(address, rereadBuffer, "object header");
        return Arrays.equals(reread, image);
    }

    /**
     * After {@link #unchanged} found the block changed: the dataspace it now holds when nothing
     * but that message's body (and the checksum) changed and the checksum holds; otherwise
     * null. Every other byte being the same, the messages lie where they did.
     */
    DataspaceMessage extendedSpace(Path file)
            throws CorruptFileException, UnsupportedFormatException {
        int checksumAt = image.length - MetadataValidator.CHECKSUM_SIZE;
        if (!Arrays.equals(image, 0, spaceFrom, reread, 0, spaceFrom)
                || !Arrays.equals(image, spaceTo, checksumAt, reread, spaceTo, checksumAt)
                || !MetadataValidator.checksumMatches(reread)) {
            return null;
        }
        return DataspaceMessage.decode(new LittleEndianReader(file, address, "dataspace message",
                reread, spaceFrom, spaceTo - spaceFrom));
    }

    /** The commit point of the block as last read again (after {@link #extendedSpace}). */
    CommitPoint reread() {
        return new CommitPoint(address, reread.clone(), spaceFrom, spaceTo);
    }

    /** The dataspace message's body as last read again. */
    byte[] rereadSpace() {
        return Arrays.copyOfRange(reread, spaceFrom, spaceTo);
    }
}
