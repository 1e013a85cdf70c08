package org.quire.format.hdf5;

import java.nio.file.Path;

import org.quire.format.FormatException;

/**
 * A child JVM for tests of bounded memory, started with a small heap: reads one element of a
 * dataset ({@code file dataset index...}) and prints "read" or the error's message; anything
 * else (an {@link OutOfMemoryError}) ends it with a stack trace and exit 1.
 */
final class BoundedHeapRead {

    private BoundedHeapRead() {
    }

    public static void main(String[] args) throws Exception {
        long[] start = new long[args.length - 2];
        long[] one = new long[start.length];
        for (int d = 0; d < start.length; d++) {
            start[d] = Long.parseLong(args[d + 2]);
            one[d] = 1;
        }
        try (Hdf5File file = Hdf5File.open(Path.of(args[0]))) {
            file.root().dataset(args[1]).read(start, one);
            System.out.println("read");
        } catch (FormatException e) {
            System.out.println(e.getMessage());
        }
    }
}
