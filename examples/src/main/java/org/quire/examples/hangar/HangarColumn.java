package org.quire.examples.hangar;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import org.quire.format.FormatException;
import org.quire.format.hangar.ArraySchema;
import org.quire.format.hangar.CollectionWriter;
import org.quire.format.hangar.LocatorRecord;
import org.quire.format.hangar.RecordResolver;
import org.quire.format.hangar.StoredArray;
import org.quire.format.hdf5.Datatype;

/**
 * A Hangar column of float32 arrays of shape (20, 2, 3) in a data directory of HDF5_00
 * collection files (docs/versions.md, "Hangar HDF5_00 store"):
 * <pre>
 * HangarColumn write DIR COUNT     one writer checkout: stores COUNT arrays, array k holding
 *                                  k * 1000 + e at flat position e, and prints each record
 * HangarColumn read DIR RECORD...  resolves each record, printing its shape, first and last
 *                                  elements
 * </pre>
 * Exit 0 when done, 1 when a record does not resolve or a file cannot be read (one line on
 * stderr naming file and record), 2 for bad arguments.
 */
public final class HangarColumn {

    static final ArraySchema SCHEMA = ArraySchema.of(Datatype.FLOAT32, 20, 2, 3);
    private static final String USAGE = "usage: HangarColumn write DIR COUNT | "
            + "HangarColumn read DIR RECORD...";

    private HangarColumn() {
    }

    public static void main(String[] args) {
        if (args.length < 3 || !args[0].equals("write") && !args[0].equals("read")
                || args[0].equals("write") && args.length != 3) {
            System.err.println("HangarColumn: " + USAGE);
            System.exit(2);
        }
        Path dir = Path.of(args[1]);
        try {
            if (args[0].equals("write")) {
                write(dir, count(args[2]));
            } else {
                read(dir, Arrays.copyOfRange(args, 2, args.length));
            }
        } catch (FormatException e) {
            System.err.println("HangarColumn: " + e.getMessage());
            System.exit(1);
        } catch (IOException e) {
            System.err.println("HangarColumn: " + dir + ": " + e);
            System.exit(1);
        }
    }

    private static int count(String text) {
        try {
            int count = Integer.parseInt(text);
            if (count >= 0) {
                return count;
            }
        } catch (NumberFormatException e) {
            // below
        }
        System.err.println("HangarColumn: COUNT must be a number >= 0, got '" + text + "'; "
                + USAGE);
        System.exit(2);
        return 0;
    }

    private static void write(Path dir, int count) throws IOException {
        try (CollectionWriter writer = CollectionWriter.checkout(dir, SCHEMA)) {
            float[] array = new float[(int) SCHEMA.elementCount()];
            for (int k = 0; k < count; k++) {
                for (int e = 0; e < array.length; e++) {
                    array[e] = k * 1000 + e;
                }
                LocatorRecord record = writer.write(array);
                System.out.println(record.format());
            }
        }
    }

    private static void read(Path dir, String[] records) throws IOException {
        try (RecordResolver resolver = new RecordResolver(dir, SCHEMA)) {
            for (String record : records) {
                StoredArray array = resolver.read(record);
                float[] elements = array.floats();
                System.out.println(record + " -> " + Arrays.toString(array.shape()) + " "
                        + elements[0] + " .. " + elements[elements.length - 1]);
            }
        }
    }
}
