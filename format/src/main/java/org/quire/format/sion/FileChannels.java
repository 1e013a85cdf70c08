package org.quire.format.sion;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.Collection;

/** Closing the channels a reader holds on the physical files of a set. */
final class FileChannels {

    private FileChannels() {
    }

    /** Closes every channel, even when one fails; throws the first failure with the others suppressed. */
    static void closeAll(Collection<FileChannel> channels) throws IOException {
        IOException failure = null;
        for (FileChannel channel : channels) {
            try {
                channel.close();
            } catch (IOException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Closes every channel after {@code cause} made them useless; close failures are added to it. */
    static void closeAllAfter(Collection<FileChannel> channels, Throwable cause) {
        try {
            closeAll(channels);
        } catch (IOException e) {
            cause.addSuppressed(e);
        }
    }
}
