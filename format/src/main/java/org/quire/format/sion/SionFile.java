package org.quire.format.sion;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.quire.format.FormatException;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.OpenMode;
import org.quire.format.storage.Storage;
import org.quire.format.storage.StorageOpener;

/**
 * Serial read access to a closed SION file or file set, like SIONlib's {@code sion_open(name, "rb")}:
 * all metadata of all physical files is read and validated at open, then any task's logical
 * stream can be read or sought. A set is opened by the name of its file 0; the other files are
 * found as {@code name.000001}, ... (reference section 2.5). Safe for concurrent reads.
 *
 * <pre>{@code
 * try (SionFile sion = SionFile.open(Path.of("checkpoint.sion"))) {
 *     for (SionTask task : sion.tasks()) {
 *         byte[] data = sion.readFully(task.index());
 *     }
 * }
 * }</pre>
 */
public final class SionFile implements Closeable {

    private final Path name;
    private final List<PhysicalFileMetadata> physicalFiles;
    private final List<Storage> storages;
    private final List<SionTask> tasks;

    private SionFile(Path name, List<PhysicalFileMetadata> physicalFiles, List<Storage> storages,
                     List<SionTask> tasks) {
        this.name = name;
        this.physicalFiles = List.copyOf(physicalFiles);
        this.storages = List.copyOf(storages);
        this.tasks = List.copyOf(tasks);
    }

    /** Opens the file or set named {@code name} (file 0 of a set). */
    public static SionFile open(Path name) throws IOException {
        return open(name, FileStorage.OPENER);
    }

    /** Opens the file or set named {@code name} (file 0 of a set) through {@code opener}. */
    public static SionFile open(Path name, StorageOpener opener) throws IOException {
        List<Storage> storages = new ArrayList<>();
        try {
            List<PhysicalFileMetadata> files = new ArrayList<>();
            PhysicalFileMetadata first = SionMetadataReader.read(openPhysicalFile(opener, name, storages));
            Meta1FixedPart firstFixed = first.meta1().fixedPart();
            if (firstFixed.fileCount() > 1 && firstFixed.fileNumber() != 0) {
                throw new FormatException(name, "is physical file " + firstFixed.fileNumber() + " of a set of "
                        + firstFixed.fileCount() + " files; open the set by its file 0 (the name without the "
                        + ".NNNNNN suffix), or read this file's metadata alone with SionFile.readPhysicalFile");
            }
            files.add(first);
            for (int fileNumber = 1; fileNumber < firstFixed.fileCount(); fileNumber++) {
                Path memberName = SionFileNames.physicalFile(name, fileNumber);
                files.add(SionMetadataReader.readSetMember(openPhysicalFile(opener, memberName, storages), firstFixed,
                        fileNumber));
            }
            return new SionFile(name, files, storages, tasksOf(files));
        } catch (IOException | RuntimeException e) {
            Closing.closeAllAfter(storages, e);
            throw e;
        }
    }

    /**
     * Reads and validates the metadata of one physical file on its own (e.g. file 1 of a set,
     * for a dump), without opening the rest of the set.
     */
    public static PhysicalFileMetadata readPhysicalFile(Path file) throws IOException {
        try (Storage storage = FileStorage.open(file, OpenMode.READ)) {
            return SionMetadataReader.read(storage);
        }
    }

    /**
     * META1 of one physical file whose writer may never have closed it (META2 missing), validated
     * as far as the file goes, for showing what a crashed file holds; start_of_varheader is 0 then.
     */
    public static Meta1 readMeta1OfUnclosedFile(Path file) throws IOException {
        try (Storage storage = FileStorage.open(file, OpenMode.READ)) {
            return SionMetadataReader.readMeta1OfUnclosedFile(storage, null, 0);
        }
    }

    private static Storage openPhysicalFile(StorageOpener opener, Path file, List<Storage> opened)
            throws IOException {
        try {
            Storage storage = opener.open(file, OpenMode.READ);
            opened.add(storage);
            return storage;
        } catch (NoSuchFileException e) {
            throw new FormatException(file, "physical file of the SION set is missing", e);
        }
    }

