package org.quire.format.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A {@link Storage} over a real file, through a {@link FileChannel}. A failing operation throws
 * {@link StorageIOException} naming the file, the operation and the offset. Locks go through
 * the process's {@link ProcessFileLocks}, so several storages of one file in one JVM share
 * them as separate processes would, and closing one never drops another's lock. While the JVM
 * holds locks on a file, a storage opened on it takes a channel a closed storage left open
 * (in the same mode) rather than a new descriptor: those channels cannot be closed before the
 * locks go, so a reader opening and closing the file in a loop (asking {@code writerStatus}
 * before each refresh) would otherwise run out of descriptors.
 */
public final class FileStorage implements Storage {

    /** Opens real files. */
    public static final StorageOpener OPENER = FileStorage::open;

    /** Opens tried while the path keeps naming another file after the open than before. */
    private static final int OPEN_ATTEMPTS = 3;

    private final Path path;
    private final FileChannel channel;
    /** Which file this is for the process's lock registry: device and inode, or the path. */
    private final Object fileKey;
    private final boolean writable;
    /** Set once: two threads closing at once must not park the channel twice. */
    private final AtomicBoolean closed = new AtomicBoolean();

    private FileStorage(Path path, FileChannel channel, Object fileKey, boolean writable) {
        this.path = path;
        this.channel = channel;
        this.fileKey = fileKey;
        this.writable = writable;
    }

    /**
     * Opens {@code path}, which must be a regular file if it exists: a directory, device, pipe or
     * socket is refused ({@link NotARegularFileException}). A failure to open keeps the JDK's
     * class ({@code NoSuchFileException}, {@code AccessDeniedException}, ...) with a reason that
     * names the operation, e.g. {@code /sys/x.sion: cannot create: permission denied}.
     */
    public static FileStorage open(Path path, OpenMode mode) throws IOException {
        OpenFailures.requireRegularFileIfExists(path);
        boolean writable = mode != OpenMode.READ;
        for (int attempt = 1; ; attempt++) {
            Object before = fileKey(path);
            if (before != null && (mode == OpenMode.READ || mode == OpenMode.READ_WRITE)) {
                FileChannel parked = ProcessFileLocks.unpark(before, writable);
                if (parked != null) {
                    return new FileStorage(path, parked, before, writable);
                }
            }
            FileChannel channel;
            try {
                channel = Uninterruptible.channel(FileChannel.open(path, options(mode)));
            } catch (FileSystemException e) {
                throw OpenFailures.explain(path, mode, e);
            }
            FileStorage storage = over(path, before, channel, writable);
            if (storage != null) {
                return storage;
            }
            if (attempt == OPEN_ATTEMPTS) {
                throw new StorageIOException(path, "open", StorageIOException.NO_OFFSET,
                        "another file took its name while it was being opened, "
                                + OPEN_ATTEMPTS + " times");
            }
        }
    }

    /** The file's device and inode, or null when it has none (or is missing). */
    private static Object fileKey(Path path) {
        try {
            return Files.readAttributes(path, BasicFileAttributes.class).fileKey();
        } catch (IOException e) {
            return null; // opening it says why
        }
    }

    /**
     * The storage of an open {@code channel} to {@code path}, whatever kind of file it is, or
     * null (the channel closed) when the path names another file now than {@code keyBefore},
     * its device and inode before opening (null if unknown): the path was replaced around the
     * open, and the channel may be either file's, so keying the lock registry by the path's
     * file now could file this storage's locks under another file.
     */
    static FileStorage over(Path path, Object keyBefore, FileChannel channel, boolean writable)
            throws IOException {
        Object key;
        try {
            key = Files.readAttributes(path, BasicFileAttributes.class).fileKey();
        } catch (IOException e) {
            channel.close();
            throw new StorageIOException(path, "stat", StorageIOException.NO_OFFSET, e);
        }
        if (keyBefore != null && !keyBefore.equals(key)) {
            channel.close();
            return null;
        }
        return new FileStorage(path, channel,
                key != null ? key : path.toAbsolutePath().normalize(), writable);
    }

    private static OpenOption[] options(OpenMode mode) {
        return switch (mode) {
            case READ -> new OpenOption[] {StandardOpenOption.READ};
            case READ_WRITE -> new OpenOption[] {StandardOpenOption.READ,
                    StandardOpenOption.WRITE};
            case CREATE_NEW -> new OpenOption[] {StandardOpenOption.READ,
                    StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW};
            case CREATE_OR_OPEN -> new OpenOption[] {StandardOpenOption.READ,
                    StandardOpenOption.WRITE, StandardOpenOption.CREATE, LinkOption.NOFOLLOW_LINKS};
        };
    }

    @Override
    public Path path() {
        return path;
    }

    @Override
    public long size() throws IOException {
        try {
            return open().size();
        } catch (IOException e) {
            throw new StorageIOException(path, "size", StorageIOException.NO_OFFSET, e);
        }
    }

    @Override
    public int read(ByteBuffer target, long position) throws IOException {
        try {
            return open().read(target, position);
        } catch (IOException e) {
            throw new StorageIOException(path, "read of " + target.remaining() + " bytes",
                    position, e);
        }
    }

    @Override
    public void write(ByteBuffer source, long position) throws IOException {
        long at = position;
        try {
            FileChannel open = open();
            while (source.hasRemaining()) {
                at += open.write(source, at);
            }
        } catch (IOException e) {
            throw new StorageIOException(path, "write of " + source.remaining() + " bytes", at,
                    e);
        }
    }

    @Override
    public void truncate(long size) throws IOException {
        try {
            open().truncate(size);
        } catch (IOException e) {
            throw new StorageIOException(path, "truncate to " + size + " bytes",
                    StorageIOException.NO_OFFSET, e);
        }
    }

    @Override
    public void force(boolean metadata) throws IOException {
        try {
            open().force(metadata);
        } catch (IOException e) {
            throw new StorageIOException(path, metadata ? "fsync" : "fdatasync",
                    StorageIOException.NO_OFFSET, e);
        }
    }

    /** Through the process's registry: see {@link ProcessFileLocks} for why. */
    @Override
    public StorageLock tryLock(long position, long size, boolean shared) throws IOException {
        try {
            return ProcessFileLocks.tryLock(fileKey, open(), position, size, shared);
        } catch (IOException e) {
            throw new StorageIOException(path, (shared ? "shared" : "exclusive") + " lock of "
                    + size + " bytes", position, e);
        }
    }

    @Override
    public void close() throws IOException {
        if (closed.compareAndSet(false, true)) {
            ProcessFileLocks.close(fileKey, channel, writable);
        }
    }

    /** The channel, unless this storage was closed (its channel may live on for another). */
    private FileChannel open() throws ClosedChannelException {
        if (closed.get()) {
            throw new ClosedChannelException();
        }
        return channel;
    }
}
