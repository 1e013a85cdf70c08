package org.quire.format.hdf5;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;

import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.chunk.BoxRuns;
import org.quire.format.hdf5.chunk.ChunkCache;
import org.quire.format.hdf5.chunk.ChunkGrid;
import org.quire.format.hdf5.chunk.ChunkIndex;
import org.quire.format.hdf5.chunk.HyperslabChunks;
import org.quire.format.hdf5.chunk.InPlaceChunkStore;
import org.quire.format.hdf5.chunk.Shapes;
import org.quire.format.hdf5.layout.ChunkRecord;
import org.quire.format.hdf5.layout.DataLayoutMessage;

/**
 * The elements of a chunked dataset: hyperslab reads and writes over its chunk grid, each chunk
 * found through the chunk index, its bytes kept by the chunk store and passed through the filter
 * pipeline. Chunks never written read as the fill value.
 *
 * <p>An unfiltered chunk's stored bytes are its elements, so a read fetches only the runs of
 * them the selection covers, straight into the caller's buffer or through the file's
 * {@link TransferBuffer} into its array; a write stores a whole chunk from one encoded copy, and
 * part of a chunk in place: of a written one, or of a new one that reads as zeros (the default
 * fill value) elsewhere, so an append writes its elements only, not the rest of the chunk. A filtered chunk is read, decoded and kept in the
 * {@link ChunkCache}; a write stores it at once and keeps the new version in the cache, so a
 * cached chunk is never older than the file.
 */
final class ChunkedData {

    /** Bytes of the repeated fill value kept for filling parts of chunks. */
    private static final int FILL_PATTERN_BYTES = 64 * 1024;

    private final Path file;
    private final ChunkGrid grid;
    private ChunkIndex index;
    private final InPlaceChunkStore store;
    private final FilterPipeline pipeline;
    private final TransferBuffer transfer;
    private final int elementSize;
    private final long[] chunkShape;
    private final int chunkBytes;
    /** One element of the fill value (zeros for the default). */
    private final byte[] fillElement;
    /** Whether the fill value is the default, all bytes zero. */
    private final boolean defaultFill;
    private byte[] fillPattern;
    private ChunkCache cache;

    ChunkedData(Path file, ChunkGrid grid, ChunkIndex index, InPlaceChunkStore store,
                FilterPipeline pipeline, TransferBuffer transfer, int elementSize,
                byte[] fillValue, ChunkCacheSettings cacheSettings) {
        this.file = file;
        this.grid = grid;
        this.index = index;
        this.store = store;
        this.pipeline = pipeline;
        this.transfer = transfer;
        this.elementSize = elementSize;
        this.chunkShape = grid.chunkShape();
        this.chunkBytes = (int) (Shapes.elementCount(chunkShape) * elementSize);
        this.fillElement = fillValue != null ? fillValue : new byte[elementSize];
        this.defaultFill = fillValue == null;
        useCache(cacheSettings);
    }

    ChunkGrid grid() {
        return grid;
    }

    ChunkIndex index() {
        return index;
    }

    /**
     * An SWMR reader's refresh: reads go through {@code newIndex} from now on, and every cached
     * chunk is dropped: the writer may have completed or rewritten any chunk since, also under an
     * extent the reader already saw.
     */
    void useIndex(ChunkIndex newIndex) {
        index = newIndex;
        cache.removeIf(scaled -> true);
    }

    /** New chunks go right after the last allocation (see {@link InPlaceChunkStore#pack()}). */
    void packNewChunks() {
        store.pack();
    }

    /** Replaces the chunk cache with an empty one of {@code settings}' size. */
    void useCache(ChunkCacheSettings settings) {
        cache = new ChunkCache(grid, settings.bytes(), settings.slots());
    }

    /** Reads the selection's elements into {@code target} (row-major, selection-shaped). */
    void read(long[] start, long[] count, SelectionTarget target) throws IOException {
        HyperslabChunks.forEach(grid, start, count, (scaled, overlap, within, inSelection) -> {
            byte[] chunk = cache.get(scaled);
            if (chunk == null) {
                ChunkRecord record = index.get(scaled);
                if (!record.isWritten()) {
                    BoxRuns.forEach(overlap, new long[overlap.length], count, inSelection,
                            overlap, (from, to, elements) -> target.fill(to, elements,
                                    fillElement));
                    return;
                }
                if (pipeline.isEmpty()) {
                    requireUnfilteredSize(record);
                    BoxRuns.forEach(chunkShape, within, count, inSelection, overlap,
                            (from, to, elements) -> target.read(to, elements, transfer,
                                    (done, into) -> store.read(record,
                                            (from + done) * elementSize, into)));
                    return;
                }
                chunk = readChunk(scaled, record);
                cache.put(scaled, chunk);
            }
            ByteBuffer bytes = ByteBuffer.wrap(chunk);
            BoxRuns.forEach(chunkShape, within, count, inSelection, overlap,
                    (from, to, elements) -> target.put(to, bytes.slice((int) from * elementSize,
                            (int) elements * elementSize)));
        });
    }

