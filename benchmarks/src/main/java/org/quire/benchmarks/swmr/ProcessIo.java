package org.quire.benchmarks.swmr;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This process's I/O counters from {@code /proc/self/io}: {@code wchar} is every byte the process passed to
 * {@code write}, {@code pwrite} and their kin, whether or not it reached the disk yet; the measure of bytes
 * written that needs nothing from the library writing them.
 */
final class ProcessIo {

    private static final Path IO = Path.of("/proc/self/io");

    private ProcessIo() {
    }

    /** The {@code wchar} counter now. */
    static long writtenChars() throws IOException {
        for (String line : Files.readAllLines(IO)) {
            if (line.startsWith("wchar:")) {
                return Long.parseLong(line.substring("wchar:".length()).trim());
            }
        }
        throw new IOException(IO + " has no wchar line");
    }
}
