package org.quire.format.catalog;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import org.quire.format.sion.PhysicalFileMetadata;
import org.quire.format.sion.SionFile;

/**
 * Which SION container a checkpoint is: the path of its first physical file, its physical file
 * and task counts, its total bytes and the SHA-256 of the bytes of all its physical files in
 * order, so that a restart notices a container rewritten, truncated or replaced since it was
 * catalogued.
 */
public record SionContainerIdentity(Path path, int files, int tasks, long bytes, String sha256) {

    /**
     * The identity of the container at {@code path} as it is now: opened as a SION file (it must
     * be closed and valid), every physical file read once.
     */
    public static SionContainerIdentity of(Path path) throws IOException {
        try (SionFile sion = SionFile.open(path)) {
            MessageDigest digest = newDigest();
            long bytes = 0;
            byte[] buffer = new byte[1 << 20];
            for (PhysicalFileMetadata physical : sion.physicalFiles()) {
                try (InputStream in = Files.newInputStream(physical.path())) {
                    for (int read; (read = in.read(buffer)) > 0; ) {
                        digest.update(buffer, 0, read);
                        bytes += read;
                    }
                }
            }
            return new SionContainerIdentity(path, sion.physicalFiles().size(), sion.taskCount(), bytes,
                    HexFormat.of().formatHex(digest.digest()));
        }
    }

    /**
     * Checks that the container is still the one catalogued.
     *
     * @throws CheckpointContainerChangedException it is missing, or its layout, size or digest differ
     */
    public void check() throws IOException {
        if (!Files.isRegularFile(path)) {
            throw new CheckpointContainerChangedException(path, "the catalogued SION container ("
                    + bytes + " bytes, SHA-256 " + sha256 + ") is missing");
        }
        SionContainerIdentity now = of(path);
        if (now.files != files || now.tasks != tasks || now.bytes != bytes || !now.sha256.equals(sha256)) {
            throw new CheckpointContainerChangedException(path, "the SION container changed since it was"
                    + " catalogued: expected " + describe() + ", found " + now.describe());
        }
    }

    private String describe() {
        return files + " files, " + tasks + " tasks, " + bytes + " bytes, SHA-256 " + sha256;
    }

    private static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
