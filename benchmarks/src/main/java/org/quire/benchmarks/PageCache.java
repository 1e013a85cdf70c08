package org.quire.benchmarks;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The kernel's page cache between two measurements: {@link #flush} writes dirty pages back so that
 * one measurement's write-back does not land in the next one, {@link #drop} also empties the cache
 * so that the next read comes from the device. Dropping needs root and a writable
 * {@code /proc/sys/vm/drop_caches}; callers report when it was refused.
 */
public final class PageCache {

    private static final Path DROP_CACHES = Path.of("/proc/sys/vm/drop_caches");

    private PageCache() {
    }

    /** Runs {@code sync(1)}: every dirty page of every file system is written back when it returns. */
    public static void flush() throws IOException {
        Process sync = new ProcessBuilder("sync").inheritIO().start();
        try {
            int status = sync.waitFor();
            if (status != 0) {
                throw new IOException("sync exited with status " + status);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for sync", e);
        }
    }

    /**
     * Flushes, then drops clean pages, dentries and inodes ({@code echo 3 > drop_caches}).
     *
     * @return false when the kernel refused (not root, read-only /proc): reads will hit the cache
     */
    public static boolean drop() throws IOException {
        flush();
        try {
            Files.writeString(DROP_CACHES, "3");
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Reads {@code file} whole, so that the page cache holds it (if memory allows). */
    public static void load(Path file) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long at = 0;
            int read;
            while ((read = channel.read(buffer.clear(), at)) > 0) {
                at += read;
            }
        }
    }
}
