package org.quire.format.catalog;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.quire.format.hdf5.Attribute;
import org.quire.format.hdf5.Dataset;
import org.quire.format.hdf5.Datatype;
import org.quire.format.versioned.StagedVersion;
import org.quire.format.versioned.VersionInfo;
import org.quire.format.versioned.VersionSelector;
import org.quire.format.versioned.VersionedFile;

/**
 * A job's checkpoints, each one version of a versioned HDF5 file (so h5py, versioned-hdf5 and
 * {@code quire versions} read it, and chunks a checkpoint shares with earlier ones are stored
 * once). A commit replaces everything of the previous checkpoint in the new version; a restart
 * picks a checkpoint by {@link VersionSelector}'s syntax and checks its SION container.
 *
 * <pre>{@code
 * try (CheckpointCatalog catalog = CheckpointCatalog.open(dir.resolve("catalog.h5"))) {
 *     catalog.commit(Checkpoint.builder("step-100", 100, 4).sionContainer(sion)
 *             .metadata(Attribute.of("dt", 0.01)).build());
 *     CatalogEntry restart = catalog.restart("latest");   // or "step-100", "~1", "@2030-01-01T00:00:00Z"
 * }
 * }</pre>
 */
public final class CheckpointCatalog implements AutoCloseable {

    private final Path path;
    private final VersionedFile versions;
    /** The checkpoint the next commit descends from once a restart picked one; null: the current version. */
    private String head;

    private CheckpointCatalog(Path path, VersionedFile versions) {
        this.path = path;
        this.versions = versions;
    }

    /** The catalog at {@code path}, created (empty) if there is no file there. */
    public static CheckpointCatalog open(Path path) throws IOException {
        VersionedFile versions = Files.exists(path) ? VersionedFile.openForWriting(path) : VersionedFile.create(path);
        return new CheckpointCatalog(path, versions);
    }

    /**
     * Commits {@code checkpoint} as the catalog's current version, its parent the checkpoint the
     * last {@link #restart} picked or the last commit of this catalog object, else the current
     * version.
     * Its SION container is opened (it must be a closed,
     * valid container) and read whole once, for its digest.
     *
     * @throws IllegalArgumentException a checkpoint of that name exists
     */
    public CatalogEntry commit(Checkpoint checkpoint) throws IOException {
        SionContainerIdentity sion = checkpoint.sionContainer() == null ? null
                : SionContainerIdentity.of(checkpoint.sionContainer());
        Instant time = checkpoint.timestamp() != null ? checkpoint.timestamp() : Instant.now();
        versions.commit(checkpoint.name(), head != null ? head : versions.currentVersion(), time,
                staged -> stage(staged, checkpoint, sion));
        head = checkpoint.name();
        return entry(checkpoint.name());
    }

    private void stage(StagedVersion staged, Checkpoint checkpoint, SionContainerIdentity sion)
            throws IOException {
        // The parent's content is dropped: a version holds exactly one checkpoint. Its chunks
        // stay in raw_data, and equal chunks written below reuse them.
        for (String group : staged.groupNames()) {
            if (!group.contains("/")) {
                staged.delete(group);
            }
        }
        for (String dataset : staged.datasetNames()) {
            if (!dataset.contains("/")) {
                staged.delete(dataset);
            }
        }
        staged.createGroup(CatalogLayout.CHECKPOINT);
        staged.setGroupAttribute(CatalogLayout.CHECKPOINT, Attribute.scalar(CatalogLayout.STEP,
                Datatype.INT64, checkpoint.step()));
        staged.setGroupAttribute(CatalogLayout.CHECKPOINT, Attribute.scalar(CatalogLayout.RANKS,
                Datatype.INT64, checkpoint.ranks()));
        if (sion != null) {
            staged.setGroupAttribute(CatalogLayout.CHECKPOINT, Attribute.of(CatalogLayout.SION_CONTAINER,
                    directory().relativize(sion.path().toAbsolutePath().normalize()).toString()));
            staged.setGroupAttribute(CatalogLayout.CHECKPOINT, Attribute.scalar(CatalogLayout.SION_FILES,
                    Datatype.INT64, sion.files()));
            staged.setGroupAttribute(CatalogLayout.CHECKPOINT, Attribute.scalar(CatalogLayout.SION_TASKS,
                    Datatype.INT64, sion.tasks()));
            staged.setGroupAttribute(CatalogLayout.CHECKPOINT, Attribute.scalar(CatalogLayout.SION_BYTES,
                    Datatype.INT64, sion.bytes()));
            staged.setGroupAttribute(CatalogLayout.CHECKPOINT, Attribute.of(CatalogLayout.SION_SHA256,
                    sion.sha256()));
        }
        staged.createGroup(CatalogLayout.METADATA);
        for (Attribute item : checkpoint.metadata()) {
            staged.setGroupAttribute(CatalogLayout.METADATA, item);
        }
        for (Checkpoint.Data data : checkpoint.datasets().values()) {
            staged.createDataset(CatalogLayout.dataset(data.name()), data.spec(), data.elements());
        }
    }

