package org.quire.format.versioned;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

import org.quire.format.hdf5.Attribute;
import org.quire.format.hdf5.Dataset;
import org.quire.format.hdf5.Group;
import org.quire.format.hdf5.Hdf5File;
import org.quire.format.hdf5.layout.DataspaceSelection;
import org.quire.format.hdf5.layout.VirtualMapping;

/**
 * Deletes versions as versioned-hdf5's {@code delete_versions} does (reference note §2): each
 * dataset's raw_data is compacted to the slots surviving versions map (in their old order,
 * edge padding reset to the fill value) and its hash table rebuilt, the survivors' virtual
 * datasets are rewritten onto the new slots, a store no survivor uses is removed, each
 * survivor's {@code prev_version} becomes its nearest surviving ancestor and so does the
 * current version.
 *
 * <p>Crash-safe in three flushes, each published atomically by the HDF5 writer's flush
 * (docs/hdf5.md, "Crashes and recovery"), none writing a chunk any published state reads: (1) the
 * surviving chunks are copied to new slots past {@code largest_index}, the hash table names
 * only those (the old slots' rows retired, so no commit reuses a slot about to be
 * overwritten), the survivors map them, the deleted versions are gone and parents relinked;
 * (2) the copies are copied down to slots 0, 1, ... (unnamed since flush 1), the hash table
 * names them and the survivors map them; (3) raw_data is cut to those slots (a cut writes the
 * fill value over the rows it drops, in place, so it waits until no flushed state names them).
 * The hash table is LZF-filtered (§1.2), so its rewritten chunks go to new space, never over
 * the flushed ones. A crash recovers to the old state or to the state of flush 1, 2 or 3 (the
 * new versions; in 1 and 2 raw_data has unnamed rows past {@code largest_index}, which the
 * next commit cuts), each reading its versions' values. An exception once the first change is
 * made (a full disk, an I/O error, a damaged block found part-way) abandons the changes not
 * yet flushed ({@link Hdf5File#abandonChanges}) and is rethrown: the file stays as a kill at
 * that moment leaves it, and closing writes nothing more.
 */
final class VersionDeleter {

    private final Hdf5File file;
    private final Group versionData;
    private final Group versions;
    private final VersionedFile versioned;

    VersionDeleter(Hdf5File file, Group versionData, Group versions, VersionedFile versioned) {
        this.file = file;
        this.versionData = versionData;
        this.versions = versions;
        this.versioned = versioned;
    }

    void delete(Set<String> doomed) throws IOException {
        Map<String, VersionInfo> all = new HashMap<>();
        List<VersionInfo> survivors = new ArrayList<>();
        for (VersionInfo version : versioned.versions()) {
            all.put(version.name(), version);
            if (!doomed.contains(version.name())) {
                survivors.add(version);
            }
        }
        Set<String> datasets = new LinkedHashSet<>();
        for (VersionInfo version : all.values()) {
            datasets.addAll(versioned.datasetNames(version.name()));
        }
        Map<String, Relocation> relocations = new LinkedHashMap<>();
        for (String dataset : datasets) {
            relocations.put(dataset, plan(dataset, survivors));
        }
        try {
            change(doomed, all, survivors, relocations);
        } catch (Throwable e) {
            file.abandonChanges("deleting versions " + String.join(", ", doomed), e);
            throw e;
        }
    }

    /** The changes and their three flushes, planned by reading alone (refusals come before). */
    private void change(Set<String> doomed, Map<String, VersionInfo> all,
                        List<VersionInfo> survivors, Map<String, Relocation> relocations)
            throws IOException {
        for (Map.Entry<String, Relocation> relocation : relocations.entrySet()) {
            String dataset = relocation.getKey();
            if (relocation.getValue().maps.isEmpty()) {
                Group parent = (Group) GroupPaths.find(versionData, GroupPaths.parent(dataset));
                parent.delete(GroupPaths.name(dataset));
            } else {
                relocation.getValue().move(dataset, versioned.store(dataset).slots());
            }
        }
        relocations.values().removeIf(relocation -> relocation.maps.isEmpty());
        for (String name : doomed) {
            versions.delete(name);
        }
        for (VersionInfo survivor : survivors) {
            String parent = survivingAncestor(survivor.parent(), all, doomed);
            if (!parent.equals(survivor.parent())) {
                VersionAttributes.replace(versions.group(survivor.name()),
                        Attribute.of(VersionDataLayout.PREV_VERSION, parent));
            }
        }
        String current = versioned.currentVersion();
        String newCurrent = survivingAncestor(current, all, doomed);
        if (!newCurrent.equals(current)) {
            VersionAttributes.replace(versions, Attribute.of(VersionDataLayout.CURRENT_VERSION, newCurrent));
        }
        file.flush();
        for (Map.Entry<String, Relocation> relocation : relocations.entrySet()) {
            relocation.getValue().move(relocation.getKey(), 0);
        }
        file.flush();
        for (String dataset : relocations.keySet()) {
            versioned.store(dataset).cutRawData();
        }
        file.flush();
    }

