package org.quire.format.versioned;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

import org.quire.format.hdf5.Attribute;
import org.quire.format.hdf5.DatasetSpec;
import org.quire.format.hdf5.Datatype;
import org.quire.format.hdf5.Filter;

/**
 * A version being staged: its parent's groups, datasets and attributes, changed in memory;
 * nothing reaches the file before {@link VersionedFile#commit} returns from the staging
 * block. Paths are relative to the version ({@code x}, {@code grp/t}).
 */
public final class StagedVersion {

    /** The chunk store a dataset name already has in the file (its type, chunks, fill), or null. */
    interface StoreLookup {
        ChunkStore find(String dataset) throws IOException;
    }

    private final String name;
    private final StoreLookup stores;
    private final Map<String, Map<String, Attribute>> groups = new LinkedHashMap<>();
    private final Map<String, StagedDataset> datasets = new LinkedHashMap<>();

    StagedVersion(String name, StoreLookup stores) {
        this.name = name;
        this.stores = stores;
    }

    /** The name the version will have. */
    public String name() {
        return name;
    }

    /**
     * Creates dataset {@code path} of {@code spec}'s type, shape, chunk shape, fill value and
     * filters (its maximum shape plays no part: every version has its own shape). With
     * {@code elements} (C order, the type's bytes) every chunk is stored; with null the dataset
     * is sparse: only chunks written later get slots. A name used before in the file must keep
     * the type, chunk shape, fill value and filters it had (reference note §1.6).
     *
     * @throws IllegalArgumentException the path exists in this version, names {@code versions},
     *     or differs from the name's earlier type, chunks, fill value or filters
     */
    public StagedDataset createDataset(String path, DatasetSpec spec, byte[] elements)
            throws IOException {
        checkPath(path);
        if (datasets.containsKey(path) || groups.containsKey(path)) {
            throw new IllegalArgumentException(name + ": " + path + " exists in this version");
        }
        long[] shape = spec.shape();
        if (shape.length == 0) {
            throw new IllegalArgumentException(path + ": scalar datasets cannot be versioned "
                    + "(versioned-hdf5 refuses them too)");
        }
        if (spec.type() instanceof Datatype.VariableLengthStringType) {
            throw new IllegalArgumentException(path + ": variable-length string datasets are "
                    + "not versioned by Quire yet");
        }
        long[] chunks = spec.chunkShape();
        byte[] fill = StagedDataset.orZeros(spec.fillValue(), spec.type());
        List<Filter> filters = spec.filters();
        ChunkStore store = stores.find(path);
        if (store != null) {
            checkSameAsStore(path, store, spec.type(), chunks, fill, filters);
        }
        ensureParents(path);
        StagedDataset dataset = new StagedDataset(path, spec.type(), shape, chunks, fill,
                filters, Map.of(), null);
        if (elements != null) {
            dataset.writeAll(elements);
        }
        datasets.put(path, dataset);
        return dataset;
    }

    /** The dataset {@code path} of this version. */
    public StagedDataset dataset(String path) {
        StagedDataset dataset = datasets.get(path);
        if (dataset == null) {
            throw new NoSuchElementException(name + " has no dataset " + path);
        }
        return dataset;
    }

    /** The paths of this version's datasets. */
    public List<String> datasetNames() {
        return List.copyOf(datasets.keySet());
    }

    /** The paths of this version's groups. */
    public List<String> groupNames() {
        return List.copyOf(groups.keySet());
    }

    /** Creates group {@code path} (and its parents). */
    public void createGroup(String path) {
        checkPath(path);
        if (datasets.containsKey(path)) {
            throw new IllegalArgumentException(name + ": " + path + " is a dataset");
        }
        ensureParents(path);
        groups.putIfAbsent(path, new LinkedHashMap<>());
    }

    /** Removes dataset or group {@code path} (with everything below it) from this version. */
    public void delete(String path) {
        boolean found = datasets.remove(path) != null | groups.remove(path) != null;
        if (!found) {
            throw new NoSuchElementException(name + " has no dataset or group " + path);
        }
        datasets.keySet().removeIf(p -> p.startsWith(path + "/"));
        groups.keySet().removeIf(p -> p.startsWith(path + "/"));
    }

    /** Sets an attribute of group {@code path}, replacing one of the same name. */
    public void setGroupAttribute(String path, Attribute attribute) {
        group(path).put(attribute.name(), attribute);
    }

    public void deleteGroupAttribute(String path, String attributeName) {
        if (group(path).remove(attributeName) == null) {
            throw new NoSuchElementException(path + " has no attribute \"" + attributeName + "\"");
        }
    }

    /** The attributes group {@code path} will have (copied from the parent, then changed). */
    public Map<String, Attribute> groupAttributes(String path) {
        return Map.copyOf(group(path));
    }

    Map<String, Map<String, Attribute>> groups() {
        return groups;
    }

    Map<String, StagedDataset> datasets() {
        return datasets;
    }

    /** Adds a dataset mirrored from the parent version. */
    void mirror(StagedDataset dataset) {
        datasets.put(dataset.path(), dataset);
    }

    /** Adds a group mirrored from the parent version. */
    void mirrorGroup(String path, Map<String, Attribute> attributes) {
        groups.put(path, new LinkedHashMap<>(attributes));
    }

    private Map<String, Attribute> group(String path) {
        Map<String, Attribute> attributes = groups.get(path);
        if (attributes == null) {
            throw new NoSuchElementException(name + " has no group " + path);
        }
        return attributes;
    }

    private void ensureParents(String path) {
        String parent = GroupPaths.parent(path);
        List<String> missing = new ArrayList<>();
        while (!parent.isEmpty() && !groups.containsKey(parent)) {
            if (datasets.containsKey(parent)) {
                throw new IllegalArgumentException(name + ": " + parent + " is a dataset");
            }
            missing.add(0, parent);
            parent = GroupPaths.parent(parent);
        }
        for (String group : missing) {
            groups.put(group, new LinkedHashMap<>());
        }
    }

    private static void checkPath(String path) {
        if (path.isEmpty() || path.startsWith("/") || path.endsWith("/") || path.contains("//")) {
            throw new IllegalArgumentException("\"" + path + "\": a dataset or group path is "
                    + "relative to the version, like x or grp/t");
        }
        for (String component : path.split("/")) {
            if (VersionDataLayout.isForbiddenDatasetName(component)) {
                throw new IllegalArgumentException(path + ": the name \"" + component
                        + "\" is reserved for /_version_data/versions");
            }
        }
    }

    private static void checkSameAsStore(String path, ChunkStore store, Datatype type,
                                         long[] chunks, byte[] fill, List<Filter> filters) {
        String earlier = path + " was versioned before with ";
        if (!store.type().equals(type)) {
            throw new IllegalArgumentException(earlier + "type " + store.type() + ", not " + type);
        }
        if (!Arrays.equals(store.chunks(), chunks)) {
            throw new IllegalArgumentException(earlier + "chunks " + Arrays.toString(store.chunks())
                    + ", not " + Arrays.toString(chunks));
        }
        if (!Arrays.equals(store.fill(), fill)) {
            throw new IllegalArgumentException(earlier + "fill value bytes "
                    + Arrays.toString(store.fill()) + ", not " + Arrays.toString(fill));
        }
        if (!store.filters().stream().map(Filter::id).toList()
                .equals(filters.stream().map(Filter::id).toList())) {
            throw new IllegalArgumentException(earlier + "filters " + store.filters()
                    + ", not " + filters);
        }
    }
}
