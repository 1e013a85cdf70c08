package org.quire.format.hdf5;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.quire.format.UnsupportedFormatException;
import org.quire.format.hdf5.layout.Addresses;
import org.quire.format.hdf5.layout.BTreeKValuesMessage;
import org.quire.format.hdf5.layout.BTreeV1Ranks;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.DataLayoutMessage;
import org.quire.format.hdf5.layout.HeaderMessage;
import org.quire.format.hdf5.layout.LinkInfoMessage;
import org.quire.format.hdf5.layout.ObjectHeaderV1;
import org.quire.format.hdf5.layout.ObjectHeaderV2;
import org.quire.format.hdf5.layout.Superblock;
import org.quire.format.hdf5.layout.SuperblockV3;
import org.quire.format.hdf5.layout.SymbolTableMessage;

/**
 * An HDF5 file: {@link #create(Path)} a new one to write, or {@link #open(Path)} an existing one
 * to read. Files are written with superblock version 3 and version-2 object headers (libhdf5's
 * "latest" format, the one SWMR needs) and open in h5py, h5dump and jHDF. Files libhdf5 writes
 * by default (superblock 0, version-1 object headers, symbol table groups, version-1 B-tree
 * chunk indexes) and with superblock 2 are read too.
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
 * <p>While a writer has the file open, the superblock says so (consistency flag "open for
 * writing"); {@link #close()} writes every structure and clears the flag. Not thread-safe.
 */
public final class Hdf5File implements AutoCloseable {

    /** The signature of a version-2 object header; a version-1 header starts with its version. */
    private static final byte[] OHDR = "OHDR".getBytes(StandardCharsets.US_ASCII);

    private final BlockFile blocks;
    private final boolean writable;
    private final ChunkCacheSettings chunkCacheSettings;
    private final TransferBuffer transfer = new TransferBuffer();
    private final List<WritableObjectHeader> headers = new ArrayList<>();
    private final List<Dataset> datasets = new ArrayList<>();
    private Group root;
    /** Node capacities of the old format's B-trees and symbol table nodes. */
    private BTreeV1Ranks ranks = BTreeV1Ranks.DEFAULT;
    private boolean closed;

    private Hdf5File(BlockFile blocks, boolean writable, ChunkCacheSettings chunkCacheSettings) {
        this.blocks = blocks;
        this.writable = writable;
        this.chunkCacheSettings = chunkCacheSettings;
    }

    /**
     * Creates a new file for writing, with an empty root group; its datasets get libhdf5's
     * default chunk cache ({@link ChunkCacheSettings#DEFAULT}).
     *
     * @throws java.nio.file.FileAlreadyExistsException the file exists (it is never truncated)
     */
    public static Hdf5File create(Path path) throws IOException {
        return create(path, ChunkCacheSettings.DEFAULT);
    }

