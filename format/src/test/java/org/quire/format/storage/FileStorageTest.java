package org.quire.format.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.NonWritableChannelException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.StartsOutsideProgram;
import org.quire.format.hdf5.ExternalTools;

/**
 * {@link FileStorage} on real files: what each open mode allows, reads at the end, truncation and
 * locks; failures name the file, the operation and the offset.
 */
class FileStorageTest {

    @TempDir
    Path directory;

    @Test
    void opensAsTheModeSaysAndNeverTruncates() throws IOException {
        Path file = directory.resolve("modes.bin");
        assertThrows(NoSuchFileException.class, () -> FileStorage.open(file, OpenMode.READ));
        assertThrows(NoSuchFileException.class, () -> FileStorage.open(file, OpenMode.READ_WRITE));
        try (Storage created = FileStorage.OPENER.open(file, OpenMode.CREATE_NEW)) {
            assertEquals(file, created.path());
            created.write(ByteBuffer.wrap(new byte[] {1, 2, 3}), 0);
        }
        assertThrows(FileAlreadyExistsException.class, () -> FileStorage.open(file, OpenMode.CREATE_NEW));
        try (Storage reopened = FileStorage.open(file, OpenMode.CREATE_OR_OPEN)) {
            assertEquals(3, reopened.size(), "CREATE_OR_OPEN keeps the bytes");
        }
        try (Storage reader = FileStorage.open(file, OpenMode.READ)) {
            assertThrows(NonWritableChannelException.class, () -> reader.write(ByteBuffer.allocate(1), 0));
        }
        try (Storage writer = FileStorage.open(file, OpenMode.READ_WRITE)) {
            writer.write(ByteBuffer.wrap(new byte[] {9}), 5);
            writer.force(true);
        }
        assertArrayEquals(new byte[] {1, 2, 3, 0, 0, 9}, Files.readAllBytes(file), "a write past the end leaves a hole");
    }

    @Test
    void readsStopAtTheEndAndTruncationOnlyShortens() throws IOException {
        Path file = directory.resolve("ends.bin");
        try (Storage storage = FileStorage.open(file, OpenMode.CREATE_NEW)) {
            ByteBuffer source = ByteBuffer.wrap(new byte[] {0, 1, 2, 3, 4, 5, 6, 7});
            source.position(2);
            storage.write(source, 0);
            assertFalse(source.hasRemaining(), "every remaining byte is written");
            assertEquals(6, storage.size());
            assertEquals(-1, storage.read(ByteBuffer.allocate(1), 6));

            ByteBuffer whole = ByteBuffer.allocate(4);
            assertTrue(storage.readFully(whole, 2));
            assertArrayEquals(new byte[] {4, 5, 6, 7}, whole.array());
            ByteBuffer beyond = ByteBuffer.allocate(4);
            assertFalse(storage.readFully(beyond, 4), "the file ends after 2 of the 4 bytes");
            assertEquals(2, beyond.position());

            storage.truncate(10);
            assertEquals(6, storage.size(), "truncating to a larger size does nothing");
            storage.truncate(3);
            assertEquals(3, storage.size());
        }
    }

    @Test
    void locksConflictAcrossStoragesOfOneProcessAndAreReleasedByClose() throws IOException {
        Path file = directory.resolve("locks.bin");
        Files.write(file, new byte[8]);
        try (Storage reader = FileStorage.open(file, OpenMode.READ);
             Storage writer = FileStorage.open(file, OpenMode.READ_WRITE)) {
            try (StorageLock shared = reader.tryLock(0, Long.MAX_VALUE, true)) {
                assertNotNull(shared);
                assertTrue(shared.shared());
                assertNull(writer.tryLock(0, Long.MAX_VALUE, false), "a shared lock is held through another storage");
            }
            try (StorageLock exclusive = writer.tryLock(0, Long.MAX_VALUE, false)) {
                assertNotNull(exclusive, "closing the shared lock released it");
                assertFalse(exclusive.shared());
                assertNull(reader.tryLock(0, Long.MAX_VALUE, true));
            }
        }
    }

