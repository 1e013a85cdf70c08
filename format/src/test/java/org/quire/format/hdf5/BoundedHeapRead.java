package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.quire.format.FormatException;

/**
 * A child JVM for tests of bounded memory, started with a heap of {@value #HEAP}: reads one
 * element of a dataset ({@code file dataset index...}) and prints "read" or the error's
 * message; anything else (an {@link OutOfMemoryError}) ends it with a stack trace and exit 1.
 */
final class BoundedHeapRead {

    static final String HEAP = "32m";

    private BoundedHeapRead() {
    }

    /**
     * Reads element {@code index} of {@code dataset} in such a child; returns what it printed,
     * after checking that it ended normally.
     */
    static String run(Path path, String dataset, long... index) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + HEAP, "-cp", classPath(Hdf5File.class) + File.pathSeparator
                        + classPath(BoundedHeapRead.class),
                BoundedHeapRead.class.getName(), path.toString(), dataset));
        for (long i : index) {
            command.add(Long.toString(i));
        }
        ExternalTools.startsOutsideProgram("a second JVM (BoundedHeapRead)");
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(child.getInputStream().readAllBytes(),
                StandardCharsets.UTF_8).strip();
        assertTrue(child.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, child.exitValue(), output);
        return output;
    }

    private static String classPath(Class<?> type) throws Exception {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI())
                .toString();
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
