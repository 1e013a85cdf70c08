package org.quire.format.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** A {@link Storage} over a real file, through a {@link FileChannel}. */
public final class FileStorage implements Storage {

    /** Opens real files. */
    public static final StorageOpener OPENER = FileStorage::open;

    private final Path path;
    private final FileChannel channel;

    private FileStorage(Path path, FileChannel channel) {
        this.path = path;
        this.channel = channel;
    }

    public static FileStorage open(Path path, OpenMode mode) throws IOException {
        return new FileStorage(path, FileChannel.open(path, options(mode)));
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
        return channel.size();
    }

    @Override
    public int read(ByteBuffer target, long position) throws IOException {
        return channel.read(target, position);
    }

    @Override
    public void write(ByteBuffer source, long position) throws IOException {
        long at = position;
        while (source.hasRemaining()) {
            at += channel.write(source, at);
        }
    }

    @Override
    public void truncate(long size) throws IOException {
        channel.truncate(size);
    }

    @Override
    public void force(boolean metadata) throws IOException {
        channel.force(metadata);
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
