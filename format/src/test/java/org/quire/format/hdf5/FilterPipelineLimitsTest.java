package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.CorruptFileException;
import org.quire.format.StartsOutsideProgram;
import org.quire.format.hdf5.layout.ChunkRecord;

/**
 * Every stage of the filter pipeline stops at the size it must give: a chunk whose stored bytes
 * decode to more or less is one {@link CorruptFileException} naming the chunk, its offset and
 * the sizes, found without holding more than the chunk in memory.
 */
class FilterPipelineLimitsTest {

    private static final Path FILE = Path.of("f.h5");
    private static final ChunkRecord AT_100 = new ChunkRecord(100, 0, 0);

    @TempDir
    Path dir;

    /** 1 GiB of zeros as a zlib stream of about 1 MiB, built from one compressed MiB. */
    static byte[] deflateBomb() {
        Deflater deflater = new Deflater(9, true);
        byte[] zeros = new byte[1 << 20];
        deflater.setInput(zeros);
        byte[] buffer = new byte[1 << 20];
        // A full flush resets the history, so every MiB of zeros compresses to these bytes.
        byte[] mebibyte = Arrays.copyOf(buffer, deflater.deflate(buffer, 0, buffer.length,
                Deflater.FULL_FLUSH));
        deflater.end();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0x78);
        out.write(0xda);
        for (int i = 0; i < 1024; i++) {
            out.writeBytes(mebibyte);
        }
        out.writeBytes(new byte[] {3, 0}); // an empty final block with fixed codes
        // Adler-32 of 2^30 zeros: a = 1, b = 2^30 mod 65521; big-endian.
        int adler = (int) ((1L << 30) % 65521) << 16 | 1;
        out.writeBytes(ByteBuffer.allocate(4).putInt(adler).array());
        return out.toByteArray();
    }

    /** The size {@code stream} inflates to, counted through a small buffer. */
    private static long inflatedSize(byte[] stream) throws DataFormatException {
        Inflater inflater = new Inflater();
        inflater.setInput(stream);
        byte[] buffer = new byte[1 << 16];
        long size = 0;
        while (!inflater.finished()) {
            int n = inflater.inflate(buffer);
            assertTrue(n > 0 || !inflater.needsInput(), "stream ends early");
            size += n;
        }
        inflater.end();
        return size;
    }

    private static CorruptFileException decodeFails(FilterPipeline pipeline, byte[] stored,
                                                    int chunkBytes) {
        return assertThrows(CorruptFileException.class,
                () -> pipeline.decode(FILE, "chunk [3]", AT_100, stored, chunkBytes));
    }

    private static FilterPipeline pipeline(Filter... filters) {
        return new FilterPipeline(List.of(filters), 4);
    }

    @Test
    void theBombIsAValidStreamOfOneGibibyte() throws DataFormatException {
        byte[] bomb = deflateBomb();
        assertTrue(bomb.length < 1_100_000, bomb.length + " bytes");
        assertEquals(1L << 30, inflatedSize(bomb));
    }

    @Test
    void aDeflateBombStopsOneByteAfterTheChunk() throws CorruptFileException {
        CorruptFileException e = decodeFails(pipeline(Filter.deflate(6)), deflateBomb(), 4096);
        assertEquals("f.h5: corrupt chunk [3] at offset 100: size after undoing filter Deflate"
                + " expected 4096 bytes, found more than 4096 bytes", e.getMessage());
    }

    @Test
    void aDeflateStreamOneByteShortOrLongIsCorruptAndExactlyTheChunkReads() throws CorruptFileException {
        FilterPipeline deflate = pipeline(Filter.deflate(6));
        byte[] chunk = new byte[4096];
        new Random(1).nextBytes(chunk);
        assertArrayEquals(chunk, deflate.decode(FILE, "chunk [3]", AT_100,
                Filter.deflate(6).encode(chunk, 4), 4096));
        assertEquals("size after undoing filter Deflate expected 4096 bytes, found 4095 bytes",
                fieldAndValues(decodeFails(deflate,
                        Filter.deflate(6).encode(Arrays.copyOf(chunk, 4095), 4), 4096)));
        assertEquals("size after undoing filter Deflate expected 4096 bytes, found more than"
                + " 4096 bytes", fieldAndValues(decodeFails(deflate,
                        Filter.deflate(6).encode(Arrays.copyOf(chunk, 4097), 4), 4096)));
    }

    @Test
    void anLzfStreamPastOrShortOfTheChunkIsCorrupt() throws CorruptFileException {
        FilterPipeline lzf = pipeline(Filter.lzf());
        byte[] chunk = new byte[4096];
        Arrays.fill(chunk, (byte) 7);
        assertArrayEquals(chunk, lzf.decode(FILE, "chunk [3]", AT_100,
                Filter.lzf().encode(chunk, 4), 4096));
        assertEquals("size after undoing filter Lzf expected 4096 bytes, found more than 4096"
                + " bytes (LZF stream byte 50)", fieldAndValues(decodeFails(lzf,
                        Filter.lzf().encode(Arrays.copyOf(chunk, 5000), 4), 4096)));
        assertEquals("size after undoing filter Lzf expected 4096 bytes, found 4000 bytes",
                fieldAndValues(decodeFails(lzf,
                        Filter.lzf().encode(Arrays.copyOf(chunk, 4000), 4), 4096)));
    }

    @Test
    void shuffleAndFletcher32GiveExactlyTheChunk() throws CorruptFileException {
        byte[] chunk = new byte[64];
        new Random(2).nextBytes(chunk);
        FilterPipeline both = pipeline(Filter.shuffle(), Filter.fletcher32());
        assertArrayEquals(chunk, both.decode(FILE, "chunk [3]", AT_100, both.encode(chunk), 64));
        assertEquals("size after undoing filter Fletcher32 expected 64 bytes, found 68 bytes",
                fieldAndValues(decodeFails(both, both.encode(Arrays.copyOf(chunk, 68)), 64)));
        assertEquals("size after undoing filter Fletcher32 expected 64 bytes, found 60 bytes",
                fieldAndValues(decodeFails(both, both.encode(Arrays.copyOf(chunk, 60)), 64)));
        FilterPipeline shuffle = pipeline(Filter.shuffle());
        assertEquals("size after undoing filter Shuffle expected 64 bytes, found 68 bytes",
                fieldAndValues(decodeFails(shuffle, new byte[68], 64)));
        assertEquals("size after undoing filter Shuffle expected 64 bytes, found 63 bytes",
                fieldAndValues(decodeFails(shuffle, new byte[63], 64)));
    }

    /**
     * h5py's order: shuffle, deflate, Fletcher-32. Undoing Fletcher-32 gives a deflate stream of
     * a size not known, at most twice the chunk plus 1 KiB.
     */
    @Test
    void aStageOfUnknownSizeIsBoundedByWhatTheFiltersBeforeCanWrite() throws CorruptFileException {
        FilterPipeline h5py = pipeline(Filter.shuffle(), Filter.deflate(6), Filter.fletcher32());
        assertEquals(2 * 64 + 1024 + 4, h5py.maxStoredSize(0, 64));
        assertEquals(64 + 4, h5py.maxStoredSize(0b010, 64));
        assertEquals(64, h5py.maxStoredSize(0b111, 64));
        byte[] chunk = new byte[64];
        new Random(3).nextBytes(chunk);
        assertArrayEquals(chunk, h5py.decode(FILE, "chunk [3]", AT_100, h5py.encode(chunk), 64));
        byte[] tooLong = Filter.fletcher32().encode(new byte[2 * 64 + 1025], 4);
        assertEquals("size after undoing filter Fletcher32 expected at most 1152 bytes, found"
                + " 1153 bytes", fieldAndValues(decodeFails(h5py, tooLong, 64)));
        assertEquals("size after undoing filter Shuffle expected at most 1152 bytes, found 1153"
                + " bytes", fieldAndValues(decodeFails(pipeline(Filter.deflate(6),
                        Filter.shuffle()), new byte[2 * 64 + 1025], 64)));
        byte[] atTheBound = Filter.fletcher32().encode(new byte[2 * 64 + 1024], 4);
        assertEquals("filter Deflate expected data the filter wrote, found invalid deflate"
                + " stream: unknown compression method", fieldAndValues(decodeFails(h5py,
                        atTheBound, 64)));
    }

    /** LZF after deflate: undoing LZF gives the deflate stream, bounded the same way. */
    @Test
    void anLzfStageAfterDeflateStopsAtTheDeflateBound() throws CorruptFileException {
        FilterPipeline twice = pipeline(Filter.deflate(6), Filter.lzf());
        byte[] chunk = new byte[100];
        assertArrayEquals(chunk, twice.decode(FILE, "chunk [3]", AT_100, twice.encode(chunk),
                100));
        byte[] tooLong = Filter.lzf().encode(new byte[2 * 100 + 1025], 4);
        assertEquals("size after undoing filter Lzf expected at most 1224 bytes, found more"
                + " than 1224 bytes (LZF stream byte 14)", fieldAndValues(decodeFails(twice,
                        tooLong, 100)));
    }

    /** A chunk whose mask skips every filter is its elements: exactly the chunk's size. */
    @Test
    void skippedFiltersLeaveTheStoredBytesAsTheChunk() throws CorruptFileException {
        FilterPipeline deflate = pipeline(Filter.deflate(6));
        ChunkRecord skipped = new ChunkRecord(100, 8, 1);
        byte[] stored = {1, 2, 3, 4, 5, 6, 7, 8};
        assertArrayEquals(stored, deflate.decode(FILE, "chunk [3]", skipped, stored, 8));
        assertEquals(8, deflate.maxStoredSize(1, 8));
    }

    private static String fieldAndValues(CorruptFileException e) {
        assertEquals("chunk [3]", e.structure());
        assertEquals(100, e.offset());
        String message = e.getMessage();
        return message.substring(message.indexOf(": ", "f.h5: ".length()) + 2);
    }

    // ---- through a file

    /**
     * One chunk of 2 MiB of random bytes, deflated (so it is stored in slightly more); returns
     * the chunk's offset and stored size.
     */
    private ChunkRecord writeIncompressibleChunk(Path path) throws IOException {
        byte[] values = new byte[2 << 20];
        new Random(4).nextBytes(values);
        try (Hdf5File file = Hdf5File.create(path)) {
            file.root().createDataset("d", DatasetSpec.builder(Datatype.INT8, 2 << 20, 2)
                    .chunkShape(1 << 20, 2).filter(Filter.deflate(1)).build())
                    .write(new long[] {0, 0}, new long[] {2 << 20, 2}, doubled(values));
        }
        List<ChunkRecord> records = new ArrayList<>();
        try (Hdf5File file = Hdf5File.open(path)) {
            ((Dataset) file.root().get("d")).forEachStoredChunk((scaled, record) -> {
                if (scaled[0] == 1) {
                    records.add(record);
                }
            });
        }
        return records.get(0);
    }

    private static byte[] doubled(byte[] values) {
        byte[] both = new byte[2 * values.length];
        for (int i = 0; i < values.length; i++) {
            both[2 * i] = values[i];
            both[2 * i + 1] = (byte) ~values[i];
        }
        return both;
    }

    /** Replaces the stored bytes of the chunk {@code record} points at, keeping its size. */
    private static void overwrite(Path path, ChunkRecord record, byte[] stream) throws IOException {
        assertTrue(stream.length <= record.storedSize(), stream.length + " bytes");
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(Arrays.copyOf(stream, (int) record.storedSize())),
                    record.address());
        }
    }

    /**
     * A 2 MiB chunk replaced by the 1 GiB deflate bomb: in a JVM of 32 MiB heap the read fails
     * after inflating the chunk's 2 MiB, naming file, dataset, chunk and sizes; the first chunk
     * still reads.
     */
    @Test
    @StartsOutsideProgram
    void aDeflateBombInAFileFailsFastInBoundedMemory() throws Exception {
        Path path = dir.resolve("bomb.h5");
        ChunkRecord record = writeIncompressibleChunk(path);
        overwrite(path, record, deflateBomb());
        assertEquals(path + ": corrupt chunk [1, 0] of /d at offset " + record.address()
                + ": size after undoing filter Deflate expected 2097152 bytes, found more than"
                + " 2097152 bytes", BoundedHeapRead.run(path, "d", 1 << 20, 1));
        assertEquals("read", BoundedHeapRead.run(path, "d", 0, 1));
    }

    @Test
    void aShortDeflateChunkInAFileIsCorrupt() throws IOException {
        Path path = dir.resolve("short.h5");
        ChunkRecord record = writeIncompressibleChunk(path);
        overwrite(path, record, Filter.deflate(6).encode(new byte[(2 << 20) - 2], 1));
        try (Hdf5File file = Hdf5File.open(path)) {
            Dataset d = (Dataset) file.root().get("d");
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> d.read(new long[] {1 << 20, 0}, new long[] {1, 2}));
            assertEquals(path + ": corrupt chunk [1, 0] of /d at offset " + record.address()
                    + ": size after undoing filter Deflate expected 2097152 bytes, found 2097150"
                    + " bytes", e.getMessage());
        }
    }
}
