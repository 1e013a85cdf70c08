package org.quire.format.sion;

import java.io.Closeable;
import java.io.IOException;
import java.util.Collection;

/** Closing the channels (or journals) a reader or recovery holds on the physical files of a set. */
final class FileChannels {

    private FileChannels() {
    }

    /** Closes every channel, even when one fails; throws the first failure with the others suppressed. */
    static void closeAll(Collection<? extends Closeable> channels) throws IOException {
        IOException failure = null;
        for (Closeable channel : channels) {
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
    static void closeAllAfter(Collection<? extends Closeable> channels, Throwable cause) {
        try {
            closeAll(channels);
        } catch (IOException e) {
            cause.addSuppressed(e);
        }
    }
}
