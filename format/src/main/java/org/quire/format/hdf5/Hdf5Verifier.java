package org.quire.format.hdf5;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.hdf5.chunk.Shapes;
import org.quire.format.hdf5.layout.Addresses;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.LinkMessage;
import org.quire.format.hdf5.layout.Superblock;
import org.quire.format.hdf5.layout.SuperblockV0;
import org.quire.format.hdf5.layout.SymbolTableEntry;
import org.quire.format.hdf5.layout.SymbolTableMessage;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.OpenMode;
import org.quire.format.storage.StorageOpener;

/**
 * Checks every structure of an HDF5 file Quire can read: the superblock (checksum, "open for
 * writing" flags, end-of-file address), every object header and continuation block reachable
 * from the root group by hard links, every message in them that Quire interprets (the others
 * are covered by their block's checksum) and every attribute; dense link and attribute storage
 * in full ({@link DenseMessageStorage#verify()}: every fractal heap block, every node of the
 * name, creation order and huge-object B-trees, every message); every chunk index block and
 * page that was ever written (fixed array, extensible array; every node of a version-2 B-tree
 * once, with its record order and counts), and every stored chunk, implicitly indexed and
 * single chunks included: its coordinates inside the dataspace's maximum extent, inside the
 * file, through the filter pipeline (inflated, Fletcher-32 checked) to its full unfiltered
 * size; the block of a contiguous dataset inside the file and, as for compact data, of the
 * shape's size. Files in libhdf5's default (old) format: every version-1 object header, every
 * node of every group's and chunk index's version-1 B-tree, every symbol table node and local
 * heap, each once, and the root group's entry in the superblock against its symbol table message.
 *
 * Every variable-length string of an attribute or dataset is found in its global heap
 * collection, each collection read and checked once.
 *
 * <p>An object, link or attribute of a kind Quire does not read (a reference type, say) is
 * listed in the report's {@link VerificationReport#unsupported()} with the reason, and the walk
 * goes on. The first problem found is thrown, with what its exception names (file, offset,
 * structure, the object it belongs to, field, expected, found); a valid file yields a
 * {@link VerificationReport}. The cost follows what was written: pages and blocks never written
 * are not read.
 */
public final class Hdf5Verifier {

    private Hdf5Verifier() {
    }

    /**
     * @throws FileOpenForWritingException a writer has the file open, or died with it open
     * @throws CorruptFileException        a structure or chunk is damaged (its checksum
     *                                     subclass for a metadata block whose bytes changed)
     * @throws org.quire.format.UnsupportedFormatException the superblock or root group uses a
     *                                     feature Quire does not read, so nothing can be checked
     */
    public static VerificationReport verify(Path path) throws IOException {
        return verify(path, FileStorage.OPENER);
    }

    /** {@link #verify(Path)} of the file {@code opener} opens. */
    public static VerificationReport verify(Path path, StorageOpener opener) throws IOException {
        Superblock superblock;
        try (BlockFile superblockOnly = new BlockFile(opener.open(path, OpenMode.READ))) {
            superblock = Superblock.read(superblockOnly);
        }
        try (Hdf5File file = Hdf5File.open(path, opener)) {
            return new Walk(file, superblock, superblock.endOfFileAddress(), false).run();
        }
    }

    /**
     * {@link #verify(Path)} of a file an SWMR writer may be appending to, opened with {@link
     * Hdf5File#openSwmr}: each dataset as of the commit its object header held when the walk
     * reached it. The superblock's end of file address is taken as the file's size when smaller
     * (libhdf5's SWMR writer leaves it stale until it closes the file), and a block ending past
     * that bound is checked again against the file's size at that moment: the file only grows
     * under an SWMR writer, and a commit reached late in the walk may point at chunks appended
     * after it started. A block that fails its check is read again, the whole walk after a
     * refresh, within {@link SwmrReadOptions#DEFAULT} (at least once, however long a walk takes).
     *
     * @throws MetadataRetriesExhaustedException a block failed its check at every attempt
     */
    public static VerificationReport verifySwmr(Path path) throws IOException {
        try (Hdf5File file = Hdf5File.openSwmr(path)) {
            return file.swmrRetry().run(() -> {
                Superblock superblock = Superblock.read(file.blocks());
                long size = file.blocks().baseAddress() + file.blocks().size();
                long end = Long.compareUnsigned(superblock.endOfFileAddress(), size) < 0 ? size
                        : superblock.endOfFileAddress();
                return new Walk(file, superblock, end, true).run();
            }, file::refresh);
        }
    }

