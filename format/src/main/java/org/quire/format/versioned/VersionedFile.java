package org.quire.format.versioned;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

import org.quire.format.hdf5.Attribute;
import org.quire.format.hdf5.Dataset;
import org.quire.format.hdf5.Datatype;
import org.quire.format.hdf5.Group;
import org.quire.format.hdf5.Hdf5File;
import org.quire.format.hdf5.Hdf5Object;
import org.quire.format.hdf5.WriteOptions;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.StorageOpener;

/**
 * An HDF5 file holding versions of datasets as versioned-hdf5 (data version 4) lays them out
 * (reference note versioned-hdf5-layout.md): every committed version stays readable, chunks
 * are stored once by content, and h5py, h5dump and versioned-hdf5 read what Quire commits.
 * See docs/versions.md.
 */
public final class VersionedFile implements AutoCloseable {

    /** The staging block of {@link #commit}: changes to the version, or an exception. */
    @FunctionalInterface
    public interface Staging {
        void stage(StagedVersion version) throws IOException;
    }

    private final Path path;
    private final Hdf5File file;
    private final Group versionData;
    private final Group versions;
    /** Chunk stores opened or created so far, by dataset path. */
    private final Map<String, ChunkStore> stores = new HashMap<>();
    private CommitCounts lastCommit = CommitCounts.NONE;

    private VersionedFile(Path path, Hdf5File file, Group versionData, Group versions) {
        this.path = path;
        this.file = file;
        this.versionData = versionData;
        this.versions = versions;
    }

    /** Creates {@code path} (it must not exist) with an empty versioned tree. */
    public static VersionedFile create(Path path) throws IOException {
        return create(path, FileStorage.OPENER);
    }

    /** {@link #create(Path)} through {@code opener} (tests: a crash simulator). */
    static VersionedFile create(Path path, StorageOpener opener) throws IOException {
        Hdf5File file = Hdf5File.create(path, opener);
        try {
            return initialize(path, file, Instant.now());
        } catch (IOException | RuntimeException e) {
            file.close();
            throw e;
        }
    }

    /**
     * Opens {@code path} to read and commit versions; a file without {@code /_version_data}
     * gets an empty tree (versioned-hdf5's {@code initialize}). The file must be one Quire
     * reopens for writing (libhdf5's latest format, or its default format as h5py writes it
     * unless told {@code libver='latest'}: docs/hdf5.md, "Reopening a file for writing").
     */
    public static VersionedFile openForWriting(Path path) throws IOException {
        return openForWriting(path, FileStorage.OPENER);
    }

    /** {@link #openForWriting(Path)} through {@code opener} (tests: a crash simulator, counting reads). */
    static VersionedFile openForWriting(Path path, StorageOpener opener) throws IOException {
        Hdf5File file = Hdf5File.openForWriting(path, opener, WriteOptions.DEFAULT);
        try {
            if (!file.root().contains(VersionDataLayout.VERSION_DATA)) {
                return initialize(path, file, Instant.now());
            }
            return opened(path, file);
        } catch (IOException | RuntimeException e) {
            file.close();
            throw e;
        }
    }

    /** Opens {@code path} read-only. */
    public static VersionedFile open(Path path) throws IOException {
        return open(path, FileStorage.OPENER);
    }

    /** {@link #open(Path)} through {@code opener} (tests: a crash simulator). */
    static VersionedFile open(Path path, StorageOpener opener) throws IOException {
        Hdf5File file = Hdf5File.open(path, opener);
        try {
            if (!file.root().contains(VersionDataLayout.VERSION_DATA)) {
                throw new DamagedVersionDataException(path, "/" + VersionDataLayout.VERSION_DATA,
                        "the group of a versioned file", "nothing");
            }
            return opened(path, file);
        } catch (IOException | RuntimeException e) {
            file.close();
            throw e;
        }
    }

