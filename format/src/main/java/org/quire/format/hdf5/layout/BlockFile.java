package org.quire.format.hdf5.layout;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.storage.Storage;

/**
 * Positional access to an HDF5 file's bytes: bounds-checked reads of structures at addresses,
 * verified reads of checksummed metadata blocks, writes, and end-of-file allocation.
 *
 * <p>Addresses are relative to the base address: where the superblock is, 0 unless a user
 * block precedes it ({@link Superblock#read} sets it).
 */
public final class BlockFile implements AutoCloseable {

    private final Path path;
    private final Storage storage;
    private long endOfAllocation;
    /** The end of allocation when the last flush began: what a flushed state may reach. */
    private long flushedEnd;
    /** Whether SWMR readers may read flushed states while the writer writes. */
    private boolean followedByReaders;
    /** Absolute offset of address 0: the size of the user block before the superblock. */
    private long baseAddress;
    /**
     * A size the file (from the base address) is known to reach, as last asked or written: a
     * read inside it needs no size query (a system call). Files only grow under a reader and
     * writer; a file cut short since fails the read itself, naming the bytes missing.
     */
    private long knownSize = -1;
    /** How many blocks of each structure {@link #readVerified} has checked. */
    private final Map<String, Long> verifiedBlocks = new TreeMap<>();
    /** How many blocks without checksum (version 0/1 structures) have been read and checked. */
    private final Map<String, Long> checkedBlocks = new TreeMap<>();

    public BlockFile(Storage storage) throws IOException {
        this.path = storage.path();
        this.storage = storage;
        this.endOfAllocation = storage.size();
        this.flushedEnd = endOfAllocation;
    }

    public Path path() {
        return path;
    }

    /** Bytes currently in the file from the base address on. */
    public long size() throws IOException {
        return storage.size() - baseAddress;
    }

    /** Absolute offset of address 0 (the user block's size). */
    public long baseAddress() {
        return baseAddress;
    }

    /** Makes addresses relative to {@code absolute}, where the superblock was found. */
    void useBaseAddress(long absolute) throws IOException {
        baseAddress = absolute;
        knownSize = -1;
        endOfAllocation = size();
        flushedEnd = endOfAllocation;
    }

    /** The first address past every allocated byte: the superblock's end-of-file address. */
    public long endOfAllocation() {
        return endOfAllocation;
    }

    /**
     * Records that a flush begins: from now on every byte allocated so far may be reached by a
     * flushed state (the one this flush writes, or recovery completes from its journal).
     */
    public void flushBegins() {
        flushedEnd = endOfAllocation;
    }

    /**
     * The end of allocation when the last flush began: once that flush completed, the file
     * reaches at least this far (from the base address).
     */
    public long flushedEnd() {
        return flushedEnd;
    }

    /**
     * Whether a state a flush wrote may reach {@code address}: it was allocated before the last
     * flush began (or was in the file when it was opened).
     */
    public boolean reachableFromFlushedState(long address) {
        return address < flushedEnd;
    }

    /**
     * Records whether readers follow the file while it is written (SWMR writing): a block a
     * flushed state reaches that a reader holding its parent could not read once rewritten (a
     * v2 B-tree node, whose checksum sits after as many records as the parent says) is then
     * copied to new space before it changes.
     */
    public void followedByReaders(boolean followed) {
        followedByReaders = followed;
    }

    /** Whether readers follow the file while it is written ({@link #followedByReaders}). */
    public boolean followedByReaders() {
        return followedByReaders;
    }

    /** Reserves {@code length} bytes at the end of the file and returns their address. */
    public long allocate(long length) {
        long address = endOfAllocation;
        endOfAllocation += length;
        return address;
    }

    /**
     * Reads {@code length} bytes at {@code address}, failing with a corrupt-file error naming
     * {@code structure} if they are not all inside the file.
     */
    public byte[] read(long address, int length, String structure) throws IOException {
        requireInside(address, length, structure);
        ByteBuffer buffer = ByteBuffer.allocate(length);
        readFully(address, buffer, structure);
        return buffer.array();
    }

    /**
     * Reads the bytes at {@code address} into the remaining bytes of {@code into} (its position
     * moves to its limit), failing as {@link #read(long, int, String)} does. Straight into the
     * buffer's memory when it is direct, so that a caller with a reusable direct buffer reads
     * without allocating and without an intermediate copy.
     */
    public void read(long address, ByteBuffer into, String structure) throws IOException {
        requireInside(address, into.remaining(), structure);
        readFully(address, into, structure);
    }