    /** Variable-length strings resolved per read while checking a dataset of them. */
    private static final long STRINGS_PER_READ = 1 << 16;

    /** One verification: counts and the set of object headers already checked. */
    private static final class Walk {
        private final Hdf5File file;
        private final Superblock superblock;
        private long endOfFile;
        /** Whether an SWMR writer may be appending: the file grows during the walk. */
        private final boolean growing;
        private final Set<Long> visitedHeaders = new HashSet<>();
        private long groups;
        private long datasets;
        private long attributes;
        private long linksNotFollowed;
        private long denseMessages;
        private long chunks;
        private long chunkBytes;
        private long contiguousBytes;
        private long committedDatatypes;
        private final List<Unsupported> unsupported = new ArrayList<>();

        /**
         * {@code endOfFile}: the end of file address blocks are checked against; {@code
         * growing}: a block past it is checked again against the file's size then.
         */
        Walk(Hdf5File file, Superblock superblock, long endOfFile, boolean growing) {
            this.file = file;
            this.superblock = superblock;
            // Addresses are relative to the superblock; the end of file address is not.
            this.endOfFile = endOfFile - file.blocks().baseAddress();
            this.growing = growing;
            visitedHeaders.add(superblock.rootGroupAddress());
        }

        VerificationReport run() throws IOException {
            // Depth-first with an explicit stack: a deep hierarchy must not overflow the JVM's.
            Deque<Group> pending = new ArrayDeque<>();
            pending.push(file.root());
            count(file.root());
            checkRootScratchPad();
            while (!pending.isEmpty()) {
                Group group = pending.pop();
                for (LinkMessage link : links(group)) {
                    if (link.type() != LinkMessage.HARD) {
                        linksNotFollowed++;
                        continue;
                    }
                    if (!visitedHeaders.add(link.address())) {
                        continue; // a second hard link to an object already checked
                    }
                    Hdf5Object member;
                    try {
                        member = group.member(link);
                    } catch (UnsupportedFormatException e) {
                        unsupported.add(Unsupported.of(Hdf5Object.childPath(group.path(),
                                link.name()), e));
                        continue;
                    }
                    count(member);
                    if (member instanceof Group child) {
                        pending.push(child);
                    } else if (member instanceof Dataset dataset) {
                        verifyStorage(dataset);
                    }
                }
            }
            return new VerificationReport(file.path(), groups, datasets, attributes,
                    linksNotFollowed, denseMessages, file.blocks().verifiedBlocks(),
                    file.blocks().checkedBlocks(), chunks, chunkBytes, contiguousBytes,
                    committedDatatypes, unsupported);
        }

        /**
         * A version 0/1 superblock caches the root group's symbol table message in its entry's
         * scratch-pad (libhdf5 reads it from there); both must name the same B-tree and heap.
         */
        private void checkRootScratchPad() throws CorruptFileException {
            SymbolTableMessage message = file.root().symbolTable();
            if (!(superblock instanceof SuperblockV0 old) || message == null
                    || old.rootGroupEntry().cacheType() != SymbolTableEntry.CACHE_SYMBOL_TABLE) {
                return;
            }
            SymbolTableEntry entry = old.rootGroupEntry();
            if (entry.cachedBTreeAddress() != message.bTreeAddress()
                    || entry.cachedHeapAddress() != message.localHeapAddress()) {
                throw new CorruptFileException(file.path(),
                        SuperblockV0.rootGroupEntryOffset(old.version())
                                + SymbolTableEntry.SCRATCH_PAD_OFFSET,
                        "superblock", "root group symbol table entry scratch-pad",
                        "B-tree " + message.bTreeAddress() + " and local heap "
                                + message.localHeapAddress() + " (the root's symbol table message)",
                        "B-tree " + entry.cachedBTreeAddress() + " and local heap "
                                + entry.cachedHeapAddress());
            }
        }

        /** The group's links; dense ones through a full verification of their storage. */
        private List<LinkMessage> links(Group group) throws IOException {
            DenseMessageStorage<?, LinkMessage> dense = group.denseLinks();
            if (dense == null) {
                return group.links();
            }
            try {
                List<LinkMessage> links = dense.verify();
                denseMessages += links.size();
                return links;
            } catch (CorruptFileException e) {
                throw e.of(group.path());
            }
        }

