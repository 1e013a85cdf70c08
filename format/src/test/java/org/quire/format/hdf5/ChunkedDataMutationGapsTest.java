package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.layout.ChunkRecord;

/**
 * {@link ChunkedData} where a chunk's bytes are read in pieces, placed, or found damaged: an
 * unfiltered run longer than one transfer piece, new chunks packed after the last allocation
 * instead of aligned, and a chunk whose index records another size than the chunk's (h5py's
 * {@code legacy.h5}, version-1 B-tree keys, changed by hand) refused on read and on a write
 * into part of it.
 */
class ChunkedDataMutationGapsTest {

    @TempDir
    Path dir;

    /** One chunk of 300,000 bytes, one run, read into an array: two pieces of 256 KiB at most. */
    @Test
    void aRunLongerThanOneTransferPieceReadsWhole() throws IOException {
        int size = TransferBuffer.READ_PIECE_BYTES + 40_000;
        byte[] values = new byte[size];
        for (int i = 0; i < size; i++) {
            values[i] = (byte) (i % 251);
        }
        Path path = dir.resolve("long-run.h5");
        try (Hdf5File file = Hdf5File.create(path)) {
            file.root().createDataset("d", DatasetSpec.builder(Datatype.INT8, size)
                    .chunkShape(size).build()).write(new long[] {0}, new long[] {size}, values);
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            assertArrayEquals(values, file.root().dataset("d").readBytes(new long[] {0},
                    new long[] {size}));
        }
    }

    /**
     * 25 bytes from a direct buffer into chunks of 10 (fill value 7): the two whole chunks are
     * written from the buffer's own memory, the last 5 bytes (part of a new chunk, the rest
     * filled) through a copy; all read back.
     */
    @Test
    void aDirectBufferFillsWholeChunksAsItIsAndPartsThroughACopy() throws IOException {
        ByteBuffer data = ByteBuffer.allocateDirect(25);
        for (int i = 0; i < 25; i++) {
            data.put(i, (byte) (3 * i + 1));
        }
        Path path = dir.resolve("direct.h5");
        try (Hdf5File file = Hdf5File.create(path)) {
            file.root().createDataset("d", DatasetSpec.builder(Datatype.INT8, 25)
                    .chunkShape(10).fillValue(7).build())
                    .write(new long[] {0}, new long[] {25}, data);
        }
        byte[] expected = new byte[25];
        data.get(0, expected);
        try (Hdf5File file = Hdf5File.open(path)) {
            assertArrayEquals(expected, file.root().dataset("d").readBytes(new long[] {0},
                    new long[] {25}));
        }
    }

    /**
     * Chunks of 64 KiB go to 64 KiB-aligned offsets; after {@link Dataset#packNewChunks} the
     * next goes right after the last allocation (a group's metadata flushed in between), not
     * to the next aligned offset.
     */
    @Test
    void packedChunksFollowTheLastAllocation() throws IOException {
        long aligned = secondChunkAddress("aligned.h5", false);
        long packed = secondChunkAddress("packed.h5", true);
        assertEquals(0, aligned % CHUNK, "aligned at " + aligned);
        assertTrue(packed % CHUNK != 0 && packed < aligned, "packed at " + packed);
    }

    private static final int CHUNK = 64 * 1024;

    /** Writes chunk 0, a group (flushed), then chunk 1; returns chunk 1's address. */
    private long secondChunkAddress(String name, boolean pack) throws IOException {
        Path path = dir.resolve(name);
        try (Hdf5File file = Hdf5File.create(path)) {
            Dataset d = file.root().createDataset("d", DatasetSpec.builder(Datatype.INT8,
                    3L * CHUNK).chunkShape(CHUNK).build());
            d.write(new long[] {0}, new long[] {1}, new byte[] {1});
            if (pack) {
                d.packNewChunks();
            }
            file.root().createGroup("between");
            file.flush();
            d.write(new long[] {CHUNK}, new long[] {1}, new byte[] {2});
        }
        return chunkAddresses(path, "d").get(1);
    }

    private static List<Long> chunkAddresses(Path path, String name) throws IOException {
        List<Long> addresses = new ArrayList<>();
        try (Hdf5File file = Hdf5File.open(path)) {
            file.root().dataset(name).forEachStoredChunk((scaled, record) ->
                    addresses.add(record.address()));
        }
        return addresses;
    }

    /**
     * /chunked/sheet of legacy.h5 (big-endian ints in unfiltered chunks of 6 x 7, 168 bytes):
     * the B-tree key of the first chunk written says 167 bytes. Reading it, and writing one
     * element of it, fail naming the chunk and both sizes; the chunk's bytes stay as they were.
     */
    @Test
    void anUnfilteredChunkOfAnotherSizeIsRefusedOnReadAndOnAPartialWrite() throws IOException {
        Path intact = H5pyFixtures.of(H5pyFixtures.LEGACY).file("legacy.h5");
        ChunkRecord first;
        List<long[]> corners = new ArrayList<>();
        try (Hdf5File file = Hdf5File.open(intact)) {
            List<ChunkRecord> records = new ArrayList<>();
            file.root().group("chunked").dataset("sheet").forEachStoredChunk(
                    (scaled, record) -> {
                        records.add(record);
                        corners.add(new long[] {scaled[0] * 6, scaled[1] * 7});
                    });
            first = records.get(0);
        }
        byte[] bytes = Files.readAllBytes(intact);
        byte[] child = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN)
                .putLong(first.address()).array();
        // A rank-2 key: size (4 bytes), filter mask (4), offsets of 3 dimensions (8 each).
        int sizeField = DamagedField.indexOf(bytes, child, 0) - 32;
        ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(168, buffer.getInt(sizeField));
        buffer.putInt(sizeField, 167);
        Path damaged = dir.resolve("short-chunk.h5");
        Files.write(damaged, bytes);
        String at = " at offset " + first.address() + ": unfiltered size expected 168, found 167";
        String expected = damaged + ": corrupt chunk of /chunked/sheet" + at;
        try (Hdf5File file = Hdf5File.open(damaged)) {
            Dataset sheet = file.root().group("chunked").dataset("sheet");
            assertEquals(expected, assertThrows(CorruptFileException.class,
                    () -> sheet.readInts(corners.get(0), new long[] {1, 1})).getMessage());
        }
        try (Hdf5File file = Hdf5File.openForWriting(damaged)) {
            Dataset sheet = file.root().group("chunked").dataset("sheet");
            assertEquals(expected, assertThrows(
                    CorruptFileException.class, () -> sheet.write(corners.get(0),
                            new long[] {1, 1}, new int[] {5})).getMessage());
        }
        int chunk = (int) first.address();
        assertArrayEquals(Arrays.copyOfRange(bytes, chunk, chunk + 168),
                Arrays.copyOfRange(Files.readAllBytes(damaged), chunk, chunk + 168));
    }
}
