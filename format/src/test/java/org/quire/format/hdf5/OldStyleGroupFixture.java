package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.quire.format.hdf5.layout.SymbolTableMessage;

/**
 * A file h5py writes in libhdf5's default format (superblock 0, version-1 headers) with an
 * old-style group {@code /g} holding empty old-style groups of the given names, and a dataset
 * {@code /d0}; and its twin, a copy to which h5py then applied the same link changes a test
 * makes with Quire ("+name": {@code g[name] = f['d0']}, "-name": {@code del g[name]}), in one
 * session. libhdf5's twin is the oracle: its local heap, symbol table nodes and B-tree keys are
 * what Quire's changes must produce.
 */
record OldStyleGroupFixture(Path file, Path twin) {

    private static final String SCRIPT = String.join("\n",
            "import h5py, numpy, shutil, sys",
            "path, twin, base, ops = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]",
            "with h5py.File(path, 'w') as f:",
            "    f.create_dataset('d0', data=numpy.arange(4))",
            "    g = f.create_group('g')",
            "    for name in filter(None, base.split(',')):",
            "        g.create_group(name)",
            "shutil.copyfile(path, twin)",
            "with h5py.File(twin, 'r+') as f:",
            "    g = f['g']",
            "    for op in filter(None, ops.split(',')):",
            "        if op[0] == '+':",
            "            g[op[1:]] = f['d0']",
            "        else:",
            "            del g[op[1:]]");

    /** Writes the fixture in {@code dir}: {@code base} names in /g, {@code ops} on the twin. */
    static OldStyleGroupFixture write(Path dir, String name, List<String> base,
                                      List<String> ops) {
        ExternalTools.requireH5py();
        Path file = dir.resolve(name + ".h5");
        Path twin = dir.resolve(name + "-h5py.h5");
        ExternalTools.Result result = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                "-c", SCRIPT, file.toString(), twin.toString(), String.join(",", base),
                String.join(",", ops)), 120);
        assertEquals(0, result.exitCode(), result.output());
        return new OldStyleGroupFixture(file, twin);
    }

    /** {@code count} names "{@code prefix}0", "{@code prefix}1", ... */
    static List<String> names(String prefix, int count) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            names.add(prefix + i);
        }
        return names;
    }

    /** The symbol table message of {@code /g} in {@code path}, read by Quire. */
    static SymbolTableMessage symbolTable(Path path) throws IOException {
        try (Hdf5File file = Hdf5File.open(path)) {
            return file.root().group("g").symbolTable();
        }
    }
}