    private static VersionedFile initialize(Path path, Hdf5File file, Instant now)
            throws IOException {
        Group versionData = file.root().createGroup(VersionDataLayout.VERSION_DATA);
        Group versions = versionData.createGroup(VersionDataLayout.VERSIONS);
        Group first = versions.createGroup(VersionDataLayout.FIRST_VERSION);
        first.setAttribute(Attribute.of(VersionDataLayout.TIMESTAMP, VersionTimestamp.format(now)));
        versions.setAttribute(Attribute.of(VersionDataLayout.CURRENT_VERSION,
                VersionDataLayout.FIRST_VERSION));
        versions.setAttribute(Attribute.scalar(VersionDataLayout.DATA_VERSION, Datatype.INT64,
                VersionDataLayout.SUPPORTED_DATA_VERSION));
        file.flush();
        return new VersionedFile(path, file, versionData, versions);
    }

    private static VersionedFile opened(Path path, Hdf5File file) throws IOException {
        Group versionData = requireGroup(path, file.root(), VersionDataLayout.VERSION_DATA,
                "/" + VersionDataLayout.VERSION_DATA);
        Group versions = requireGroup(path, versionData, VersionDataLayout.VERSIONS,
                VersionDataLayout.VERSIONS_PATH);
        if (!versions.attributeNames().contains(VersionDataLayout.DATA_VERSION)) {
            throw new UnsupportedDataVersionException(path, 1, "no data_version attribute: "
                    + "versioned-hdf5 before data version 2 hashed strings by pointer");
        }
        long dataVersion = VersionAttributes.scalarLong(path, versions,
                VersionDataLayout.VERSIONS_PATH, VersionDataLayout.DATA_VERSION);
        if (dataVersion > VersionDataLayout.SUPPORTED_DATA_VERSION) {
            throw new UnsupportedDataVersionException(path, dataVersion,
                    "written by a later versioned-hdf5");
        }
        if (dataVersion < VersionDataLayout.SUPPORTED_DATA_VERSION) {
            throw new UnsupportedDataVersionException(path, dataVersion,
                    "hash tables of data versions 2 and 3 are unreliable; versioned-hdf5 refuses them too");
        }
        VersionedFile opened = new VersionedFile(path, file, versionData, versions);
        String current = opened.currentVersion();
        if (!current.equals(VersionDataLayout.FIRST_VERSION) && !versions.contains(current)) {
            throw new DamagedVersionDataException(path, VersionDataLayout.VERSIONS_PATH + "@"
                    + VersionDataLayout.CURRENT_VERSION, "the name of a version", "\"" + current + "\"");
        }
        return opened;
    }

    public Path path() {
        return path;
    }

    /** The name of the current version, {@code "__first_version__"} before the first commit. */
    public String currentVersion() throws IOException {
        file.requireNotAbandoned();
        return VersionAttributes.string(path, versions, VersionDataLayout.VERSIONS_PATH,
                VersionDataLayout.CURRENT_VERSION);
    }

    /**
     * Every committed version (not {@code __first_version__}, nor a group a writer that crashed
     * while committing left with {@code committed = FALSE}), in the file's link order.
     */
    public List<VersionInfo> versions() throws IOException {
        file.requireNotAbandoned();
        List<VersionInfo> all = new ArrayList<>();
        for (String name : versions.memberNames()) {
            if (!name.equals(VersionDataLayout.FIRST_VERSION) && isCommitted(name)) {
                all.add(info(name));
            }
        }
        return all;
    }

    private boolean isCommitted(String name) throws IOException {
        String where = VersionDataLayout.versionPath(name);
        return VersionAttributes.bool(path, requireGroup(path, versions, name, where), where,
                VersionDataLayout.COMMITTED);
    }

