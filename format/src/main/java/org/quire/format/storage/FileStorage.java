package org.quire.format.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * A {@link Storage} over a real file, through a {@link FileChannel}. A failing operation throws
 * {@link StorageIOException} naming the file, the operation and the offset. Locks go through
 * the process's {@link ProcessFileLocks}, so several storages of one file in one JVM share
 * them as separate processes would, and closing one never drops another's lock.
 */
public final class FileStorage implements Storage {

    /** Opens real files. */
    public static final StorageOpener OPENER = FileStorage::open;

    private final Path path;
    private final FileChannel channel;
    /** Which file this is for the process's lock registry: device and inode, or the path. */
    private final Object fileKey;

    private FileStorage(Path path, FileChannel channel, Object fileKey) {
        this.path = path;
        this.channel = channel;
        this.fileKey = fileKey;
    }

    /**
     * Opens {@code path}, which must be a regular file if it exists: a directory, device, pipe or
     * socket is refused ({@link NotARegularFileException}). A failure to open keeps the JDK's
     * class ({@code NoSuchFileException}, {@code AccessDeniedException}, ...) with a reason that
     * names the operation, e.g. {@code /sys/x.sion: cannot create: permission denied}.
     */
    public static FileStorage open(Path path, OpenMode mode) throws IOException {
        OpenFailures.requireRegularFileIfExists(path);
        FileChannel channel;
        try {
            channel = FileChannel.open(path, options(mode));
        } catch (FileSystemException e) {
            throw OpenFailures.explain(path, mode, e);
        }
        return over(path, channel);
    }

    /** The storage of an open {@code channel} to {@code path}, whatever kind of file it is. */
    static FileStorage over(Path path, FileChannel channel) throws IOException {
        Object key;
        try {
            key = Files.readAttributes(path, BasicFileAttributes.class).fileKey();
        } catch (IOException e) {
            channel.close();
            throw new StorageIOException(path, "stat", StorageIOException.NO_OFFSET, e);
        }
        return new FileStorage(path, channel,
                key != null ? key : path.toAbsolutePath().normalize());
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

    /** Through the process's registry: see {@link ProcessFileLocks} for why. */
    @Override
    public StorageLock tryLock(long position, long size, boolean shared) throws IOException {
        try {
            return ProcessFileLocks.tryLock(fileKey, channel, position, size, shared);
        } catch (IOException e) {
            throw new StorageIOException(path, (shared ? "shared" : "exclusive") + " lock of "
                    + size + " bytes", position, e);
        }
    }

    @Override
    public void close() throws IOException {
        ProcessFileLocks.close(fileKey, channel);
    }
}
