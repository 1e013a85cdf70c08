package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Datasets h5py 3.7 wrote with its LZF filter ({@code make_h5py_lzf_fixtures.py}), read by
 * Quire: values, filters in pipeline order with libhdf5's client data, and chunks libhdf5 stored
 * raw because LZF could not shrink them (the filter's bit set in their mask). And the
 * compression ratio of a realistic field, Quire's LZF against h5py's on the same bytes.
 */
class H5pyLzfFilesInQuireTest {

    @TempDir
    Path dir;

    /** One manifest line: {@code D|path|type|shape|chunks|filters|bin|stored|chunks|raw}. */
    private record Entry(String path, long[] shape, long[] chunks, List<Integer> filterIds,
                         String bin, long storedBytes, int chunkCount, int rawChunks) {
        static Entry of(String[] r) {
            List<Integer> ids = new ArrayList<>();
            for (String filter : r[5].split(",")) {
                ids.add(Integer.parseInt(filter.substring(0, filter.indexOf(':'))));
            }
            return new Entry(r[1], numbers(r[3]), numbers(r[4]), ids, r[6], Long.parseLong(r[7]),
                    Integer.parseInt(r[8]), Integer.parseInt(r[9]));
        }
    }

    @Test
    void quireReadsEveryLzfDatasetH5pyWroteIncludingChunksStoredRaw() throws IOException {
        H5pyFixtures fixtures = H5pyFixtures.of(H5pyFixtures.LZF);
        int raw = 0;
        try (Hdf5File file = Hdf5File.open(fixtures.file("lzf.h5"))) {
            for (String[] line : fixtures.records("D")) {
                Entry e = Entry.of(line);
                Dataset dataset = (Dataset) file.root().get(e.path());
                assertArrayEquals(e.shape(), dataset.shape(), e.path());
                assertArrayEquals(e.chunks(), dataset.chunkShape(), e.path());
                assertEquals(e.filterIds(), dataset.filters().stream().map(Filter::id).toList(),
                        e.path());
                ByteBuffer read = dataset.read(new long[e.shape().length], e.shape());
                assertArrayEquals(Files.readAllBytes(fixtures.file(e.bin())), read.array(),
                        e.path());
                int lzfBit = 1 << dataset.filters().indexOf(Filter.lzf());
                long[] counts = new long[3];
                dataset.forEachStoredChunk((coordinates, record) -> {
                    counts[0]++;
                    counts[1] += record.storedSize();
                    counts[2] += (record.filterMask() & lzfBit) != 0 ? 1 : 0;
                });
                assertEquals(e.chunkCount(), counts[0], e.path());
                assertEquals(e.storedBytes(), counts[1], e.path());
                assertEquals(e.rawChunks(), counts[2], e.path());
                raw += e.rawChunks();
            }
        }
        assertEquals(13, raw, "chunks h5py stored raw, which the test must have met");
    }

    /**
     * The ratio docs/hdf5.md quotes: the temperature field (float32, 256 x 256, chunks 64 x 64,
     * shuffle + LZF) stored by Quire and by h5py from the same bytes.
     */
    @Test
    void aRealisticFieldCompressesAsWellAsWithH5py() throws IOException {
        H5pyFixtures fixtures = H5pyFixtures.of(H5pyFixtures.LZF);
        Entry temperature = fixtures.records("D").stream().map(Entry::of)
                .filter(e -> e.path().equals("temperature")).findFirst().orElseThrow();
        byte[] values = Files.readAllBytes(fixtures.file(temperature.bin()));
        Path path = dir.resolve("temperature.h5");
        try (Hdf5File file = Hdf5File.create(path)) {
            file.root().createDataset("temperature", DatasetSpec.builder(Datatype.FLOAT32,
                    temperature.shape()).chunkShape(temperature.chunks()).filter(Filter.shuffle())
                    .filter(Filter.lzf()).build())
                    .write(new long[2], temperature.shape(), ByteBuffer.wrap(values));
        }
        long[] stored = new long[1];
        try (Hdf5File file = Hdf5File.open(path)) {
            Dataset dataset = (Dataset) file.root().get("temperature");
            dataset.forEachStoredChunk((coordinates, record) -> stored[0] += record.storedSize());
            assertArrayEquals(values, dataset.read(new long[2], temperature.shape()).array());
        }
        double quire = (double) values.length / stored[0];
        double h5py = (double) values.length / temperature.storedBytes();
        System.out.printf("temperature %d bytes: Quire LZF %d bytes (ratio %.3f), h5py LZF %d"
                + " bytes (ratio %.3f)%n", values.length, stored[0], quire,
                temperature.storedBytes(), h5py);
        assertTrue(quire > 1.5, "ratio " + quire);
        assertTrue(quire >= 0.95 * h5py, "Quire " + quire + " against h5py " + h5py);
    }

    private static long[] numbers(String csv) {
        return Arrays.stream(csv.split(",")).mapToLong(Long::parseLong).toArray();
    }
}
