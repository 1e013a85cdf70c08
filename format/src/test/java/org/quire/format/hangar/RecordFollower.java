package org.quire.format.hangar;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.quire.format.hdf5.Datatype;

/**
 * A reader process following a live store (run by {@link CollectionFollowerTest} in its own
 * JVM): reads the records a writer appends to RECORDS_FILE, one a line, resolves each through a
 * {@link RecordResolver} of DATA_DIR while the writer is still appending, and checks that record
 * k holds {@link HangarArrays#ints}(k, 4). Prints {@code resolved N} each time it has caught up
 * with the lines written, and exits 0 after EXPECTED arrays, 1 on a wrong array or an error
 * (one line), 2 after TIMEOUT seconds.
 *
 * <pre>RecordFollower DATA_DIR RECORDS_FILE EXPECTED TIMEOUT_SECONDS</pre>
 */
public final class RecordFollower {

    static final ArraySchema SCHEMA = ArraySchema.of(Datatype.INT32, 4);

    private RecordFollower() {
    }

    public static void main(String[] args) throws Exception {
        Path dataDir = Path.of(args[0]);
        Path recordsFile = Path.of(args[1]);
        int expected = Integer.parseInt(args[2]);
        long deadline = System.nanoTime() + Long.parseLong(args[3]) * 1_000_000_000L;
        int resolved = 0;
        long offset = 0;
        StringBuilder partial = new StringBuilder();
        try (RecordResolver resolver = new RecordResolver(dataDir, SCHEMA)) {
            while (resolved < expected) {
                if (System.nanoTime() > deadline) {
                    System.out.println("timed out after " + resolved + " of " + expected);
                    System.exit(2);
                }
                String more = readFrom(recordsFile, offset);
                offset += more.getBytes(StandardCharsets.US_ASCII).length;
                partial.append(more);
                int end;
                boolean any = false;
                while ((end = partial.indexOf("\n")) >= 0) {
                    String record = partial.substring(0, end);
                    partial.delete(0, end + 1);
                    int[] array = resolver.read(record).ints();
                    if (!Arrays.equals(array, HangarArrays.ints(resolved, 4))) {
                        System.out.println("record " + resolved + " " + record + " holds "
                                + Arrays.toString(array));
                        System.exit(1);
                    }
                    resolved++;
                    any = true;
                }
                if (any) {
                    System.out.println("resolved " + resolved);
                } else {
                    Thread.sleep(2);
                }
            }
        } catch (IOException e) {
            System.out.println("after " + resolved + " arrays: " + e.getMessage());
            System.exit(1);
        }
        System.out.println("done " + resolved);
    }

    private static String readFrom(Path file, long offset) throws IOException {
        if (!Files.exists(file)) {
            return "";
        }
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            long length = in.length();
            byte[] bytes = new byte[(int) (length - offset)];
            in.seek(offset);
            in.readFully(bytes);
            return new String(bytes, StandardCharsets.US_ASCII);
        }
    }
}
