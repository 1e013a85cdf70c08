package org.quire.format.hdf5;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.hdf5.cache.BlockEntry;
import org.quire.format.hdf5.cache.FlushJournal;
import org.quire.format.hdf5.cache.FlushStage;
import org.quire.format.hdf5.cache.MetadataCache;
import org.quire.format.hdf5.layout.Addresses;
import org.quire.format.hdf5.layout.BTreeKValuesMessage;
import org.quire.format.hdf5.layout.BTreeV1Ranks;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.DataLayoutMessage;
import org.quire.format.hdf5.layout.DatatypeMessage;
import org.quire.format.hdf5.layout.HeaderMessage;
import org.quire.format.hdf5.layout.LinkInfoMessage;
import org.quire.format.hdf5.layout.ObjectHeaderV1;
import org.quire.format.hdf5.layout.ObjectHeaderV2;
import org.quire.format.hdf5.layout.Superblock;
import org.quire.format.hdf5.layout.SuperblockV0;
import org.quire.format.hdf5.layout.SuperblockV3;
import org.quire.format.hdf5.layout.SymbolTableMessage;
import org.quire.format.storage.CreateMode;
import org.quire.format.storage.Durability;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.NewFiles;
import org.quire.format.storage.OpenMode;
import org.quire.format.storage.Storage;
import org.quire.format.storage.StorageOpener;

/**
 * An HDF5 file: {@link #create(Path)} a new one to write, {@link #open(Path)} an existing one
 * to read, or {@link #openForWriting(Path)} an existing one (superblock 3, or 0 and 1) to
 * change it. New files are written with superblock version 3 and version-2 object headers
 * (libhdf5's "latest" format, the one SWMR needs) and open in h5py, h5dump and jHDF. Files
 * libhdf5 writes by default (superblock 0, version-1 object headers, symbol table groups,
 * version-1 B-tree chunk indexes) and with superblock 2 are read too, also after a user block
 * (the superblock at 512, 1024, 2048, ... bytes); the default ones are also changed in place
 * behind a writing guard (docs/hdf5.md, "The old format").
 *
 * <pre>{@code
 * try (Hdf5File file = Hdf5File.create(path)) {
 *     Dataset d = file.root().createDataset("t", DatasetSpec.builder(Datatype.FLOAT64, 0)
 *             .maxShape(DatasetSpec.UNLIMITED).chunkShape(1024).build());
 *     d.extend(3);
 *     d.write(new long[] {0}, new long[] {3}, new double[] {1, 2, 3});
 * }
 * }</pre>
 *
 * <p>Every structure a writer changes (superblock, object headers, chunk index blocks) is an
 * entry of a metadata cache bounded in memory; {@link #flush()} writes the dirty ones children
 * first, the superblock last, forcing as {@link WriteOptions} say. While a writer has the file
 * open, the superblock says so (consistency flag "open for writing"); {@link #close()} flushes
 * and clears the flag. A file a crashed writer left is read (and reopened) after {@link
 * #recover}. Who may open the file beside whom is enforced with locks ({@link OpenLocks}); a
 * writer of a file on disk also keeps a {@link WriterRecord} with a heartbeat beside it. After
 * {@link #startSwmrWrite()} SWMR readers ({@link #openSwmr}, h5py {@code swmr=True}) follow the
 * file while it is written.
 * Not thread-safe.
 */
public final class Hdf5File implements AutoCloseable {

    /** The signature of a version-2 object header; a version-1 header starts with its version. */
    private static final byte[] OHDR = "OHDR".getBytes(StandardCharsets.US_ASCII);
    /** How often a flush that does not force checks the file was not cut short under it. */
    static final long CUT_SHORT_CHECK_NANOS = 50_000_000L;

    private final Storage storage;
    private final BlockFile blocks;
    private final MetadataCache cache;
    private final long metadataCacheBytes;
    /** The bounded retry of an SWMR reader ({@link #openSwmr}); null otherwise. */
    private MetadataReadRetry swmr;
    /** The flush journal of a file being written, and where it is; null when read only. */
    private final FlushJournal journal;
    private final Path journalPath;
    private final StorageOpener opener;
    private final boolean writable;
    private final ChunkCacheSettings chunkCacheSettings;
    private final TransferBuffer transfer = new TransferBuffer();
    /** The locks of the open rules this file holds ({@link OpenLocks}); null through none. */
    private OpenLocks locks;
    /** The writer record a writer of a file on disk keeps beside it; null otherwise. */
    private WriterHeartbeat heartbeat;
    /**
     * The objects of a file being written or SWMR-read, by header address: each header is
     * opened once, so that {@link #refresh} reaches every dataset handed out.
     */
    private final Map<Long, Hdf5Object> objects = new HashMap<>();
    /** The superblock of a file being written, held for the file's life; null when read only. */
    private BlockEntry<Hdf5File> superblock;
    /**
     * The version 0 or 1 superblock of a file in libhdf5's default format being written, as read
     * (docs/hdf5.md, "The old format"); null for other files.
     */
    private SuperblockV0 oldSuperblock;
    private int consistencyFlags = SuperblockV3.FLAG_OPEN_FOR_WRITE;
    /** Set by {@link #startSwmrWrite()}: readers may follow the file, only appends are allowed. */
    private boolean swmrWriting;
    /** When {@link #requireNotCutShort} last asked the file's size (the first flush asks). */
    private long sizeCheckedAt = System.nanoTime() - CUT_SHORT_CHECK_NANOS;
    /** End of allocation and flags of the superblock image last made for a flush; -1: none yet. */
    private long superblockEnd = -1;
    private int superblockFlags;
    private final FileReferences references = new FileReferences(this);
    /** Where a writer puts variable-length strings; null when read only. */
    private final GlobalHeap globalHeap;
    private Group root;
    /** Node capacities of the old format's B-trees and symbol table nodes. */
    private BTreeV1Ranks ranks = BTreeV1Ranks.DEFAULT;
    private boolean closed;

