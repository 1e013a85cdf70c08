package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The files the h5py fixture scripts write ({@code make_h5py_fixtures.py},
 * {@code make_h5py_dense_fixtures.py}), each script run once per JVM into a temporary directory
 * shared by the tests (which must not change them: they damage copies), with its manifest.
 */
final class H5pyFixtures {

    /** {@code h5py.h5}: chunked datasets of every index type libhdf5 chooses. */
    static final String CHUNKED = "make_h5py_fixtures.py";
    /** {@code dense.h5}, {@code external.h5}: dense links and attributes, contiguous, compact. */
    static final String DENSE = "make_h5py_dense_fixtures.py";

    /**
     * {@code compat.h5}, {@code compat_latest.h5}, {@code userblock_*.h5}: what h5py users
     * write by default (variable-length strings, bools, enums, scalars, committed datatypes,
     * integers of every size, never-written datasets, user blocks, parts Quire does not read).
     */
    static final String COMPAT = "make_h5py_compat_fixtures.py";

    /** Signatures of the blocks of dense storage, and the structure errors must name. */
    static final Map<String, String> DENSE_BLOCKS = new LinkedHashMap<>();

    static {
        DENSE_BLOCKS.put("FRHP", "fractal heap header");
        DENSE_BLOCKS.put("FHIB", "fractal heap indirect block");
        DENSE_BLOCKS.put("FHDB", "fractal heap direct block");
        DENSE_BLOCKS.put("BTHD", "version 2 B-tree header");
        DENSE_BLOCKS.put("BTIN", "version 2 B-tree internal node");
        DENSE_BLOCKS.put("BTLF", "version 2 B-tree leaf node");
    }

    private static final Map<String, H5pyFixtures> GENERATED = new HashMap<>();

    private final Path directory;
    /** The manifest's lines, split at '|': a kind letter, then the kind's fields. */
    private final List<String[]> manifest;

    private H5pyFixtures(Path directory, List<String[]> manifest) {
        this.directory = directory;
        this.manifest = manifest;
    }

    /** The files of {@code script} ({@link #CHUNKED} or {@link #DENSE}), generated on first use. */
    static synchronized H5pyFixtures of(String script) throws IOException {
        H5pyFixtures fixtures = GENERATED.get(script);
        if (fixtures == null) {
            fixtures = generate(script);
            GENERATED.put(script, fixtures);
        }
        return fixtures;
    }

    private static H5pyFixtures generate(String script) throws IOException {
        ExternalTools.requireH5py();
        ExternalTools.requireTool("h5debug");
        Path directory = Files.createTempDirectory("quire-h5py-fixtures-");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteRecursively(directory)));
        Path copy = ExternalTools.generatorScript(script, directory);
        ExternalTools.Result result = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                copy.toString(), directory.toString()), 300);
        assertEquals(0, result.exitCode(), result.output());
        List<String[]> manifest = new ArrayList<>();
        for (String line : Files.readAllLines(directory.resolve("manifest.txt"))) {
            if (!line.isBlank()) {
                manifest.add(line.split("\\|", -1));
            }
        }
        return new H5pyFixtures(directory, manifest);
    }

    private static void deleteRecursively(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A file the script wrote. */
    Path file(String name) {
        return directory.resolve(name);
    }

    /** Every manifest record. */
    List<String[]> manifest() {
        return manifest;
    }

    /** The manifest records of {@code kind} (the first field). */
    List<String[]> records(String kind) {
        return manifest.stream().filter(r -> r[0].equals(kind)).collect(Collectors.toList());
    }
}