    /**
     * The version {@code name}.
     *
     * @throws NoSuchElementException   there is none
     * @throws IllegalArgumentException the name is {@code __first_version__} or starts with '/'
     * @throws IllegalStateException    the version was never committed
     */
    public VersionInfo version(String name) throws IOException {
        if (name.startsWith("/") || name.equals(VersionDataLayout.FIRST_VERSION) || name.isEmpty()) {
            throw new IllegalArgumentException("\"" + name + "\" is not a version name");
        }
        file.requireNotAbandoned();
        if (!versions.contains(name)) {
            throw new NoSuchElementException(path + " has no version \"" + name + "\"");
        }
        return info(name);
    }

    /**
     * The version {@code back} steps up the parent chain from the current one: 0 is the current
     * version, 1 its parent, ...
     *
     * @throws IndexOutOfBoundsException the chain is shorter (it ends at the first version)
     */
    public VersionInfo version(int back) throws IOException {
        if (back < 0) {
            throw new IllegalArgumentException("steps back " + back + ": 0 is the current version");
        }
        String name = currentVersion();
        for (int step = 0; ; step++) {
            if (name.equals(VersionDataLayout.FIRST_VERSION)) {
                throw new IndexOutOfBoundsException(path + ": " + back + " versions back from the "
                        + "current one is before the first version (" + step + " steps)");
            }
            VersionInfo version = info(name);
            if (step == back) {
                return version;
            }
            name = version.parent();
        }
    }

    /**
     * The version committed at {@code time} (to the microsecond), else the latest committed
     * before it (reference note §2; {@code __first_version__} is not a candidate).
     *
     * @throws NoSuchElementException every version is later
     */
    public VersionInfo versionAt(Instant time) throws IOException {
        VersionInfo best = null;
        Instant wanted = VersionTimestamp.parse(VersionTimestamp.format(time));
        for (VersionInfo version : versions()) {
            if (!version.timestamp().isAfter(wanted)
                    && (best == null || version.timestamp().isAfter(best.timestamp()))) {
                best = version;
            }
        }
        if (best == null) {
            throw new NoSuchElementException(path + " has no version committed at or before "
                    + VersionTimestamp.format(time));
        }
        return best;
    }

    /** Commits version {@code name} on top of the current version, stamped now. */
    public VersionInfo commit(String name, Staging staging) throws IOException {
        return commit(name, currentVersion(), Instant.now(), staging);
    }

    /**
     * Stages version {@code name} from {@code parent} (a version, or {@code ""} for an empty
     * start), runs {@code staging} on it and commits it as the current version with
     * {@code timestamp}. An exception from the staging block or the commit leaves no version
     * {@code name} and the current version as it was, and is rethrown; except that a commit
     * failing in its flush, or unable to undo itself, leaves the file as a kill at that moment
     * would: later changes refused, {@code close()} writing nothing, {@link Hdf5File#recover}
     * giving the old versions, or the new ones once the flush's journal was written whole.
     *
     * @throws IllegalArgumentException {@code name} exists or is not a name for a new version
     *                                  ({@link VersionSelector#requireVersionName})
     * @throws NoSuchElementException   {@code parent} does not exist
     */
    public VersionInfo commit(String name, String parent, Instant timestamp, Staging staging)
            throws IOException {
        VersionSelector.requireVersionName(name);
        file.requireNotAbandoned();
        if (versions.contains(name)) {
            throw new IllegalArgumentException(path + " already has version \"" + name + "\"");
        }
        String parentName = parent.isEmpty() ? VersionDataLayout.FIRST_VERSION : parent;
        StagedVersion staged = new StagedVersion(name, this::store);
        if (!parentName.equals(VersionDataLayout.FIRST_VERSION)) {
            version(parentName);
            mirror(versions.group(parentName), "", staged);
        }
        staging.stage(staged);
        try {
            lastCommit = new VersionWriter(path, file, versionData, versions, this::store)
                    .commit(staged, parentName, timestamp);
        } catch (IOException | RuntimeException e) {
            stores.clear();
            throw e;
        }
        return info(name);
    }

    /** What the last successful commit of this open did per chunk. */
    CommitCounts lastCommitCounts() {
        return lastCommit;
    }

