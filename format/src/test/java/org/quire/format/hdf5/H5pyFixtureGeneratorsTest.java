package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.StartsOutsideProgram;

/**
 * The committed h5py fixtures are what their generators make: every {@code hdf5/make_*.py} has its
 * output directory, and running {@code regenerate_fixtures.py} with the installed h5py gives the
 * same manifest, the same other files byte for byte and HDF5 files h5py reads identically
 * ({@code compare_h5_contents.py}; the HDF5 files themselves differ in object header timestamps).
 */
class H5pyFixtureGeneratorsTest {

    @TempDir
    Path dir;

    @Test
    void everyGeneratorHasItsCommittedOutput() throws IOException {
        List<String> generators = generators();
        assertTrue(generators.contains(H5pyFixtures.CHUNKED), generators.toString());
        for (String generator : generators) {
            Path output = H5pyFixtures.directory(generator);
            List<String> versions = Files.readAllLines(output.resolve(H5pyFixtures.VERSIONS));
            assertEquals("generator " + generator, versions.get(0), output.toString());
            assertTrue(hdf5Files(output).size() > 0, "no HDF5 file in " + output);
        }
    }

    @Test
    @StartsOutsideProgram
    void regeneratingWithTheInstalledH5pyGivesTheCommittedContents() throws IOException {
        ExternalTools.requireH5py();
        ExternalTools.requireTool("h5debug");
        ExternalTools.Result made = python(300, "regenerate_fixtures.py", "--into", dir.toString());
        assertEquals(0, made.exitCode(), made.output());
        for (String generator : generators()) {
            Path committed = H5pyFixtures.directory(generator);
            Path regenerated = dir.resolve(H5pyFixtures.outputName(generator));
            String versions = "committed " + Files.readString(committed.resolve(H5pyFixtures.VERSIONS))
                    + "regenerated " + Files.readString(regenerated.resolve(H5pyFixtures.VERSIONS));
            assertEquals(fileNames(committed), fileNames(regenerated), versions);
            for (String name : fileNames(committed)) {
                Path expected = committed.resolve(name);
                Path found = regenerated.resolve(name);
                if (name.endsWith(".h5")) {
                    ExternalTools.Result compared = compareContents(expected, found);
                    assertEquals(0, compared.exitCode(), found + " vs the committed " + expected + "\n"
                            + compared.output() + versions);
                } else if (!name.equals(H5pyFixtures.VERSIONS)) {
                    assertArrayEquals(Files.readAllBytes(expected), Files.readAllBytes(found),
                            found + " vs the committed " + expected + "\n" + versions);
                }
            }
        }
    }

    /** The comparison sees one changed value, so an identical result above means something. */
    @Test
    @StartsOutsideProgram
    void theContentComparisonSeesOneChangedValue() throws IOException {
        ExternalTools.requireH5py();
        Path committed = H5pyFixtures.of(H5pyFixtures.LEGACY).file("legacy.h5");
        Path changed = dir.resolve("changed.h5");
        Files.copy(committed, changed, StandardCopyOption.REPLACE_EXISTING);
        ExternalTools.Result edited = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(), "-c",
                String.join("\n",
                        "import h5py, sys",
                        "with h5py.File(sys.argv[1], 'r+') as f:",
                        "    d = f['/contiguous/ints_1d']",
                        "    d[3] = d[3] + 1"),
                changed.toString()), 60);
        assertEquals(0, edited.exitCode(), edited.output());

        ExternalTools.Result compared = compareContents(committed, changed);
        assertEquals(1, compared.exitCode(), compared.output());
        assertEquals("/contiguous/ints_1d: values differ", compared.stdout().strip());
        assertEquals(0, compareContents(committed, committed).exitCode());
    }

    /** The generators {@code make_*.py} beside the fixtures. */
    private static List<String> generators() throws IOException {
        try (Stream<Path> files = Files.list(H5pyFixtures.resourceDirectory())) {
            List<String> names = new ArrayList<>(files.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith("make_") && n.endsWith(".py")).sorted().toList());
            assertFalse(names.isEmpty(), "no generator in " + H5pyFixtures.resourceDirectory());
            return names;
        }
    }

    private static List<String> fileNames(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static List<String> hdf5Files(Path directory) throws IOException {
        return fileNames(directory).stream().filter(n -> n.endsWith(".h5")).toList();
    }

    private static ExternalTools.Result compareContents(Path expected, Path found) {
        return python(120, "compare_h5_contents.py", expected.toString(), found.toString());
    }

    private static ExternalTools.Result python(int timeoutSeconds, String script, String... arguments) {
        List<String> command = new ArrayList<>(List.of(ExternalTools.PYTHON.toString(),
                H5pyFixtures.resourceDirectory().resolve(script).toString()));
        command.addAll(List.of(arguments));
        return ExternalTools.run(command, timeoutSeconds);
    }
}
