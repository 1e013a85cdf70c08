package org.quire.examples.catalog;

import java.io.IOException;

import org.quire.format.catalog.CatalogEntry;
import org.quire.format.catalog.CheckpointCatalog;
import org.quire.format.hdf5.Attribute;
import org.quire.format.hdf5.Datatype;

/**
 * How the examples number the runs of a job in its checkpoint catalog, so that checkpoint names
 * never collide however often a run restarts from the same checkpoint: each checkpoint carries
 * its run's number as metadata {@code run}; a new run is 1, a restart one more than the highest
 * so far. Run 1 names its checkpoints {@code step-S}, run R > 1 {@code step-S.rR}.
 */
public final class CatalogRuns {

    public static final String RUN = "run";

    private CatalogRuns() {
    }

    /** One more than the highest run number of {@code catalog}'s checkpoints; 1 for none. */
    public static int next(CheckpointCatalog catalog) throws IOException {
        int last = 0;
        for (CatalogEntry entry : catalog.entries()) {
            Attribute run = entry.metadata().get(RUN);
            last = Math.max(last, run == null ? 0 : Math.toIntExact(run.longs()[0]));
        }
        return last + 1;
    }

    /** The name of run {@code run}'s checkpoint of {@code step}. */
    public static String name(long step, int run) {
        return "step-" + step + (run == 1 ? "" : ".r" + run);
    }

    /** The metadata naming run {@code run}. */
    public static Attribute metadata(int run) {
        return Attribute.scalar(RUN, Datatype.INT64, run);
    }
}
