package org.quire.format.hangar;

import java.nio.file.Path;
import java.util.List;
import org.quire.format.hdf5.Attribute;
import org.quire.format.hdf5.DatasetSpec;
import org.quire.format.hdf5.Datatype;
import org.quire.format.hdf5.Filter;

/**
 * The layout of a collection file of Hangar's local HDF5 backend {@code HDF5_00}, as Hangar
 * v0.3 writes it without blosc (reference versioned-hdf5-layout.md §4.2, §4.4); the only class
 * that knows it.
 * <pre>
 * &lt;UID&gt;.hdf5                       superblock 3 (libver latest), SWMR writing after setup
 *  /                                 root attributes below
 *  /0 .. /99                         COLLECTION_COUNT collection datasets, each
 *     shape = maxshape = (COLLECTION_SIZE, W)   W = prod(schema shape): arrays flattened, C order
 *     dtype = the schema's           fill 0, no storage until a row is written
 *     chunks = (1, min(floor(CHUNK_MAX_BYTES / itemsize), W))
 *     filters = shuffle, lzf (32000), fletcher32
 *                                    (Hangar's set when blosc, filter 32001, is absent;
 *                                     Quire never writes blosc)
 * write cursor: (0, 0) first; then the row (index) grows first; at COLLECTION_SIZE the next
 * collection; when collections_remaining falls to 1 a new file: "/99" is never written.
 * next_location, collections_remaining: rewritten in place when the file is full (the position
 * after the last, 1) and when the checkout closes it (the last position written).
 * </pre>
 */
final class CollectionFileLayout {

    /** Collection datasets per file, {@code "0"} .. {@code "99"}. */
    static final int COLLECTION_COUNT = 100;
    /** Rows (arrays) per collection dataset. */
    static final int COLLECTION_SIZE = 250;
    /** Hangar's bound on a chunk's bytes ("&lt; 256 KB to fit in L2 CPU cache"). */
    static final long CHUNK_MAX_BYTES = 255_000;
    /** Hangar's bounds on the raw data chunk cache it records (rdcc_*). */
    static final long RDCC_MAX_BYTES = 100_000_000;
    static final double RDCC_W0 = 0.75;
    /** The Hangar release whose layout and record dialect Quire writes. */
    static final String HANGAR_VERSION = "0.3.0";
    /** Characters of a UID: {@code random_string()}'s length. */
    static final int UID_LENGTH = 6;

    private CollectionFileLayout() {
    }

    /** The collection file of {@code uid} in the data directory {@code directory}. */
    static Path file(Path directory, String uid) {
        return directory.resolve(uid + ".hdf5");
    }

    /** The name of collection dataset {@code collection} in the root group. */
    static String datasetName(long collection) {
        return Long.toString(collection);
    }

    /** Elements per chunk along a row: the whole row, or as much of it as CHUNK_MAX_BYTES holds. */
    static long chunkWidth(ArraySchema schema) {
        return Math.min(CHUNK_MAX_BYTES / schema.dtype().size(), schema.elementCount());
    }

    /** Every collection dataset of a file for {@code schema}. */
    static DatasetSpec collectionSpec(ArraySchema schema) {
        long width = schema.elementCount();
        return DatasetSpec.builder(schema.dtype(), COLLECTION_SIZE, width)
                .maxShape(COLLECTION_SIZE, width)
                .chunkShape(1, chunkWidth(schema))
                .filter(Filter.shuffle())
                .filter(Filter.lzf())
                .filter(Filter.fletcher32())
                .build();
    }

    /**
     * The root attributes Hangar v0.3 writes, with the types h5py gives its Python values
     * (int: int64, float: float64, bool: numpy's bool enumeration, str: variable-length UTF-8,
     * tuple or list of ints: an int64 array), for a new file: cursor (0, 0), all collections
     * remaining.
     */
    static List<Attribute> rootAttributes(ArraySchema schema) {
        long chunkBytes = chunkWidth(schema) * schema.dtype().size();
        long rdccBytes = Math.max(CHUNK_MAX_BYTES, Math.min(RDCC_MAX_BYTES,
                schema.elementCount() * schema.dtype().size() * COLLECTION_SIZE));
        long rdccSlots = primeAtLeast((rdccBytes + chunkBytes - 1) / chunkBytes * 100);
        return List.of(
                Attribute.of("HANGAR_VERSION", HANGAR_VERSION),
                schemaShape(schema),
                Attribute.scalar("schema_dtype_num", Datatype.INT64, schema.numpyTypeNumber()),
                cursorAttributes(0, 0, COLLECTION_COUNT).get(0),
                Attribute.scalar("collection_max_size", Datatype.INT64, COLLECTION_SIZE),
                Attribute.scalar("collection_total", Datatype.INT64, COLLECTION_COUNT),
                cursorAttributes(0, 0, COLLECTION_COUNT).get(1),
                Attribute.scalar("rdcc_nbytes", Datatype.INT64, rdccBytes),
                Attribute.scalar("rdcc_w0", Datatype.FLOAT64, RDCC_W0),
                Attribute.scalar("rdcc_nslots", Datatype.INT64, rdccSlots),
                bool("shuffle", true),
                Attribute.of("complib", "lzf"),
                bool("fletcher32", true),
                Attribute.of("chunk_shape", chunkWidth(schema)),
                // lzf takes no options: Hangar then stores False.
                bool("compression_opts", false));
    }

    /**
     * {@code next_location} = (collection, index) and {@code collections_remaining}: (0, 0) and
     * 100 in a new file; Hangar rewrites them when a checkout closes the file (the last
     * position written) and when the file is full (the position after it).
     */
    static List<Attribute> cursorAttributes(long collection, long index,
                                            long collectionsRemaining) {
        return List.of(Attribute.of("next_location", collection, index),
                Attribute.scalar("collections_remaining", Datatype.INT64, collectionsRemaining));
    }

    /** h5py stores {@code ()} as an empty float64 array (numpy's default for an empty tuple). */
    private static Attribute schemaShape(ArraySchema schema) {
        long[] shape = schema.shape();
        return shape.length == 0
                ? new Attribute("schema_shape", Datatype.FLOAT64, new long[] {0}, new byte[0])
                : Attribute.of("schema_shape", shape);
    }

    private static Attribute bool(String name, boolean value) {
        return new Attribute(name, Datatype.EnumType.BOOLEAN, new long[0],
                new byte[] {(byte) (value ? 1 : 0)});
    }

    /** The smallest prime {@code >= n} (Hangar's {@code find_next_prime} for the slot count). */
    static long primeAtLeast(long n) {
        for (long candidate = Math.max(2, n); ; candidate++) {
            boolean prime = true;
            for (long divisor = 2; divisor * divisor <= candidate && prime; divisor++) {
                prime = candidate % divisor != 0;
            }
            if (prime) {
                return candidate;
            }
        }
    }
}
