package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.layout.ChunkRecord;

class LzfCodecTest {

    private static final Pattern STREAM_PLACE = Pattern.compile("^LZF stream byte (\\d+): .+");

    @TempDir
    Path dir;

    /** Streams built by hand from liblzf's instruction format (lzf_d.c), not by our compressor. */
    @Test
    void decodesEachKindOfInstruction() {
        // A literal run of 3.
        assertArrayEquals(bytes("abc"), LzfCodec.decompress(new byte[] {2, 'a', 'b', 'c'}, 3));
        // 'a' then a short back reference: L = 1 (3 bytes) from distance 2, overlapping.
        assertArrayEquals(bytes("ababa"),
                LzfCodec.decompress(new byte[] {1, 'a', 'b', 0x20, 0x01}, 5));
        // 'a' then a long back reference: L = 7 + 5 (14 bytes) from distance 1: a run.
        assertArrayEquals(bytes("a".repeat(15)),
                LzfCodec.decompress(new byte[] {0, 'a', (byte) 0xe0, 5, 0}, 15));
        // The largest distance, 8192: high offset bits 0x1f, low byte 0xff.
        byte[] stream = new byte[8192 / 32 * 33 + 3];
        byte[] expected = new byte[8192 + 3];
        for (int run = 0; run < 8192 / 32; run++) {
            stream[run * 33] = 31;
            for (int i = 0; i < 32; i++) {
                stream[run * 33 + 1 + i] = (byte) (run + i);
                expected[run * 32 + i] = (byte) (run + i);
            }
        }
        stream[stream.length - 3] = 0x20 | 0x1f;
        stream[stream.length - 2] = (byte) 0xff;
        stream[stream.length - 1] = 0;
        stream = Arrays.copyOf(stream, stream.length - 1);
        System.arraycopy(expected, 0, expected, 8192, 3);
        assertArrayEquals(expected, LzfCodec.decompress(stream, expected.length));
    }

    @Test
    void roundTripsRandomCompressibleAndIncompressibleDataOfOddSizes() {
        Random random = new Random(32000);
        int[] sizes = {0, 1, 2, 3, 4, 31, 32, 33, 63, 65, 263, 264, 265, 266, 1001, 4099, 8191,
            8193, 65_537, 300_007};
        for (int size : sizes) {
            for (byte[] data : List.of(randomBytes(random, size), repetitive(random, size),
                    runs(random, size), smoothFloats(size))) {
                byte[] packed = LzfCodec.compress(data);
                assertTrue(packed.length <= size + size / 32 + 1, size + ": " + packed.length);
                assertArrayEquals(data, LzfCodec.decompress(packed, size), "size " + size);
            }
        }
        byte[] zeros = new byte[1 << 20];
        assertTrue(LzfCodec.compress(zeros).length < zeros.length / 80,
                "a MiB of zeros in " + LzfCodec.compress(zeros).length + " bytes");
    }

    /**
     * The compressor's distance limit: random bytes repeated 8192 bytes later (the farthest a
     * back reference reaches) come out as back references of exactly that distance; repeated
     * 8193 bytes later they must not (the distance does not fit in 13 bits), and both round
     * trip.
     */
    @Test
    void repeatsAtTheLargestDistanceAndOnePastItRoundTrip() {
        for (int seed = 0; seed < 20; seed++) {
            Random random = new Random(seed);
            byte[] block = randomBytes(random, 8192);
            for (int distance : new int[] {8192, 8193}) {
                byte[] data = Arrays.copyOf(block, distance + 300);
                System.arraycopy(block, 0, data, distance, 300);
                byte[] packed = LzfCodec.compress(data);
                assertArrayEquals(data, LzfCodec.decompress(packed, data.length),
                        "seed " + seed + ", distance " + distance);
                List<Integer> distances = backReferenceDistances(packed);
                assertTrue(distances.stream().allMatch(d -> d <= 8192), distances.toString());
                if (distance == 8192) {
                    assertTrue(distances.contains(8192), "seed " + seed + ": " + distances);
                }
            }
        }
    }

