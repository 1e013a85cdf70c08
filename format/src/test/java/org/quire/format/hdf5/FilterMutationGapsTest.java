package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.hdf5.layout.ChunkRecord;
import org.quire.format.hdf5.layout.FilterPipelineMessage;

/**
 * Each filter's edges and its coding in the filter pipeline message, as libhdf5 reads them:
 * deflate levels 0 and 9 and none past them, shuffle of 1-byte elements, Fletcher-32 of an
 * empty chunk, the size bounds a reader may accept, the client data libhdf5 writes and what a
 * message read from a file turns into; optional filters a chunk's mask skips. {@link
 * FilterTest} and {@link FilterPipelineLimitsTest} check round trips and damaged streams.
 */
class FilterMutationGapsTest {

    private static final Path FILE = Path.of("f.h5");

    @Test
    void deflateLevelsZeroAndNineRoundTripAndOthersAreRefused() {
        byte[] chunk = new byte[3000];
        new Random(9).nextBytes(chunk);
        for (int level : new int[] {0, 9}) {
            Filter deflate = Filter.deflate(level);
            byte[] stored = deflate.encode(chunk, 1);
            assertArrayEquals(chunk, deflate.decode(stored, 1, chunk.length), "level " + level);
            assertArrayEquals(new int[] {level}, deflate.clientData(1, chunk.length));
        }
        // Level 0 stores: zlib header, one stored block (5 bytes), the data, Adler-32.
        assertEquals(2 + 5 + 3000 + 4, Filter.deflate(0).encode(chunk, 1).length);
        for (int level : new int[] {-1, 10}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Filter.deflate(level));
            assertEquals("deflate level must be 0..9: " + level, e.getMessage());
        }
    }

    /** A stream shorter than the chunk (but whole) decodes to what it holds. */
    @Test
    void deflateDecodesAStreamShorterThanTheLimit() {
        byte[] stored = Filter.deflate(6).encode(new byte[] {1, 2, 3}, 1);
        assertArrayEquals(new byte[] {1, 2, 3}, Filter.deflate(6).decode(stored, 1, 10));
        assertArrayEquals(new byte[] {1, 2, 3}, Filter.deflate(6).decode(stored, 1, 3));
    }

    /**
     * A deflate stream cut short, and one asking for a preset dictionary (zlib header flag
     * FDICT, which libhdf5 never writes), end before the chunk: damage, named.
     */
    @Test
    void aDeflateStreamEndingEarlyOrNeedingADictionaryIsRefused() {
        byte[] stored = Filter.deflate(6).encode(new byte[1000], 1);
        byte[] cut = Arrays.copyOf(stored, stored.length / 2);
        byte[] dictionary = {0x78, (byte) 0xbb, 0, 0, 0, 1, 1, 2, 3};
        for (byte[] stream : List.of(cut, dictionary)) {
            assertEquals("deflate stream ends early", assertTimeoutPreemptively(
                    Duration.ofSeconds(5), () -> assertThrows(IllegalArgumentException.class,
                            () -> Filter.deflate(6).decode(stream, 1, 1000))).getMessage());
        }
    }

    /** Elements of one byte: shuffling changes nothing. */
    @Test
    void shuffleOfOneByteElementsIsTheChunkItself() {
        byte[] chunk = {5, 4, 3, 2, 1};
        assertArrayEquals(chunk, Filter.shuffle().encode(chunk, 1));
        assertArrayEquals(chunk, Filter.shuffle().decode(chunk, 1, 5));
        assertArrayEquals(new int[] {1}, Filter.shuffle().clientData(1, 5));
        assertArrayEquals(new int[] {8}, Filter.shuffle().clientData(8, 5));
    }

    /** 4 bytes are an empty chunk and its checksum; 3 bytes cannot hold one. */
    @Test
    void fletcher32OfAnEmptyChunkIsFourBytesAndLessIsDamage() {
        byte[] stored = Filter.fletcher32().encode(new byte[0], 1);
        assertArrayEquals(new byte[4], stored);
        assertArrayEquals(new byte[0], Filter.fletcher32().decode(stored, 1, 0));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Filter.fletcher32().decode(new byte[3], 1, 0));
        assertEquals("chunk too short for a Fletcher-32 checksum", e.getMessage());
        assertEquals("Fletcher-32 checksum expected 0x00000000, found 0x01000000",
                assertThrows(IllegalArgumentException.class, () -> Filter.fletcher32()
                        .decode(new byte[] {0, 0, 0, 1}, 1, 0)).getMessage());
        assertEquals(0, Filter.fletcher32().flags());
        assertEquals(0, Filter.fletcher32().clientData(4, 100).length);
    }

    /**
     * Fletcher-32 folds its sums every 360 words and at the end: 0xffff, 0xffff, 0x0001 leave
     * sum1 at 0x10000 after the first fold, so only the last makes it 1; chunks of 720 to 722
     * bytes (one whole block, then a word or byte more) of random and of 0xff bytes give the
     * sums' values modulo 65535.
     */
    @Test
    void fletcher32FoldsItsSumsEvery360WordsAndAtTheEnd() {
        byte[] carry = {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0, 1};
        assertEquals(0x00010001, Filter.Fletcher32.checksum(carry, carry.length));
        byte[] random = new byte[722];
        new Random(32).nextBytes(random);
        byte[] ones = new byte[722];
        Arrays.fill(ones, (byte) 0xff);
        for (byte[] data : List.of(random, ones)) {
            for (int length = 720; length <= 722; length++) {
                assertEquals(expectedFletcher32(data, length),
                        Filter.Fletcher32.checksum(data, length), "length " + length);
            }
        }
    }

    /**
     * Fletcher-32 by its definition, in 64-bit sums reduced modulo 65535 only at the end
     * (libhdf5's folding is that reduction, with 0xffff for a multiple of 65535 that is not 0).
     */
    private static int expectedFletcher32(byte[] data, int length) {
        long sum1 = 0;
        long sum2 = 0;
        for (int at = 0; at < length; at += 2) {
            int word = (data[at] & 0xff) << 8 | (at + 1 < length ? data[at + 1] & 0xff : 0);
            sum1 += word;
            sum2 += sum1;
        }
        return (int) (fold(sum2) << 16 | fold(sum1));
    }

    private static long fold(long sum) {
        return sum == 0 ? 0 : (sum - 1) % 65535 + 1;
    }

    /** Sizes a reader accepts from each filter, and what Fletcher-32 adds to a known size. */
    @Test
    void eachFilterBoundsWhatItCanHaveWritten() {
        assertEquals(List.of(1000L, 1000L + 31 + 1, 2 * 1000L + 1024, 1004L),
                List.of(Filter.shuffle().maxEncodedSize(1000), Filter.lzf().maxEncodedSize(1000),
                        Filter.deflate(6).maxEncodedSize(1000),
                        Filter.fletcher32().maxEncodedSize(1000)));
        assertEquals(List.of(1000L, Filter.UNKNOWN_SIZE, 1004L, Filter.UNKNOWN_SIZE),
                List.of(Filter.shuffle().encodedSize(1000), Filter.lzf().encodedSize(1000),
                        Filter.fletcher32().encodedSize(1000),
                        Filter.fletcher32().encodedSize(Filter.UNKNOWN_SIZE)));
        // LZF then Fletcher-32: at most 1000 + 1000 / 32 + 1 + 4 bytes stored.
        assertEquals(1036, new FilterPipeline(List.of(Filter.lzf(), Filter.fletcher32()), 4)
                .maxStoredSize(0, 1000));
    }

    /** The message Quire writes: libhdf5's identifiers, flags and client data, in order. */
    @Test
    void thePipelineMessageNamesEachFilterAsLibhdf5Does() {
        FilterPipeline pipeline = new FilterPipeline(List.of(Filter.shuffle(), Filter.deflate(4),
                Filter.lzf(), Filter.fletcher32()), 8);
        List<String> entries = pipeline.message(4096).filters().stream()
                .map(e -> e.id() + " " + e.flags() + " " + e.name() + " "
                        + Arrays.toString(e.clientData())).toList();
        assertEquals(List.of("2 1 null [8]", "1 1 null [4]", "32000 1 lzf [4, 261, 4096]",
                "3 0 null []"), entries);
    }

    /**
     * A message read from a file: deflate's level as libhdf5 stores it, clamped to 0..9 and 6
     * without client data; an identifier Quire has no filter for is unsupported, named.
     */
    @Test
    void aMessageFromAFileBecomesFiltersOrIsUnsupported() throws UnsupportedFormatException {
        FilterPipelineMessage message = new FilterPipelineMessage(List.of(
                new FilterPipelineMessage.Entry(1, 1, new int[] {12}),
                new FilterPipelineMessage.Entry(1, 1, new int[] {-3}),
                new FilterPipelineMessage.Entry(1, 1, new int[0]),
                new FilterPipelineMessage.Entry(1, 1, new int[] {3}),
                new FilterPipelineMessage.Entry(2, 1, new int[] {4}),
                new FilterPipelineMessage.Entry(3, 0, new int[0]),
                new FilterPipelineMessage.Entry(32000, 1, "lzf", new int[] {4, 261, 40})));
        assertEquals(List.of(Filter.deflate(9), Filter.deflate(0), Filter.deflate(6),
                        Filter.deflate(3), Filter.shuffle(), Filter.fletcher32(), Filter.lzf()),
                FilterPipeline.filters(FILE, 500, message));
        UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class,
                () -> FilterPipeline.filters(FILE, 500, new FilterPipelineMessage(List.of(
                        new FilterPipelineMessage.Entry(4, 1, new int[0])))));
        assertEquals(500, e.offset());
        assertEquals("f.h5: unsupported filter pipeline message at offset 500: found filter 4;"
                + " supported: filters 1 (deflate), 2 (shuffle), 3 (Fletcher-32), 32000 (LZF)",
                e.getMessage());
    }

    /**
     * h5py's order (shuffle, deflate, Fletcher-32) with deflate skipped by the chunk's mask
     * (bit 1), as libhdf5 stores a chunk deflate did not shrink: the other two are undone.
     */
    @Test
    void aFilterTheMaskSkipsIsNotUndone() throws CorruptFileException {
        byte[] chunk = new byte[64];
        new Random(5).nextBytes(chunk);
        byte[] stored = Filter.fletcher32().encode(Filter.shuffle().encode(chunk, 4), 4);
        FilterPipeline h5py = new FilterPipeline(List.of(Filter.shuffle(), Filter.deflate(6),
                Filter.fletcher32()), 4);
        assertArrayEquals(chunk, h5py.decode(FILE, "chunk [0]", new ChunkRecord(100,
                stored.length, 0b010), stored, 64));
        // Only Fletcher-32 skipped (bit 2): deflate is undone and must find its stream.
        byte[] deflated = Filter.deflate(6).encode(Filter.shuffle().encode(chunk, 4), 4);
        assertArrayEquals(chunk, h5py.decode(FILE, "chunk [0]", new ChunkRecord(100,
                deflated.length, 0b100), deflated, 64));
        assertEquals(64 + 4, h5py.maxStoredSize(0b010, 64));
        assertEquals(2 * 64 + 1024, h5py.maxStoredSize(0b100, 64));
    }
}
