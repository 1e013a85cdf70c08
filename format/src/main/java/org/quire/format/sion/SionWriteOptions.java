package org.quire.format.sion;

import java.nio.ByteOrder;
import java.util.Objects;
import org.quire.format.storage.CreateMode;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.StorageOpener;

/**
 * Choices a writer makes beyond the chunk layout.
 *
 * @param keyValueMode  plain streams or key-value inline records (flag1)
 * @param userDataOrder byte order declared for the user data (bytes 1-2 of the endianness word);
 *                      SIONlib's open flag {@code endianness=big|little}
 * @param metadataOrder byte order of all metadata; SIONlib always uses the host's, so only tests
 *                      and conversion tools should change it
 * @param fsyncOnClose  force data and metadata to stable storage before close returns
 * @param journal       parallel writer only: keep a recovery journal beside each physical file
 *                      while it is open, so that {@link SionRecovery} can close it after a crash
 *                      (see {@link SionJournalLayout}); the SION file's bytes are the same either way
 * @param storage       opens the physical files and journals: {@link FileStorage#OPENER}, or a
 *                      test's crash simulator
 * @param createMode    when a physical file exists: replace it (the default, as SIONlib's "w"), unless a
 *                      writer has it open, or refuse
 * @param tasksPerCollector parallel writer only: 0 for SIONlib's standard layout, else SIONlib's collective
 *                      mode with {@code collsize} = this many tasks per collector ({@link CollectorGroups}), or
 *                      {@link #COLLECTORS_BY_SIONLIB_RULE} for SIONlib's own choice: each write is collective
 *                      and a group's collector writes its senders' data
 */
public record SionWriteOptions(KeyValueMode keyValueMode, ByteOrder userDataOrder, ByteOrder metadataOrder,
                               boolean fsyncOnClose, boolean journal, StorageOpener storage, CreateMode createMode,
                               int tasksPerCollector) {

    /**
     * {@code tasksPerCollector} for collective writes with the number of collectors chosen as SIONlib chooses it
     * when opened with {@code collective} and no {@code collsize} (its collsize -1): see {@link CollectorGroups}.
     */
    public static final int COLLECTORS_BY_SIONLIB_RULE = -1;

    public SionWriteOptions {
        Objects.requireNonNull(storage, "storage");
        Objects.requireNonNull(createMode, "createMode");
        if (tasksPerCollector < COLLECTORS_BY_SIONLIB_RULE) {
            throw new IllegalArgumentException("tasks per collector must be 0 (no collective writes), "
                    + COLLECTORS_BY_SIONLIB_RULE + " (SIONlib's choice) or more, got " + tasksPerCollector);
        }
    }

    /**
     * Plain streams, host byte order for everything, fsync at close, recovery journal on, real
     * files, an existing file replaced.
     */
    public static SionWriteOptions defaults() {
        return new SionWriteOptions(KeyValueMode.NONE, ByteOrder.nativeOrder(), ByteOrder.nativeOrder(), true, true,
                FileStorage.OPENER, CreateMode.REPLACE, 0);
    }

    public SionWriteOptions withKeyValueMode(KeyValueMode mode) {
        return new SionWriteOptions(mode, userDataOrder, metadataOrder, fsyncOnClose, journal, storage, createMode,
                tasksPerCollector);
    }

    public SionWriteOptions withUserDataOrder(ByteOrder order) {
        return new SionWriteOptions(keyValueMode, order, metadataOrder, fsyncOnClose, journal, storage, createMode,
                tasksPerCollector);
    }

    public SionWriteOptions withMetadataOrder(ByteOrder order) {
        return new SionWriteOptions(keyValueMode, userDataOrder, order, fsyncOnClose, journal, storage, createMode,
                tasksPerCollector);
    }

    public SionWriteOptions withFsyncOnClose(boolean fsync) {
        return new SionWriteOptions(keyValueMode, userDataOrder, metadataOrder, fsync, journal, storage, createMode,
                tasksPerCollector);
    }

    public SionWriteOptions withJournal(boolean keepJournal) {
        return new SionWriteOptions(keyValueMode, userDataOrder, metadataOrder, fsyncOnClose, keepJournal, storage,
                createMode, tasksPerCollector);
    }

    public SionWriteOptions withStorage(StorageOpener opener) {
        return new SionWriteOptions(keyValueMode, userDataOrder, metadataOrder, fsyncOnClose, journal, opener,
                createMode, tasksPerCollector);
    }

    public SionWriteOptions withCreateMode(CreateMode mode) {
        return new SionWriteOptions(keyValueMode, userDataOrder, metadataOrder, fsyncOnClose, journal, storage, mode,
                tasksPerCollector);
    }

    /**
     * SIONlib's {@code collective,collsize=n}: the parallel writer groups {@code n} tasks per collector (fewer
     * when the data is small) and every write goes through the group's collector. Needs the journal off.
     */
    public SionWriteOptions withCollectiveWrites(int tasksPerCollector) {
        return new SionWriteOptions(keyValueMode, userDataOrder, metadataOrder, fsyncOnClose, journal, storage,
                createMode, tasksPerCollector);
    }

    /**
     * SIONlib's {@code collective} without {@code collsize}: as {@link #withCollectiveWrites(int)}, but the number of
     * collectors of each physical file is chosen as SIONlib 1.7.6 chooses it, from the file's task count, its total
     * requested chunk size and the block size ({@link CollectorGroups}), so the file has SIONlib's layout.
     */
    public SionWriteOptions withCollectiveWrites() {
        return new SionWriteOptions(keyValueMode, userDataOrder, metadataOrder, fsyncOnClose, journal, storage,
                createMode, COLLECTORS_BY_SIONLIB_RULE);
    }

    boolean collective() {
        return tasksPerCollector != 0;
    }

    EndiannessWord endiannessWord() {
        return new EndiannessWord(metadataOrder, userDataOrder);
    }

    /** META1's fixed part as SIONlib 1.7.6 writes it for these options. */
    Meta1FixedPart meta1FixedPart(int fsBlockSize, int taskCount, int fileCount, int fileNumber, String prefix) {
        if (Meta1Layout.prefixBytes(prefix).length > Meta1Layout.PREFIX_LENGTH) {
            throw new IllegalArgumentException("file name " + prefix + " is longer than the "
                    + Meta1Layout.PREFIX_LENGTH + " bytes META1's prefix holds");
        }
        return new Meta1FixedPart(endiannessWord(), Meta1Layout.WRITTEN_VERSION, Meta1Layout.WRITTEN_VERSION_PATCHLEVEL,
                Meta1Layout.WRITTEN_FILEFORMAT_VERSION, fsBlockSize, taskCount, fileCount, fileNumber,
                keyValueMode.flag1(), 0, prefix);
    }
}
