package org.quire.format.versioned;

/**
 * Names of versioned-hdf5's tree (data version 4), the only place that knows them. Reference
 * note versioned-hdf5-layout.md §1.1, §1.2 and §1.7:
 *
 * <pre>
 * /_version_data/
 * ├── &lt;dataset path&gt;/raw_data     the chunk store (attr chunks)           ({@link ChunkStore})
 * ├── &lt;dataset path&gt;/hash_table   digest -&gt; raw_data rows (attr largest_index) ({@link HashTableLayout})
 * └── versions/                    attrs current_version (vlen str), data_version (int64 = 4)
 *     ├── __first_version__/       attr timestamp only
 *     └── &lt;version&gt;/               attrs prev_version (vlen str), committed (bool enum), timestamp
 *         └── &lt;dataset path&gt;      a virtual dataset, attrs raw_data (vlen str), chunks, user's
 * </pre>
 */
final class VersionDataLayout {

    /** §1.1: the code's name; the design text's {@code _versioned_data} is wrong. */
    static final String VERSION_DATA = "_version_data";
    static final String VERSIONS = "versions";
    static final String VERSIONS_PATH = "/" + VERSION_DATA + "/" + VERSIONS;
    /** The empty root every first version descends from; never listed as a version. */
    static final String FIRST_VERSION = "__first_version__";

    static final String CURRENT_VERSION = "current_version";
    static final String DATA_VERSION = "data_version";
    /** §1.4: the digest rule and table this code reads and writes. */
    static final long SUPPORTED_DATA_VERSION = 4;

    static final String PREV_VERSION = "prev_version";
    static final String COMMITTED = "committed";
    static final String TIMESTAMP = "timestamp";

    static final String RAW_DATA = "raw_data";
    static final String HASH_TABLE = "hash_table";
    /** On raw_data and on every version dataset: the chunk shape (a VDS has none of its own). */
    static final String CHUNKS = "chunks";
    static final String LARGEST_INDEX = "largest_index";

    private VersionDataLayout() {
    }

    /** The group of version {@code version}. */
    static String versionPath(String version) {
        return VERSIONS_PATH + "/" + version;
    }

    /** Version {@code version}'s view of {@code dataset} (a virtual dataset). */
    static String versionDatasetPath(String version, String dataset) {
        return versionPath(version) + "/" + dataset;
    }

    /** The group holding {@code dataset}'s raw_data and hash_table. */
    static String storePath(String dataset) {
        return "/" + VERSION_DATA + "/" + dataset;
    }

    /** The absolute path of {@code dataset}'s chunk store, as the version datasets name it. */
    static String rawDataPath(String dataset) {
        return storePath(dataset) + "/" + RAW_DATA;
    }

    /**
     * {@code dataset}'s chunk store as a version dataset's mappings name it: "%" written "%%",
     * which libhdf5 reads as "%" (a lone "%" would be a printf-style specifier it refuses).
     */
    static String rawDataSource(String dataset) {
        return rawDataPath(dataset).replace("%", "%%");
    }

    /** Whether {@code name} may name a version or a path component of a versioned dataset. */
    static boolean isForbiddenDatasetName(String component) {
        return component.equals(VERSIONS);
    }
}
