package org.quire.format.versioned;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

import org.quire.format.hdf5.Attribute;
import org.quire.format.hdf5.Dataset;
import org.quire.format.hdf5.DatasetSpec;
import org.quire.format.hdf5.Datatype;
import org.quire.format.hdf5.Filter;
import org.quire.format.hdf5.Group;

/**
 * One versioned dataset's content-addressed chunk store (reference note §1.3, §1.4):
 * {@code raw_data}, chunks laid end to end along axis 0, one slot of c0 rows per distinct
 * chunk (an edge chunk at its slot's corner, padded with the fill value), and
 * {@code hash_table}, a row per slot: digest and rows. {@code largest_index} (slots in use)
 * is written last and is the only length trusted: rows past it (a crashed commit's) are
 * overwritten and trimmed by the next commit. A row of zero digest and no rows is a slot
 * retired by an interrupted {@link VersionDeleter} (no chunk's SHA-256 matches it).
 */
final class ChunkStore {

    private final Path file;
    private final String dataset;
    private final Dataset rawData;
    private final Dataset hashTable;
    private final long[] chunks;
    private final Datatype type;
    private final byte[] fill;
    /** Slots committed, then slots committed plus those added by {@link #store}. */
    private long largestIndex;
    private long slotsAtOpen;
    private final Map<ByteBuffer, HashTableLayout.Row> byDigest = new HashMap<>();
    private final Map<Long, byte[]> digestByStart = new HashMap<>();
    private final List<HashTableLayout.Row> added = new ArrayList<>();

    private ChunkStore(Path file, String dataset, Dataset rawData, Dataset hashTable,
                       long[] chunks, long largestIndex) {
        this.file = file;
        this.dataset = dataset;
        this.rawData = rawData;
        // A commit adds a few slots after the last one's metadata: aligned, each commit would
        // skip up to a chunk's size before its first slot (versioned-hdf5 does not align either).
        rawData.packNewChunks();
        this.hashTable = hashTable;
        this.chunks = chunks;
        this.type = rawData.type();
        byte[] stored = rawData.fillValue();
        this.fill = stored == null ? new byte[type.size()] : stored;
        this.largestIndex = largestIndex;
        this.slotsAtOpen = largestIndex;
    }

    /** Opens the store of {@code dataset} below {@code versionData}, checking its structure. */
    static ChunkStore open(Path file, Group versionData, String dataset) throws IOException {
        String where = VersionDataLayout.storePath(dataset);
        Group store = (Group) GroupPaths.find(versionData, dataset);
        Dataset rawData = requireDataset(file, store, VersionDataLayout.RAW_DATA, where);
        Dataset hashTable = requireDataset(file, store, VersionDataLayout.HASH_TABLE, where);
        String tableWhere = where + "/" + VersionDataLayout.HASH_TABLE;
        if (!HashTableLayout.matches(hashTable.type()) || hashTable.shape().length != 1) {
            throw new DamagedVersionDataException(file, tableWhere,
                    "a 1-D compound {hash: uint8[32], shape: int64[2]}", hashTable.type()
                    + " of shape " + Arrays.toString(hashTable.shape()));
        }
        long largest = VersionAttributes.scalarLong(file, hashTable, tableWhere,
                VersionDataLayout.LARGEST_INDEX);
        long[] chunks = rawData.chunkShape();
        long rows = rawData.shape()[0];
        if (largest < 0 || largest > hashTable.shape()[0] || largest * chunks[0] > rows) {
            throw new DamagedVersionDataException(file, tableWhere + "@"
                    + VersionDataLayout.LARGEST_INDEX, "at most the hash table's " + hashTable.shape()[0]
                    + " rows and raw_data's " + rows / chunks[0] + " slots", Long.toString(largest));
        }
        ChunkStore opened = new ChunkStore(file, dataset, rawData, hashTable, chunks, largest);
        opened.readTable();
        return opened;
    }

    /** Creates the store for a dataset first committed now (§1.3: raw_data of 0 rows). */
    static ChunkStore create(Path file, Group versionData, String dataset, Datatype type,
                             long[] chunks, byte[] fill, List<Filter> filters) throws IOException {
        Group store = GroupPaths.ensure(versionData, dataset);
        long[] empty = chunks.clone();
        empty[0] = 0;
        long[] max = chunks.clone();
        max[0] = DatasetSpec.UNLIMITED;
        DatasetSpec.Builder raw = DatasetSpec.builder(type, empty).maxShape(max).chunkShape(chunks);
        if (fill != null) {
            raw.fillValue(fill);
        }
        filters.forEach(raw::filter);
        Dataset rawData = store.createDataset(VersionDataLayout.RAW_DATA, raw.build());
        rawData.setAttribute(Attribute.of(VersionDataLayout.CHUNKS, chunks));
        Dataset hashTable = store.createDataset(VersionDataLayout.HASH_TABLE,
                DatasetSpec.builder(HashTableLayout.TYPE, 1).maxShape(DatasetSpec.UNLIMITED)
                        .chunkShape(HashTableLayout.CHUNK_ROWS).filter(Filter.lzf()).build());
        hashTable.setAttribute(Attribute.scalar(VersionDataLayout.LARGEST_INDEX, Datatype.INT64, 0));
        return new ChunkStore(file, dataset, rawData, hashTable, chunks, 0);
    }

