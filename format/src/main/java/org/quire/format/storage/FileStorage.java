package org.quire.format.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileSystemException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A {@link Storage} over a real file, through a {@link FileChannel}. A failing operation throws
 * {@link StorageIOException} naming the file, the operation and the offset.
 */
public final class FileStorage implements Storage {

    /** Opens real files. */
    public static final StorageOpener OPENER = FileStorage::open;

    private final Path path;
    private final FileChannel channel;

    private FileStorage(Path path, FileChannel channel) {
        this.path = path;
        this.channel = channel;
    }

    /**
     * Opens {@code path}, which must be a regular file if it exists: a directory, device, pipe or
     * socket is refused ({@link NotARegularFileException}). A failure to open keeps the JDK's
     * class ({@code NoSuchFileException}, {@code AccessDeniedException}, ...) with a reason that
     * names the operation, e.g. {@code /sys/x.sion: cannot create: permission denied}.
     */
    public static FileStorage open(Path path, OpenMode mode) throws IOException {
        OpenFailures.requireRegularFileIfExists(path);
        try {
            return over(path, FileChannel.open(path, options(mode)));
        } catch (FileSystemException e) {
            throw OpenFailures.explain(path, mode, e);
        }
    }

    /** The storage of an open {@code channel} to {@code path}, whatever kind of file it is. */
    static FileStorage over(Path path, FileChannel channel) {
        return new FileStorage(path, channel);
    }

    private static OpenOption[] options(OpenMode mode) {
        return switch (mode) {
            case READ -> new OpenOption[] {StandardOpenOption.READ};
            case READ_WRITE -> new OpenOption[] {StandardOpenOption.READ,
                    StandardOpenOption.WRITE};
            case CREATE_NEW -> new OpenOption[] {StandardOpenOption.READ,
                    StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW};
            case CREATE_OR_OPEN -> new OpenOption[] {StandardOpenOption.READ,
                    StandardOpenOption.WRITE, StandardOpenOption.CREATE};
        };
    }

    @Override
    public Path path() {
        return path;
    }

    @Override
    public long size() throws IOException {
        try {
            return channel.size();
        } catch (IOException e) {
            throw new StorageIOException(path, "size", StorageIOException.NO_OFFSET, e);
        }
    }

    @Override
    public int read(ByteBuffer target, long position) throws IOException {
        try {
            return channel.read(target, position);
        } catch (IOException e) {
            throw new StorageIOException(path, "read of " + target.remaining() + " bytes",
                    position, e);
        }
    }

    @Override
    public void write(ByteBuffer source, long position) throws IOException {
        long at = position;
        try {
            while (source.hasRemaining()) {
                at += channel.write(source, at);
            }
        } catch (IOException e) {
            throw new StorageIOException(path, "write of " + source.remaining() + " bytes", at,
                    e);
        }
    }

    @Override
    public void truncate(long size) throws IOException {
        try {
            channel.truncate(size);
        } catch (IOException e) {
            throw new StorageIOException(path, "truncate to " + size + " bytes",
                    StorageIOException.NO_OFFSET, e);
        }
    }

    @Override
    public void force(boolean metadata) throws IOException {
        try {
            channel.force(metadata);
        } catch (IOException e) {
            throw new StorageIOException(path, metadata ? "fsync" : "fdatasync",
                    StorageIOException.NO_OFFSET, e);
        }
    }

    @Override
    public StorageLock tryLock(boolean shared) throws IOException {
        FileLock lock;
        try {
            lock = channel.tryLock(0, Long.MAX_VALUE, shared);
        } catch (OverlappingFileLockException e) {
            // Another channel of this JVM holds it: a conflict like any other process's lock.
            return null;
        }
        if (lock == null) {
            return null;
        }
        return new StorageLock() {
            @Override
            public boolean shared() {
                return lock.isShared();
            }

            @Override
            public void close() throws IOException {
                lock.release();
            }
        };
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
