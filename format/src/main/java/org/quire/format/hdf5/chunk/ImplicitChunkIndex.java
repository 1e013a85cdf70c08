package org.quire.format.hdf5.chunk;

import java.io.IOException;

import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.layout.Addresses;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.ChunkIndexParameters;
import org.quire.format.hdf5.layout.ChunkRecord;

/**
 * Implicit chunk "index" (layout index type 2), which libhdf5 uses for unfiltered datasets
 * without unlimited dimensions whose space is allocated early: every chunk the maximum shape can
 * hold was allocated at creation, one after another from the index address in linear chunk order
 * ({@link ChunkGrid#linearIndex}), so a chunk's address is computed, never stored (libhdf5's
 * H5Dnone.c). Read only: Quire does not write this index.
 */
public final class ImplicitChunkIndex implements ChunkIndex {

    private final ChunkGrid grid;
    private final long baseAddress;
    private final long chunkBytes;
    /** Chunks per dimension of the dataset's current shape: the chunks libhdf5 visits. */
    private final long[] chunkCounts;

    private ImplicitChunkIndex(ChunkGrid grid, long baseAddress, long chunkBytes,
                               long[] chunkCounts) {
        this.grid = grid;
        this.baseAddress = baseAddress;
        this.chunkBytes = chunkBytes;
        this.chunkCounts = chunkCounts;
    }

    /**
     * The index of a dataset of {@code shape} whose chunks start at {@code address} (undefined:
     * nothing allocated); all chunks of the maximum shape must lie inside the file.
     */
    static ImplicitChunkIndex open(BlockFile file, long address, ChunkGrid grid, long[] shape,
                                   long chunkBytes, boolean filtered) throws IOException {
        if (filtered || grid.unlimitedDimensions() > 0) {
            throw new CorruptFileException(file.path(), address, "implicitly indexed chunks",
                    "dataset", "no filters and no unlimited dimension (libhdf5's condition)",
                    (filtered ? "filters" : "no filters") + " and "
                    + grid.unlimitedDimensions() + " unlimited dimensions");
        }
        long[] chunkCounts = new long[shape.length];
        for (int d = 0; d < shape.length; d++) {
            chunkCounts[d] = Shapes.ceilDiv(shape[d], grid.chunkSize(d));
        }
        if (Addresses.isDefined(address)) {
            long end;
            try {
                end = Math.addExact(address, Math.multiplyExact(grid.maxChunkCount(), chunkBytes));
            } catch (ArithmeticException e) {
                end = Long.MAX_VALUE;
            }
            if (address < 0 || end > file.size()) {
                throw new CorruptFileException(file.path(), address, "implicitly indexed chunks",
                        "address", grid.maxChunkCount() + " chunks of " + chunkBytes
                        + " bytes inside the file of " + file.size() + " bytes",
                        Long.toUnsignedString(address));
            }
        }
        return new ImplicitChunkIndex(grid, address, chunkBytes, chunkCounts);
    }

    @Override
    public ChunkIndexParameters parameters() {
        return new ChunkIndexParameters.Implicit();
    }

    @Override
    public long address() {
        return baseAddress;
    }

    @Override
    public ChunkRecord get(long[] scaled) {
        if (!Addresses.isDefined(baseAddress)) {
            return ChunkRecord.UNWRITTEN;
        }
        return new ChunkRecord(baseAddress + grid.linearIndex(scaled) * chunkBytes, chunkBytes, 0);
    }

    /** Never called: Quire opens files with this index read-only. */
    @Override
    public void put(long[] scaled, ChunkRecord record) {
        throw new UnsupportedOperationException("Quire does not write implicit chunk indexes");
    }

    /** Visits every chunk of the current shape in row-major order, as libhdf5 iterates them. */
    @Override
    public void forEachStoredChunk(StoredChunkVisitor visitor) throws IOException {
        if (!Addresses.isDefined(baseAddress)) {
            return;
        }
        for (long count : chunkCounts) {
            if (count == 0) {
                return;
            }
        }
        long[] scaled = new long[chunkCounts.length];
        while (true) {
            visitor.visit(scaled.clone(), get(scaled));
            int d = scaled.length - 1;
            while (d >= 0 && ++scaled[d] == chunkCounts[d]) {
                scaled[d] = 0;
                d--;
            }
            if (d < 0) {
                return;
            }
        }
    }
}