    private Hdf5File(Storage storage, StorageOpener opener, FlushJournal journal,
                     WriteOptions options) throws IOException {
        this.storage = storage;
        this.blocks = new BlockFile(storage);
        this.metadataCacheBytes = options.metadataCacheBytes();
        this.writable = journal != null;
        this.cache = new MetadataCache(storage, options.metadataCacheBytes(),
                writable ? options.durability() : Durability.NONE, journal);
        this.journal = journal;
        this.journalPath = journalPath(storage.path());
        this.opener = opener;
        this.chunkCacheSettings = options.chunkCache();
        this.globalHeap = writable ? new GlobalHeap(blocks, cache) : null;
    }

    /** Where the flush journal of the HDF5 file {@code path} is: {@code <name>.qjnl} beside it. */
    public static Path journalPath(Path path) {
        return path.resolveSibling(path.getFileName() + ".qjnl");
    }

    /**
     * Creates a new file for writing, with an empty root group; its datasets get libhdf5's
     * default chunk cache ({@link ChunkCacheSettings#DEFAULT}).
     *
     * @throws java.nio.file.FileAlreadyExistsException the file exists (it is never truncated)
     */
    public static Hdf5File create(Path path) throws IOException {
        return create(path, FileStorage.OPENER);
    }

    /**
     * {@link #create(Path)}, or with {@link CreateMode#REPLACE} after removing an existing file,
     * unless a writer or a reader has it open (refused as a writer of it would be: {@link
     * FileLockedException} naming the writer, {@link FileHeldByReadersException} naming the
     * readers; nothing changed); a process that has the old file open without Quire's locks
     * keeps reading it (it is unlinked, not truncated).
     */
    public static Hdf5File create(Path path, CreateMode mode) throws IOException {
        if (mode == CreateMode.REPLACE) {
            refuseIfHeld(path);
            // Removes under a lock of the whole file: still refused (FileInUseException) if
            // someone opened it since.
            NewFiles.removeUnlessInUse(FileStorage.OPENER, path);
        }
        return create(path);
    }

    /** Takes and releases a writer's locks on {@code path}, if it exists: says who holds it. */
    private static void refuseIfHeld(Path path) throws IOException {
        Storage existing;
        try {
            existing = FileStorage.OPENER.open(path, OpenMode.READ_WRITE);
        } catch (java.nio.file.NoSuchFileException nothingToReplace) {
            return;
        }
        try (existing; OpenLocks locks = OpenLocks.take(existing, path, OpenLocks.Role.WRITER)) {
            // free: nothing holds it
        }
    }

    /** {@link #create(Path)} through {@code opener} (a test's crash simulator, or real files). */
    public static Hdf5File create(Path path, StorageOpener opener) throws IOException {
        return create(path, opener, WriteOptions.DEFAULT);
    }

    /**
     * {@link #create(Path)} with {@code options} (durability, metadata cache bound, chunk cache
     * of each dataset).
     */
    public static Hdf5File create(Path path, WriteOptions options) throws IOException {
        return create(path, FileStorage.OPENER, options);
    }

    /**
     * {@link #create(Path)} through {@code opener} with {@code options}. The new file is
     * flushed once: from here on it opens, after a crash too.
     */
    public static Hdf5File create(Path path, StorageOpener opener, WriteOptions options)
            throws IOException {
        Storage storage = opener.open(path, OpenMode.CREATE_NEW);
        Storage journalStorage = null;
        OpenLocks lock = null;
        try {
            lock = OpenLocks.take(storage, path, OpenLocks.Role.WRITER);
            journalStorage = opener.open(journalPath(path), OpenMode.CREATE_OR_OPEN);
            journalStorage.truncate(0);
            Hdf5File file = new Hdf5File(storage, opener, new FlushJournal(journalStorage),
                    options);
            file.locks = lock;
            long address = file.blocks.allocate(SuperblockV3.SIZE);
            file.root = Group.create(file, "/");
            file.superblock = file.cache.insertProtected(new BlockEntry<>(address,
                    SuperblockV3.SIZE, FlushStage.SUPERBLOCK, file, Hdf5File::encodeSuperblock));
            file.cache.createFlushDependency(address, file.root.header.address());
            file.flush();
            file.heartbeat = startHeartbeat(path, opener);
            return file;
        } catch (IOException | RuntimeException e) {
            closeAfterFailure(storage, journalStorage, lock);
            throw e;
        }
    }

    /**
     * The writer record of a writer of a file on disk, beating; none for a test's simulated
     * files (a beat every second would make their recorded writes depend on time).
     */
    private static WriterHeartbeat startHeartbeat(Path path, StorageOpener opener)
            throws IOException {
        return opener == FileStorage.OPENER
                ? WriterHeartbeat.start(path, WriterRecord.Mode.WRITE) : null;
    }

    /**
     * Opens an existing file to change it: extend datasets and write their chunks, add groups,
     * datasets and attributes ("Reopening a file for writing" in docs/hdf5.md). The file is
     * neither created nor truncated. While open, the writer holds the storage's exclusive lock
     * and the superblock's "open for writing" flag is set (written by a first flush before this
     * returns), with the flush journal beside the file, as after {@link #create}. A file in
     * libhdf5's default format (superblock 0 or 1) instead carries Quire's writing guard while
     * open: its superblock's end of file address is 2^63-1, which libhdf5 refuses to open;
     * {@link #close} writes the true one (docs/hdf5.md, "The old format").
     *
     * @throws java.nio.file.NoSuchFileException the file does not exist
     * @throws FileLockedException another writer holds the file's lock
     * @throws FileOpenForWritingException the superblock says a writer has the file open, or
     *                                     died with it open ({@link #recover} it first)
     * @throws UnsupportedFormatException a format Quire reads but does not write (superblock
     *                                    version 2, a user block, ...)
     * @throws org.quire.format.CorruptFileException not an HDF5 file, or a damaged one
     */
    public static Hdf5File openForWriting(Path path) throws IOException {
        return openForWriting(path, FileStorage.OPENER, WriteOptions.DEFAULT);
    }

    /**
     * {@link #openForWriting(Path)} with {@code options} (durability, metadata cache bound,
     * chunk cache of each dataset).
     */
    public static Hdf5File openForWriting(Path path, WriteOptions options) throws IOException {
        return openForWriting(path, FileStorage.OPENER, options);
    }

