package org.quire.launcher.run;

import org.quire.runtime.JobSecret;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.stream.Stream;

/**
 * How {@code quire run} hands the job secret to its workers: one file per rank (mode 0600) in a
 * directory only the user can enter (0700) under {@code java.io.tmpdir}. Each worker deletes its
 * file as soon as it has read it; the launcher deletes whatever is left when the job ends.
 */
final class SecretFiles implements AutoCloseable {

    private final Path directory;

    private SecretFiles(Path directory) {
        this.directory = directory;
    }

    static SecretFiles create() throws IOException {
        return new SecretFiles(Files.createTempDirectory("quire-job-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"))));
    }

    /** Writes {@code secret} for {@code rank} and returns the file's path. */
    Path write(JobSecret secret, int rank) throws IOException {
        Path file = directory.resolve("secret-" + rank);
        secret.writeTo(file);
        return file;
    }

    @Override
    public void close() {
        try (Stream<Path> left = Files.list(directory)) {
            for (Path file : left.toList()) {
                Files.deleteIfExists(file);
            }
            Files.deleteIfExists(directory);
        } catch (IOException e) {
            System.err.println("quire run: cannot delete the job's secret directory " + directory + ": " + e.getMessage());
        }
    }
}
