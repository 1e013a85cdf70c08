package org.quire.format.storage;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A child JVM of {@link FileStorageTest}: tries to lock one byte of a file as another process
 * would and prints "locked" or "refused".
 *
 * <pre>java -cp TEST_CLASSES org.quire.format.storage.LockProbe FILE POSITION shared|exclusive</pre>
 */
public final class LockProbe {

    private LockProbe() {
    }

    public static void main(String[] args) throws IOException {
        boolean shared = args[2].equals("shared");
        try (FileChannel channel = FileChannel.open(Path.of(args[0]), StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            FileLock lock = channel.tryLock(Long.parseLong(args[1]), 1, shared);
            System.out.println(lock != null ? "locked" : "refused");
        }
    }
}
