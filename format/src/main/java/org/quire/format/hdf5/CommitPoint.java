package org.quire.format.hdf5;

import java.io.IOException;
import java.util.Arrays;

import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.DataLayoutMessage;
import org.quire.format.hdf5.layout.DataspaceMessage;
import org.quire.format.hdf5.layout.HeaderMessage;
import org.quire.format.hdf5.layout.ObjectHeaderV2;

/**
 * What an SWMR reader watches to tell a dataset's writer committed something: the block of its
 * (version-2) object header that holds both the dataspace and the data layout message, as last
 * read, verified and parsed. A writer commits by rewriting that block in place (the dataspace
 * is its commit point), so while the block reads back byte for byte the same, nothing was
 * committed and a refresh costs one read. Anything else (other bytes, a torn read) sends the
 * reader through the full, verified read of the header.
 */
final class CommitPoint {

    private final long address;
    private final byte[] image;

    private CommitPoint(long address, byte[] image) {
        this.address = address;
        this.image = image;
    }

    /** The block of {@code header} holding both messages, or null when none holds both. */
    static CommitPoint of(ObjectHeaderV2.StoredHeader header) {
        for (ObjectHeaderV2.StoredChunk chunk : header.chunks()) {
            boolean dataspace = false;
            boolean layout = false;
            for (HeaderMessage message : chunk.messages()) {
                dataspace |= message.type() == DataspaceMessage.TYPE;
                layout |= message.type() == DataLayoutMessage.TYPE;
            }
            if (dataspace && layout) {
                return new CommitPoint(chunk.address(), chunk.image());
            }
        }
        return null;
    }

    /** Whether the block reads back as it was: no commit since. */
    boolean unchanged(BlockFile blocks) throws IOException {
        return Arrays.equals(blocks.read(address, image.length, "object header"), image);
    }
}