    /** {@link #openForWriting(Path)} through {@code opener} with {@code options}. */
    public static Hdf5File openForWriting(Path path, StorageOpener opener, WriteOptions options)
            throws IOException {
        Storage storage = opener.open(path, OpenMode.READ_WRITE);
        Storage journalStorage = null;
        OpenLocks lock = null;
        try {
            lock = OpenLocks.take(storage, path, OpenLocks.Role.WRITER);
            Superblock superblock = writableSuperblock(new BlockFile(storage));
            journalStorage = opener.open(journalPath(path), OpenMode.CREATE_OR_OPEN);
            journalStorage.truncate(0);
            Hdf5File file = new Hdf5File(storage, opener, new FlushJournal(journalStorage),
                    options);
            file.locks = lock;
            boolean flushing = false;
            try {
                file.ranks = file.ranks(superblock);
                if (superblock instanceof SuperblockV0 old) {
                    file.oldSuperblock = old;
                }
                Hdf5Object root = file.readObject("/", superblock.rootGroupAddress());
                if (!(root instanceof Group group)) {
                    throw new CorruptFileException(path,
                            superblock.rootGroupAddress(), "object header", "messages",
                            "a group", "a dataset");
                }
                file.root = group;
                file.superblock = file.protectSuperblock(superblock);
                file.cache.createFlushDependency(0, group.header.address());
                flushing = true;
                if (file.oldSuperblock != null) {
                    file.writeGuard();
                }
                file.flush();
                file.heartbeat = startHeartbeat(path, opener);
                return file;
            } catch (IOException | RuntimeException e) {
                if (!flushing) { // refused before anything was written: no journal is left
                    journalStorage.close();
                    journalStorage = null;
                    opener.deleteIfExists(journalPath(path));
                }
                throw e;
            }
        } catch (IOException | RuntimeException e) {
            closeAfterFailure(storage, journalStorage, lock);
            throw e;
        }
    }

    /**
     * The superblock of a file a writer may open: at offset 0 (no user block), version 3
     * without extension and closed by its last writer, or version 0 or 1 (libhdf5's default
     * format) with consistency flags 0 and no writing guard; its end of file inside the file.
     * Reads only.
     */
    private static Superblock writableSuperblock(BlockFile blocks) throws IOException {
        Path path = blocks.path();
        Superblock superblock = Superblock.read(blocks);
        if (blocks.baseAddress() != 0) {
            throw new UnsupportedFormatException(path, "superblock (writing)",
                    blocks.baseAddress(), "a superblock after a user block of "
                    + blocks.baseAddress() + " bytes", "a superblock at offset 0 (the file is "
                    + "read with Hdf5File.open)");
        }
        if (superblock instanceof SuperblockV0 old) {
            refuseWriterOfOldFormat(path, old);
        } else {
            int version = blocks.read(0, Superblock.VERSION_OFFSET + 1, "superblock")
                    [Superblock.VERSION_OFFSET];
            if (version != 3) {
                throw new UnsupportedFormatException(path, "superblock (writing)", 0,
                        "version " + version + " (no \"open for writing\" flag to tell a "
                                + "crashed writer)", "versions 0, 1 (libhdf5's default format) "
                                + "and 3 (libhdf5's latest format, what Quire writes); every "
                                + "version 0 to 3 is read with Hdf5File.open");
            }
            int writing = SuperblockV3.FLAG_OPEN_FOR_WRITE
                    | SuperblockV3.FLAG_OPEN_FOR_SWMR_WRITE;
            if ((superblock.consistencyFlags() & writing) != 0) {
                throw new FileOpenForWritingException(path,
                        FileOpenForWritingException.flagsMessage(superblock.consistencyFlags())
                                + "; " + previousWriter(path),
                        "nothing was changed; once it is gone, Hdf5File.recover(path) makes the "
                                + "file consistent, then open it again",
                        "nothing was changed; once it is gone, quire h5 clear " + path
                                + " makes the file consistent, then open it again");
            }
            if (Addresses.isDefined(superblock.extensionAddress())) {
                throw new UnsupportedFormatException(path, "superblock (writing)", 0,
                        "a superblock extension at " + superblock.extensionAddress(),
                        "files without one (it is read with Hdf5File.open)");
            }
        }
        if (Long.compareUnsigned(superblock.endOfFileAddress(), blocks.size()) > 0) {
            throw new CorruptFileException(path,
                    superblock.endOfFileAddressOffset(), "superblock", "end of file address",
                    "at most the file size " + blocks.size(),
                    Long.toUnsignedString(superblock.endOfFileAddress()));
        }
        return superblock;
    }

    /**
     * Refuses a version 0 or 1 superblock carrying Quire's writing guard (a Quire writer has
     * the file open or died with it open) or consistency flags (libhdf5 sets bit 0 while it
     * writes and leaves it when its writer dies; it never checks them itself, and its lock is
     * not one Quire sees).
     */
    private static void refuseWriterOfOldFormat(Path path, SuperblockV0 superblock)
            throws FileOpenForWritingException {
        if (superblock.guarded()) {
            throw guardFound(path, superblock, "nothing was changed; once it is gone, Hdf5File.recover(path) "
                    + "makes the file consistent, then open it again", "nothing was changed; "
                    + "once it is gone, quire h5 clear " + path + " makes the file consistent, "
                    + "then open it again");
        }
        if (superblock.consistencyFlags() != 0) {
            throw new FileOpenForWritingException(path, String.format("superblock %d "
                    + "consistency flags 0x%02x at offset %d: a libhdf5 writer has the file "
                    + "open, or died with it open (Quire cannot see libhdf5's lock)",
                    superblock.version(), superblock.consistencyFlags(),
                    SuperblockV0.consistencyFlagsOffset()),
                    "nothing was changed; once no writer is alive, Hdf5File.recover(path) "
                            + "clears the flags, then open it again",
                    "nothing was changed; once no writer is alive, quire h5 clear " + path
                            + " clears the flags, then open it again");
        }
    }

