package org.quire.launcher.h5;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.quire.launcher.QuireCommand;
import org.quire.launcher.RequiredTool;

/**
 * A file libhdf5 writes, through h5py ({@code /usr/bin/python3}: the python first on PATH may
 * lack h5py), by {@code make_h5py_file.py}, with the dump lines Python computed for each of its
 * datasets, in libhdf5's "latest" format ({@link #write}) or its default, old one
 * ({@link #writeEarliest}). Without h5py the test fails under CI and is aborted loudly elsewhere.
 */
record H5pyFixture(Path file, Map<String, List<String>> expectedDumps) {

    static final Path PYTHON = Path.of("/usr/bin/python3");

    static H5pyFixture write(Path dir) throws IOException, InterruptedException {
        return write(dir, "latest");
    }

    /** The same objects and values with h5py's default {@code libver='earliest'}. */
    static H5pyFixture writeEarliest(Path dir) throws IOException, InterruptedException {
        return write(dir, "earliest");
    }

    private static H5pyFixture write(Path dir, String libver)
            throws IOException, InterruptedException {
        RequiredTool.requireWorking(PYTHON, "python3-h5py (apt-get install python3-h5py)",
                "-c", "import h5py, numpy");
        Path script = dir.resolve("make_h5py_file.py");
        if (!Files.exists(script)) {
            try (InputStream in = H5pyFixture.class.getResourceAsStream("/h5/make_h5py_file.py")) {
                Files.copy(in, script);
            }
        }
        String name = libver.equals("latest") ? "h5py" : "h5py-" + libver;
        Path file = dir.resolve(name + ".h5");
        Path expected = dir.resolve(name + "-expected.txt");
        QuireCommand.Result result = QuireCommand.runProcess(new ProcessBuilder(PYTHON.toString(),
                script.toString(), file.toString(), expected.toString(), libver),
                Duration.ofSeconds(120));
        assertEquals(0, result.exitCode(), result.toString());
        Map<String, List<String>> dumps = new LinkedHashMap<>();
        List<String> current = null;
        for (String line : Files.readAllLines(expected)) {
            if (line.startsWith("== ")) {
                current = new ArrayList<>();
                dumps.put(line.substring(3), current);
            } else {
                current.add(line);
            }
        }
        return new H5pyFixture(file, dumps);
    }
}
