package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.StringJoiner;

import org.junit.jupiter.api.Test;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.hdf5.chunk.BoxRuns;
import org.quire.format.hdf5.layout.DataspaceSelection;
import org.quire.format.hdf5.layout.VirtualMapping;

/**
 * Virtual datasets h5py 3.7 and versioned-hdf5 1.7.0 wrote ({@code make_h5py_vds_fixtures.py}),
 * read by Quire: the mappings as libhdf5 decodes them, every value as h5py reads it (the fill
 * value where nothing is mapped or the source is missing), random hyperslabs of each, in the
 * latest and the default (version-1 object header) format, selections paired element by
 * element (strided, reshaped) too; a source in another file is named as unsupported.
 */
class H5pyVdsFilesInQuireTest {

    private final H5pyFixtures fixtures = H5pyFixtures.of(H5pyFixtures.VDS);

    H5pyVdsFilesInQuireTest() throws IOException {
    }

    @Test
    void quireReadsEveryVirtualDatasetAsH5pyDoes() throws IOException {
        int datasets = 0;
        for (String[] d : fixtures.records("D")) {
            try (Hdf5File file = Hdf5File.open(fixtures.file(d[1]))) {
                Dataset dataset = dataset(file, d[2]);
                String where = d[1] + " " + d[2];
                long[] shape = numbers(d[4]);
                assertEquals(StorageLayout.VIRTUAL, dataset.layout(), where);
                assertArrayEquals(shape, dataset.shape(), where);
                assertArrayEquals(shape, dataset.maxShape(), where);
                byte[] expected = Files.readAllBytes(fixtures.file(d[6]));
                assertArrayEquals(expected, dataset.read(new long[shape.length], shape).array(),
                        where);
                checkMappings(dataset, d, where);
                checkRandomHyperslabs(dataset, shape, expected, where);
                datasets++;
            }
        }
        assertEquals(25, datasets);
    }

    private void checkMappings(Dataset dataset, String[] d, String where) {
        List<String> expected = new ArrayList<>();
        for (String[] m : fixtures.records("M")) {
            if (m[1].equals(d[1]) && m[2].equals(d[2])) {
                expected.add(String.join("|", m[4], m[5], m[6], m[7]));
            }
        }
        List<String> found = new ArrayList<>();
        for (VirtualMapping mapping : dataset.virtualMappings()) {
            found.add(String.join("|", mapping.sourceFile(), mapping.sourceDataset(),
                    text(mapping.source()), text(mapping.virtual())));
        }
        assertEquals(Integer.parseInt(d[7]), found.size(), where);
        assertEquals(expected, found, where);
    }

    /** 40 random boxes of each dataset against the same box cut from h5py's values. */
    private static void checkRandomHyperslabs(Dataset dataset, long[] shape, byte[] all,
                                              String where) throws IOException {
        Random random = new Random(where.hashCode());
        int size = dataset.type().size();
        for (int i = 0; i < 40; i++) {
            long[] start = new long[shape.length];
            long[] count = new long[shape.length];
            for (int d = 0; d < shape.length; d++) {
                start[d] = random.nextInt((int) shape[d]);
                count[d] = 1 + random.nextInt((int) (shape[d] - start[d]));
            }
            byte[] expected = new byte[(int) (Arrays.stream(count).reduce(1, (a, b) -> a * b)
                    * size)];
            BoxRuns.forEach(shape, start, count, new long[shape.length], count,
                    (from, to, elements) -> System.arraycopy(all, (int) from * size, expected,
                            (int) to * size, (int) elements * size));
            assertArrayEquals(expected, dataset.read(start, count).array(),
                    where + " start " + Arrays.toString(start) + " count "
                            + Arrays.toString(count));
        }
    }

    @Test
    void aSourceInAnotherFileIsNamedAsUnsupported() throws IOException {
        for (String[] u : fixtures.records("U")) {
            try (Hdf5File file = Hdf5File.open(fixtures.file(u[1]))) {
                Dataset dataset = dataset(file, u[2]);
                assertEquals("elsewhere.h5", dataset.virtualMappings().get(0).sourceFile());
                UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class,
                        () -> dataset.read(new long[] {0}, new long[] {4}));
                assertTrue(e.getMessage().startsWith(fixtures.file(u[1]) + ": unsupported "
                        + u[2] + ": virtual dataset mapping: found " + u[3]), e.getMessage());
            }
        }
    }

    private static Dataset dataset(Hdf5File file, String path) throws IOException {
        Group group = file.root();
        String[] parts = path.substring(1).split("/");
        for (int i = 0; i < parts.length - 1; i++) {
            group = group.group(parts[i]);
        }
        return group.dataset(parts[parts.length - 1]);
    }

    /** A selection as the manifest spells it: "all", or "start,...:end,..." blocks. */
    private static String text(DataspaceSelection selection) {
        if (!(selection instanceof DataspaceSelection.Hyperslab hyperslab)) {
            return "all";
        }
        StringJoiner blocks = new StringJoiner(";");
        for (DataspaceSelection.Block block : hyperslab.blocks()) {
            StringJoiner start = new StringJoiner(",");
            StringJoiner end = new StringJoiner(",");
            for (int d = 0; d < block.start().length; d++) {
                start.add(Long.toString(block.start()[d]));
                end.add(Long.toString(block.start()[d] + block.count()[d] - 1));
            }
            blocks.add(start + ":" + end);
        }
        return blocks.toString();
    }

    private static long[] numbers(String csv) {
        return Arrays.stream(csv.split(",")).mapToLong(Long::parseLong).toArray();
    }
}