    /** Every checkpoint, oldest commit first. */
    public List<CatalogEntry> entries() throws IOException {
        List<CatalogEntry> entries = new ArrayList<>();
        for (VersionInfo version : versions.versions()) {
            entries.add(entry(version.name()));
        }
        return entries;
    }

    /**
     * The checkpoint to restart from: {@code latest}, a name, {@code ~N} or {@code @TIME}
     * ({@link VersionSelector}), its SION container checked to be the one catalogued. Checkpoints
     * committed after it descend from it (the version's parent), as a run continued from it.
     *
     * @throws java.util.NoSuchElementException          no checkpoint fits
     * @throws CheckpointContainerChangedException the container is missing or changed
     */
    public CatalogEntry restart(String selector) throws IOException {
        CatalogEntry entry = entry(VersionSelector.resolve(versions, selector).name());
        if (entry.sionContainer() != null) {
            entry.sionContainer().check();
        }
        head = entry.version();
        return entry;
    }

    /** Dataset {@code name} of checkpoint {@code entry}, to read. */
    public Dataset dataset(CatalogEntry entry, String name) throws IOException {
        return versions.dataset(entry.version(), CatalogLayout.dataset(name));
    }

    private CatalogEntry entry(String version) throws IOException {
        VersionInfo info = versions.version(version);
        if (!versions.groupNames(version).contains(CatalogLayout.CHECKPOINT)) {
            throw new NotACheckpointException(path, version, CatalogLayout.CHECKPOINT, "a group");
        }
        Map<String, Attribute> attributes = versions.attributes(version, CatalogLayout.CHECKPOINT);
        SionContainerIdentity sion = null;
        if (attributes.containsKey(CatalogLayout.SION_CONTAINER)) {
            sion = new SionContainerIdentity(
                    directory().resolve(text(version, attributes, CatalogLayout.SION_CONTAINER)).normalize(),
                    (int) integer(version, attributes, CatalogLayout.SION_FILES),
                    (int) integer(version, attributes, CatalogLayout.SION_TASKS),
                    integer(version, attributes, CatalogLayout.SION_BYTES),
                    text(version, attributes, CatalogLayout.SION_SHA256));
        }
        List<String> datasets = new ArrayList<>();
        for (String dataset : versions.datasetNames(version)) {
            String name = CatalogLayout.datasetName(dataset);
            if (name != null) {
                datasets.add(name);
            }
        }
        return new CatalogEntry(version, info.timestamp(), integer(version, attributes, CatalogLayout.STEP),
                (int) integer(version, attributes, CatalogLayout.RANKS), sion,
                versions.groupNames(version).contains(CatalogLayout.METADATA)
                        ? versions.attributes(version, CatalogLayout.METADATA) : Map.of(),
                datasets);
    }

    private long integer(String version, Map<String, Attribute> attributes, String name)
            throws NotACheckpointException {
        Attribute attribute = attributes.get(name);
        if (attribute == null || !(attribute.type() instanceof Datatype.IntegerType)
                || attribute.elementCount() != 1) {
            throw new NotACheckpointException(path, version, CatalogLayout.CHECKPOINT + "@" + name,
                    "one integer");
        }
        return attribute.longs()[0];
    }

    private String text(String version, Map<String, Attribute> attributes, String name)
            throws NotACheckpointException {
        Attribute attribute = attributes.get(name);
        if (attribute == null || attribute.elementCount() != 1
                || !(attribute.type() instanceof Datatype.VariableLengthStringType)) {
            throw new NotACheckpointException(path, version, CatalogLayout.CHECKPOINT + "@" + name,
                    "a string");
        }
        return attribute.string();
    }

    /** Where SION container paths are relative to: the catalog file's directory. */
    private Path directory() {
        return path.toAbsolutePath().normalize().getParent();
    }

    @Override
    public void close() throws IOException {
        versions.close();
    }
}
