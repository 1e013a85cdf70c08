package org.quire.format.versioned;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * current version. Not crash-safe: chunks move in place before the metadata pointing at them
 * is flushed (as in versioned-hdf5, which rewrites in place too).
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
        for (String dataset : datasets) {
            compact(dataset, survivors);
        }
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
    }

    private static String survivingAncestor(String name, Map<String, VersionInfo> all,
                                            Set<String> doomed) {
        String at = name;
        while (doomed.contains(at)) {
            at = all.get(at).parent();
        }
        return at;
    }

    private void compact(String dataset, List<VersionInfo> survivors) throws IOException {
        Map<String, Map<List<Long>, Long>> maps = new HashMap<>();
        TreeMap<Long, long[]> kept = new TreeMap<>();
        for (VersionInfo survivor : survivors) {
            Dataset view = versioned.viewOrNull(survivor.name(), dataset);
            if (view == null) {
                continue;
            }
            Map<List<Long>, Long> map = versioned.chunkMap(survivor.name(), dataset, view).startRows();
            maps.put(survivor.name(), map);
            ChunkGrid grid = new ChunkGrid(view.shape(), versioned.store(dataset).chunks(),
                    view.type().size());
            for (Map.Entry<List<Long>, Long> chunk : map.entrySet()) {
                kept.put(chunk.getValue(), grid.trimmed(ChunkGrid.origin(chunk.getKey())));
            }
        }
        if (maps.isEmpty()) {
            Group parent = (Group) GroupPaths.find(versionData, GroupPaths.parent(dataset));
            parent.delete(GroupPaths.name(dataset));
            return;
        }
        Map<Long, Long> moved = versioned.store(dataset).compact(kept);
        for (Map.Entry<String, Map<List<Long>, Long>> survivor : maps.entrySet()) {
            rewriteView(survivor.getKey(), dataset, survivor.getValue(), moved);
        }
    }

    /** Replaces the survivor's virtual dataset with one mapping the moved slots. */
    private void rewriteView(String version, String dataset, Map<List<Long>, Long> map,
                             Map<Long, Long> moved) throws IOException {
        Dataset old = versioned.viewOrNull(version, dataset);
        List<Attribute> attributes = old.attributes();
        ChunkGrid grid = new ChunkGrid(old.shape(), versioned.store(dataset).chunks(), old.type().size());
        List<VirtualMapping> mappings = new ArrayList<>();
        for (Map.Entry<List<Long>, Long> chunk : map.entrySet()) {
            long[] origin = ChunkGrid.origin(chunk.getKey());
            long[] trimmed = grid.trimmed(origin);
            long[] source = new long[origin.length];
            source[0] = moved.get(chunk.getValue());
            mappings.add(VirtualMapping.sameFile(VersionDataLayout.rawDataPath(dataset),
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