    /** The paths of the datasets of version {@code version} ({@code x}, {@code grp/t}). */
    public List<String> datasetNames(String version) throws IOException {
        version(version);
        List<String> names = new ArrayList<>();
        collectDatasets(versions.group(version), "", names);
        return names;
    }

    /** The paths of the groups of version {@code version} ({@code grp}, {@code grp/sub}), not its root. */
    public List<String> groupNames(String version) throws IOException {
        version(version);
        List<String> names = new ArrayList<>();
        collectGroups(versions.group(version), "", names);
        return names;
    }

    /**
     * The attributes the user set on group or dataset {@code path} of version {@code version}
     * ({@code ""}: the version's own group, whose versioned-hdf5 attributes are left out too).
     */
    public Map<String, Attribute> attributes(String version, String path) throws IOException {
        version(version);
        if (path.isEmpty()) {
            Map<String, Attribute> user = userAttributes(versions.group(version));
            user.keySet().removeAll(List.of(VersionDataLayout.PREV_VERSION,
                    VersionDataLayout.COMMITTED, VersionDataLayout.TIMESTAMP));
            return user;
        }
        Hdf5Object object = GroupPaths.find(versions.group(version), path);
        if (object == null) {
            throw new NoSuchElementException(this.path + ": version \"" + version + "\" has no " + path);
        }
        return userAttributes(object);
    }

    /**
     * Dataset {@code dataset} of version {@code version}, to read with {@link Dataset}'s
     * methods (a virtual dataset onto raw_data, read by Quire's virtual dataset reader), its
     * mappings checked against raw_data first.
     */
    public Dataset dataset(String version, String dataset) throws IOException {
        version(version);
        Dataset view = view(version, dataset);
        chunkMap(version, dataset, view);
        return view;
    }

    /**
     * The chunks of {@code dataset} whose content differs between versions {@code from} and
     * {@code to}; in a version without the dataset every chunk the other stores is added or
     * removed (digest null on that side).
     *
     * @throws NoSuchElementException neither version has the dataset
     */
    public List<ChunkChange> diff(String dataset, String from, String to) throws IOException {
        version(from);
        version(to);
        if (viewOrNull(from, dataset) == null && viewOrNull(to, dataset) == null) {
            throw new NoSuchElementException(path + ": neither version \"" + from + "\" nor \""
                    + to + "\" has dataset " + dataset);
        }
        Map<List<Long>, Long> before = startRowsOrNone(from, dataset);
        Map<List<Long>, Long> after = startRowsOrNone(to, dataset);
        ChunkStore store = store(dataset);
        Set<List<Long>> origins = new LinkedHashSet<>(before.keySet());
        origins.addAll(after.keySet());
        List<ChunkChange> changes = new ArrayList<>();
        for (List<Long> origin : origins) {
            Long was = before.get(origin);
            Long is = after.get(origin);
            if (!Objects.equals(was, is)) {
                changes.add(new ChunkChange(ChunkGrid.origin(origin),
                        was == null ? null : store.digestAt(was), is == null ? null : store.digestAt(is)));
            }
        }
        return changes;
    }

    /**
     * The raw_data slots dataset {@code dataset} of version {@code version} maps, its mappings
     * checked first; chunks that read as the fill value occupy none.
     */
    public StoredChunks storedChunks(String version, String dataset) throws IOException {
        version(version);
        ChunkStore store = store(dataset);
        Set<Long> slots = new HashSet<>(chunkMap(version, dataset, view(version, dataset))
                .startRows().values());
        return new StoredChunks(slots, store.chunks(), store.type().size());
    }

