package org.quire.format.storage;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * Why a file could not be opened, said in one line naming the file and the operation. The JDK's
 * exceptions keep their class (callers tell a missing file from a refused one by it) but carry
 * only the path; these give them a reason: {@code /sys/x.sion: cannot create: permission denied}.
 */
final class OpenFailures {

    /** The file-type bits of a POSIX st_mode, and the types a container cannot be. */
    private static final int TYPE_MASK = 0170000;
    private static final int REGULAR_FILE = 0100000;
    private static final int DIRECTORY = 0040000;
    private static final int CHARACTER_DEVICE = 0020000;
    private static final int BLOCK_DEVICE = 0060000;
    private static final int PIPE = 0010000;
    private static final int SOCKET = 0140000;

    private OpenFailures() {
    }

    /** Reads attributes of a path, following links ({@link Files#readAttributes(Path, String, java.nio.file.LinkOption...)}). */
    @FunctionalInterface
    interface AttributeReader {
        AttributeReader FILES = (path, attributes) -> Files.readAttributes(path, attributes);

        Map<String, Object> read(Path path, String attributes) throws IOException;
    }

    /** Refuses {@code path} when it exists and is not a regular file (links are followed). */
    static void requireRegularFileIfExists(Path path) throws IOException {
        requireRegularFileIfExists(path, AttributeReader.FILES);
    }

    /**
     * As {@link #requireRegularFileIfExists(Path)}, reading through {@code reader} (tests change the file around
     * the read). Existence and type come from one read: with two looks, a file deleted between them was reported
     * as "a special file" instead of missing. When the read fails (no such file, no permission) the path is left
     * to the open, which says why in its own words.
     */
    static void requireRegularFileIfExists(Path path, AttributeReader reader) throws IOException {
        String kind;
        try {
            kind = irregularKind(path, reader);
        } catch (IOException e) {
            return;
        }
        if (kind != null) {
            throw new NotARegularFileException(path.toString(), kind);
        }
    }

    /** What {@code path} is when it is not a regular file, or null when it is one. */
    private static String irregularKind(Path path, AttributeReader reader) throws IOException {
        int type;
        try {
            type = (Integer) reader.read(path, "unix:mode").get("mode") & TYPE_MASK;
        } catch (UnsupportedOperationException | IllegalArgumentException noUnixView) {
            // Not a POSIX file system: the basic view tells regular files and directories apart only. No
            // file was looked at by the failed read, so this is still the one look at the file.
            Map<String, Object> basic = reader.read(path, "basic:isRegularFile,isDirectory");
            if (Boolean.TRUE.equals(basic.get("isRegularFile"))) {
                return null;
            }
            return Boolean.TRUE.equals(basic.get("isDirectory")) ? "a directory" : "a special file";
        }
        return switch (type) {
            case REGULAR_FILE -> null;
            case DIRECTORY -> "a directory";
            case CHARACTER_DEVICE -> "a character device";
            case BLOCK_DEVICE -> "a block device";
            case PIPE -> "a named pipe";
            case SOCKET -> "a socket";
            default -> "a special file";
        };
    }

    /** {@code failure} of opening {@code path} in {@code mode}, as the same class with a reason. */
    static FileSystemException explain(Path path, OpenMode mode, FileSystemException failure) {
        if (failure.getReason() != null && failure.getFile() != null) {
            // The system said why (read-only file system, ...): keep its words, add the operation.
            return rebuild(failure, operation(mode) + ": " + failure.getReason().toLowerCase(Locale.ROOT));
        }
        String why;
        if (failure instanceof NoSuchFileException) {
            why = mode == OpenMode.READ || mode == OpenMode.READ_WRITE ? "no such file"
                    : "its directory " + path.toAbsolutePath().getParent() + " does not exist";
        } else if (failure instanceof AccessDeniedException) {
            why = "permission denied";
        } else if (failure instanceof FileAlreadyExistsException) {
            why = "it exists already";
        } else {
            why = failure.getClass().getSimpleName();
        }
        return rebuild(failure, operation(mode) + ": " + why);
    }

    private static String operation(OpenMode mode) {
        return switch (mode) {
            case READ -> "cannot open for reading";
            case READ_WRITE -> "cannot open for writing";
            case CREATE_NEW, CREATE_OR_OPEN -> "cannot create";
        };
    }

    private static FileSystemException rebuild(FileSystemException failure, String reason) {
        String file = failure.getFile();
        String other = failure.getOtherFile();
        FileSystemException explained;
        if (failure instanceof NoSuchFileException) {
            explained = new NoSuchFileException(file, other, reason);
        } else if (failure instanceof AccessDeniedException) {
            explained = new AccessDeniedException(file, other, reason);
        } else if (failure instanceof FileAlreadyExistsException) {
            explained = new FileAlreadyExistsException(file, other, reason);
        } else {
            explained = new FileSystemException(file, other, reason);
        }
        explained.initCause(failure);
        return explained;
    }
}
