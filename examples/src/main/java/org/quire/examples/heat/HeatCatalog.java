package org.quire.examples.heat;

import java.io.IOException;
import java.nio.file.Path;

import org.quire.examples.catalog.CatalogRuns;
import org.quire.format.catalog.CatalogEntry;
import org.quire.format.catalog.Checkpoint;
import org.quire.format.catalog.CheckpointCatalog;
import org.quire.format.hdf5.Attribute;
import org.quire.format.hdf5.Datatype;

/**
 * The heat run's {@code --catalog FILE} on rank 0 (docs/heat.md, "A checkpoint catalog"): every
 * SION checkpoint committed as a version with its step, rank count, grid and run number
 * ({@link CatalogRuns}: names {@code step-S}, {@code step-S.rR}). Run R > 1 writes its containers
 * to {@code DIR/run-R}, so a restart from an older checkpoint never overwrites a container an
 * earlier checkpoint names.
 */
final class HeatCatalog implements AutoCloseable {

    static final String GRID = "grid";

    private final CheckpointCatalog catalog;
    private final int run;

    private HeatCatalog(CheckpointCatalog catalog, int run) {
        this.catalog = catalog;
        this.run = run;
    }

    /** The catalog at {@code file} (created if missing), for the next run's checkpoints. */
    static HeatCatalog open(Path file) throws IOException {
        CheckpointCatalog catalog = CheckpointCatalog.open(file);
        return new HeatCatalog(catalog, CatalogRuns.next(catalog));
    }

    /** Whether the catalog holds checkpoints of an earlier run. */
    boolean isEmpty() throws IOException {
        return catalog.entries().isEmpty();
    }

    /** Where this run writes its containers: DIR itself for run 1, DIR/run-R after. */
    Path directory(Path base) {
        return run == 1 ? base : base.resolve("run-" + run);
    }

    /**
     * The checkpoint {@code selector} names ({@code latest}, a name, {@code ~N}, {@code @TIME}),
     * its container checked; this run's checkpoints descend from it.
     */
    CatalogEntry restart(String selector) throws IOException {
        return catalog.restart(selector);
    }

    /** Commits the closed container {@code sion} of {@code step}; returns its version name. */
    String commit(Path sion, long step, int ranks, int grid) throws IOException {
        String name = CatalogRuns.name(step, run);
        catalog.commit(Checkpoint.builder(name, step, ranks).sionContainer(sion)
                .metadata(CatalogRuns.metadata(run))
                .metadata(Attribute.scalar(GRID, Datatype.INT64, grid))
                .metadata(Attribute.of("method", "explicit 5-point finite differences"))
                .build());
        return name;
    }

    @Override
    public void close() throws IOException {
        catalog.close();
    }
}