    /**
     * Deletes versions {@code names} and compacts every dataset's raw_data to the chunks the
     * remaining versions use (see {@link VersionDeleter}); a remaining version whose parent was
     * deleted gets its nearest remaining ancestor as parent, and so does a deleted current one.
     * An exception once the deletion has begun changing the file (a full disk, an I/O error, a
     * damaged block found part-way) is rethrown and leaves the file as a kill at that moment
     * would, its last flush on disk: every later change is refused ({@link
     * org.quire.format.hdf5.cache.AbandonedChangesException}), {@link #close} writes nothing,
     * and {@link Hdf5File#recover} ({@code quire h5 clear FILE}) makes the file readable again.
     *
     * @throws NoSuchElementException   a name is not a version
     * @throws IllegalArgumentException a name is {@code __first_version__}
     */
    public void deleteVersions(String... names) throws IOException {
        Set<String> doomed = new LinkedHashSet<>(List.of(names));
        for (String name : doomed) {
            version(name);
        }
        try {
            new VersionDeleter(file, versionData, versions, this).delete(doomed);
        } finally {
            stores.clear();
        }
    }

    /**
     * Checks every version's every dataset: its mappings (as {@link #dataset} does) and, for
     * each slot they name, that the chunk stored there has the digest its hash table row
     * records. Returns the number of distinct slots checked.
     *
     * @throws DamagedVersionDataException the first damage found
     */
    public long verify() throws IOException {
        Set<String> checked = new HashSet<>();
        for (VersionInfo version : versions()) {
            for (String dataset : datasetNames(version.name())) {
                Dataset view = view(version.name(), dataset);
                ChunkGrid grid = new ChunkGrid(view.shape(), store(dataset).chunks(), view.type().size());
                for (Map.Entry<List<Long>, Long> chunk
                        : chunkMap(version.name(), dataset, view).startRows().entrySet()) {
                    if (checked.add(dataset + "@" + chunk.getValue())) {
                        store(dataset).verifySlot(chunk.getValue(),
                                grid.trimmed(ChunkGrid.origin(chunk.getKey())),
                                VersionDataLayout.versionDatasetPath(version.name(), dataset));
                    }
                }
            }
        }
        return checked.size();
    }

    @Override
    public void close() throws IOException {
        file.close();
    }

    private VersionInfo info(String name) throws IOException {
        String where = VersionDataLayout.versionPath(name);
        Group group = requireGroup(path, versions, name, where);
        if (!isCommitted(name)) {
            throw new IllegalStateException(path + ": version \"" + name + "\" was never committed");
        }
        String parent = VersionAttributes.string(path, group, where, VersionDataLayout.PREV_VERSION);
        String stamp = VersionAttributes.string(path, group, where, VersionDataLayout.TIMESTAMP);
        Instant timestamp = VersionTimestamp.parse(stamp);
        if (timestamp == null) {
            throw new DamagedVersionDataException(path, where + "@" + VersionDataLayout.TIMESTAMP,
                    "a UTC time like 2099-01-01 00:00:00.000000+0000", "\"" + stamp + "\"");
        }
        return new VersionInfo(name, parent, timestamp);
    }

    /** The checked chunk slots of the version's dataset; none if the version has no such dataset. */
    private Map<List<Long>, Long> startRowsOrNone(String version, String dataset) throws IOException {
        Dataset view = viewOrNull(version, dataset);
        return view == null ? Map.of() : chunkMap(version, dataset, view).startRows();
    }

    /** The dataset {@code dataset} of version {@code version}, or null if it has none. */
    Dataset viewOrNull(String version, String dataset) throws IOException {
        return GroupPaths.find(versions.group(version), dataset) instanceof Dataset view ? view : null;
    }

    private Dataset view(String version, String dataset) throws IOException {
        Hdf5Object object = GroupPaths.find(versions.group(version), dataset);
        if (!(object instanceof Dataset view)) {
            throw new NoSuchElementException(path + ": version \"" + version + "\" has no dataset " + dataset);
        }
        return view;
    }