    /** The distance of every back reference in {@code stream}, read by liblzf's format. */
    private static List<Integer> backReferenceDistances(byte[] stream) {
        List<Integer> distances = new ArrayList<>();
        int at = 0;
        while (at < stream.length) {
            int control = stream[at++] & 0xff;
            if (control < 32) {
                at += control + 1;
                continue;
            }
            if (control >>> 5 == 7) {
                at++;
            }
            distances.add(((control & 0x1f) << 8 | stream[at++] & 0xff) + 1);
        }
        return distances;
    }

    @Test
    void damagedStreamsFailAtAPlaceInsideTheStreamWithinTheLimit() {
        Random random = new Random(0xdead);
        int failures = 0;
        int cases = 20_000;
        for (int i = 0; i < cases; i++) {
            int size = 1 + random.nextInt(3000);
            byte[] data = random.nextBoolean() ? repetitive(random, size) : runs(random, size);
            byte[] stream = damage(LzfCodec.compress(data), random);
            int limit = random.nextInt(4) == 0 ? random.nextInt(size + 1) : size;
            try {
                byte[] out = LzfCodec.decompress(stream, limit);
                assertTrue(out.length <= limit);
            } catch (IllegalArgumentException e) {
                failures++;
                Matcher m = STREAM_PLACE.matcher(e.getMessage());
                assertTrue(m.matches(), e.getMessage());
                assertTrue(Integer.parseInt(m.group(1)) < stream.length, e.getMessage());
            } catch (RuntimeException e) {
                fail(e + " on a stream of " + stream.length + " bytes", e);
            }
        }
        assertTrue(failures > cases / 4, failures + " of " + cases);
    }

    @Test
    void namesWhatIsWrongWithAStream() {
        assertEquals("LZF stream byte 0: literal run of 4 bytes passes the end of the stream (2"
                + " bytes left)", message(new byte[] {3, 'a', 'b'}, 10));
        assertEquals("LZF stream byte 2: back reference 2 bytes behind output byte 1",
                message(new byte[] {0, 'a', 0x20, 0x01}, 10));
        assertEquals("LZF stream byte 2: back reference cut off by the end of the stream",
                message(new byte[] {0, 'a', (byte) 0xe0}, 10));
        assertEquals("LZF stream byte 2: back reference cut off by the end of the stream",
                message(new byte[] {0, 'a', (byte) 0xe0, 5}, 10));
        assertEquals("LZF stream byte 2: output passes the limit of 10 bytes",
                message(new byte[] {0, 'a', (byte) 0xe0, 5, 0}, 10));
        assertEquals("LZF stream byte 0: output passes the limit of 2 bytes",
                message(new byte[] {2, 'a', 'b', 'c'}, 2));
    }

    /** A stream that would expand far past the chunk stops at the chunk's size. */
    @Test
    void aHostileStreamCannotGrowPastTheChunk() {
        byte[] bomb = new byte[3 * 1_000_000 + 2];
        bomb[0] = 0;
        bomb[1] = 'x';
        for (int i = 2; i < bomb.length; i += 3) {
            bomb[i] = (byte) 0xe0;
            bomb[i + 1] = (byte) 0xff;
            bomb[i + 2] = 0;
        }
        assertEquals("LZF stream byte 11363: output passes the limit of 1000000 bytes",
                message(bomb, 1_000_000));
    }

    @Test
    void theFilterStoresH5pysClientDataAndName() {
        Filter lzf = Filter.lzf();
        assertEquals(32000, lzf.id());
        assertEquals("lzf", lzf.name());
        assertEquals(1, lzf.flags());
        assertArrayEquals(new int[] {4, 0x0105, 4096}, lzf.clientData(8, 4096));
        byte[] chunk = runs(new Random(1), 4096);
        assertArrayEquals(chunk, lzf.decode(lzf.encode(chunk, 8), 8, 4096));
    }

