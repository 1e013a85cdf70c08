package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.StartsOutsideProgram;
import org.quire.format.hdf5.chunk.ChunkIndex;
import org.quire.format.hdf5.layout.FixedArrayDataBlock;
import org.quire.format.hdf5.layout.FixedArrayHeader;

/**
 * Fixed-size datasets of more chunks than an int counts: the fixed array index reserves its
 * entries in the file (a sparse hole) and holds only its page bitmap and the pages in use, so
 * reading and writing a few chunks of 2^33 takes memory per page, not per chunk.
 */
class HugeFixedArrayTest {

    private static final long CHUNKS = 1L << 33;
    private static final long[] WRITTEN = {0, Integer.MAX_VALUE, 1L << 31, CHUNKS - 1};

    @TempDir
    Path dir;

    @Test
    @StartsOutsideProgram
    void aSparseDatasetOfTwoToTheThirtyThreeChunksIsWrittenAndReadPageWise() throws Exception {
        Path path = dir.resolve("huge.h5");
        try (Hdf5File file = Hdf5File.create(path)) {
            Dataset d = file.root().createDataset("d", DatasetSpec.builder(Datatype.INT8, CHUNKS)
                    .chunkShape(1).fillValue(-1).build());
            for (int i = 0; i < WRITTEN.length - 1; i++) {
                d.write(new long[] {WRITTEN[i]}, new long[] {1}, new byte[] {(byte) (i + 1)});
            }
        }
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            file.root().dataset("d").write(new long[] {CHUNKS - 1}, new long[] {1},
                    new byte[] {4});
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            Dataset d = file.root().dataset("d");
            ChunkIndex index = d.chunkIndex();
            FixedArrayDataBlock block = new FixedArrayDataBlock(
                    FixedArrayHeader.read(file.blocks(), index.address()));
            assertEquals(CHUNKS / 1024, block.pageCount());
            List<Long> stored = new ArrayList<>();
            d.forEachStoredChunk((scaled, record) -> stored.add(scaled[0]));
            assertEquals(List.of(WRITTEN[0], WRITTEN[1], WRITTEN[2], WRITTEN[3]), stored);
            for (int i = 0; i < WRITTEN.length; i++) {
                assertEquals(i + 1, d.readBytes(new long[] {WRITTEN[i]}, new long[] {1})[0]);
            }
            assertEquals(-1, d.readBytes(new long[] {1L << 32}, new long[] {1})[0]);
        }
        // The entries take 64 GiB of the file's address space, but no disk.
        assertTrue(Files.size(path) >= CHUNKS * 8, Long.toString(Files.size(path)));
        assertEquals(4L, Hdf5Verifier.verify(path).chunks());
        assertEquals("read", BoundedHeapRead.run(path, "d", CHUNKS - 1));
    }

    @Test
    void moreChunksThanTwoToTheTwentySevenPagesAreRefusedInOneLine() throws IOException {
        Path path = dir.resolve("too-many.h5");
        try (Hdf5File file = Hdf5File.create(path)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> file.root().createDataset("d", DatasetSpec.builder(Datatype.INT8,
                            (1L << 37) + 1).chunkShape(1).build()));
            assertEquals("137438953473 chunks need 134217729 pages of 1024, more than a fixed"
                    + " array index holds here (at most 1048576 entries per page or unpaged"
                    + " data block, at most 134217728 pages)", e.getMessage());
        }
    }

}