    private static String survivingAncestor(String name, Map<String, VersionInfo> all,
                                            Set<String> doomed) {
        String at = name;
        while (doomed.contains(at)) {
            at = all.get(at).parent();
        }
        return at;
    }

    /**
     * One dataset's surviving slots and, per survivor version, its chunks' slots (chunk
     * coordinates to first raw_data row), updated as the slots move.
     */
    private final class Relocation {
        private final SortedMap<Long, long[]> slots;
        private final Map<String, Map<List<Long>, Long>> maps;

        Relocation(SortedMap<Long, long[]> slots, Map<String, Map<List<Long>, Long>> maps) {
            this.slots = slots;
            this.maps = maps;
        }

        /** Copies the slots to {@code firstSlot} on and points the survivors' views at the copies. */
        void move(String dataset, long firstSlot) throws IOException {
            Map<Long, Long> moved = versioned.store(dataset).copySlots(slots, firstSlot);
            SortedMap<Long, long[]> movedSlots = new TreeMap<>();
            slots.forEach((start, trimmed) -> movedSlots.put(moved.get(start), trimmed));
            slots.clear();
            slots.putAll(movedSlots);
            for (Map.Entry<String, Map<List<Long>, Long>> survivor : maps.entrySet()) {
                survivor.getValue().replaceAll((chunk, start) -> moved.get(start));
                rewriteView(survivor.getKey(), dataset, survivor.getValue());
            }
        }
    }

    /**
     * {@code dataset}'s surviving slots and the survivors' maps of them, changing nothing; no
     * maps when no survivor has the dataset (its store goes).
     */
    private Relocation plan(String dataset, List<VersionInfo> survivors) throws IOException {
        Map<String, Map<List<Long>, Long>> maps = new HashMap<>();
        TreeMap<Long, long[]> kept = new TreeMap<>();
        for (VersionInfo survivor : survivors) {
            Dataset view = versioned.viewOrNull(survivor.name(), dataset);
            if (view == null) {
                continue;
            }
            Map<List<Long>, Long> map = new HashMap<>(
                    versioned.chunkMap(survivor.name(), dataset, view).startRows());
            maps.put(survivor.name(), map);
            ChunkGrid grid = new ChunkGrid(view.shape(), versioned.store(dataset).chunks(),
                    view.type().size());
            for (Map.Entry<List<Long>, Long> chunk : map.entrySet()) {
                kept.put(chunk.getValue(), grid.trimmed(ChunkGrid.origin(chunk.getKey())));
            }
        }
        return new Relocation(kept, maps);
    }

    /** Replaces the survivor's virtual dataset with one mapping the slots {@code map} names. */
    private void rewriteView(String version, String dataset, Map<List<Long>, Long> map)
            throws IOException {
        Dataset old = versioned.viewOrNull(version, dataset);
        List<Attribute> attributes = old.attributes();
        ChunkGrid grid = new ChunkGrid(old.shape(), versioned.store(dataset).chunks(), old.type().size());
        List<VirtualMapping> mappings = new ArrayList<>();
        for (Map.Entry<List<Long>, Long> chunk : map.entrySet()) {
            long[] origin = ChunkGrid.origin(chunk.getKey());
            long[] trimmed = grid.trimmed(origin);
            long[] source = new long[origin.length];
            source[0] = chunk.getValue();
            mappings.add(VirtualMapping.sameFile(VersionDataLayout.rawDataSource(dataset),
                    DataspaceSelection.block(source, trimmed), DataspaceSelection.block(origin, trimmed)));
        }
        Group parent = (Group) GroupPaths.find(versions.group(version), GroupPaths.parent(dataset));
        byte[] fill = old.fillValue();
        parent.delete(GroupPaths.name(dataset));
        Dataset view = parent.createVirtualDataset(GroupPaths.name(dataset), old.type(), old.shape(),
                fill == null ? new byte[old.type().size()] : fill, mappings);
        for (Attribute attribute : attributes) {
            view.setAttribute(attribute);
        }
    }
}
