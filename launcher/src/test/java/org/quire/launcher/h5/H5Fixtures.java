package org.quire.launcher.h5;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;

import org.quire.format.hdf5.Attribute;
import org.quire.format.hdf5.Dataset;
import org.quire.format.hdf5.DatasetSpec;
import org.quire.format.hdf5.Datatype;
import org.quire.format.hdf5.Filter;
import org.quire.format.hdf5.Group;
import org.quire.format.hdf5.Hdf5File;

/**
 * The file the {@code quire h5} tests list, dump and verify, written with Quire's API: every
 * chunk index (single chunk, fixed array, paged fixed array, extensible array with data
 * blocks), 1-D to 3-D, integers of both byte orders, floats, strings, a compound, filters with
 * Fletcher-32, attributes. Its values are simple functions of the element's position, given
 * here so tests can compute what must be printed.
 */
final class H5Fixtures {

    static final Datatype.IntegerType INT16_BE = Datatype.INT16.withByteOrder(ByteOrder.BIG_ENDIAN);
    static final Datatype.StringType NAME = new Datatype.StringType(8,
            Datatype.StringPadding.NULL_TERMINATED, false);
    static final Datatype.CompoundType RECORD = Datatype.CompoundType.packed(
            List.of("id", "x"), List.of(Datatype.INT32, Datatype.FLOAT64));
    static final String[] NAMES = {"alpha", "be\"ta", ""};
    /** {@code /log} holds {@code LOG_LENGTH} float32 values {@code i / 2}. */
    static final int LOG_LENGTH = 40;

    private H5Fixtures() {
    }

    /** /grid/ints1d[i]. */
    static long ints1d(int i) {
        return (long) i * i - 20;
    }

    /** /grid/floats2d[r][c]; the first five are values whose text is special. */
    static double floats2d(int r, int c) {
        int k = r * 5 + c;
        return switch (k) {
            case 0 -> Double.NaN;
            case 1 -> -0.0;
            case 2 -> 1e-7;
            case 3 -> 0.1;
            case 4 -> 1e16;
            default -> k / 4.0;
        };
    }

    /** What {@code quire h5 dump} must print for /grid/floats2d[r][c]. */
    static String floats2dText(int r, int c) {
        int k = r * 5 + c;
        return switch (k) {
            case 0 -> "nan";
            case 1 -> "-0.0";
            case 2 -> "1e-07";
            case 3 -> "0.1";
            case 4 -> "1e+16";
            default -> k / 4 + new String[] {".0", ".25", ".5", ".75"}[k % 4];
        };
    }

    /** /grid/cube[i][j][k]. */
    static short cube(int i, int j, int k) {
        return (short) ((i * 4 + j) * 5 + k - 30);
    }

    static void write(Path path) throws IOException {
        try (Hdf5File file = Hdf5File.create(path)) {
            populate(file);
        }
    }

    /** Everything of {@link #write}, into an open file. */
    static void populate(Hdf5File file) throws IOException {
        Group root = file.root();
        root.setAttribute(Attribute.of("title", "Quire h5 test"));
        root.setAttribute(Attribute.of("steps", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12));
        Group grid = root.createGroup("grid");
        grid.setAttribute(Attribute.of("origin", 0.25, -1.5));

        Dataset ints = grid.createDataset("ints1d", DatasetSpec.builder(Datatype.INT64, 10)
                .chunkShape(4).fillValue(-1).build());
        long[] intValues = new long[10];
        for (int i = 0; i < 10; i++) {
            intValues[i] = ints1d(i);
        }
        ints.write(new long[] {0}, new long[] {10}, intValues);

        Dataset floats = grid.createDataset("floats2d", DatasetSpec.builder(Datatype.FLOAT64, 4, 5)
                .chunkShape(2, 3).filter(Filter.shuffle()).filter(Filter.deflate(6)).build());
        double[] floatValues = new double[20];
        for (int k = 0; k < 20; k++) {
            floatValues[k] = floats2d(k / 5, k % 5);
        }
        floats.write(new long[] {0, 0}, new long[] {4, 5}, floatValues);
        floats.setAttribute(Attribute.of("units", "K"));

        Dataset cube = grid.createDataset("cube", DatasetSpec.builder(INT16_BE, 3, 4, 5)
                .chunkShape(2, 2, 2).filter(Filter.fletcher32()).build());
        short[] cubeValues = new short[60];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 4; j++) {
                for (int k = 0; k < 5; k++) {
                    cubeValues[(i * 4 + j) * 5 + k] = cube(i, j, k);
                }
            }
        }
        cube.write(new long[] {0, 0, 0}, new long[] {3, 4, 5}, cubeValues);

        Dataset log = root.createDataset("log", DatasetSpec.builder(Datatype.FLOAT32, 0)
                .maxShape(DatasetSpec.UNLIMITED).chunkShape(2).build());
        log.extend(LOG_LENGTH);
        float[] logValues = new float[LOG_LENGTH];
        for (int i = 0; i < LOG_LENGTH; i++) {
            logValues[i] = i / 2f;
        }
        log.write(new long[] {0}, new long[] {LOG_LENGTH}, logValues);

        Dataset names = root.createDataset("names", DatasetSpec.builder(NAME, 3)
                .chunkShape(3).build());
        ByteBuffer nameBytes = ByteBuffer.allocate(3 * NAME.size());
        for (String name : NAMES) {
            nameBytes.put(NAME.encode(name));
        }
        names.write(new long[] {0}, new long[] {3}, nameBytes.flip());

        Dataset records = root.createDataset("records", DatasetSpec.builder(RECORD, 4)
                .chunkShape(2).build());
        ByteBuffer recordBytes = ByteBuffer.allocate(4 * RECORD.size()).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 4; i++) {
            recordBytes.putInt(i).putDouble(i / 2.0);
        }
        records.write(new long[] {0}, new long[] {4}, recordBytes.flip());

        // 10^12 elements, 10^6 chunks in a paged fixed array; only chunk [0, 0] is written.
        Dataset sparse = root.createDataset("sparse", DatasetSpec.builder(Datatype.INT32,
                1_000_000, 1_000_000).chunkShape(1000, 1000).fillValue(7).build());
        sparse.write(new long[] {0, 0}, new long[] {2, 3}, new int[] {1, 2, 3, 4, 5, 6});
    }
}