    ChunkMap chunkMap(String version, String dataset, Dataset view) throws IOException {
        String where = VersionDataLayout.versionDatasetPath(version, dataset);
        ChunkStore store = store(dataset);
        if (store == null) {
            throw new DamagedVersionDataException(path, VersionDataLayout.storePath(dataset),
                    "the chunk store of " + where, "nothing");
        }
        long[] chunks = VersionAttributes.longs(path, view, where, VersionDataLayout.CHUNKS,
                view.shape().length);
        if (!Arrays.equals(chunks, store.chunks())) {
            throw new DamagedVersionDataException(path, where + "@" + VersionDataLayout.CHUNKS,
                    "raw_data's chunk shape " + Arrays.toString(store.chunks()),
                    Arrays.toString(chunks));
        }
        return ChunkMap.of(path, where, view, dataset, chunks, store.committedRows());
    }

    /** The chunk store of {@code dataset}, or null when the name was never versioned. */
    ChunkStore store(String dataset) throws IOException {
        ChunkStore store = stores.get(dataset);
        if (store == null && hasStore(dataset)) {
            store = ChunkStore.open(path, versionData, dataset);
        }
        if (store != null) {
            stores.put(dataset, store);
        }
        return store;
    }

    private boolean hasStore(String dataset) throws IOException {
        return GroupPaths.find(versionData, dataset) instanceof Group;
    }

    /** Mirrors the parent version's groups and datasets (unread) into {@code staged}. */
    private void mirror(Group group, String prefix, StagedVersion staged) throws IOException {
        for (Group.Member member : group.members()) {
            String memberPath = prefix + member.name();
            Hdf5Object object = member.open();
            if (object instanceof Group child) {
                staged.mirrorGroup(memberPath, userAttributes(child));
                mirror(child, memberPath + "/", staged);
            } else if (object instanceof Dataset view) {
                staged.mirror(mirrorDataset(versionOf(group), memberPath, view));
            }
        }
    }

    private static void collectDatasets(Group group, String prefix, List<String> names)
            throws IOException {
        for (Group.Member member : group.members()) {
            Hdf5Object object = member.open();
            if (object instanceof Group child) {
                collectDatasets(child, prefix + member.name() + "/", names);
            } else if (object instanceof Dataset) {
                names.add(prefix + member.name());
            }
        }
    }

    private static void collectGroups(Group group, String prefix, List<String> names)
            throws IOException {
        for (Group.Member member : group.members()) {
            if (member.open() instanceof Group child) {
                names.add(prefix + member.name());
                collectGroups(child, prefix + member.name() + "/", names);
            }
        }
    }

    private String versionOf(Group group) {
        String relative = group.path().substring(versions.path().length() + 1);
        int slash = relative.indexOf('/');
        return slash < 0 ? relative : relative.substring(0, slash);
    }

    private StagedDataset mirrorDataset(String version, String dataset, Dataset view)
            throws IOException {
        ChunkStore store = store(dataset);
        ChunkMap map = chunkMap(version, dataset, view);
        StagedDataset staged = new StagedDataset(dataset, store.type(), view.shape(),
                store.chunks(), store.fill(), store.filters(), map.startRows(), view);
        for (Map.Entry<String, Attribute> attribute : userAttributes(view).entrySet()) {
            staged.setAttribute(attribute.getValue());
        }
        return staged;
    }

    /** The attributes the user set: those of §1.2 that the library keeps are left out. */
    private static Map<String, Attribute> userAttributes(Hdf5Object object) throws IOException {
        Map<String, Attribute> user = new LinkedHashMap<>();
        for (Attribute attribute : object.attributes()) {
            if (!(object instanceof Dataset && (attribute.name().equals(VersionDataLayout.RAW_DATA)
                    || attribute.name().equals(VersionDataLayout.CHUNKS)))) {
                user.put(attribute.name(), attribute);
            }
        }
        return user;
    }

    private static Group requireGroup(Path path, Group parent, String name, String where)
            throws IOException {
        if (!parent.contains(name) || !(parent.get(name) instanceof Group group)) {
            throw new DamagedVersionDataException(path, where, "a group", "nothing or a dataset");
        }
        return group;
    }
}