    private void readTable() throws IOException {
        if (largestIndex == 0) {
            return;
        }
        ByteBuffer rows = hashTable.read(new long[] {0}, new long[] {largestIndex});
        String where = VersionDataLayout.storePath(dataset) + "/" + VersionDataLayout.HASH_TABLE;
        for (int i = 0; i < largestIndex; i++) {
            HashTableLayout.Row row = HashTableLayout.decode(rows, i);
            long used = row.stop() - row.start();
            if (row.start() < 0 || row.start() % chunks[0] != 0
                    || row.start() / chunks[0] >= largestIndex || used < 0 || used > chunks[0]) {
                throw new DamagedVersionDataException(file, where + " row " + i,
                        "rows [start, stop) of one of the " + largestIndex + " slots of "
                                + chunks[0] + " rows", "[" + row.start() + ", " + row.stop() + ")");
            }
            byDigest.putIfAbsent(ByteBuffer.wrap(row.digest()), row);
            digestByStart.put(row.start(), row.digest());
        }
    }

    Datatype type() {
        return type;
    }

    long[] chunks() {
        return chunks.clone();
    }

    byte[] fill() {
        return fill.clone();
    }

    List<Filter> filters() {
        return rawData.filters();
    }

    /** Rows of raw_data that committed slots hold: mappings must stay below. */
    long committedRows() {
        return slotsAtOpen * chunks[0];
    }

    /** The digest of the chunk in the slot starting at raw_data row {@code start}, or null. */
    byte[] digestAt(long start) {
        byte[] digest = digestByStart.get(start);
        return digest == null ? null : digest.clone();
    }

    /**
     * Checks that the chunk of {@code trimmed} extent in the slot at row {@code start} has the
     * digest its hash table row records ({@code where}: the mapping that names the slot).
     */
    void verifySlot(long start, long[] trimmed, String where) throws IOException {
        byte[] recorded = digestByStart.get(start);
        String table = VersionDataLayout.storePath(dataset) + "/" + VersionDataLayout.HASH_TABLE;
        if (recorded == null) {
            throw new DamagedVersionDataException(file, table, "a row for the slot at raw_data row "
                    + start + " (named by " + where + ")", "none");
        }
        long[] origin = new long[trimmed.length];
        origin[0] = start;
        ByteBuffer elements = rawData.read(origin, trimmed);
        byte[] bytes = new byte[elements.remaining()];
        elements.get(bytes);
        byte[] digest = ChunkDigest.of(bytes, trimmed);
        if (!Arrays.equals(digest, recorded)) {
            throw new DamagedVersionDataException(file, VersionDataLayout.rawDataPath(dataset)
                    + " rows [" + start + ", " + (start + trimmed[0]) + ")",
                    "the chunk of digest " + ChunkDigest.hex(recorded) + " (" + table + ")",
                    "digest " + ChunkDigest.hex(digest));
        }
    }

    /**
     * The first raw_data row of the slot holding a chunk of {@code elements} (C order) and
     * {@code trimmed} extent: an existing slot of the same digest, else a new slot written now.
     */
    long store(byte[] elements, long[] trimmed) throws IOException {
        byte[] digest = ChunkDigest.of(elements, trimmed);
        HashTableLayout.Row known = byDigest.get(ByteBuffer.wrap(digest));
        if (known != null) {
            return known.start();
        }
        long start = largestIndex * chunks[0];
        writeSlot(start, elements, trimmed);
        HashTableLayout.Row row = new HashTableLayout.Row(digest, start, start + trimmed[0]);
        byDigest.put(ByteBuffer.wrap(digest), row);
        digestByStart.put(start, digest);
        added.add(row);
        largestIndex++;
        return start;
    }

    /** Writes the whole slot: the chunk at its corner, the fill value around it (§1.3). */
    private void writeSlot(long start, byte[] elements, long[] trimmed) throws IOException {
        long[] rows = rawData.shape();
        if (rows[0] < start + chunks[0]) {
            rows[0] = start + chunks[0];
            rawData.setExtent(rows);
        }
        byte[] padded = elements;
        if (!Arrays.equals(trimmed, chunks)) {
            padded = new byte[Math.toIntExact(ChunkGrid.elements(chunks) * type.size())];
            ChunkGrid.fill(padded, fill);
            new ChunkGrid(chunks, chunks, type.size()).copyIn(padded, new long[chunks.length],
                    trimmed, elements);
        }
        long[] origin = new long[chunks.length];
        origin[0] = start;
        rawData.write(origin, chunks, ByteBuffer.wrap(padded).order(type.byteOrder()));
    }

