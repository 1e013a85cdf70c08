package org.quire.format.sion;

import java.io.Closeable;
import java.io.IOException;
import java.util.Collection;

/** Closing the storages (or journals) a writer, reader or recovery holds on the physical files of a set. */
final class Closing {

    private Closing() {
    }

    /** Closes every one, even when one fails; throws the first failure with the others suppressed. */
    static void closeAll(Collection<? extends Closeable> resources) throws IOException {
        IOException failure = null;
        for (Closeable resource : resources) {
            try {
                resource.close();
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

    /** Closes every one after {@code cause} made them useless; close failures are added to it. */
    static void closeAllAfter(Collection<? extends Closeable> resources, Throwable cause) {
        try {
            closeAll(resources);
        } catch (IOException e) {
            cause.addSuppressed(e);
        }
    }
}
