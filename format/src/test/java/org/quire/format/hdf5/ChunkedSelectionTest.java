package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.quire.format.CorruptFileException;
import org.quire.format.StartsOutsideProgram;
import org.quire.format.hdf5.layout.ChunkRecord;

/**
 * Hyperslab reads and writes of chunked datasets against an in-memory model of the same array:
 * selections that start and end inside chunks and at the dataset's edge (where chunks are cut
 * off), rows crossing several chunks, chunks never written (the fill value), partial writes of
 * written and unwritten chunks; into and from typed arrays and heap and direct buffers; with
 * and without filters, and with chunk caches of every size, so that a cached chunk served after
 * a write shows up as a wrong element.
 */
class ChunkedSelectionTest {

    private static final long[] SHAPE = {7, 10};
    private static final long[] CHUNK = {3, 4};
    private static final double FILL = 7.5;

    @TempDir
    Path dir;

    static List<Arguments> datasets() {
        List<Arguments> cases = new ArrayList<>();
        ChunkCacheSettings twoChunks = new ChunkCacheSettings(2 * 3 * 4 * Double.BYTES, 3);
        for (ChunkCacheSettings cache : List.of(ChunkCacheSettings.DEFAULT,
                ChunkCacheSettings.NONE, twoChunks)) {
            cases.add(Arguments.of(List.of(), cache));
            cases.add(Arguments.of(List.of(Filter.shuffle(), Filter.deflate(6)), cache));
        }
        return cases;
    }

    @ParameterizedTest
    @MethodSource("datasets")
    void randomSelectionsReadWhatWasWritten(List<Filter> filters, ChunkCacheSettings cache)
            throws IOException {
        Path path = dir.resolve("selections.h5");
        double[] model = new double[(int) (SHAPE[0] * SHAPE[1])];
        java.util.Arrays.fill(model, FILL);
        SplittableRandom random = new SplittableRandom(20261125);
        try (Hdf5File file = Hdf5File.create(path, WriteOptions.DEFAULT.withChunkCache(cache))) {
            DatasetSpec.Builder spec = DatasetSpec.builder(Datatype.FLOAT64, SHAPE)
                    .chunkShape(CHUNK).fillValue(FILL);
            filters.forEach(spec::filter);
            Dataset dataset = file.root().createDataset("d", spec.build());
            for (int step = 0; step < 300; step++) {
                long[][] box = randomBox(random);
                if (random.nextBoolean()) {
                    write(dataset, box, model, random);
                } else {
                    assertReads(dataset, box, model, random.nextInt(4));
                }
            }
        }
        try (Hdf5File file = Hdf5File.open(path, cache)) {
            Dataset dataset = file.root().dataset("d");
            assertArrayEquals(model, dataset.readDoubles(new long[2], SHAPE));
            for (int step = 0; step < 100; step++) {
                assertReads(dataset, randomBox(random), model, random.nextInt(4));
            }
        }
    }

    @Test
    void chunksNeverWrittenReadAsTheFillValueAroundWrittenOnes() throws IOException {
        try (Hdf5File file = Hdf5File.create(dir.resolve("fill.h5"))) {
            Dataset dataset = file.root().createDataset("d", DatasetSpec.builder(
                    Datatype.FLOAT64, SHAPE).chunkShape(CHUNK).fillValue(FILL).build());
            // One element of chunk (1, 1): the rest of it, and every other chunk, is fill.
            dataset.write(new long[] {4, 5}, new long[] {1, 1}, new double[] {1});
            double[] row = dataset.readDoubles(new long[] {4, 0}, new long[] {1, 10});
            assertArrayEquals(new double[] {FILL, FILL, FILL, FILL, FILL, 1, FILL, FILL, FILL,
                    FILL}, row);
            double[] column = new double[7];
            dataset.read(new long[] {0, 5}, new long[] {7, 1}, column);
            assertArrayEquals(new double[] {FILL, FILL, FILL, FILL, 1, FILL, FILL}, column);
        }
    }