    /**
     * Publishes the slots {@link #store} added: their hash rows, both datasets cut to exactly
     * the slots in use (dropping a crashed commit's leftovers), then {@code largest_index}.
     */
    void finish() throws IOException {
        long[] rows = rawData.shape();
        if (added.isEmpty() && rows[0] == slotsAtOpen * chunks[0]
                && hashTable.shape()[0] == Math.max(1, slotsAtOpen)) {
            return;
        }
        publish(added, slotsAtOpen, largestIndex);
        added.clear();
        cutRawData();
    }

    /**
     * Copies the slots starting at the rows {@code kept} names (each with its chunk's trimmed
     * extent), in their old order, to slots {@code firstSlot}, {@code firstSlot + 1}, ..., each
     * rewritten whole so its padding is the fill value again (reference note §2,
     * delete_versions), and publishes a hash table of exactly those slots: the rows of the
     * slots below {@code firstSlot} are retired (a zero digest no SHA-256 gives, no rows), so
     * no later commit reuses them. Returns old first row to new. raw_data keeps its rows (cut
     * by {@link #cutRawData} once this is flushed: a cut writes the fill value over the rows it
     * drops, in place). The slots written must be ones no published mapping or hash row names
     * (past {@code largest_index}, or retired by an earlier call), so a crash before the next
     * flush leaves the published state's chunks intact (see {@link VersionDeleter}).
     */
    Map<Long, Long> copySlots(SortedMap<Long, long[]> kept, long firstSlot) throws IOException {
        Map<Long, Long> moved = new HashMap<>();
        List<HashTableLayout.Row> rows = new ArrayList<>();
        for (long retired = 0; retired < firstSlot; retired++) {
            rows.add(new HashTableLayout.Row(new byte[ChunkDigest.LENGTH], retired * chunks[0],
                    retired * chunks[0]));
        }
        for (Map.Entry<Long, long[]> entry : kept.entrySet()) {
            long oldStart = entry.getKey();
            long[] trimmed = entry.getValue();
            byte[] digest = digestByStart.get(oldStart);
            if (digest == null) {
                throw new DamagedVersionDataException(file, VersionDataLayout.storePath(dataset) + "/"
                        + VersionDataLayout.HASH_TABLE, "a row for the slot at raw_data row " + oldStart, "none");
            }
            long[] origin = new long[trimmed.length];
            origin[0] = oldStart;
            ByteBuffer elements = rawData.read(origin, trimmed);
            byte[] bytes = new byte[elements.remaining()];
            elements.get(bytes);
            long newStart = rows.size() * chunks[0];
            writeSlot(newStart, bytes, trimmed);
            rows.add(new HashTableLayout.Row(digest, newStart, newStart + trimmed[0]));
            moved.put(oldStart, newStart);
        }
        publish(rows, 0, rows.size());
        byDigest.clear();
        digestByStart.clear();
        for (HashTableLayout.Row row : rows) {
            byDigest.putIfAbsent(ByteBuffer.wrap(row.digest()), row);
            digestByStart.put(row.start(), row.digest());
        }
        return moved;
    }

    /** Slots the hash table names (committed, or stored since): copies past them are unnamed. */
    long slots() {
        return largestIndex;
    }

    /**
     * Cuts raw_data to the slots in use. The cut writes the fill value over the rows it drops
     * (docs/hdf5.md, "Resizing"), so no flushed state may name them.
     */
    void cutRawData() throws IOException {
        long[] shape = rawData.shape();
        shape[0] = largestIndex * chunks[0];
        rawData.setExtent(shape);
    }

    /**
     * Writes {@code rows} into the hash table from row {@code firstRow}, cuts it to {@code slots}
     * rows (LZF-filtered, §1.2: its rewritten chunks go to new space) and sets
     * {@code largest_index} to {@code slots}, last.
     */
    private void publish(List<HashTableLayout.Row> rows, long firstRow, long slots) throws IOException {
        hashTable.setExtent(Math.max(1, slots));
        if (!rows.isEmpty()) {
            ByteBuffer out = ByteBuffer.allocate(rows.size() * HashTableLayout.ROW_SIZE);
            for (int i = 0; i < rows.size(); i++) {
                HashTableLayout.encode(rows.get(i), out, i);
            }
            hashTable.write(new long[] {firstRow}, new long[] {rows.size()}, out);
        }
        VersionAttributes.replace(hashTable, Attribute.scalar(VersionDataLayout.LARGEST_INDEX,
                Datatype.INT64, slots));
        largestIndex = slots;
        slotsAtOpen = slots;
    }

    private static Dataset requireDataset(Path file, Group store, String name, String where)
            throws IOException {
        if (!store.contains(name) || !(store.get(name) instanceof Dataset dataset)) {
            throw new DamagedVersionDataException(file, where + "/" + name,
                    "a dataset (the store every versioned dataset has)", "nothing");
        }
        return dataset;
    }
}
