package org.quire.format.sion;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.OpenMode;
import org.quire.format.storage.Storage;
import org.quire.format.storage.StorageOpener;

/**
 * Rewrites a SION file or set as one physical file with exactly one chunk per task, sized to the
 * task's data, as SIONlib's {@code siondefrag} does (reference section 4): the serial writer with
 * chunk size = task size, the given block size ({@code -q 1} = no alignment), the stored global
 * ranks, the user-data byte order and the key-value mode of the input. For the same input and
 * block size the output equals siondefrag's byte for byte, apart from the stored name.
 *
 * <p>The output is written aside ({@link SionFileNames#partial}) and renamed into place once it is
 * closed: a failure (a full disk, a bad input found midway) leaves no partial file under the
 * output's name, and an existing output stays as it was until the new one is complete. The
 * stored name is the output's.
 */
public final class SionDefragmenter {

    private static final int COPY_BUFFER_SIZE = 1 << 20;

    private SionDefragmenter() {
    }

    public static void defragment(Path input, Path output, int fsBlockSize, boolean fsyncOnClose) throws IOException {
        defragment(input, output, fsBlockSize, fsyncOnClose, FileStorage.OPENER);
    }

    /** {@link #defragment(Path, Path, int, boolean)}, writing through {@code disk}. */
    static void defragment(Path input, Path output, int fsBlockSize, boolean fsyncOnClose, StorageOpener disk)
            throws IOException {
        Path partial = SionFileNames.partial(output);
        try {
            write(input, output, fsBlockSize, fsyncOnClose, new StorageOpener() {
                // The writer names the output (its name is stored in META1); its bytes go to the partial file.
                @Override
                public Storage open(Path path, OpenMode mode) throws IOException {
                    return disk.open(partial, mode);
                }

                @Override
                public boolean deleteIfExists(Path path) throws IOException {
                    return disk.deleteIfExists(partial);
                }
            });
            Files.move(partial, output, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            try {
                Files.deleteIfExists(partial);
            } catch (IOException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }

    /** Writes the defragmented form of {@code input} under {@code output}'s name, through {@code disk}. */
    private static void write(Path input, Path output, int fsBlockSize, boolean fsyncOnClose, StorageOpener disk)
            throws IOException {
        try (SionFile sion = SionFile.open(input)) {
            int taskCount = sion.taskCount();
            long[] sizes = new long[taskCount];
            long[] globalRanks = new long[taskCount];
            for (SionTask task : sion.tasks()) {
                sizes[task.index()] = task.totalBytes();
                globalRanks[task.index()] = task.globalRank();
            }
            SionWriteOptions options = SionWriteOptions.defaults().withKeyValueMode(sion.keyValueMode())
                    .withUserDataOrder(sion.userDataOrder()).withMetadataOrder(ByteOrder.nativeOrder())
                    .withFsyncOnClose(fsyncOnClose).withStorage(disk);
            try (SionSerialWriter writer = SionSerialWriter.create(output, sizes, globalRanks, fsBlockSize, options)) {
                for (SionTask task : sion.tasks()) {
                    writer.selectTask(task.index());
                    if (sion.keyValueMode() == KeyValueMode.INLINE) {
                        copyRecords(sion, task, writer);
                    } else {
                        copyStream(sion, task, writer);
                    }
                }
            }
        }
    }

    /** The whole stream fits the task's single chunk, so pieces of any size land back to back. */
    private static void copyStream(SionFile sion, SionTask task, SionSerialWriter writer) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(COPY_BUFFER_SIZE, Math.max(1, task.totalBytes())));
        try (TaskStreamChannel stream = sion.openTaskStream(task.index())) {
            while (stream.read(buffer.clear()) > 0) {
                writer.write(buffer.flip());
            }
        }
    }

    /** Records are written again in the output's metadata byte order, which may differ from the input's. */
    private static void copyRecords(SionFile sion, SionTask task, SionSerialWriter writer) throws IOException {
        for (KeyValueRecord record : sion.keyValueRecords(task.index())) {
            writer.writeKeyValue(record.key(), ByteBuffer.wrap(sion.readRecord(task.index(), record)));
        }
    }
}