    /**
     * Writes the selection's elements from {@code source}; a filtered chunk the selection covers
     * only in part is read (or filled) first.
     */
    void write(long[] start, long[] count, SelectionSource source) throws IOException {
        HyperslabChunks.forEach(grid, start, count, (scaled, overlap, within, inSelection) -> {
            ChunkRecord old = index.get(scaled);
            boolean whole = Arrays.equals(overlap, chunkShape);
            if (!pipeline.isEmpty()) {
                writeFiltered(scaled, old, whole, source, count, inSelection, overlap, within);
            } else if (whole || !old.isWritten() && !defaultFill) {
                index.put(scaled, store.write(old, unfilteredChunk(whole, source, count,
                        inSelection, overlap, within)));
            } else {
                // A new chunk in part: only the selected runs are written, the rest reads as 0.
                ChunkRecord[] record = {old.isWritten() ? old : store.createZeroed(chunkBytes)};
                requireUnfilteredSize(record[0]);
                BoxRuns.forEach(count, inSelection, chunkShape, within, overlap,
                        (from, to, elements) -> record[0] = overwriteRun(record[0], from, to,
                                elements, source));
                if (!record[0].equals(old)) {
                    index.put(scaled, record[0]);
                }
            }
        });
    }

    /** The stored bytes of an unfiltered chunk: the selection's part, the rest filled. */
    private ByteBuffer unfilteredChunk(boolean whole, SelectionSource source, long[] count,
                                       long[] inSelection, long[] overlap, long[] within) {
        if (whole && BoxRuns.isOneRun(count, chunkShape, overlap)) {
            ByteBuffer window = source.window(BoxRuns.elementIndex(count, inSelection),
                    chunkBytes / elementSize);
            if (window != null) {
                return window;
            }
        }
        ByteBuffer chunk = transfer.get(chunkBytes);
        if (!whole) {
            fill(chunk);
        }
        BoxRuns.forEach(count, inSelection, chunkShape, within, overlap,
                (from, to, elements) -> source.get(from, chunk.slice((int) to * elementSize,
                        (int) elements * elementSize)));
        return chunk;
    }

    /**
     * Replaces one run of a written unfiltered chunk's elements where they are stored; returns
     * the chunk's record afterwards.
     */
    private ChunkRecord overwriteRun(ChunkRecord record, long selectionElement,
                                     long chunkElement, long elements, SelectionSource source)
            throws IOException {
        ByteBuffer bytes = source.window(selectionElement, (int) elements);
        if (bytes == null) {
            bytes = transfer.get((int) elements * elementSize);
            source.get(selectionElement, bytes);
        }
        return store.overwrite(record, chunkElement * elementSize, bytes);
    }

    private void writeFiltered(long[] scaled, ChunkRecord old, boolean whole,
                               SelectionSource source, long[] count, long[] inSelection,
                               long[] overlap, long[] within) throws IOException {
        // Out of the cache until stored: a failed write must not leave a version the file lacks.
        byte[] chunk = cache.remove(scaled);
        if (chunk == null) {
            chunk = whole ? new byte[chunkBytes] : old.isWritten() ? readChunk(scaled, old)
                    : filledChunk();
        }
        ByteBuffer bytes = ByteBuffer.wrap(chunk);
        BoxRuns.forEach(count, inSelection, chunkShape, within, overlap,
                (from, to, elements) -> source.get(from, bytes.slice((int) to * elementSize,
                        (int) elements * elementSize)));
        index.put(scaled, store.write(old, ByteBuffer.wrap(pipeline.encode(chunk))));
        cache.put(scaled, chunk);
    }

    /**
     * Reads, unfilters and checks the chunk at {@code scaled} (in chunks, as errors name it),
     * which {@code record} points at. Its stored size is checked first, so a damaged record
     * cannot make it read more than the filters can have written.
     */
    byte[] readChunk(long[] scaled, ChunkRecord record) throws IOException {
        String chunk = "chunk " + Arrays.toString(scaled);
        long maxStored = pipeline.maxStoredSize(record.filterMask(), chunkBytes);
        if (Long.compareUnsigned(record.storedSize(), maxStored) > 0) {
            throw new CorruptFileException(file, record.address(), chunk, "stored size",
                    "at most " + maxStored + " bytes for " + chunkBytes + " bytes filtered",
                    Long.toUnsignedString(record.storedSize()));
        }
        byte[] bytes = pipeline.decode(file, chunk, record, store.read(record), chunkBytes);
        if (bytes.length != chunkBytes) {
            // Only when the mask skips every filter: each filter undone checks its own output.
            throw new CorruptFileException(file, record.address(), chunk, "stored size",
                    chunkBytes + " bytes, all filters skipped", bytes.length + " bytes");
        }
        return bytes;
    }

    private void requireUnfilteredSize(ChunkRecord record) throws CorruptFileException {
        if (record.storedSize() != chunkBytes) {
            throw new CorruptFileException(file, record.address(), "chunk",
                    "unfiltered size", Integer.toString(chunkBytes),
                    Long.toUnsignedString(record.storedSize()));
        }
    }

    /** The data layout message naming this chunk shape and index. */
    DataLayoutMessage layoutMessage() {
        return new DataLayoutMessage(chunkShape, elementSize, index.parameters(),
                index.address());
    }

    private byte[] filledChunk() {
        byte[] chunk = new byte[chunkBytes];
        if (!defaultFill) {
            fill(ByteBuffer.wrap(chunk));
        }
        return chunk;
    }

    /** Fills the remaining bytes of {@code chunk} with the fill value, not moving its position. */
    private void fill(ByteBuffer chunk) {
        if (fillPattern == null) {
            int elements = Math.max(1, Math.min(chunkBytes, FILL_PATTERN_BYTES) / elementSize);
            fillPattern = new byte[elements * elementSize];
            for (int i = 0; i < fillPattern.length; i += elementSize) {
                System.arraycopy(fillElement, 0, fillPattern, i, elementSize);
            }
        }
        for (int at = chunk.position(); at < chunk.limit(); at += fillPattern.length) {
            chunk.put(at, fillPattern, 0, Math.min(fillPattern.length, chunk.limit() - at));
        }
    }
}