    /**
     * A version 0 or 1 superblock carries Quire's writing guard (or what {@code h5clear
     * --increment} left of it): its writer, and advice.
     */
    private static FileOpenForWritingException guardFound(Path path, SuperblockV0 superblock,
                                                          String advice, String commandAdvice) {
        long end = superblock.endOfFileAddress();
        String stored = end == SuperblockV0.WRITING_GUARD ? "2^63-1"
                : Long.toUnsignedString(end) + ", past 2^63-1";
        return new FileOpenForWritingException(path, "file is open for writing (superblock "
                + superblock.version() + " end of file address " + stored + ", Quire's writing "
                + "guard); " + previousWriter(path), advice, commandAdvice);
    }

    /**
     * The writer whose superblock flags an open found, as its record tells (the opener holds
     * a lock on the writer byte, shared or not, so no Quire writer on this host holds it).
     */
    private static String previousWriter(Path path) {
        try {
            WriterStatus status = WriterStatus.of(path, false);
            return status.state() == WriterStatus.State.NO_WRITER
                    ? "no Quire writer holds it or left a record: its writer died, or is not a "
                            + "Quire writer (libhdf5's takes no Quire lock)"
                    : status.summary();
        } catch (IOException e) {
            return "its writer record cannot be read: " + e.getMessage();
        }
    }

    /** After a failed open: what it had opened and taken. */
    private static void closeAfterFailure(Storage storage, Storage journal, OpenLocks lock)
            throws IOException {
        try {
            if (journal != null) {
                journal.close();
            }
            if (lock != null) {
                lock.close();
            }
        } finally {
            storage.close();
        }
    }

    /**
     * Opens an existing file read-only. Every metadata block read is checked (signature,
     * version, checksum) before use.
     *
     * @throws FileOpenForWritingException a writer has the file open, or died with it open
     * @throws org.quire.format.CorruptFileException a structure is damaged
     * @throws UnsupportedFormatException the file uses a format feature not read yet
     */
    public static Hdf5File open(Path path) throws IOException {
        return open(path, FileStorage.OPENER, ChunkCacheSettings.DEFAULT);
    }

    /**
     * Opens an existing file read-only, as {@link #open(Path)}, each of its datasets with a chunk
     * cache of {@code chunkCache}'s size.
     */
    public static Hdf5File open(Path path, ChunkCacheSettings chunkCache) throws IOException {
        return open(path, FileStorage.OPENER, chunkCache);
    }

    /** {@link #open(Path)} through {@code opener}. */
    public static Hdf5File open(Path path, StorageOpener opener) throws IOException {
        return open(path, opener, ChunkCacheSettings.DEFAULT);
    }

    /** {@link #open(Path, ChunkCacheSettings)} through {@code opener}. */
    public static Hdf5File open(Path path, StorageOpener opener, ChunkCacheSettings chunkCache)
            throws IOException {
        return openReading(path, opener, chunkCache, null);
    }

    /**
     * Opens a file an SWMR writer (libhdf5's {@code H5Fstart_swmr_write}, h5py's {@code
     * swmr_mode = True}, or Quire's) may be appending to, read-only, beside that writer
     * (docs/swmr.md, "Reading"); a closed file too. Datasets show the extents of the last
     * commit seen: {@link #refresh()} or {@link Dataset#refresh()} looks again. A metadata
     * block that fails its check is read again as {@link SwmrReadOptions#DEFAULT} says, then
     * fails with {@link MetadataRetriesExhaustedException}. The file is never changed.
     *
     * @throws FileOpenForWritingException a writer that is not an SWMR writer has the file
     *                                     open, or died with it open ({@link #recover} it)
     * @throws FileLockedException a plain writer holds the file (it has not switched to SWMR
     *                             writing)
     */
    public static Hdf5File openSwmr(Path path) throws IOException {
        return openSwmr(path, FileStorage.OPENER, SwmrReadOptions.DEFAULT);
    }

    /** {@link #openSwmr(Path)} with {@code options} (retry bounds, chunk cache). */
    public static Hdf5File openSwmr(Path path, SwmrReadOptions options) throws IOException {
        return openSwmr(path, FileStorage.OPENER, options);
    }

    /** {@link #openSwmr(Path)} through {@code opener} with {@code options}. */
    public static Hdf5File openSwmr(Path path, StorageOpener opener, SwmrReadOptions options)
            throws IOException {
        return openReading(path, opener, options.chunkCache(), options);
    }

    /** A plain reader, or with {@code swmrOptions} an SWMR reader. */
    private static Hdf5File openReading(Path path, StorageOpener opener,
                                        ChunkCacheSettings chunkCache,
                                        SwmrReadOptions swmrOptions) throws IOException {
        Storage storage = opener.open(path, OpenMode.READ);
        OpenLocks lock = null;
        try {
            lock = OpenLocks.take(storage, path, swmrOptions == null ? OpenLocks.Role.READER
                    : OpenLocks.Role.SWMR_READER);
            Hdf5File file = new Hdf5File(storage, opener, null,
                    WriteOptions.DEFAULT.withChunkCache(chunkCache));
            file.locks = lock;
            if (swmrOptions == null) {
                file.readRoot();
            } else {
                file.swmr = new MetadataReadRetry(swmrOptions);
                file.swmr.run(() -> {
                    file.readRoot();
                    return null;
                }, () -> { });
            }
            return file;
        } catch (IOException | RuntimeException e) {
            closeAfterFailure(storage, null, lock);
            throw e;
        }
    }

