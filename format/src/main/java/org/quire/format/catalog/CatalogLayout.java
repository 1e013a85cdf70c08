package org.quire.format.catalog;

/**
 * Where a checkpoint's parts live inside its version (one version of the catalog file, paths
 * relative to the version's group). The only class that knows these names.
 *
 * <pre>
 * checkpoint/                  group
 *   @step            int64     the job's step
 *   @ranks           int64     the rank count that wrote it
 *   @sion_container  str       the SION container's first physical file, relative to the
 *                              catalog's directory (if the checkpoint has a container)
 *   @sion_files      int64     its physical file count
 *   @sion_tasks      int64     its task count
 *   @sion_bytes      int64     the bytes of all its physical files
 *   @sion_sha256     str       SHA-256 of those bytes in file order, 64 hex digits
 *   metadata/                  group: one attribute per user metadata item, as given
 * data/NAME                    the job's datasets (if any), versioned as every dataset is
 * </pre>
 */
final class CatalogLayout {

    static final String CHECKPOINT = "checkpoint";
    static final String METADATA = CHECKPOINT + "/metadata";
    static final String DATA = "data";

    static final String STEP = "step";
    static final String RANKS = "ranks";
    static final String SION_CONTAINER = "sion_container";
    static final String SION_FILES = "sion_files";
    static final String SION_TASKS = "sion_tasks";
    static final String SION_BYTES = "sion_bytes";
    static final String SION_SHA256 = "sion_sha256";

    private CatalogLayout() {
    }

    /** The path of dataset {@code name} of a checkpoint. */
    static String dataset(String name) {
        return DATA + "/" + name;
    }

    /** The name of the checkpoint dataset at {@code path}; null for a path outside data/. */
    static String datasetName(String path) {
        return path.startsWith(DATA + "/") ? path.substring(DATA.length() + 1) : null;
    }
}