        private void count(Hdf5Object object) throws IOException {
            if (object instanceof Group) {
                groups++;
            } else if (object instanceof Dataset) {
                datasets++;
            } else {
                committedDatatypes++;
            }
            DenseMessageStorage<?, Hdf5Object.StoredAttribute> dense = object.denseAttributes();
            List<Hdf5Object.StoredAttribute> stored;
            try {
                stored = dense == null ? object.storedAttributes() : dense.verify();
            } catch (CorruptFileException e) {
                throw e.of(object.path());
            }
            if (dense != null) {
                denseMessages += stored.size();
            }
            for (Hdf5Object.StoredAttribute attribute : stored) {
                if (attribute.unsupported() == null) {
                    attribute.readable(object.path());
                    attributes++;
                } else {
                    unsupported.add(new Unsupported(object.path() + "@" + attribute.name(),
                            attribute.unsupported().reason()));
                }
            }
        }

        /** The dataset's elements; a failure names the dataset. */
        private void verifyStorage(Dataset dataset) throws IOException {
            try {
                if (dataset.layout() == StorageLayout.CHUNKED) {
                    verifyChunks(dataset);
                } else if (dataset.layout() != StorageLayout.VIRTUAL) {
                    // (A virtual dataset's mappings were checked, checksum and selections, when
                    // it was opened; its sources are datasets verified on their own.)
                    verifyContiguous(dataset);
                }
                if (dataset.type() instanceof Datatype.VariableLengthStringType) {
                    verifyStrings(dataset);
                }
            } catch (CorruptFileException e) {
                throw e.of(dataset.path());
            }
        }

        /**
         * Every element of a variable-length string dataset found in its global heap
         * collection (each collection read and checked once), read a block of rows at a time.
         */
        private void verifyStrings(Dataset dataset) throws IOException {
            long[] shape = dataset.shape();
            if (shape.length == 0) {
                dataset.readStringBytes(shape, shape);
                return;
            }
            long[] rowShape = shape.clone();
            rowShape[0] = 1;
            long rows = Math.max(1, STRINGS_PER_READ / Math.max(1, Shapes.elementCount(rowShape)));
            for (long row = 0; row < shape[0]; row += rows) {
                long[] start = new long[shape.length];
                start[0] = row;
                long[] count = shape.clone();
                count[0] = Math.min(rows, shape[0] - row);
                dataset.readStringBytes(start, count);
            }
        }

        private void verifyContiguous(Dataset dataset) throws IOException {
            // Opening the dataset checked the size against the shape and the file's length.
            ContiguousData data = dataset.contiguousData();
            if (data.layout() == StorageLayout.CONTIGUOUS
                    && Addresses.isDefined(data.address())) {
                checkInsideFile(data.address(), data.size(), "contiguous data of "
                        + dataset.path());
            }
            contiguousBytes += data.size();
        }

        private void verifyChunks(Dataset dataset) throws IOException {
            dataset.forEachStoredChunk((coordinates, record) -> {
                if (!dataset.chunkGrid().contains(coordinates)) {
                    throw new CorruptFileException(file.path(), dataset.address(),
                            "chunk index", "chunk coordinates",
                            "inside the maximum extent " + Arrays.toString(dataset.maxShape())
                                    + " in chunks of " + Arrays.toString(dataset.chunkShape()),
                            Arrays.toString(coordinates), dataset.path());
                }
                try {
                    checkInsideFile(record.address(), record.storedSize(), "chunk");
                    dataset.readChunk(coordinates, record);
                } catch (CorruptFileException e) {
                    // Only chunk bytes are read here (no lookup3 block: index blocks fail
                    // outside this visitor, as they are), so the cause is a plain corruption.
                    CorruptFileException chunk = new CorruptFileException(e.file(), e.offset(),
                            "chunk " + Arrays.toString(coordinates), e.field(), e.expected(),
                            e.found(), dataset.path());
                    chunk.initCause(e);
                    throw chunk;
                }
                chunks++;
                chunkBytes += record.storedSize();
            });
        }

        private void checkInsideFile(long address, long size, String structure)
                throws IOException {
            if (growing && !inside(address, size)) {
                endOfFile = Math.max(endOfFile, file.blocks().size());
            }
            if (!inside(address, size)) {
                throw new CorruptFileException(file.path(), address, structure, "address",
                        "a block of " + Long.toUnsignedString(size) + " bytes ending before "
                                + "the end of file address " + endOfFile,
                        Long.toUnsignedString(address));
            }
        }

        private boolean inside(long address, long size) {
            return size >= 0 && address >= 0 && address <= endOfFile - size;
        }
    }
}