    /**
     * Reads the superblock and the root group of a file opened for reading. A plain reader
     * refuses a file a writer has open; an SWMR reader only one whose writer is not an SWMR
     * writer, and does not check the end of file address, which libhdf5's SWMR writer leaves
     * as it was when it switched to SWMR writing until it closes the file.
     */
    private void readRoot() throws IOException {
        Path path = blocks.path();
        Superblock superblock = Superblock.read(blocks);
        ranks = ranks(superblock);
        if (superblock instanceof SuperblockV0 old && old.guarded()) {
            throw guardFound(path, old, "when its writer died, Hdf5File.recover(path) makes the file "
                    + "consistent", "when its writer died, quire h5 clear " + path + " makes "
                    + "the file consistent");
        }
        int flags = superblock.consistencyFlags();
        if (swmr == null && (flags & (SuperblockV3.FLAG_OPEN_FOR_WRITE
                | SuperblockV3.FLAG_OPEN_FOR_SWMR_WRITE)) != 0) {
            throw new FileOpenForWritingException(path,
                    FileOpenForWritingException.flagsMessage(flags) + "; "
                            + previousWriter(path),
                    "when its writer is an SWMR writer, follow it with Hdf5File.openSwmr; when "
                            + "it died, Hdf5File.recover(path) makes the file consistent",
                    "when its writer died, quire h5 clear " + path + " makes the file "
                            + "consistent");
        }
        if (swmr != null && (flags & SuperblockV3.FLAG_OPEN_FOR_WRITE) != 0
                && (flags & SuperblockV3.FLAG_OPEN_FOR_SWMR_WRITE) == 0) {
            throw new FileOpenForWritingException(path,
                    FileOpenForWritingException.flagsMessage(flags) + ", not by an SWMR "
                            + "writer, so an SWMR reader cannot follow it; "
                            + previousWriter(path),
                    "when its writer died, Hdf5File.recover(path) makes the file consistent",
                    "when its writer died, quire h5 clear " + path + " makes the file "
                            + "consistent");
        }
        // libhdf5 counts the user block in the end of file address.
        long fileSize = blocks.baseAddress() + blocks.size();
        if (swmr == null && Long.compareUnsigned(superblock.endOfFileAddress(), fileSize) > 0) {
            throw new CorruptFileException(path,
                    blocks.baseAddress() + superblock.endOfFileAddressOffset(), "superblock",
                    "end of file address", "at most the file size " + fileSize,
                    Long.toUnsignedString(superblock.endOfFileAddress()));
        }
        Hdf5Object read = readObject("/", superblock.rootGroupAddress());
        if (!(read instanceof Group group)) {
            throw new CorruptFileException(path, superblock.rootGroupAddress(),
                    "object header", "messages", "a group", "a dataset");
        }
        root = group;
    }

    /**
     * Makes a file a crashed writer left readable, as {@code h5clear -s} does for libhdf5's
     * files, and more: replays the flush journal ({@code <name>.qjnl}) if it holds a committed
     * flush, so the file holds that flush's state, then clears the superblock's "open for
     * writing" flag (and in a version 0 or 1 superblock, Quire's writing guard: the end of file
     * address becomes the file's size), forces the file and removes the journal. An uncommitted journal is
     * ignored: the file then holds the last completed flush's state. The file keeps its size,
     * and an end of file address short of it (libhdf5's SWMR writer leaves the one of its
     * switch to SWMR writing, where {@code h5clear -s} cuts the file) is raised to it, so
     * nothing is cut and every flushed record stays. The dead writer's record ({@code
     * <name>.qwriter}) is removed. Running it again, or on a file closed properly, changes
     * nothing. It takes a writer's locks first, so it never runs under a live Quire writer
     * nor under readers; libhdf5's SWMR writer holds no lock and is not seen.
     *
     * @return what it found and changed
     * @throws FileLockedException a writer (of this or another process) has the file open
     * @throws FileHeldByReadersException readers have the file open
     * @throws org.quire.format.hdf5.cache.ForeignJournalException the committed journal
     *         beside the file is not this file's (nothing is changed)
     * @throws org.quire.format.CorruptFileException the journal is damaged, or not a journal
     * @throws org.quire.format.CorruptFileException the superblock is damaged, or its end of
     *         file address lies past the file short of the guard (a file cut short)
     * @throws UnsupportedFormatException the file is not one Quire writes (superblock 0, 1 or
     *                                    3)
     * @throws FileLockedException a writer has the file open now: it did not crash (nothing
     *                             is changed)
     */
    public static Recovery recover(Path path, StorageOpener opener) throws IOException {
        Path journalPath = journalPath(path);
        Storage storage = opener.open(path, OpenMode.READ_WRITE);
        try (BlockFile file = new BlockFile(storage);
             OpenLocks lock = OpenLocks.take(storage, path, OpenLocks.Role.WRITER)) {
            if (opener == FileStorage.OPENER) {
                // The lock alone may not show a live writer (another host; a lock the OS dropped).
                WriterStatus status = WriterStatus.of(path, false);
                if (status.state() == WriterStatus.State.ALIVE) {
                    throw new FileLockedException(path, status.summary(),
                            "recover a file only when its writer is gone",
                            "clear a file only when its writer is gone");
                }
            }
            // Before a journal is replayed: a file Quire does not recover stays as it is. (A
            // crash in create may leave no superblock yet, only a journal that writes it.)
            if (Superblock.locate(file) == 2) {
                throw new UnsupportedFormatException(path, "superblock (recovering)",
                        file.baseAddress(),
                        "version 2 (no \"open for writing\" flag to tell a crashed writer)",
                        "versions 0, 1 and 3 (the ones Quire writes); every version 0 to 3 is "
                                + "read with Hdf5File.open");
            }
            Storage journal = null;
            try {
                journal = opener.open(journalPath, OpenMode.READ);
            } catch (java.nio.file.NoSuchFileException e) {
                // no journal: nothing was being flushed
            }
            int replayed = 0;
            if (journal != null) {
                try {
                    // Checked and written at the journal's addresses: from the start of the
                    // file, as Quire writes files (no user block).
                    for (FlushJournal.Block block
                            : FlushJournal.blocksToReplay(journal, storage)) {
                        storage.write(ByteBuffer.wrap(block.image()), block.address());
                        replayed++;
                    }
                } finally {
                    journal.close();
                }
            }
            Superblock superblock = Superblock.read(file);
            // libhdf5's SWMR writer leaves the end of file address stale (479 bytes, say):
            // libhdf5 would cut the file there (h5clear -s does), so it grows to the file.
            // Quire's writing guard (superblock 0 and 1) gives way to the file's size. Both
            // count a user block, as libhdf5 does.
            long fileSize = file.baseAddress() + file.size();
            long end = superblock.endOfFileAddress();
            boolean guarded = superblock instanceof SuperblockV0 old && old.guarded();
            if (guarded || Long.compareUnsigned(end, fileSize) < 0) {
                end = fileSize;
            } else if (end != fileSize) { // past the file: cut short, not a crashed writer's
                throw new CorruptFileException(path,
                        file.baseAddress() + superblock.endOfFileAddressOffset(), "superblock",
                        "end of file address", "at most the file size " + fileSize,
                        Long.toUnsignedString(end));
            }
            if (superblock.consistencyFlags() != 0 || end != superblock.endOfFileAddress()) {
                file.write(0, superblock.clearedImage(file, end));
            }
            file.force(true);
            opener.deleteIfExists(journalPath); // under the lock: no new writer's journal yet
            if (opener == FileStorage.OPENER) {
                WriterRecord.remove(path); // the dead writer's
            }
            return new Recovery(superblock.consistencyFlags(), superblock.endOfFileAddress(),
                    end, replayed);
        }
    }