    @Test
    @StartsOutsideProgram
    void aSelectionOverUnwrittenQuarterGibibyteChunksCostsTheSelectionNotTheChunks()
            throws Exception {
        // Chunks of 8,192 x 8,192 int32 = 256 MiB, none written; the child JVM reading one
        // element of each dataset has a heap of 32 MiB, so the fill must go straight into the
        // selection: a chunk of fill made first runs out of memory.
        Path path = dir.resolve("unwritten.h5");
        try (Hdf5File file = Hdf5File.create(path)) {
            for (String name : List.of("seven", "zero", "deflated")) {
                DatasetSpec.Builder spec = DatasetSpec.builder(Datatype.INT32, 16_384, 16_384)
                        .chunkShape(8_192, 8_192);
                if (!name.equals("zero")) {
                    spec.fillValue(7);
                }
                if (name.equals("deflated")) {
                    spec.filter(Filter.deflate(1));
                }
                file.root().createDataset(name, spec.build());
            }
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            // A 3 x 3 box across the corner where four chunks meet.
            int[] seven = new int[9];
            file.root().dataset("seven").read(new long[] {8_191, 8_191}, new long[] {3, 3},
                    seven);
            assertArrayEquals(new int[] {7, 7, 7, 7, 7, 7, 7, 7, 7}, seven);
            assertArrayEquals(new int[9], file.root().dataset("zero").readInts(
                    new long[] {8_191, 8_191}, new long[] {3, 3}));
            // A zero fill is skipped only in memory the read allocated; the caller's is written.
            int[] reused = {-1, -1, -1, -1, -1, -1, -1, -1, -1};
            file.root().dataset("zero").read(new long[] {8_191, 8_191}, new long[] {3, 3},
                    reused);
            assertArrayEquals(new int[9], reused);
            ByteBuffer buffer = ByteBuffer.allocate(9 * 4);
            buffer.put(new byte[] {-1, -1, -1, -1}).clear();
            file.root().dataset("zero").read(new long[] {8_191, 8_191}, new long[] {3, 3},
                    buffer);
            assertArrayEquals(new byte[9 * 4], buffer.array());
            assertArrayEquals(new int[] {7, 7, 7, 7, 7, 7, 7, 7, 7}, file.root()
                    .dataset("deflated").readInts(new long[] {8_191, 8_191}, new long[] {3, 3}));
        }
        for (String name : List.of("seven", "zero", "deflated")) {
            assertEquals("read", BoundedHeapRead.run(path, name, 8_191, 8_191), name);
        }
    }

    @Test
    void aCachedFilteredChunkIsKeptDecodedAndReplacedByAWrite() throws IOException {
        Path path = dir.resolve("cached.h5");
        try (Hdf5File file = Hdf5File.create(path)) {
            Dataset dataset = file.root().createDataset("d", DatasetSpec.builder(
                    Datatype.FLOAT64, 8).chunkShape(8).filter(Filter.deflate(6)).build());
            dataset.write(new long[] {0}, new long[] {8}, new double[] {0, 1, 2, 3, 4, 5, 6, 7});
            assertEquals(3.0, dataset.readDoubles(new long[] {3}, new long[] {1})[0]);
            dataset.write(new long[] {3}, new long[] {2}, new double[] {30, 40});
            assertArrayEquals(new double[] {2, 30, 40, 5},
                    dataset.readDoubles(new long[] {2}, new long[] {4}));
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            Dataset dataset = file.root().dataset("d");
            assertEquals(30.0, dataset.readDoubles(new long[] {3}, new long[] {1})[0]);
            // The chunk is cached decoded: the stored bytes are not read again.
            damageStoredChunks(dataset, path);
            assertEquals(40.0, dataset.readDoubles(new long[] {4}, new long[] {1})[0]);
            dataset.useChunkCache(ChunkCacheSettings.NONE);
            assertThrows(CorruptFileException.class,
                    () -> dataset.readDoubles(new long[] {4}, new long[] {1}));
        }
    }

    @Test
    void anUnfilteredChunkIsNeverCached() throws IOException {
        Path path = dir.resolve("uncached.h5");
        try (Hdf5File file = Hdf5File.create(path)) {
            file.root().createDataset("d", DatasetSpec.builder(Datatype.INT8, 8).chunkShape(8)
                    .build()).write(new long[] {0}, new long[] {8}, new byte[8]);
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            Dataset dataset = file.root().dataset("d");
            assertEquals(0, dataset.readBytes(new long[] {3}, new long[] {1})[0]);
            damageStoredChunks(dataset, path);
            assertEquals((byte) 0xA5, dataset.readBytes(new long[] {3}, new long[] {1})[0]);
        }
    }

    @Test
    void buffersAndArraysMustHoldExactlyTheSelection() throws IOException {
        try (Hdf5File file = Hdf5File.create(dir.resolve("sizes.h5"))) {
            Dataset dataset = file.root().createDataset("d", DatasetSpec.builder(
                    Datatype.FLOAT64, SHAPE).chunkShape(CHUNK).build());
            long[] start = {0, 0};
            long[] count = {2, 2};
            assertThrows(IllegalArgumentException.class,
                    () -> dataset.read(start, count, new double[5]));
            assertThrows(IllegalArgumentException.class,
                    () -> dataset.read(start, count, ByteBuffer.allocate(31)));
            assertThrows(IllegalArgumentException.class,
                    () -> dataset.read(start, count, ByteBuffer.allocate(32).asReadOnlyBuffer()));
            assertThrows(IllegalArgumentException.class,
                    () -> dataset.read(start, count, new float[4]));
            assertThrows(IllegalArgumentException.class,
                    () -> dataset.write(start, count, new double[3]));
        }
    }

