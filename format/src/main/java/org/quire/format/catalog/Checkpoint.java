package org.quire.format.catalog;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.quire.format.hdf5.Attribute;
import org.quire.format.hdf5.DatasetSpec;

/**
 * One checkpoint of a job, to commit to a {@link CheckpointCatalog}: its name (the version's),
 * step and rank count, a SION container and/or HDF5 datasets, and the user's metadata. Build one
 * with {@link #builder}.
 */
public final class Checkpoint {

    /** A dataset of the checkpoint: its spec and every element, C order, in the spec's byte order. */
    record Data(String name, DatasetSpec spec, byte[] elements) {
    }

    private final String name;
    private final long step;
    private final int ranks;
    private final Instant timestamp;
    private final Path sionContainer;
    private final List<Attribute> metadata;
    private final Map<String, Data> datasets;

    private Checkpoint(Builder builder) {
        this.name = builder.name;
        this.step = builder.step;
        this.ranks = builder.ranks;
        this.timestamp = builder.timestamp;
        this.sionContainer = builder.sionContainer;
        this.metadata = List.copyOf(builder.metadata);
        this.datasets = Map.copyOf(builder.datasets);
    }

    /**
     * A checkpoint called {@code name} (a version name: no '/'), of step {@code step} written by
     * {@code ranks} ranks.
     */
    public static Builder builder(String name, long step, int ranks) {
        if (step < 0 || ranks < 1) {
            throw new IllegalArgumentException("checkpoint \"" + name + "\": step " + step + " and ranks "
                    + ranks + ": expected a step of at least 0 and at least 1 rank");
        }
        return new Builder(name, step, ranks);
    }

    String name() {
        return name;
    }

    long step() {
        return step;
    }

    int ranks() {
        return ranks;
    }

    Instant timestamp() {
        return timestamp;
    }

    Path sionContainer() {
        return sionContainer;
    }

    List<Attribute> metadata() {
        return metadata;
    }

    Map<String, Data> datasets() {
        return datasets;
    }

    /** Collects a checkpoint's parts. */
    public static final class Builder {
        private final String name;
        private final long step;
        private final int ranks;
        private Instant timestamp = null;
        private Path sionContainer;
        private final List<Attribute> metadata = new ArrayList<>();
        private final Map<String, Data> datasets = new LinkedHashMap<>();

        private Builder(String name, long step, int ranks) {
            this.name = name;
            this.step = step;
            this.ranks = ranks;
        }

        /** The SION container the job wrote for this checkpoint (a closed file). */
        public Builder sionContainer(Path container) {
            this.sionContainer = container;
            return this;
        }

        /** A dataset of the checkpoint ({@code fields/t}), every element given. */
        public Builder dataset(String datasetName, DatasetSpec spec, byte[] elements) {
            if (datasets.putIfAbsent(datasetName, new Data(datasetName, spec, elements.clone())) != null) {
                throw new IllegalArgumentException("checkpoint \"" + name + "\" has dataset " + datasetName
                        + " twice");
            }
            return this;
        }

        /** A metadata item, stored as the attribute given. */
        public Builder metadata(Attribute item) {
            metadata.add(item);
            return this;
        }

        /** The commit time (default: when it is committed). */
        public Builder timestamp(Instant time) {
            this.timestamp = time;
            return this;
        }

        public Checkpoint build() {
            if (sionContainer == null && datasets.isEmpty()) {
                throw new IllegalArgumentException("checkpoint \"" + name + "\" has neither a SION"
                        + " container nor datasets");
            }
            return new Checkpoint(this);
        }
    }
}