    /** {@link #recover(Path, StorageOpener)} of a file on disk. */
    public static Recovery recover(Path path) throws IOException {
        return recover(path, FileStorage.OPENER);
    }

    public Group root() {
        return root;
    }

    /** Whether this file was opened with {@link #openSwmr}. */
    public boolean isSwmrReader() {
        return swmr != null;
    }

    /**
     * Looks again at every dataset this SWMR reader has handed out ({@link Dataset#refresh()}
     * each): new extents a writer committed become visible.
     *
     * @throws IllegalStateException the file was not opened with {@link #openSwmr}
     */
    public void refresh() throws IOException {
        requireSwmrReader();
        for (Hdf5Object object : objects.values()) {
            if (object instanceof Dataset dataset) {
                dataset.refresh();
            }
        }
    }

    /**
     * How many metadata reads of this SWMR reader failed their check and were read again
     * (libhdf5's {@code H5Fget_metadata_read_retry_info}); 0 for other files.
     */
    public long metadataReadRetries() {
        return swmr == null ? 0 : swmr.total();
    }

    /** {@link #metadataReadRetries()} by the structure that failed its check. */
    public Map<String, Long> metadataReadRetriesByStructure() {
        return swmr == null ? Map.of() : swmr.byStructure();
    }

    /**
     * Whether a writer has {@code path} open now, as the lock on its writer byte and the writer
     * record beside it tell (docs/swmr.md, "Open rules and locks"); never asks the writer.
     */
    public static WriterStatus writerStatus(Path path) throws IOException {
        try (Storage probe = FileStorage.open(path, OpenMode.READ)) {
            return WriterStatus.of(path, OpenLocks.writerHolds(probe));
        }
    }

    /**
     * The lock change of a writer switching to SWMR writing, once the superblock says so: its
     * writer record says "swmr" (a record that cannot be written now is by the next beat), then
     * SWMR readers may open beside it (it drops its SWMR reader byte lock).
     */
    private void enterSwmrLocking() throws IOException {
        if (heartbeat != null) {
            heartbeat.mode(WriterRecord.Mode.SWMR);
        }
        locks.enterSwmr();
    }

    void requireSwmrReader() {
        requireOpen();
        if (swmr == null) {
            throw new IllegalStateException(blocks.path() + " was not opened with "
                    + "Hdf5File.openSwmr");
        }
    }

    /** The bounded retry of an SWMR reader; null for other files. */
    MetadataReadRetry swmrRetry() {
        return swmr;
    }

    /**
     * The metadata cache a dataset's chunk index reads through: the file's, or for an SWMR
     * reader one of the dataset's own, which {@link Dataset#refresh()} replaces when the
     * index may have changed.
     */
    MetadataCache indexCache() {
        return swmr == null ? cache
                : new MetadataCache(storage, metadataCacheBytes, Durability.NONE);
    }

    public boolean isWritable() {
        return writable;
    }

    public Path path() {
        return blocks.path();
    }

    /**
     * Writes every structure changed since the last flush, children before the structures that
     * point at them and the superblock (with the true end of file) last, so that what is on
     * disk is a complete file: the state of this flush. It survives the writer process being
     * killed; it survives a crash of the node or a power failure only with {@link
     * Durability#EVERY_FLUSH}, which forces the file (the chunks), the flush
     * journal, then the file again once the metadata is in place.
     *
     * <p>A flush that fails before rewriting anything in place (writing the journal) may be
     * tried again; one that fails after it began leaves the file to {@link #recover}: it and
     * every later flush throw {@link org.quire.format.hdf5.cache.IncompleteFlushException}, and
     * {@link #close} releases the file keeping the journal.
     */
    public void flush() throws IOException {
        flush(cache.durability());
    }

    /**
     * {@link #flush()}, forcing as {@code durability} says for this flush alone: {@link
     * Durability#EVERY_FLUSH} forces it ({@code fdatasync}, three times, as above), {@link
     * Durability#NONE} and {@link Durability#ON_CLOSE} do not (the file is then forced at
     * {@link #close()} as the {@link WriteOptions} say).
     */
    public void flush(Durability durability) throws IOException {
        requireOpen();
        if (writable) {
            cache.requireNoIncompleteFlush();
            if (durability.forcesAtFlush() || System.nanoTime() - sizeCheckedAt >= CUT_SHORT_CHECK_NANOS) {
                requireNotCutShort();
            }
            publish(durability.forcesAtFlush());
            blocks.flushBegins();
            cache.flush(durability.forcesAtFlush());
        }
    }

