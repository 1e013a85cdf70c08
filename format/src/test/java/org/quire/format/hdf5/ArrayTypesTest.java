package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.StartsOutsideProgram;

/**
 * Array datatypes (class 10) as compound members and as dataset and attribute types:
 * versioned-hdf5's hash table compound ({@code hash: [32] uint8, shape: [2] int64}), a 2 x 3
 * big-endian array as a dataset's type and a compound attribute with an array member. h5py
 * writes them in its default format (array version 2 in compound version 2) and the latest
 * (version 3), Quire reads types and bytes; Quire writes them (version 3), h5py reads dtypes and
 * values and h5dump dumps the file.
 */
class ArrayTypesTest {

    private static final Datatype.ArrayType HASH = new Datatype.ArrayType(Datatype.UINT8, 32);
    private static final Datatype.ArrayType SLICE = new Datatype.ArrayType(Datatype.INT64, 2);
    private static final Datatype.CompoundType HASH_TABLE = Datatype.CompoundType.packed(
            List.of("hash", "shape"), List.of(HASH, SLICE));
    private static final Datatype.ArrayType MATRIX = new Datatype.ArrayType(
            Datatype.INT32.withByteOrder(ByteOrder.BIG_ENDIAN), 2, 3);
    private static final Datatype.CompoundType TRIPLE = Datatype.CompoundType.packed(
            List.of("triple"), List.of(new Datatype.ArrayType(Datatype.INT32, 3)));

    /** What h5py and Quire both write: the same values, as numpy lays them out. */
    private static final String VALUES = String.join("\n",
            "ht = np.dtype([('hash', 'u1', (32,)), ('shape', '<i8', (2,))])",
            "table = np.zeros(3, dtype=ht)",
            "table['hash'] = np.arange(96).reshape(3, 32)",
            "table['shape'] = [[0, 4], [4, 8], [8, 10]]",
            "matrices = np.arange(12, dtype='>i4').reshape(2, 2, 3) - 5",
            "triple = np.array([([1, 2, 3],), ([-4, -5, -6],)], dtype=[('triple', '<i4', (3,))])");

    @TempDir
    Path dir;

    @Test
    @StartsOutsideProgram
    void quireReadsArraysH5pyWroteInBothFormats() throws IOException {
        for (String libver : List.of("earliest", "latest")) {
            Path path = dir.resolve(libver + ".h5");
            List<String> bytes = h5py(path, VALUES,
                    "with h5py.File(sys.argv[1], 'w', libver='" + libver + "') as f:",
                    "    f.create_dataset('hash_table', data=table, chunks=(2,), maxshape=(None,))",
                    "    t = h5py.h5t.array_create(h5py.h5t.STD_I32BE, (2, 3))",
                    "    ds = h5py.h5d.create(f.id, b'matrices', t, h5py.h5s.create_simple((2,)))",
                    "    ds.write(h5py.h5s.ALL, h5py.h5s.ALL, matrices, mtype=t)",
                    "    f.attrs['triple'] = triple",
                    "print(table.tobytes().hex())",
                    "print(matrices.tobytes().hex())",
                    "print(triple.tobytes().hex())");
            try (Hdf5File file = Hdf5File.open(path)) {
                Dataset table = file.root().dataset("hash_table");
                assertEquals(HASH_TABLE, table.type(), libver);
                assertEquals(bytes.get(0), hex(table.read(new long[] {0}, new long[] {3})));
                Dataset matrices = file.root().dataset("matrices");
                assertEquals(MATRIX, matrices.type(), libver);
                assertEquals(24, matrices.type().size());
                assertEquals(bytes.get(1), hex(matrices.read(new long[] {0}, new long[] {2})));
                Attribute triple = file.root().attribute("triple");
                assertEquals(TRIPLE, triple.type(), libver);
                assertEquals(bytes.get(2), HexFormat.of().formatHex(triple.data()));
            }
        }
    }

    @Test
    @StartsOutsideProgram
    void h5pyAndH5dumpReadArraysQuireWrote() throws IOException {
        Path path = dir.resolve("quire.h5");
        List<String> bytes = h5py(dir.resolve("unused.h5"), VALUES,
                "print(table.tobytes().hex())",
                "print(matrices.tobytes().hex())",
                "print(triple.tobytes().hex())");
        try (Hdf5File file = Hdf5File.create(path)) {
            Dataset table = file.root().createDataset("hash_table", DatasetSpec.builder(
                    HASH_TABLE, 3).maxShape(DatasetSpec.UNLIMITED).chunkShape(2).build());
            table.write(new long[] {0}, new long[] {3}, ByteBuffer.wrap(unhex(bytes.get(0))));
            file.root().createDataset("matrices", MATRIX, new long[] {2}, unhex(bytes.get(1)));
            file.root().setAttribute(new Attribute("triple", TRIPLE, new long[] {2},
                    unhex(bytes.get(2))));
        }
        List<String> read = h5py(path, VALUES,
                "with h5py.File(sys.argv[1], 'r') as f:",
                "    print(f['hash_table'].dtype == ht, (f['hash_table'][()] == table).all())",
                "    m = f['matrices']",
                "    print(m.dtype, m.shape, np.asarray(m[()]).tobytes() == matrices.tobytes())",
                "    print(f.attrs['triple'].dtype == triple.dtype, (f.attrs['triple'] == triple).all())");
        assertEquals(List.of("True True", "('>i4', (2, 3)) (2,) True", "True True"), read);
        ExternalTools.requireTool("h5dump");
        ExternalTools.Result dump = ExternalTools.run(List.of("h5dump", "-d", "/matrices",
                path.toString()), 60);
        assertEquals(0, dump.exitCode(), dump.output());
        assertTrue(dump.stdout().contains("H5T_ARRAY { [2][3] H5T_STD_I32BE }"), dump.output());
    }

    @Test
    void invalidArrayTypesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Datatype.ArrayType(Datatype.INT8));
        assertThrows(IllegalArgumentException.class,
                () -> new Datatype.ArrayType(Datatype.INT8, 0));
        assertThrows(IllegalArgumentException.class, () -> new Datatype.ArrayType(
                Datatype.VariableLengthStringType.UTF8, 2));
        assertThrows(IllegalArgumentException.class,
                () -> new Datatype.ArrayType(Datatype.INT64, 1L << 16, 1L << 16));
    }

    private static String hex(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    private static byte[] unhex(String hex) {
        return HexFormat.of().parseHex(hex);
    }

    private static List<String> h5py(Path path, String... lines) {
        ExternalTools.requireH5py();
        ExternalTools.Result result = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                "-c", "import sys, h5py, numpy as np\n" + String.join("\n", lines),
                path.toString()), 120);
        assertEquals(0, result.exitCode(), result.output());
        return result.stdout().lines().toList();
    }
}