    @Test
    void chunksOfAPowerOfTwoSizeFrom64KiBOnStartAtAMultipleOfIt() throws IOException {
        Path path = dir.resolve("aligned.h5");
        int large = 8192;
        try (Hdf5File file = Hdf5File.create(path)) {
            Dataset small = file.root().createDataset("small", DatasetSpec.builder(
                    Datatype.FLOAT64, 3 * 5).chunkShape(5).build());
            Dataset big = file.root().createDataset("big", DatasetSpec.builder(
                    Datatype.FLOAT64, 3 * large).chunkShape(large).build());
            for (int i = 0; i < 3; i++) {
                small.write(new long[] {5 * i}, new long[] {5}, new double[5]);
            }
            for (int i = 0; i < 3; i++) {
                big.write(new long[] {(long) large * i}, new long[] {large}, new double[large]);
            }
            List<Long> smallAddresses = new ArrayList<>();
            small.forEachStoredChunk((scaled, record) -> smallAddresses.add(record.address()));
            assertEquals(List.of(smallAddresses.get(0), smallAddresses.get(0) + 40,
                    smallAddresses.get(0) + 80), smallAddresses, "small chunks are packed");
            big.forEachStoredChunk((scaled, record) -> assertEquals(0, record.address() % 65536,
                    "chunk " + java.util.Arrays.toString(scaled) + " at " + record.address()));
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            assertEquals(0.0, file.root().dataset("big").readDoubles(new long[] {large},
                    new long[] {1})[0]);
        }
    }

    /** Overwrites every stored chunk of {@code dataset} with 0xA5 bytes through another channel. */
    private static void damageStoredChunks(Dataset dataset, Path path) throws IOException {
        List<ChunkRecord> records = new ArrayList<>();
        dataset.forEachStoredChunk((scaled, record) -> records.add(record));
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
            for (ChunkRecord record : records) {
                byte[] garbage = new byte[(int) record.storedSize()];
                java.util.Arrays.fill(garbage, (byte) 0xA5);
                channel.write(ByteBuffer.wrap(garbage), record.address());
            }
        }
    }

    /** A random selection {start, count} inside the shape, sometimes empty in one dimension. */
    private static long[][] randomBox(SplittableRandom random) {
        long[] start = new long[2];
        long[] count = new long[2];
        for (int d = 0; d < 2; d++) {
            start[d] = random.nextLong(SHAPE[d] + 1);
            count[d] = random.nextLong(SHAPE[d] - start[d] + 1);
        }
        return new long[][] {start, count};
    }

    private static void write(Dataset dataset, long[][] box, double[] model,
                              SplittableRandom random) throws IOException {
        double[] values = new double[(int) (box[1][0] * box[1][1])];
        for (int i = 0; i < values.length; i++) {
            values[i] = random.nextInt(1000);
        }
        int row = 0;
        for (long r = box[0][0]; r < box[0][0] + box[1][0]; r++) {
            for (long c = box[0][1]; c < box[0][1] + box[1][1]; c++) {
                model[(int) (r * SHAPE[1] + c)] = values[row++];
            }
        }
        switch (random.nextInt(3)) {
            case 0 -> dataset.write(box[0], box[1], values);
            case 1 -> dataset.write(box[0], box[1], bytesOf(values, ByteBuffer.allocate(
                    values.length * Double.BYTES + 16).position(16)));
            default -> dataset.write(box[0], box[1], bytesOf(values,
                    ByteBuffer.allocateDirect(values.length * Double.BYTES)));
        }
    }

    /** {@code values} as little-endian bytes in {@code buffer} from its position, which stays. */
    private static ByteBuffer bytesOf(double[] values, ByteBuffer buffer) {
        buffer.slice().order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().put(values);
        return buffer;
    }

    /** Reads {@code box} one of four ways and compares it with the model. */
    private static void assertReads(Dataset dataset, long[][] box, double[] model, int way)
            throws IOException {
        int elements = (int) (box[1][0] * box[1][1]);
        double[] expected = new double[elements];
        int i = 0;
        for (long r = box[0][0]; r < box[0][0] + box[1][0]; r++) {
            for (long c = box[0][1]; c < box[0][1] + box[1][1]; c++) {
                expected[i++] = model[(int) (r * SHAPE[1] + c)];
            }
        }
        double[] actual = new double[elements];
        switch (way) {
            case 0 -> dataset.read(box[0], box[1], actual);
            case 1 -> actual = dataset.readDoubles(box[0], box[1]);
            case 2 -> dataset.read(box[0], box[1]).asDoubleBuffer().get(actual);
            default -> {
                ByteBuffer direct = ByteBuffer.allocateDirect(elements * Double.BYTES + 8);
                direct.position(8);
                dataset.read(box[0], box[1], direct);
                assertEquals(8, direct.position(), "the buffer's position does not move");
                direct.order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().get(actual);
            }
        }
        assertArrayEquals(expected, actual, "start " + java.util.Arrays.toString(box[0])
                + " count " + java.util.Arrays.toString(box[1]) + " read way " + way);
    }
}