    /**
     * Switches to single-writer/multiple-reader writing, as libhdf5's {@code
     * H5Fstart_swmr_write} does: flushes everything, with the superblock's consistency flags
     * set to "open for writing" and "open for SWMR writing" (0x05, libhdf5's values), so that
     * SWMR readers (h5py {@code swmr=True}, libhdf5 {@code H5F_ACC_SWMR_READ}) open the file
     * while plain readers are still refused. From here on the writer extends datasets, writes
     * their elements and flushes; each flush publishes the new extents with the dataspace
     * written last, and the end of file address is true at every completed flush (in the
     * middle of one the file may reach past it: docs/hdf5.md, "SWMR writing").
     * Creating a group, dataset or attribute is refused ({@link SwmrWriteRefusedException}).
     * {@link #close()} clears the flags. There is no way back, as in libhdf5. Once the flush
     * is done the open rules change: SWMR readers ({@link #openSwmr}) may open the file beside
     * this writer, and its writer record says "swmr" (docs/swmr.md, "Open rules and locks"); a
     * start that fails leaves both as they were.
     *
     * @throws IllegalStateException the file is read only, closed, or already SWMR writing
     */
    public void startSwmrWrite() throws IOException {
        requireOpen();
        if (!writable) {
            throw new IllegalStateException(blocks.path() + " is open read-only: SWMR writing "
                    + "needs Hdf5File.create or openForWriting");
        }
        if (swmrWriting) {
            throw new IllegalStateException(blocks.path() + " is already open for SWMR writing");
        }
        if (oldSuperblock != null) {
            throw new IllegalStateException(blocks.path() + " has a version "
                    + oldSuperblock.version() + " superblock: SWMR writing needs version 3, as "
                    + "in libhdf5");
        }
        cache.requireNoIncompleteFlush();
        setSwmrWriting(true);
        try {
            flush();
        } catch (IOException | RuntimeException e) {
            // Locks and writer record were not changed: SWMR readers are still kept out, and a
            // flush that failed before writing may be tried again.
            setSwmrWriting(false);
            throw e;
        }
        // From here on flushes only append in SWMR order; the start's flush (groups, datasets
        // and attributes created before it) went through the journal.
        cache.journalOnlyForcedFlushes();
        enterSwmrLocking(); // only now that the superblock says 0x05
    }

    private void setSwmrWriting(boolean on) {
        swmrWriting = on;
        blocks.followedByReaders(on);
        consistencyFlags = SuperblockV3.FLAG_OPEN_FOR_WRITE
                | (on ? SuperblockV3.FLAG_OPEN_FOR_SWMR_WRITE : 0);
    }

    /**
     * Before a flush writes anything: the file still reaches as far as the last flush left it.
     * Quire's locks are advisory and libhdf5 does not take them: {@code h5py.File(path, 'w')}
     * truncates a file a Quire writer has open (docs/swmr.md, "Open rules and locks"). The
     * flush would write its blocks over a hole, silently; the writer fails instead. Asking the
     * size costs more than a small SWMR flush itself (1.6 of 4 us per one-record flush), so
     * flushes that do not force ask it at most every {@link #CUT_SHORT_CHECK_NANOS}.
     */
    private void requireNotCutShort() throws IOException {
        long size = blocks.size();
        sizeCheckedAt = System.nanoTime();
        if (size < blocks.flushedEnd()) {
            throw new FileCutShortException(blocks.path(), size, blocks.flushedEnd());
        }
    }

    /**
     * Gives up every change since the last flush because {@code operation} (a phrase:
     * "deleting versions r1, r2") failed part-way with {@code cause}, after changing the file
     * in memory: on disk the file stays as a writer killed now would leave it, at its last
     * flush. From here on every flush and every metadata block read or created throws {@link
     * org.quire.format.hdf5.cache.AbandonedChangesException} (one line naming the file, the
     * operation and {@code quire h5 clear FILE}), and {@link #close} releases the file without
     * writing (the journal, and a version 0 or 1 superblock's writing guard, stay), for {@link
     * #recover} to make it readable at that flush. Nothing to give up in a read-only file.
     */
    public void abandonChanges(String operation, Throwable cause) {
        if (writable) {
            cache.abandon(operation, cause);
        }
    }

    /**
     * Fails once {@link #abandonChanges} gave up this writer's changes: objects loaded before
     * still hold them in memory, so what they show is no longer the file. For callers that keep
     * such objects (versioned files); nothing for a reader.
     *
     * @throws org.quire.format.hdf5.cache.AbandonedChangesException naming the file, the
     *     operation and {@code quire h5 clear}
     */
    public void requireNotAbandoned() throws IOException {
        if (writable) {
            cache.requireNotAbandoned();
        }
    }

    /** Whether {@link #startSwmrWrite()} was called: readers may follow the file. */
    public boolean isSwmrWriting() {
        return swmrWriting;
    }

    /** Refuses {@code change} (a phrase: "create dataset /a") while SWMR writing. */
    void requireNotSwmrWriting(String change) {
        if (swmrWriting) {
            throw new SwmrWriteRefusedException(blocks.path(), change);
        }
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        boolean flushed = false;
        try {
            if (writable) {
                // After an incomplete flush or abandoned changes nothing is written: recover().
                cache.requireNoIncompleteFlush();
                requireNotCutShort();
                consistencyFlags = 0;
                publish(cache.durability().forcesAtClose());
                blocks.flushBegins();
                cache.flushForClose();
                if (oldSuperblock != null) {
                    liftGuard();
                }
                flushed = true;
            }
        } finally {
            closed = true;
            try {
                if (writable) {
                    journal.close();
                    if (flushed) {
                        opener.deleteIfExists(journalPath);
                    } // else left for recover()
                }
            } finally {
                try {
                    if (heartbeat != null) {
                        heartbeat.close();
                    }
                } finally {
                    try {
                        if (locks != null) {
                            locks.close();
                        }
                    } finally {
                        blocks.close();
                    }
                }
            }
        }
    }

    /** The superblock {@code read} from disk, as the cache entry a writer holds. */
    @SuppressWarnings("unchecked")
    private BlockEntry<Hdf5File> protectSuperblock(Superblock read) throws IOException {
        int size = read instanceof SuperblockV0 old ? SuperblockV0.size(old.version())
                : SuperblockV3.SIZE;
        return cache.protect(0, BlockEntry.class, (at, in) -> new BlockEntry<>(at, size,
                FlushStage.SUPERBLOCK, this, Hdf5File::encodeSuperblock));
    }

    /**
     * Writes Quire's writing guard into a version 0 or 1 superblock and forces it, before
     * anything else of the file changes: from here until {@link #close} libhdf5 refuses the
     * file, and so after a crash until {@link #recover}.
     */
    private void writeGuard() throws IOException {
        blocks.write(0, encodeSuperblock());
        blocks.force(true);
    }

    /**
     * The last write of a version 0 or 1 superblock: once every flushed block is forced, the
     * true end of file (the end of allocation, the file's size) and flags 0, forced.
     */
    private void liftGuard() throws IOException {
        blocks.force(true);
        blocks.write(0, oldSuperblock.with(0, blocks.endOfAllocation()).encode());
        blocks.force(true);
    }

