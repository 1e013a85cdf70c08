package org.quire.format.hdf5;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.chunk.BoxCopy;
import org.quire.format.hdf5.chunk.ChunkGrid;
import org.quire.format.hdf5.chunk.ChunkIndex;
import org.quire.format.hdf5.chunk.ChunkStore;
import org.quire.format.hdf5.chunk.HyperslabChunks;
import org.quire.format.hdf5.chunk.Shapes;
import org.quire.format.hdf5.layout.ChunkRecord;
import org.quire.format.hdf5.layout.DataLayoutMessage;

/**
 * The elements of a chunked dataset: hyperslab reads and writes over its chunk grid, each chunk
 * found through the chunk index, its bytes kept by the chunk store and passed through the filter
 * pipeline. Chunks never written read as the fill value.
 */
final class ChunkedData {

    private final Path file;
    private final ChunkGrid grid;
    private final ChunkIndex index;
    private final ChunkStore store;
    private final FilterPipeline pipeline;
    private final int elementSize;
    private final int chunkBytes;
    /** The fill value's bytes, or null for the default (all bytes zero). */
    private final byte[] fillValue;

    ChunkedData(Path file, ChunkGrid grid, ChunkIndex index, ChunkStore store,
                FilterPipeline pipeline, int elementSize, byte[] fillValue) {
        this.file = file;
        this.grid = grid;
        this.index = index;
        this.store = store;
        this.pipeline = pipeline;
        this.elementSize = elementSize;
        this.chunkBytes = (int) (Shapes.elementCount(grid.chunkShape()) * elementSize);
        this.fillValue = fillValue;
    }

    ChunkGrid grid() {
        return grid;
    }

    ChunkIndex index() {
        return index;
    }

    /** Reads the selection's elements into {@code target} (row-major, selection-shaped). */
    void read(long[] start, long[] count, byte[] target) throws IOException {
        HyperslabChunks.forEach(grid, start, count, (scaled, overlap, within, inSelection) -> {
            ChunkRecord record = index.get(scaled);
            if (record.isWritten()) {
                BoxCopy.copy(readChunk(record), grid.chunkShape(), within, target, count,
                        inSelection, overlap, elementSize);
            } else {
                BoxCopy.fill(target, count, inSelection, overlap,
                        fillValue != null ? fillValue : new byte[elementSize]);
            }
        });
    }

    /**
     * Writes the selection's elements from {@code source}; a chunk the selection covers only in
     * part is read (or filled) first.
     */
    void write(long[] start, long[] count, byte[] source) throws IOException {
        HyperslabChunks.forEach(grid, start, count, (scaled, overlap, within, inSelection) -> {
            ChunkRecord old = index.get(scaled);
            long[] chunkShape = grid.chunkShape();
            byte[] chunk;
            if (Arrays.equals(overlap, chunkShape)) {
                chunk = new byte[chunkBytes];
            } else {
                chunk = old.isWritten() ? readChunk(old) : filledChunk();
            }
            BoxCopy.copy(source, count, inSelection, chunk, chunkShape, within, overlap,
                    elementSize);
            index.put(scaled, store.write(old, pipeline.encode(chunk)));
        });
    }

    /** Reads, unfilters and checks the chunk {@code record} points at. */
    byte[] readChunk(ChunkRecord record) throws IOException {
        byte[] bytes = pipeline.decode(file, record, store.read(record));
        if (bytes.length != chunkBytes) {
            throw new CorruptFileException(file, record.address(), "chunk",
                    "unfiltered size", Integer.toString(chunkBytes),
                    Integer.toString(bytes.length));
        }
        return bytes;
    }

    /** The data layout message naming this chunk shape and index. */
    DataLayoutMessage layoutMessage() {
        return new DataLayoutMessage(grid.chunkShape(), elementSize, index.parameters(),
                index.address());
    }

    private byte[] filledChunk() {
        byte[] chunk = new byte[chunkBytes];
        if (fillValue != null) {
            for (int i = 0; i < chunkBytes; i += fillValue.length) {
                System.arraycopy(fillValue, 0, chunk, i, fillValue.length);
            }
        }
        return chunk;
    }
}
