package org.quire.format.hangar;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.Attribute;
import org.quire.format.hdf5.Datatype;
import org.quire.format.hdf5.Hdf5File;

/**
 * The root attributes of a collection file read back from the file Quire wrote, against values
 * worked out by hand (below) from the rules Hangar v0.3's {@code hdf5_00} backend applies:
 * chunks of at most 255,000 bytes, rdcc_nbytes the collections' bytes clamped to [255,000,
 * 10^8], rdcc_nslots the first prime from 100 slots per chunk the cache holds.
 */
class CollectionFileLayoutTest {

    @TempDir
    Path dir;

    private Hdf5File written(ArraySchema schema, int arrays) throws Exception {
        String uid;
        try (CollectionWriter writer = CollectionWriter.checkout(dir, schema)) {
            for (int k = 0; k < arrays; k++) {
                writer.write(new long[(int) schema.elementCount()]);
            }
            uid = writer.uids().get(0);
        }
        return Hdf5File.open(CollectionFileLayout.file(dir, uid));
    }

    private static long scalar(Hdf5File file, String name) throws Exception {
        Attribute attribute = file.root().attribute(name);
        assertEquals(0, attribute.shape().length, name + " is a scalar");
        return attribute.longs()[0];
    }

    /**
     * int64 rows of 100,000 elements: chunks of floor(255,000 / 8) = 31,875 elements
     * (255,000 bytes); the collections hold 2 * 10^8 bytes, so rdcc_nbytes is the upper bound
     * 10^8; ceil(10^8 / 255,000) = 393 chunks, 39,300 slots, the next prime 39,301.
     */
    @Test
    void aWideSchemaGetsTheLargestCacheAndChunksOfHangarsBound() throws Exception {
        try (Hdf5File file = written(ArraySchema.of(Datatype.INT64, 100_000), 1)) {
            assertEquals(100_000_000, scalar(file, "rdcc_nbytes"));
            assertEquals(39_301, scalar(file, "rdcc_nslots"));
            assertArrayEquals(new long[] {31_875}, file.root().attribute("chunk_shape").longs());
            assertEquals(7, scalar(file, "schema_dtype_num"));
            assertArrayEquals(new long[] {100_000}, file.root().attribute("schema_shape").longs());
        }
    }

    /**
     * int64 rows of 3 x 4 elements: a whole row per chunk (96 bytes); the collections hold only
     * 250 * 96 = 24,000 bytes, so rdcc_nbytes is the lower bound 255,000; ceil(255,000 / 96) =
     * 2,657 chunks, 265,700 slots, the next prime 265,703. The cursor Hangar reads at the next
     * checkout is where the last array went: (0, 2), all 100 collections remaining.
     */
    @Test
    void aNarrowSchemaGetsTheSmallestCacheAndTheCursorOfTheLastArray() throws Exception {
        try (Hdf5File file = written(ArraySchema.of(Datatype.INT64, 3, 4), 3)) {
            assertEquals(255_000, scalar(file, "rdcc_nbytes"));
            assertEquals(265_703, scalar(file, "rdcc_nslots"));
            assertArrayEquals(new long[] {12}, file.root().attribute("chunk_shape").longs());
            assertArrayEquals(new long[] {3, 4}, file.root().attribute("schema_shape").longs());
            assertArrayEquals(new long[] {0, 2}, file.root().attribute("next_location").longs());
            assertEquals(100, scalar(file, "collections_remaining"));
        }
    }

    /**
     * int64 rows of 3 elements: chunks of 24 bytes divide the 255,000-byte cache exactly, so
     * the cache holds 10,625 chunks, not one more: 1,062,500 slots, the next prime 1,062,511
     * (rounding up past an exact quotient would give 1,062,601).
     */
    @Test
    void aCacheOfWholeChunksIsNotRoundedUp() throws Exception {
        try (Hdf5File file = written(ArraySchema.of(Datatype.INT64, 3), 1)) {
            assertEquals(255_000, scalar(file, "rdcc_nbytes"));
            assertEquals(1_062_511, scalar(file, "rdcc_nslots"));
        }
    }

    /** h5py stores the empty tuple of a 0-d schema as an empty float64 array; bools as numpy's. */
    @Test
    void aZeroDimensionalSchemaShapeIsAnEmptyFloatArrayAndFlagsAreBooleans() throws Exception {
        try (Hdf5File file = written(ArraySchema.of(Datatype.INT64), 1)) {
            Attribute shape = file.root().attribute("schema_shape");
            assertEquals(Datatype.FLOAT64, shape.type());
            assertArrayEquals(new long[] {0}, shape.shape());
            Attribute shuffle = file.root().attribute("shuffle");
            assertEquals(Datatype.EnumType.BOOLEAN, shuffle.type());
            assertArrayEquals(new byte[] {1}, shuffle.data());
            assertArrayEquals(new byte[] {0}, file.root().attribute("compression_opts").data());
        }
    }

    @Test
    void primesFromTwoUp() {
        assertEquals(2, CollectionFileLayout.primeAtLeast(0));
        assertEquals(2, CollectionFileLayout.primeAtLeast(2));
        assertEquals(3, CollectionFileLayout.primeAtLeast(3));
        assertEquals(5, CollectionFileLayout.primeAtLeast(4));
        // 9 and 25 are squares: their only divisor below them is their root.
        assertEquals(11, CollectionFileLayout.primeAtLeast(9));
        assertEquals(29, CollectionFileLayout.primeAtLeast(25));
        assertEquals(53_201, CollectionFileLayout.primeAtLeast(53_200));
    }
}