    private void requireInside(long address, int length, String structure) throws IOException {
        if (Addresses.isDefined(address) && address >= 0 && length >= 0
                && address <= knownSize - length) {
            return;
        }
        long fileSize = size();
        knownSize = fileSize;
        if (!Addresses.isDefined(address) || address < 0 || length < 0
                || address > fileSize - length) {
            throw new CorruptFileException(path, address, structure, "address",
                    "a block of " + length + " bytes inside the file of " + fileSize + " bytes",
                    Addresses.isDefined(address) ? Long.toUnsignedString(address)
                            : "the undefined address");
        }
    }

    private void readFully(long address, ByteBuffer buffer, String structure)
            throws IOException {
        int length = buffer.remaining();
        int start = buffer.position();
        if (!storage.readFully(buffer, baseAddress + address)) {
            int read = buffer.position() - start;
            throw new CorruptFileException(path, address + read, structure, "bytes",
                    length + " bytes", read + " bytes before end of file");
        }
    }

    /** Reads a complete checksummed block and passes it through {@link MetadataValidator}. */
    public byte[] readVerified(long address, int length, BlockIdentity identity)
            throws IOException {
        byte[] block = read(address, length, identity.structure());
        MetadataValidator.verify(path, address, block, identity);
        countVerified(identity);
        return block;
    }

    /**
     * Reads a complete checksummed block of a fixed {@code length} and returns a reader placed
     * after its signature and version.
     */
    public LittleEndianReader readVerifiedFields(long address, int length, BlockIdentity identity)
            throws IOException {
        LittleEndianReader in = reader(address, identity.structure(),
                readVerified(address, length, identity));
        in.skip(identity.prefixLength());
        return in;
    }

    /** Counts a block of {@code identity} whose checksum its own layout class verified. */
    void countVerified(BlockIdentity identity) {
        verifiedBlocks.merge(identity.structure(), 1L, Long::sum);
    }

    /** Checksummed blocks read so far, by structure name, for verification reports. */
    public Map<String, Long> verifiedBlocks() {
        return Collections.unmodifiableMap(new TreeMap<>(verifiedBlocks));
    }

    /**
     * Counts a block of {@code structure} that has no checksum (the old format's superblock,
     * object headers, B-tree and symbol table nodes, local heaps) once its layout class has
     * checked its signature, version, sizes and bounds.
     */
    void countChecked(String structure) {
        checkedBlocks.merge(structure, 1L, Long::sum);
    }

    /** Blocks without checksum read and checked so far, by structure name. */
    public Map<String, Long> checkedBlocks() {
        return Collections.unmodifiableMap(new TreeMap<>(checkedBlocks));
    }

    /** A reader over a block already read from {@code address}. */
    public LittleEndianReader reader(long address, String structure, byte[] block) {
        return new LittleEndianReader(path, address, structure, block);
    }

    public void write(long address, byte[] bytes) throws IOException {
        write(address, ByteBuffer.wrap(bytes));
    }

    public void write(long address, ByteBuffer bytes) throws IOException {
        long end = address + bytes.remaining();
        storage.write(bytes, baseAddress + address);
        endOfAllocation = Math.max(endOfAllocation, end);
        knownSize = Math.max(knownSize, end);
    }

    /** Whether the file holds bytes up to {@code end}; asks its size only when not known yet. */
    public boolean reaches(long end) throws IOException {
        if (end > knownSize) {
            knownSize = size();
        }
        return end <= knownSize;
    }

    /**
     * Makes every write so far durable ({@link Storage#force}); {@code metadata} also forces
     * the file's size.
     */
    public void force(boolean metadata) throws IOException {
        storage.force(metadata);
    }

    /**
     * Reads the one-byte {@code field} of {@code in}'s structure and fails unless it is {@code
     * supported}: a feature this code does not handle.
     */
    public static void requireSupported(LittleEndianReader in, String field, int supported)
            throws CorruptFileException, UnsupportedFormatException {
        long at = in.absolutePosition();
        int actual = in.getUnsignedByte(field);
        if (actual != supported) {
            throw new UnsupportedFormatException(in.file(), in.structure() + " " + field, at,
                    Integer.toString(actual), Integer.toString(supported));
        }
    }

    @Override
    public void close() throws IOException {
        storage.close();
    }
}
