package org.quire.format.hdf5;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The files an h5py fixture script wrote, committed beside it: {@code hdf5/make_x.py} wrote the
 * files and {@code manifest.txt} of {@code hdf5/make_x/} (with the versions that made them in
 * {@code GENERATED_WITH.txt}); {@code regenerate_fixtures.py} writes them again and
 * {@link H5pyFixtureGeneratorsTest} checks that the installed h5py still makes the same contents.
 * Reading them needs no h5py. Tests must not change them: they damage copies.
 */
final class H5pyFixtures {

    /** {@code h5py.h5}: chunked datasets of every index type libhdf5 chooses. */
    static final String CHUNKED = "make_h5py_fixtures.py";
    /** {@code dense.h5}, {@code external.h5}: dense links and attributes, contiguous, compact. */
    static final String DENSE = "make_h5py_dense_fixtures.py";
    /** {@code legacy.h5}, {@code v108.h5}, {@code ranks.h5}, {@code ranks_v108.h5}: old formats. */
    static final String LEGACY = "make_h5py_legacy_fixtures.py";

    /**
     * {@code compat.h5}, {@code compat_latest.h5}, {@code userblock_*.h5}: what h5py users
     * write by default (variable-length strings, bools, enums, scalars, committed datatypes,
     * integers of every size, never-written datasets, user blocks, parts Quire does not read).
     */
    static final String COMPAT = "make_h5py_compat_fixtures.py";

    /**
     * {@code lzf.h5}: h5py's LZF filter alone, with shuffle and Fletcher-32 (Hangar's set), on
     * compressible, incompressible (stored raw, the filter skipped by the chunk's mask) and mixed
     * data, and a realistic field whose compression ratio docs/hdf5.md quotes.
     */
    static final String LZF = "make_h5py_lzf_fixtures.py";

    /**
     * {@code vds.h5}, {@code vds_legacy.h5}: virtual datasets made through h5py's
     * VirtualLayout (per-chunk hyperslabs, "all" sources, a missing source, a strided mapping
     * Quire refuses), in the latest and the default format; {@code versioned.h5}: three versions
     * versioned-hdf5 1.7.0 committed.
     */
    static final String VDS = "make_h5py_vds_fixtures.py";

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

    static final String MANIFEST = "manifest.txt";
    static final String VERSIONS = "GENERATED_WITH.txt";

    private final Path directory;
    /** The manifest's lines, split at '|': a kind letter, then the kind's fields. */
    private final List<String[]> manifest;

    private H5pyFixtures(Path directory, List<String[]> manifest) {
        this.directory = directory;
        this.manifest = manifest;
    }

    /** The committed files of {@code script} ({@link #CHUNKED}, {@link #DENSE}, {@link #LEGACY}). */
    static H5pyFixtures of(String script) throws IOException {
        Path directory = directory(script);
        List<String[]> manifest = new ArrayList<>();
        for (String line : Files.readAllLines(directory.resolve(MANIFEST))) {
            if (!line.isBlank()) {
                manifest.add(line.split("\\|", -1));
            }
        }
        return new H5pyFixtures(directory, manifest);
    }

    /** The test resource directory {@code hdf5/}, holding the scripts (on the test class path). */
    static Path resourceDirectory() {
        URL url = H5pyFixtures.class.getResource("/hdf5/" + CHUNKED);
        if (url == null) {
            throw new AssertionError("test resource hdf5/" + CHUNKED + " is not on the class path");
        }
        try {
            return Path.of(url.toURI()).getParent();
        } catch (URISyntaxException e) {
            throw new AssertionError("cannot turn " + url + " into a path", e);
        }
    }

    /** The directory of {@code script}'s committed output; missing output is an error, not an abort. */
    static Path directory(String script) {
        Path directory = resourceDirectory().resolve(outputName(script));
        if (!Files.isRegularFile(directory.resolve(MANIFEST))) {
            throw new AssertionError("no committed output of " + script + " in " + directory
                    + ": run /usr/bin/python3 format/src/test/resources/hdf5/regenerate_fixtures.py " + script
                    + " and commit the directory it writes");
        }
        return directory;
    }

    /** The committed file {@code name} of {@code script}, without reading the manifest. */
    static Path committed(String script, String name) {
        return directory(script).resolve(name);
    }

    /** A copy of the committed file {@code name} of {@code script} as {@code dir/name}. */
    static Path copy(String script, String name, Path dir) throws IOException {
        return Files.copy(committed(script, name), dir.resolve(name));
    }

    /** {@code make_x.py} writes into {@code make_x/}. */
    static String outputName(String script) {
        return script.substring(0, script.length() - ".py".length());
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