    /**
     * A JDK file channel closes itself when its thread is interrupted, and that close would drop
     * the writer's lock held through another storage of the file: another process could then
     * take it while the writer goes on writing. Every channel is uninterruptible; the read
     * completes and the interrupt stays pending for the caller.
     */
    @Test
    @StartsOutsideProgram
    void anInterruptedReadNeverDropsTheProcesssLocks() throws Exception {
        Path file = directory.resolve("interrupted.bin");
        Files.write(file, new byte[] {5, 6});
        try (Storage writer = FileStorage.open(file, OpenMode.READ_WRITE);
             StorageLock lock = writer.tryLock(0, 1, false);
             Storage reader = FileStorage.open(file, OpenMode.READ)) {
            assertNotNull(lock);
            ByteBuffer two = ByteBuffer.allocate(2);
            Thread.currentThread().interrupt();
            try {
                assertEquals(2, reader.read(two, 0));
                assertTrue(Thread.currentThread().isInterrupted(), "the interrupt stays pending");
            } finally {
                Thread.interrupted();
            }
            assertEquals(6, two.get(1));
            assertFalse(anotherProcessLocks(file, 0, false), "the writer's lock still holds");
            writer.write(ByteBuffer.wrap(new byte[] {7}), 0);
        }
        assertArrayEquals(new byte[] {7, 6}, Files.readAllBytes(file));
    }

    /** A closed channel's exception has no message: the storage's says what happened. */
    @Test
    void aFailureWithoutTheSystemsWordsSaysWhatHappened() throws IOException {
        Path file = directory.resolve("said.bin");
        Storage storage = FileStorage.open(file, OpenMode.CREATE_NEW);
        storage.close();
        StorageIOException closed = assertThrows(StorageIOException.class, storage::size);
        assertEquals(file + ": size failed: the file is closed", closed.getMessage());
    }

    @Test
    void regionsConflictOnlyWhereTheyOverlap() throws IOException {
        Path file = directory.resolve("regions.bin");
        Files.write(file, new byte[8]);
        long far = Long.MAX_VALUE - 2;
        try (Storage a = FileStorage.open(file, OpenMode.READ_WRITE);
             Storage b = FileStorage.open(file, OpenMode.READ_WRITE);
             StorageLock writer = a.tryLock(far, 1, false)) {
            assertNotNull(writer, "a byte past the end of the file locks");
            try (StorageLock other = b.tryLock(far + 1, 1, false)) {
                assertNotNull(other, "the next byte is another region");
            }
            assertNull(b.tryLock(far, 1, true), "same byte, exclusive held");
            assertNull(b.tryLock(far - 1, 2, false), "overlapping range");
        }
    }

