package org.quire.format.versioned;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.quire.format.hdf5.Attribute;
import org.quire.format.hdf5.Group;
import org.quire.format.hdf5.Hdf5File;
import org.quire.format.hdf5.layout.DataspaceSelection;
import org.quire.format.hdf5.layout.VirtualMapping;

/**
 * Writes a staged version into the file, in the order that keeps the file meaningful at every
 * step (reference note §1.3, §1.5, §2): the version group (first, so a versions group Quire
 * cannot add to, one tracking link creation order, fails before anything is stored; an
 * old-style group of libhdf5's default format gets it in its symbol table); each dataset's
 * new chunks into raw_data, its hash rows, its {@code largest_index}; the group's attributes
 * (committed, parent, timestamp) and one virtual dataset per dataset; then {@code
 * current_version}, last, replaced in place; then one flush, which publishes all of it
 * together (docs/hdf5.md, "Crashes and recovery"). A failure before the flush removes the
 * version group and leaves the current version; chunks already stored stay as unreferenced
 * slots a later commit may reuse, as in versioned-hdf5. When removing the version group fails
 * too, or the flush itself fails, the changes since the last flush are abandoned ({@link
 * Hdf5File#abandonChanges}): the file stays as a kill at that moment would leave it, at its last
 * flush, or at this one once its journal is written whole.
 */
final class VersionWriter {

    private final Path path;
    private final Hdf5File file;
    private final Group versionData;
    private final Group versions;
    private final StagedVersion.StoreLookup stores;
    private CommitCounts counts = CommitCounts.NONE;

    VersionWriter(Path path, Hdf5File file, Group versionData, Group versions,
                  StagedVersion.StoreLookup stores) {
        this.path = path;
        this.file = file;
        this.versionData = versionData;
        this.versions = versions;
        this.stores = stores;
    }

    /** Commits {@code staged}; returns what it did per chunk. */
    CommitCounts commit(StagedVersion staged, String parent, Instant timestamp) throws IOException {
        // First, so a versions group Quire cannot add to fails before a chunk is stored.
        Group version = versions.createGroup(staged.name());
        try {
            Map<String, List<VirtualMapping>> mappings = new LinkedHashMap<>();
            for (StagedDataset dataset : staged.datasets().values()) {
                mappings.put(dataset.path(), storeChunks(dataset));
            }
            version.setAttribute(Attribute.of(VersionDataLayout.PREV_VERSION, parent));
            version.setAttribute(VersionAttributes.scalarBool(VersionDataLayout.COMMITTED, true));
            version.setAttribute(Attribute.of(VersionDataLayout.TIMESTAMP,
                    VersionTimestamp.format(timestamp)));
            List<String> groupPaths = new ArrayList<>(staged.groups().keySet());
            groupPaths.sort(Comparator.comparingLong(p -> p.chars().filter(c -> c == '/').count()));
            for (String groupPath : groupPaths) {
                Group group = GroupPaths.ensure(version, groupPath);
                for (Attribute attribute : staged.groups().get(groupPath).values()) {
                    group.setAttribute(attribute);
                }
            }
            for (StagedDataset dataset : staged.datasets().values()) {
                writeView(version, dataset, mappings.get(dataset.path()));
            }
            VersionAttributes.replace(versions,
                    Attribute.of(VersionDataLayout.CURRENT_VERSION, staged.name()));
        } catch (IOException | RuntimeException e) {
            try {
                versions.delete(staged.name());
            } catch (IOException | RuntimeException cleanup) {
                e.addSuppressed(cleanup);
                // The version group is still in memory: no flush may publish it.
                file.abandonChanges("committing version " + staged.name(), e);
            }
            throw e;
        }
        try {
            file.flush();
        } catch (IOException | RuntimeException e) {
            // A flush failing before its first in-place write could be retried by close(),
            // publishing the version this commit reports as failed.
            file.abandonChanges("committing version " + staged.name(), e);
            throw e;
        }
        return counts;
    }

    /**
     * Stores the dataset's changed chunks; returns one mapping per chunk it shows (§1.5),
     * visiting those chunks only: a sparse dataset's unwritten chunks have no mapping.
     */
    private List<VirtualMapping> storeChunks(StagedDataset dataset) throws IOException {
        ChunkStore store = stores.find(dataset.path());
        if (store == null) {
            store = ChunkStore.create(path, versionData, dataset.path(), dataset.type(),
                    dataset.chunkShape(), dataset.fillValue(), dataset.filters());
        }
        String rawData = VersionDataLayout.rawDataSource(dataset.path());
        ChunkGrid grid = dataset.grid();
        List<VirtualMapping> mappings = new ArrayList<>();
        long visited = 0;
        long hashed = 0;
        for (long[] origin : dataset.mappedOrigins()) {
            visited++;
            List<Long> key = ChunkGrid.key(origin);
            long[] trimmed = grid.trimmed(origin);
            long start;
            if (dataset.changed().contains(key)) {
                start = store.store(dataset.chunk(origin), trimmed);
                hashed++;
            } else {
                start = dataset.parentSlots().get(key);
            }
            long[] sourceStart = new long[origin.length];
            sourceStart[0] = start;
            mappings.add(VirtualMapping.sameFile(rawData,
                    DataspaceSelection.block(sourceStart, trimmed),
                    DataspaceSelection.block(origin, trimmed)));
        }
        store.finish();
        counts = counts.plus(visited, hashed);
        return mappings;
    }

    private void writeView(Group version, StagedDataset dataset, List<VirtualMapping> mappings)
            throws IOException {
        Group parent = GroupPaths.ensure(version, GroupPaths.parent(dataset.path()));
        var view = parent.createVirtualDataset(GroupPaths.name(dataset.path()), dataset.type(),
                dataset.shape(), dataset.fillValue(), mappings);
        view.setAttribute(Attribute.of(VersionDataLayout.RAW_DATA,
                VersionDataLayout.rawDataPath(dataset.path())));
        view.setAttribute(Attribute.of(VersionDataLayout.CHUNKS, dataset.chunkShape()));
        for (Attribute attribute : dataset.orderedAttributes().values()) {
            view.setAttribute(attribute);
        }
    }
}
