package org.quire.format.versioned;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.quire.format.hdf5.Dataset;
import org.quire.format.hdf5.StorageLayout;
import org.quire.format.hdf5.layout.DataspaceSelection;
import org.quire.format.hdf5.layout.VirtualMapping;

/**
 * Which raw_data slot each chunk of one version's dataset shows (reference note §1.5): one
 * hyperslab mapping per stored chunk, source file ".", virtual start on a chunk origin, source
 * start at a slot's first row, both blocks the chunk's trimmed extent. A dataset that is not
 * virtual (h5py 3.7's fill-only form) maps no chunk. Anything else is refused: versioned-hdf5's
 * own reader would misread it.
 */
final class ChunkMap {

    /** Chunk origin (as {@link ChunkGrid#key}) to the first raw_data row of its slot. */
    private final Map<List<Long>, Long> startRows;

    private ChunkMap(Map<List<Long>, Long> startRows) {
        this.startRows = startRows;
    }

    /** The mappings of {@code view}, the dataset {@code dataset} of a version, checked. */
    static ChunkMap of(Path file, String where, Dataset view, String dataset, long[] chunks,
                       long storeRows) throws DamagedVersionDataException {
        Map<List<Long>, Long> startRows = new LinkedHashMap<>();
        if (view.layout() != StorageLayout.VIRTUAL) {
            return new ChunkMap(startRows);
        }
        ChunkGrid grid = new ChunkGrid(view.shape(), chunks, view.type().size());
        String rawData = VersionDataLayout.rawDataSource(dataset);
        List<VirtualMapping> mappings = view.virtualMappings();
        for (int i = 0; i < mappings.size(); i++) {
            VirtualMapping mapping = mappings.get(i);
            String at = where + " mapping " + i;
            if (!mapping.sourceFile().equals(VirtualMapping.SAME_FILE)
                    || !mapping.sourceDataset().equals(rawData)) {
                throw new DamagedVersionDataException(file, at, "source \".\" " + rawData,
                        "\"" + mapping.sourceFile() + "\" " + mapping.sourceDataset());
            }
            DataspaceSelection.Block virtual = oneBlock(file, at, mapping.virtual());
            DataspaceSelection.Block source = oneBlock(file, at, mapping.source());
            long[] origin = virtual.start();
            if (!grid.isOrigin(origin) || !Arrays.equals(virtual.count(), grid.trimmed(origin))) {
                throw new DamagedVersionDataException(file, at, "one whole chunk of "
                        + Arrays.toString(chunks) + " inside " + Arrays.toString(view.shape()),
                        "virtual block " + virtual);
            }
            long[] sourceStart = source.start();
            long start = sourceStart[0];
            boolean inside = start % chunks[0] == 0 && start + chunks[0] <= storeRows
                    && Arrays.equals(source.count(), virtual.count());
            for (int d = 1; d < sourceStart.length; d++) {
                inside &= sourceStart[d] == 0;
            }
            if (!inside) {
                throw new DamagedVersionDataException(file, at, "a slot among raw_data's "
                        + storeRows + " committed rows, as large as the chunk " + virtual,
                        "source block " + source);
            }
            startRows.put(ChunkGrid.key(origin), start);
        }
        return new ChunkMap(startRows);
    }

    private static DataspaceSelection.Block oneBlock(Path file, String at,
                                                     DataspaceSelection selection)
            throws DamagedVersionDataException {
        if (selection instanceof DataspaceSelection.Hyperslab slab && slab.blocks().size() == 1) {
            return slab.blocks().get(0);
        }
        throw new DamagedVersionDataException(file, at, "a hyperslab of one block",
                selection.toString());
    }

    Map<List<Long>, Long> startRows() {
        return startRows;
    }
}