    /** Marks the superblock dirty; its end of file must be inside the file when written. */
    private void publish(boolean force) throws IOException {
        // Reserved but unwritten space (pages not yet used) must still be inside the file.
        long end = blocks.endOfAllocation();
        if (!blocks.reaches(end)) {
            blocks.write(end - 1, new byte[1]);
        }
        // An SWMR flush without a journal leaves the superblock alone while its image would
        // not change (appends inside allocated chunks): one write less per flush. A journaled
        // flush always writes it, the block its journal identifies the flush by.
        boolean unchanged = swmrWriting && !force && end == superblockEnd
                && consistencyFlags == superblockFlags;
        if (!unchanged) {
            cache.markDirty(superblock);
        }
    }

    /**
     * The superblock as the cache writes it: after every allocation of the flush. A version 0
     * or 1 superblock carries the writing guard at every flush; only {@link #close} writes the
     * true end of file there.
     */
    private byte[] encodeSuperblock() {
        superblockEnd = blocks.endOfAllocation();
        superblockFlags = consistencyFlags;
        if (oldSuperblock != null) {
            return oldSuperblock.with(SuperblockV0.FLAG_OPEN_FOR_WRITE,
                    SuperblockV0.WRITING_GUARD).encode();
        }
        return new SuperblockV3(consistencyFlags, superblockEnd, root.header.address()).encode();
    }

    BlockFile blocks() {
        return blocks;
    }

    /** The chunk cache size each dataset gets when it is opened or created. */
    ChunkCacheSettings chunkCacheSettings() {
        return chunkCacheSettings;
    }

    /** The buffer every dataset of this file moves element bytes through. */
    TransferBuffer transfer() {
        return transfer;
    }

    MetadataCache cache() {
        return cache;
    }

    BTreeV1Ranks ranks() {
        return ranks;
    }

    /** Whether this file is being written in libhdf5's default format (superblock 0 or 1). */
    boolean writesOldFormat() {
        return oldSuperblock != null;
    }

    /** The superblock's node capacities, unless its extension holds a B-tree 'K' values message. */
    private BTreeV1Ranks ranks(Superblock superblock) throws IOException {
        if (Addresses.isDefined(superblock.extensionAddress())) {
            for (HeaderMessage message : headerMessages(superblock.extensionAddress())) {
                if (message.type() == BTreeKValuesMessage.TYPE) {
                    return BTreeKValuesMessage.decode(message.reader(blocks.path(),
                            "B-tree 'K' values message"));
                }
            }
        }
        return superblock.ranks();
    }

    void requireOpen() {
        if (closed) {
            throw new IllegalStateException(blocks.path() + " is closed");
        }
    }

    /**
     * Reads the object header at {@code address}, version 2 (signature "OHDR") or 1, and builds
     * the group or dataset it holds.
     */
    Hdf5Object readObject(String path, long address) throws IOException {
        try {
            if (swmr != null) {
                Hdf5Object known = objects.get(address);
                if (known == null) {
                    known = swmr.run(() -> objectOf(path, address, headerMessages(address),
                            null), () -> { });
                    objects.put(address, known);
                }
                return known;
            }
            if (!writable) {
                return objectOf(path, address, headerMessages(address), null);
            }
            Hdf5Object known = objects.get(address);
            if (known != null) {
                return known;
            }
            byte[] signature = blocks.read(address, OHDR.length, "object header");
            WritableObjectHeader header = Arrays.equals(signature, OHDR)
                    ? WritableObjectHeader.open(blocks, cache, address)
                    : WritableObjectHeader.openVersion1(blocks, cache, address);
            Hdf5Object object = objectOf(path, address, header.messages(), header);
            objects.put(address, object);
            return object;
        } catch (CorruptFileException e) {
            throw e.of(path);
        }
    }

    /** The global heap of a file being written; null when read only. */
    GlobalHeap globalHeap() {
        return globalHeap;
    }

    /** Resolves committed datatypes and global heap objects of this file. */
    FileReferences references() {
        return references;
    }

    /** The messages of the object header at {@code address}, version 2 ("OHDR") or 1. */
    List<HeaderMessage> headerMessages(long address) throws IOException {
        byte[] signature = blocks.read(address, OHDR.length, "object header");
        return Arrays.equals(signature, OHDR) ? ObjectHeaderV2.read(blocks, address)
                : ObjectHeaderV1.read(blocks, address);
    }

    /** The chunks of the version-2 object header at {@code address}; null for version 1. */
    ObjectHeaderV2.StoredHeader storedHeaderV2(long address) throws IOException {
        byte[] signature = blocks.read(address, OHDR.length, "object header");
        return Arrays.equals(signature, OHDR) ? ObjectHeaderV2.readChunks(blocks, address)
                : null;
    }

    /**
     * The group, dataset or committed datatype whose header at {@code address} holds
     * {@code messages}, writable through {@code header} (groups and datasets of a file
     * reopened for writing) or read only when it is null; a feature it uses that Quire does not
     * read fails naming {@code path}.
     */
    Hdf5Object objectOf(String path, long address, List<HeaderMessage> messages,
                        WritableObjectHeader header) throws IOException {
        try {
            return objectOfKind(path, address, messages, header);
        } catch (UnsupportedFormatException e) {
            throw e.within(path);
        }
    }

    private Hdf5Object objectOfKind(String path, long address, List<HeaderMessage> messages,
                                    WritableObjectHeader header) throws IOException {
        for (HeaderMessage message : messages) {
            if (message.type() == DataLayoutMessage.TYPE) {
                return Dataset.read(this, path, address, messages, header);
            }
        }
        for (HeaderMessage message : messages) {
            if (message.type() == LinkInfoMessage.TYPE
                    || message.type() == SymbolTableMessage.TYPE) {
                return Group.read(this, path, address, messages, header);
            }
        }
        for (HeaderMessage message : messages) {
            if (message.type() == DatatypeMessage.TYPE) {
                return CommittedDatatype.read(this, path, address, messages);
            }
        }
        throw new UnsupportedFormatException(blocks.path(), "object header", address,
                "neither a group, a dataset nor a committed datatype",
                "groups, datasets and committed datatypes");
    }
}