    /**
     * Creates a new file for writing, as {@link #create(Path)}, each of its datasets with a chunk
     * cache of {@code chunkCache}'s size.
     */
    public static Hdf5File create(Path path, ChunkCacheSettings chunkCache) throws IOException {
        FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW,
                StandardOpenOption.READ, StandardOpenOption.WRITE);
        Hdf5File file = new Hdf5File(new BlockFile(path, channel), true, chunkCache);
        file.blocks.allocate(SuperblockV3.SIZE);
        file.root = Group.create(file, "/");
        file.writeSuperblock(SuperblockV3.FLAG_OPEN_FOR_WRITE);
        return file;
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
        return open(path, ChunkCacheSettings.DEFAULT);
    }

    /**
     * Opens an existing file read-only, as {@link #open(Path)}, each of its datasets with a chunk
     * cache of {@code chunkCache}'s size.
     */
    public static Hdf5File open(Path path, ChunkCacheSettings chunkCache) throws IOException {
        BlockFile blocks = new BlockFile(path, FileChannel.open(path, StandardOpenOption.READ));
        try {
            Hdf5File file = new Hdf5File(blocks, false, chunkCache);
            Superblock superblock = Superblock.read(blocks);
            file.ranks = file.ranks(superblock);
            int writing = SuperblockV3.FLAG_OPEN_FOR_WRITE | SuperblockV3.FLAG_OPEN_FOR_SWMR_WRITE;
            if ((superblock.consistencyFlags() & writing) != 0) {
                throw new FileOpenForWritingException(path, superblock.consistencyFlags());
            }
            if (Long.compareUnsigned(superblock.endOfFileAddress(), blocks.size()) > 0) {
                throw new org.quire.format.CorruptFileException(path,
                        superblock.endOfFileAddressOffset(), "superblock",
                        "end of file address", "at most the file size " + blocks.size(),
                        Long.toUnsignedString(superblock.endOfFileAddress()));
            }
            Hdf5Object root = file.readObject("/", superblock.rootGroupAddress());
            if (!(root instanceof Group group)) {
                throw new org.quire.format.CorruptFileException(path,
                        superblock.rootGroupAddress(), "object header", "messages",
                        "a group", "a dataset");
            }
            file.root = group;
            return file;
        } catch (IOException | RuntimeException e) {
            blocks.close();
            throw e;
        }
    }

    public Group root() {
        return root;
    }

    public boolean isWritable() {
        return writable;
    }

    public Path path() {
        return blocks.path();
    }

    /**
     * Writes every chunk index, object header and the superblock, children before the
     * structures that point at them, so that what is on disk is a complete file.
     */
    public void flush() throws IOException {
        requireOpen();
        if (writable) {
            writeAll(SuperblockV3.FLAG_OPEN_FOR_WRITE);
        }
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        try {
            if (writable) {
                writeAll(0);
            }
        } finally {
            closed = true;
            blocks.close();
        }
    }

    private void writeAll(int consistencyFlags) throws IOException {
        for (Dataset dataset : datasets) {
            dataset.flushIndex();
        }
        // Objects created later are children of objects created earlier: write them first.
        for (int i = headers.size() - 1; i >= 0; i--) {
            headers.get(i).flush();
        }
        // Reserved but unwritten space (pages not yet used) must still be inside the file.
        long end = blocks.endOfAllocation();
        if (blocks.size() < end) {
            blocks.write(end - 1, new byte[1]);
        }
        writeSuperblock(consistencyFlags);
    }

    private void writeSuperblock(int consistencyFlags) throws IOException {
        blocks.write(0, new SuperblockV3(consistencyFlags, blocks.endOfAllocation(),
                root.header.address()).encode());
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

    BTreeV1Ranks ranks() {
        return ranks;
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

    void track(WritableObjectHeader header) {
        headers.add(header);
    }

    void track(Dataset dataset) {
        datasets.add(dataset);
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
        return objectOf(path, address, headerMessages(address));
    }

    /** The messages of the object header at {@code address}, version 2 ("OHDR") or 1. */
    private List<HeaderMessage> headerMessages(long address) throws IOException {
        byte[] signature = blocks.read(address, OHDR.length, "object header");
        return Arrays.equals(signature, OHDR) ? ObjectHeaderV2.read(blocks, address)
                : ObjectHeaderV1.read(blocks, address);
    }

    /** The group or dataset whose header at {@code address} holds {@code messages}. */
    Hdf5Object objectOf(String path, long address, List<HeaderMessage> messages)
            throws IOException {
        for (HeaderMessage message : messages) {
            if (message.type() == DataLayoutMessage.TYPE) {
                return Dataset.read(this, path, address, messages);
            }
        }
        for (HeaderMessage message : messages) {
            if (message.type() == LinkInfoMessage.TYPE
                    || message.type() == SymbolTableMessage.TYPE) {
                return Group.read(this, path, address, messages);
            }
        }
        throw new UnsupportedFormatException(blocks.path(), "object header of " + path, address,
                "neither a group nor a dataset (a named datatype?)", "groups and datasets");
    }
}
