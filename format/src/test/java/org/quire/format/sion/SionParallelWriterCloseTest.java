package org.quire.format.sion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.Storage;
import org.quire.format.storage.StorageLock;

/** Close goes on after a failure and reports the first one, the later ones suppressed in it. */
class SionParallelWriterCloseTest {

    @TempDir
    Path directory;

    /** Real file storage whose forces and close fail, each with a numbered message, once armed. */
    private static final class FailingStorage implements Storage {
        private final Storage real;
        private final AtomicBoolean armed;
        private final AtomicInteger failures;

        FailingStorage(Storage real, AtomicBoolean armed, AtomicInteger failures) {
            this.real = real;
            this.armed = armed;
            this.failures = failures;
        }

        private void failIfArmed(String operation) throws IOException {
            if (armed.get()) {
                throw new IOException(operation + " failed (" + failures.incrementAndGet() + ")");
            }
        }

        @Override
        public Path path() {
            return real.path();
        }

        @Override
        public long size() throws IOException {
            return real.size();
        }

        @Override
        public int read(ByteBuffer target, long position) throws IOException {
            return real.read(target, position);
        }

        @Override
        public void write(ByteBuffer source, long position) throws IOException {
            real.write(source, position);
        }

        @Override
        public void truncate(long size) throws IOException {
            real.truncate(size);
        }

        @Override
        public void force(boolean metadata) throws IOException {
            failIfArmed("force");
            real.force(metadata);
        }

        @Override
        public StorageLock tryLock(boolean shared) throws IOException {
            return real.tryLock(shared);
        }

        @Override
        public void close() throws IOException {
            real.close();
            failIfArmed("close");
        }
    }

    @Test
    void aFailedForceIsThrownWithTheLaterFailuresSuppressed() throws Exception {
        AtomicBoolean armed = new AtomicBoolean();
        AtomicInteger failures = new AtomicInteger();
        SionWriteOptions options = SionWriteOptions.defaults().withJournal(false).withStorage((path, mode) ->
                new FailingStorage(FileStorage.OPENER.open(path, mode), armed, failures));
        Path name = directory.resolve("failing.sion");
        IOException thrown = ThreadGroupCollectives.run(1, collectives -> {
            SionParallelWriter writer = SionParallelWriter.open(name, collectives, 100, 1, 64, options);
            writer.write(new byte[] {1, 2, 3});
            armed.set(true);
            return assertThrows(IOException.class, writer::close);
        }).get(0);

        // The force before the closing writes, the first force of the closing writes, then close.
        assertEquals("force failed (1)", thrown.getMessage());
        List<String> suppressed = Arrays.stream(thrown.getSuppressed()).map(Throwable::getMessage).toList();
        assertEquals(List.of("force failed (2)", "close failed (3)"), suppressed);
    }
}