    /** The tasks of the set in global order (the mapping of file 0), or file order for a single file. */
    private static List<SionTask> tasksOf(List<PhysicalFileMetadata> files) throws IOException {
        PhysicalFileMetadata first = files.get(0);
        List<SionTask> tasks = new ArrayList<>();
        if (files.size() == 1) {
            for (int localRank = 0; localRank < first.taskCount(); localRank++) {
                tasks.add(taskOf(tasks.size(), first, 0, localRank));
            }
            return tasks;
        }
        int[] taskCounts = files.stream().mapToInt(PhysicalFileMetadata::taskCount).toArray();
        new SionMetadataValidator(first.path(), first.fileSize())
                .checkMappingEntries(first.mapping(), first.endOfMeta2(), taskCounts);
        for (TaskLocation location : first.mapping()) {
            tasks.add(taskOf(tasks.size(), files.get(location.fileNumber()), location.fileNumber(),
                    location.localRank()));
        }
        return tasks;
    }

    private static SionTask taskOf(int index, PhysicalFileMetadata file, int fileNumber, int localRank) {
        ChunkGeometry geometry = file.geometry();
        return new SionTask(index, file.meta1().globalRank(localRank), fileNumber, localRank,
                geometry.chunkCapacity(localRank), geometry.taskStart(localRank), geometry.globalSkip(),
                file.meta2().usedBytesPerChunk(localRank));
    }

    /** The name the set was opened by (file 0). */
    public Path name() {
        return name;
    }

    /** Validated metadata of each physical file, indexed by file number. */
    public List<PhysicalFileMetadata> physicalFiles() {
        return physicalFiles;
    }

    /** All tasks of the set, indexed by {@link SionTask#index()}. */
    public List<SionTask> tasks() {
        return tasks;
    }

    public SionTask task(int index) {
        return tasks.get(index);
    }

    public int taskCount() {
        return tasks.size();
    }

    public KeyValueMode keyValueMode() {
        return physicalFiles.get(0).keyValueMode();
    }

    /** Byte order of the metadata, which is also that of key-value record headers. */
    public ByteOrder metadataOrder() {
        return physicalFiles.get(0).meta1().fixedPart().endianness().metadataOrder();
    }

    /** Byte order the writer declared for user data (never converted by SIONlib or Quire). */
    public ByteOrder userDataOrder() {
        return physicalFiles.get(0).meta1().fixedPart().endianness().userDataOrder();
    }

    /** A seekable read-only view of task {@code index}'s logical stream. */
    public TaskStreamChannel openTaskStream(int index) {
        SionTask task = tasks.get(index);
        return new TaskStreamChannel(storages.get(task.fileNumber()), task);
    }

    public InputStream openTaskInputStream(int index) {
        return Channels.newInputStream(openTaskStream(index));
    }

    /** The whole logical stream of task {@code index}. */
    public byte[] readFully(int index) throws IOException {
        return TaskStreams.readFully(openTaskStream(index));
    }

    /** The records of a key-value inline task, in stream order. */
    public List<KeyValueRecord> keyValueRecords(int index) throws IOException {
        TaskStreams.requireKeyValueMode(name, keyValueMode());
        return KeyValueScanner.scan(physicalFiles.get(tasks.get(index).fileNumber()).path(), openTaskStream(index),
                metadataOrder());
    }

    /** The data of one record. */
    public byte[] readRecord(int index, KeyValueRecord record) throws IOException {
        return TaskStreams.readRecord(openTaskStream(index), record);
    }

    /** All data task {@code index} stored under {@code key}, records concatenated in stream order. */
    public byte[] readKey(int index, long key) throws IOException {
        return TaskStreams.readKey(openTaskStream(index), keyValueRecords(index), key);
    }

    @Override
    public void close() throws IOException {
        Closing.closeAll(storages);
    }
}
