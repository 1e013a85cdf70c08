package org.quire.format.sion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The real SIONlib 1.7.6 files in {@code format/src/test/resources/sionlib} and their
 * description {@code sionlib-testvectors.json} (see the README there). They are read by path, from
 * the launcher's tests too, so the directory is found from the repository root: {@code QUIRE_REPO_ROOT}
 * (set by surefire and failsafe), else the directory holding {@code .git} above the working directory.
 */
public final class SionTestVectors {

    private static final String RELATIVE_DIRECTORY = "format/src/test/resources/sionlib";

    private SionTestVectors() {
    }

    public static Path directory() {
        Path directory = repositoryRoot().resolve(RELATIVE_DIRECTORY);
        if (!Files.isDirectory(directory)) {
            throw new AssertionError("SIONlib 1.7.6 test vectors are missing: expected directory " + directory
                    + " (they are part of the repository)");
        }
        return directory;
    }

    /** The vectors of the JSON description, each with its files, writer inputs and files_meta. */
    @SuppressWarnings("unchecked")
    public static List<Map<String, Object>> vectors() throws IOException {
        String json = Files.readString(directory().resolve("sionlib-testvectors.json"), StandardCharsets.UTF_8);
        Map<String, Object> root = (Map<String, Object>) MiniJson.parse(json);
        return (List<Map<String, Object>>) root.get("vectors");
    }

    /** The vector whose first file is {@code fileName}. */
    public static Map<String, Object> vector(String fileName) throws IOException {
        return vectors().stream().filter(v -> ((List<?>) v.get("files")).get(0).equals(fileName)).findFirst()
                .orElseThrow(() -> new AssertionError("no test vector for " + fileName));
    }

    private static Path repositoryRoot() {
        String fromEnvironment = System.getenv("QUIRE_REPO_ROOT");
        if (fromEnvironment != null && !fromEnvironment.isBlank()) {
            return Path.of(fromEnvironment).toAbsolutePath();
        }
        Path start = Path.of("").toAbsolutePath();
        for (Path directory = start; directory != null; directory = directory.getParent()) {
            if (Files.exists(directory.resolve(".git"))) {
                return directory;
            }
        }
        throw new AssertionError("cannot find the repository root above " + start + " and QUIRE_REPO_ROOT is not set");
    }

    /**
     * The two files are equal byte for byte except META1's prefix (the name passed to open, which
     * differs because Quire's copies live in a temporary directory).
     */
    public static void assertSameBytesExceptPrefix(Path real, Path ours) throws IOException {
        byte[] realBytes = Files.readAllBytes(real);
        byte[] ourBytes = Files.readAllBytes(ours);
        assertEquals(realBytes.length, ourBytes.length, ours + " size");
        int prefixEnd = Meta1Layout.PREFIX_OFFSET + Meta1Layout.PREFIX_LENGTH;
        for (int i = 0; i < realBytes.length; i++) {
            if (i == Meta1Layout.PREFIX_OFFSET) {
                i = prefixEnd;
            }
            if (realBytes[i] != ourBytes[i]) {
                fail(ours + " differs from " + real + " at offset " + i + ": expected " + realBytes[i] + ", found "
                        + ourBytes[i]);
            }
        }
    }

    public static long asLong(Object number) {
        return ((Number) number).longValue();
    }

    public static long[] longs(Object list) {
        return ((List<?>) list).stream().mapToLong(SionTestVectors::asLong).toArray();
    }

    /** The stream byte the vectors' writers used: {@code (position + 31*task) mod 251}. */
    static byte patternByte(long position, long task) {
        return (byte) ((position + 31 * task) % 251);
    }

    /** Key-value pattern: byte j stored under key K by task t is {@code (j + 31K + 7t) mod 251}. */
    static byte keyValuePatternByte(long position, long key, long task) {
        return (byte) ((position + 31 * key + 7 * task) % 251);
    }
}