    /**
     * Through a file: a chunk whose LZF stream was damaged gives one line naming the file, the
     * dataset, the chunk's offset and the stream byte; the other chunks still read.
     */
    @Test
    void aDamagedChunkInAFileIsACorruptFileExceptionNamingIt() throws IOException {
        Path path = dir.resolve("lzf.h5");
        int[] values = new int[1000];
        for (int i = 0; i < values.length; i++) {
            values[i] = i / 10;
        }
        try (Hdf5File file = Hdf5File.create(path)) {
            file.root().createDataset("x", DatasetSpec.builder(Datatype.INT32, 1000)
                    .chunkShape(250).filter(Filter.shuffle()).filter(Filter.lzf()).build())
                    .write(new long[] {0}, new long[] {1000}, values);
        }
        List<ChunkRecord> records = new ArrayList<>();
        try (Hdf5File file = Hdf5File.open(path)) {
            Dataset x = (Dataset) file.root().get("x");
            x.forEachStoredChunk((coordinates, record) -> records.add(record));
            assertArrayEquals(values, x.readInts(new long[] {0}, new long[] {1000}));
        }
        assertEquals(4, records.size());
        long address = records.get(2).address();
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(new byte[] {(byte) 0xff}), address);
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            Dataset x = (Dataset) file.root().get("x");
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> x.readInts(new long[] {0}, new long[] {1000}));
            // 0xff: a long back reference, distance 0x1f00 + the third byte + 1, at output 0.
            assertTrue(e.getMessage().matches(Pattern.quote(path + ": corrupt chunk [2] of /x at"
                    + " offset " + address + ": filter Lzf expected data the filter wrote, found"
                    + " LZF stream byte 0: back reference ") + "(79[4-9]\\d|793[7-9]|8[01]\\d\\d|819[0-2])"
                    + Pattern.quote(" bytes behind output byte 0")), e.getMessage());
            assertArrayEquals(Arrays.copyOf(values, 500),
                    x.readInts(new long[] {0}, new long[] {500}));
        }
    }

    private static String message(byte[] stream, int limit) {
        try {
            LzfCodec.decompress(stream, limit);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        return fail("decoded");
    }

    /** One to three bytes changed, the stream cut short, or junk appended. */
    private static byte[] damage(byte[] stream, Random random) {
        byte[] damaged = stream.clone();
        switch (random.nextInt(4)) {
            case 0 -> {
                for (int n = 1 + random.nextInt(3); n > 0 && damaged.length > 0; n--) {
                    damaged[random.nextInt(damaged.length)] = (byte) random.nextInt(256);
                }
            }
            case 1 -> damaged = Arrays.copyOf(damaged, random.nextInt(damaged.length + 1));
            case 2 -> {
                damaged = Arrays.copyOf(damaged, damaged.length + 1 + random.nextInt(5));
                for (int i = stream.length; i < damaged.length; i++) {
                    damaged[i] = (byte) random.nextInt(256);
                }
            }
            default -> {
                damaged = new byte[random.nextInt(64)];
                random.nextBytes(damaged);
            }
        }
        return damaged;
    }

    private static byte[] randomBytes(Random random, int size) {
        byte[] data = new byte[size];
        random.nextBytes(data);
        return data;
    }

    /** Words from a small vocabulary: many matches at many distances. */
    private static byte[] repetitive(Random random, int size) {
        String[] words = {"temperature ", "pressure ", "0.000 ", "rank ", "step 1000 ", "\0\0\0\0"};
        StringBuilder text = new StringBuilder();
        while (text.length() < size) {
            text.append(words[random.nextInt(words.length)]);
        }
        return Arrays.copyOf(bytes(text.toString()), size);
    }

    /** Runs of one byte, of random lengths (past the longest match of 264 too). */
    private static byte[] runs(Random random, int size) {
        byte[] data = new byte[size];
        for (int at = 0; at < size; ) {
            int length = Math.min(size - at, 1 + random.nextInt(random.nextBoolean() ? 8 : 600));
            Arrays.fill(data, at, at + length, (byte) random.nextInt(4));
            at += length;
        }
        return data;
    }

    /** Little-endian doubles of a smooth field, as a simulation writes. */
    private static byte[] smoothFloats(int size) {
        ByteBuffer out = ByteBuffer.allocate(size).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; out.remaining() >= 8; i++) {
            out.putDouble(300 + Math.round(100 * Math.sin(i / 50.0)) / 100.0);
        }
        return out.array();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    }
}