    /** Whether another process ({@link LockProbe}) can lock the byte at {@code position}. */
    private static boolean anotherProcessLocks(Path file, long position, boolean shared)
            throws Exception {
        ExternalTools.startsOutsideProgram("a second JVM (LockProbe)");
        Process probe = new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                Path.of(LockProbe.class.getProtectionDomain().getCodeSource().getLocation()
                        .toURI()).toString(), LockProbe.class.getName(), file.toString(),
                Long.toString(position), shared ? "shared" : "exclusive")
                .redirectErrorStream(true).start();
        String answer = new String(probe.getInputStream().readAllBytes()).trim();
        probe.waitFor();
        assertTrue(answer.equals("locked") || answer.equals("refused"), answer);
        return answer.equals("locked");
    }

    /**
     * POSIX drops every lock of a process on a file when any of its descriptors closes; the
     * registry keeps closed storages' channels open while a lock is held.
     */
    @Test
    @StartsOutsideProgram
    void closingAStorageNeverDropsTheProcesssOtherLocks() throws Exception {
        Path file = directory.resolve("kept.bin");
        Files.write(file, new byte[8]);
        long at = 1L << 40;
        Storage first = FileStorage.open(file, OpenMode.READ);
        Storage second = FileStorage.open(file, OpenMode.READ);
        StorageLock firstLock = first.tryLock(at, 1, true);
        StorageLock secondLock = second.tryLock(at, 1, true);
        assertNotNull(firstLock);
        assertNotNull(secondLock, "two shared holders in one JVM, as in two processes");
        firstLock.close();
        first.close(); // its channel took the OS lock: kept open for the second holder
        try (Storage refused = FileStorage.open(file, OpenMode.READ_WRITE)) {
            assertNull(refused.tryLock(at, 1, false));
        } // and closing a storage that holds nothing drops nothing either
        assertFalse(anotherProcessLocks(file, at, false), "the shared lock still holds");
        assertTrue(anotherProcessLocks(file, at, true));
        secondLock.close();
        second.close();
        assertTrue(anotherProcessLocks(file, at, false), "released with the last holder");
    }

    /**
     * While the JVM holds a lock on a file, storages opened and closed on it in a loop (a
     * follower asking writerStatus before each refresh) take the channel a closed one left open,
     * in the same mode, instead of a new descriptor each: without that, each kept one more
     * descriptor open until the lock went, and a long follow ran out of them ("Too many open
     * files"). A closed storage refuses every operation even when its channel lives on.
     */
    @Test
    void storagesOpenedWhileALockIsHeldReuseTheChannelsClosedOnesLeftOpen() throws Exception {
        Path file = directory.resolve("probed.bin");
        Files.write(file, new byte[] {7});
        Path descriptors = Path.of("/proc/self/fd");
        try (Storage holder = FileStorage.open(file, OpenMode.READ);
             StorageLock lock = holder.tryLock(1L << 40, 1, true)) {
            assertNotNull(lock);
            Storage first = FileStorage.open(file, OpenMode.READ);
            first.close();
            long open;
            try (var listing = Files.list(descriptors)) {
                open = listing.count();
            }
            for (int i = 0; i < 500; i++) {
                try (Storage probe = FileStorage.open(file, OpenMode.READ)) {
                    ByteBuffer one = ByteBuffer.allocate(1);
                    assertEquals(1, probe.read(one, 0));
                    assertEquals(7, one.get(0));
                }
            }
            try (var listing = Files.list(descriptors)) {
                assertEquals(open, listing.count(), "descriptors open after 500 probes");
            }
            StorageIOException closed = assertThrows(StorageIOException.class,
                    () -> first.read(ByteBuffer.allocate(1), 0));
            assertTrue(closed.getMessage().startsWith(file + ": read of 1 bytes"),
                    closed.getMessage());
            try (Storage writer = FileStorage.open(file, OpenMode.READ_WRITE)) {
                writer.write(ByteBuffer.wrap(new byte[] {9}), 0); // not the read-only channel
            }
            try (Storage reader = FileStorage.open(file, OpenMode.READ)) {
                assertThrows(NonWritableChannelException.class,
                        () -> reader.write(ByteBuffer.wrap(new byte[] {1}), 0));
            }
        }
        assertArrayEquals(new byte[] {9}, Files.readAllBytes(file));
    }

    /**
     * Two threads closing one storage at once must park its channel once: parked twice, two
     * storages opened next both took it, and closing one closed the other's file.
     */
    @Test
    void closingOneStorageFromTwoThreadsAtOnceParksItsChannelOnce() throws Exception {
        Path file = directory.resolve("raced.bin");
        Files.write(file, new byte[] {3});
        ExecutorService other = Executors.newSingleThreadExecutor();
        try (Storage holder = FileStorage.open(file, OpenMode.READ)) {
            for (int i = 0; i < 3_000; i++) {
                StorageLock lock = holder.tryLock(1L << 40, 1, true);
                Storage raced = FileStorage.open(file, OpenMode.READ);
                AtomicInteger ready = new AtomicInteger(); // spin, so both close at once
                Future<?> second = other.submit(() -> {
                    ready.incrementAndGet();
                    while (ready.get() < 2) {
                        Thread.onSpinWait();
                    }
                    raced.close();
                    return null;
                });
                ready.incrementAndGet();
                while (ready.get() < 2) {
                    Thread.onSpinWait();
                }
                raced.close();
                second.get();
                Storage first = FileStorage.open(file, OpenMode.READ);
                Storage next = FileStorage.open(file, OpenMode.READ);
                lock.close();
                first.close();
                assertEquals(1, next.read(ByteBuffer.allocate(1), 0), "round " + i);
                next.close();
            }
        } finally {
            other.shutdownNow();
        }
    }

    /**
     * The path replaced between its stat and the open: the channel is the new file's, and
     * keying its locks by the stat would file them under the old one. Such an open is retried.
     */
    @Test
    void aFileReplacedWhileBeingOpenedIsNotKeyedAsTheOldOne() throws Exception {
        Path file = directory.resolve("replaced.bin");
        Path replacement = directory.resolve("replacement.bin");
        Files.write(file, new byte[] {1});
        Files.write(replacement, new byte[] {2});
        Object before = Files.readAttributes(file, BasicFileAttributes.class).fileKey();
        Files.move(replacement, file, StandardCopyOption.REPLACE_EXISTING);
        FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
        assertNull(FileStorage.over(file, before, channel, false));
        assertFalse(channel.isOpen());
        Object now = Files.readAttributes(file, BasicFileAttributes.class).fileKey();
        try (Storage storage = FileStorage.over(file, now,
                FileChannel.open(file, StandardOpenOption.READ), false)) {
            assertNotNull(storage);
        }
    }

    @Test
    void theDefaultOpenerDeletesRealFiles() throws IOException {
        Path file = directory.resolve("gone.bin");
        Files.write(file, new byte[1]);
        assertTrue(FileStorage.OPENER.deleteIfExists(file));
        assertFalse(Files.exists(file));
        assertFalse(FileStorage.OPENER.deleteIfExists(file));
    }

    /** Opened by {@link FileStorage#over}: {@link FileStorage#open} refuses a device as a container. */
    @Test
    void aFullDeviceNamesTheFileTheWriteAndItsOffset() throws IOException {
        Path full = Path.of("/dev/full");
        assertTrue(Files.isWritable(full), "this test needs Linux's /dev/full (always full)");
        try (Storage storage = FileStorage.over(full, null, FileChannel.open(full, StandardOpenOption.WRITE), true)) {
            StorageIOException error = assertThrows(StorageIOException.class,
                    () -> storage.write(ByteBuffer.wrap(new byte[4096]), 8192));
            assertEquals(full, error.file());
            assertEquals(8192, error.offset());
            assertTrue(error.getMessage().contains("/dev/full: write of 4096 bytes at offset 8192"
                    + " failed: No space left on device"), error.getMessage());
        }
    }

    /** Nothing is opened, let alone truncated or written: a device would take the data. */
    @Test
    void directoriesAndDevicesAreRefusedInEveryModeNamingWhatTheyAre() {
        for (OpenMode mode : OpenMode.values()) {
            NotARegularFileException device = assertThrows(NotARegularFileException.class,
                    () -> FileStorage.open(Path.of("/dev/full"), mode));
            assertEquals("/dev/full: not a regular file: a character device", device.getMessage());
            NotARegularFileException dir = assertThrows(NotARegularFileException.class,
                    () -> FileStorage.open(directory, mode));
            assertEquals(directory + ": not a regular file: a directory", dir.getMessage());
        }
    }

    /** The JDK's exceptions keep their class, and gain the operation and why. */
    @Test
    void aFailedOpenSaysWhatWasTriedAndWhy() throws IOException {
        Path missing = directory.resolve("nothing.bin");
        assertEquals(missing + ": cannot open for reading: no such file",
                assertThrows(NoSuchFileException.class, () -> FileStorage.open(missing, OpenMode.READ)).getMessage());
        Path inMissingDirectory = directory.resolve("no/such/dir/x.sion");
        assertEquals(inMissingDirectory + ": cannot create: its directory " + directory.resolve("no/such/dir")
                + " does not exist", assertThrows(NoSuchFileException.class,
                        () -> FileStorage.open(inMissingDirectory, OpenMode.CREATE_OR_OPEN)).getMessage());
        Path existing = Files.write(directory.resolve("there.bin"), new byte[1]);
        assertEquals(existing + ": cannot create: it exists already", assertThrows(FileAlreadyExistsException.class,
                () -> FileStorage.open(existing, OpenMode.CREATE_NEW)).getMessage());
    }

    @Test
    void everyOperationOnAClosedFileNamesIt() throws IOException {
        Path path = directory.resolve("closed.h5");
        Storage storage = FileStorage.open(path, OpenMode.CREATE_NEW);
        storage.close();
        StorageIOException write = assertThrows(StorageIOException.class,
                () -> storage.write(ByteBuffer.wrap(new byte[3]), 10));
        assertEquals(10, write.offset());
        StorageIOException truncate = assertThrows(StorageIOException.class,
                () -> storage.truncate(0));
        assertTrue(truncate.getMessage().startsWith(path + ": truncate to 0 bytes failed"),
                truncate.getMessage());
        StorageIOException force = assertThrows(StorageIOException.class,
                () -> storage.force(true));
        assertEquals(StorageIOException.NO_OFFSET, force.offset());
        assertThrows(StorageIOException.class, () -> storage.read(ByteBuffer.allocate(4), 0));
        assertThrows(StorageIOException.class, storage::size);
    }
}
