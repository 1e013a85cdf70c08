package org.quire.format.hdf5.chunk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.cache.MetadataCache;
import org.quire.format.hdf5.layout.BlockFile;
import org.quire.format.hdf5.layout.ChunkRecord;
import org.quire.format.storage.OpenMode;
import org.quire.format.storage.TrackingOpener;

/**
 * The chunk store's crash-safety rules together with its partial rewrites: where a chunk goes,
 * and that each written chunk has a proxy in the metadata cache marked written.
 */
class InPlaceChunkStoreTest {

    private static final long CACHE_BYTES = 1 << 20;

    @TempDir
    Path directory;

    private static ByteBuffer bytes(int length, int first) {
        ByteBuffer buffer = ByteBuffer.allocate(length);
        for (int i = 0; i < length; i++) {
            buffer.put(i, (byte) (first + i));
        }
        return buffer;
    }

    private static byte[] array(ByteBuffer buffer) {
        byte[] copy = new byte[buffer.remaining()];
        buffer.duplicate().get(copy);
        return copy;
    }

    @Test
    void anUnfilteredChunkAFlushedStateHoldsIsRewrittenInPartInPlaceWithAWrittenProxy()
            throws IOException {
        try (Fixture f = Fixture.open(directory.resolve("f"), false)) {
            ChunkRecord written = f.store().write(ChunkRecord.UNWRITTEN, bytes(16, 0));
            f.blocks().flushBegins();

            ChunkRecord after = f.store().overwrite(written, 4, bytes(4, 100));

            assertEquals(written, after);
            assertTrue(f.cache().contains(written.address()));
            assertFalse(f.cache().isDirty(written.address()), "the proxy is marked written");
            byte[] expected = array(bytes(16, 0));
            System.arraycopy(array(bytes(4, 100)), 0, expected, 4, 4);
            assertArrayEquals(expected, f.store().read(written));
            ByteBuffer part = ByteBuffer.allocate(4);
            f.store().read(written, 4, part);
            assertArrayEquals(array(bytes(4, 100)), part.array());
        }
    }

    @Test
    void aFilteredChunkMovesOnlyOnceAFlushedStateMayPointAtIt() throws IOException {
        try (Fixture f = Fixture.open(directory.resolve("f"), true)) {
            ChunkRecord first = f.store().write(ChunkRecord.UNWRITTEN, bytes(16, 0));
            ChunkRecord rewritten = f.store().write(first, bytes(16, 50));
            assertEquals(first.address(), rewritten.address(), "new since the last flush");
            f.blocks().flushBegins();

            ChunkRecord moved = f.store().write(rewritten, bytes(16, 100));

            assertNotEquals(rewritten.address(), moved.address());
            assertArrayEquals(array(bytes(16, 50)), f.store().read(rewritten),
                    "flushed bytes kept");
            assertArrayEquals(array(bytes(16, 100)), f.store().read(moved));
            assertTrue(f.cache().contains(moved.address()));
            assertFalse(f.cache().isDirty(moved.address()));
            assertThrows(IllegalStateException.class,
                    () -> f.store().overwrite(moved, 0, bytes(4, 0)));
        }
    }

    /** A store of unfiltered or filtered chunks over a new file, with its own cache. */
    private record Fixture(IndexTestFile file, MetadataCache cache, InPlaceChunkStore store)
            implements AutoCloseable {
        static Fixture open(Path path, boolean filtered) throws IOException {
            IndexTestFile file = IndexTestFile.open(path, OpenMode.CREATE_NEW);
            MetadataCache cache = file.cache(CACHE_BYTES);
            return new Fixture(file, cache, new InPlaceChunkStore(file.file(), cache, filtered));
        }

        BlockFile blocks() {
            return file.file();
        }

        @Override
        public void close() throws IOException {
            file.close();
        }
    }

    /**
     * Sizes that are multiples of 64 KiB start at a multiple of their largest power-of-two
     * divisor, at most 1 MiB; others are packed.
     */
    @Test
    void newSpaceIsAlignedFromSixtyFourKibibytesToOneMebibyte() throws IOException {
        try (Fixture f = Fixture.open(directory.resolve("f"), false)) {
            f.blocks().allocate(100);
            ChunkRecord packed = f.store().write(ChunkRecord.UNWRITTEN, bytes(32 << 10, 0));
            assertEquals(100, packed.address(), "32 KiB: below the smallest alignment");
            ChunkRecord odd = f.store().write(ChunkRecord.UNWRITTEN, bytes((64 << 10) + 4, 0));
            assertEquals(100 + (32 << 10), odd.address(), "64 KiB + 4: aligned to 4 bytes only");
            long end = odd.address() + odd.storedSize();
            ChunkRecord smallest = f.store().write(ChunkRecord.UNWRITTEN, bytes(64 << 10, 0));
            assertEquals(end + Math.floorMod(-end, 64 << 10), smallest.address());
            assertEquals(0, smallest.address() % (64 << 10));
            assertTrue(smallest.address() > end);
            // End at 3 MiB: 1 MiB-aligned, not 2 MiB-aligned.
            f.blocks().allocate((3 << 20) - f.blocks().endOfAllocation());
            ChunkRecord twoMebibytes = f.store().write(ChunkRecord.UNWRITTEN, bytes(2 << 20, 0));
            assertEquals(3 << 20, twoMebibytes.address(), "aligned to 1 MiB at most");
            f.blocks().allocate(1);
            ChunkRecord oneMebibyte = f.store().write(ChunkRecord.UNWRITTEN, bytes(1 << 20, 0));
            assertEquals(6 << 20, oneMebibyte.address());
            assertArrayEquals(array(bytes(1 << 20, 0)), f.store().read(oneMebibyte));
        }
    }

    /** A packed store skips nothing: a versioned raw_data grows a slot or two per commit. */
    @Test
    void aPackedStorePutsAnAlignableChunkRightAfterTheLastAllocation() throws IOException {
        try (Fixture f = Fixture.open(directory.resolve("f"), false)) {
            f.store().pack();
            f.blocks().allocate(100);
            ChunkRecord first = f.store().write(ChunkRecord.UNWRITTEN, bytes(1 << 20, 0));
            assertEquals(100, first.address());
            f.blocks().allocate(7);
            ChunkRecord zeroed = f.store().createZeroed(64 << 10);
            assertEquals(100 + (1 << 20) + 7, zeroed.address());
            assertArrayEquals(array(bytes(1 << 20, 0)), f.store().read(first));
        }
    }

    @Test
    void aZeroedChunkIsCoveredByTheFileAndReadsAsZeros() throws IOException {
        try (Fixture f = Fixture.open(directory.resolve("f"), false)) {
            f.blocks().allocate(10);
            ChunkRecord zeroed = f.store().createZeroed(40);
            assertEquals(new ChunkRecord(10, 40, 0), zeroed);
            assertEquals(50, f.blocks().size(), "one zero byte at its end");
            assertTrue(f.cache().contains(10));
            assertFalse(f.cache().isDirty(10));
            assertArrayEquals(new byte[40], f.store().read(zeroed));
            // Space already inside the file is not written again.
            ChunkRecord inside = new ChunkRecord(0, 4, 0);
            f.file().storage().write(ByteBuffer.wrap(new byte[] {9}), 60);
            f.blocks().allocate(6);
            ChunkRecord second = f.store().createZeroed(4);
            assertEquals(56, second.address());
            assertArrayEquals(new byte[] {0, 0, 0, 0}, f.store().read(second));
            assertEquals(61, f.blocks().size());
            assertEquals(4, f.store().read(inside).length);
        }
    }

    @Test
    void aFilteredChunkIsWrittenOnlyWhole() throws IOException {
        try (Fixture f = Fixture.open(directory.resolve("f"), true)) {
            ChunkRecord written = f.store().write(ChunkRecord.UNWRITTEN, bytes(16, 0));
            assertEquals("a filtered chunk is written whole, from its encoding, not created"
                    + " empty", assertThrows(IllegalStateException.class,
                            () -> f.store().createZeroed(16)).getMessage());
            assertEquals("a filtered chunk is rewritten whole, not in part: " + written,
                    assertThrows(IllegalStateException.class,
                            () -> f.store().overwrite(written, 0, bytes(4, 0))).getMessage());
        }
    }

    /** A chunk whose size changes moves; one of the same size stays, unfiltered or new. */
    @Test
    void aChunkOfAnotherSizeMovesAndOneOfTheSameSizeStays() throws IOException {
        try (Fixture f = Fixture.open(directory.resolve("f"), true)) {
            ChunkRecord first = f.store().write(ChunkRecord.UNWRITTEN, bytes(16, 0));
            ChunkRecord longer = f.store().write(first, bytes(17, 0));
            assertEquals(new ChunkRecord(16, 17, 0), longer);
            ChunkRecord same = f.store().write(longer, bytes(17, 5));
            assertEquals(longer, same);
            assertArrayEquals(array(bytes(17, 5)), f.store().read(same));
        }
    }

    @Test
    void partsOutsideTheChunkAreRefused() throws IOException {
        try (Fixture f = Fixture.open(directory.resolve("f"), false)) {
            ChunkRecord written = f.store().write(ChunkRecord.UNWRITTEN, bytes(16, 0));
            assertEquals(written, f.store().overwrite(written, 12, bytes(4, 7)));
            assertArrayEquals(new byte[] {7, 8, 9, 10},
                    Arrays.copyOfRange(f.store().read(written), 12, 16));
            for (long offset : new long[] {-1, 13}) {
                assertEquals("bytes " + offset + ".." + (offset + 4) + " are not inside the"
                        + " chunk " + written, assertThrows(IllegalArgumentException.class,
                                () -> f.store().overwrite(written, offset, bytes(4, 0)))
                        .getMessage());
            }
            assertThrows(IllegalArgumentException.class,
                    () -> f.store().overwrite(ChunkRecord.UNWRITTEN, 0, bytes(4, 0)));
            ByteBuffer last = ByteBuffer.allocate(4);
            f.store().read(written, 12, last);
            assertArrayEquals(new byte[] {7, 8, 9, 10}, last.array());
            for (long offset : new long[] {-1, 13}) {
                CorruptFileException e = assertThrows(CorruptFileException.class,
                        () -> f.store().read(written, offset, ByteBuffer.allocate(4)));
                assertEquals("size", e.field());
                assertEquals(0, e.offset());
                assertEquals("at least " + (offset + 4) + " bytes", e.expected());
                assertEquals("16", e.found());
            }
        }
    }

    @Test
    void aRecordOfANegativeOrOverTwoGibibyteSizeIsCorrupt() throws IOException {
        try (Fixture f = Fixture.open(directory.resolve("f"), false)) {
            f.store().write(ChunkRecord.UNWRITTEN, bytes(16, 0));
            assertEquals(16, f.store().read(new ChunkRecord(0, 16, 0)).length);
            assertEquals(0, f.store().read(new ChunkRecord(0, 0, 0)).length);
            for (long size : new long[] {-1, Integer.MAX_VALUE + 1L}) {
                CorruptFileException e = assertThrows(CorruptFileException.class,
                        () -> f.store().read(new ChunkRecord(8, size, 0)));
                assertEquals(8, e.offset());
                assertEquals("0.." + Integer.MAX_VALUE, e.expected());
                assertEquals(Long.toUnsignedString(size), e.found());
                assertThrows(CorruptFileException.class,
                        () -> f.store().read(new ChunkRecord(8, size, 0), 0,
                                ByteBuffer.allocate(1)));
            }
        }
    }

    /**
     * A chunk rewritten in part whose proxy the cache evicted (clean, under a bound of two
     * proxies) gets a proxy again, marked written, so the index block recording it can depend
     * on its bytes.
     */
    @Test
    void aChunkRewrittenInPartAfterItsProxyWasEvictedGetsOneAgain() throws IOException {
        try (IndexTestFile file = IndexTestFile.open(directory.resolve("f"),
                OpenMode.CREATE_NEW)) {
            MetadataCache cache = file.cache(2 * MetadataCache.BOOKKEEPING_BYTES_PER_ENTRY);
            InPlaceChunkStore store = new InPlaceChunkStore(file.file(), cache, false);
            ChunkRecord first = store.write(ChunkRecord.UNWRITTEN, bytes(16, 0));
            store.write(ChunkRecord.UNWRITTEN, bytes(16, 20));
            store.write(ChunkRecord.UNWRITTEN, bytes(16, 40));
            assertFalse(cache.contains(first.address()), "the oldest proxy evicted");

            store.overwrite(first, 12, bytes(4, 100));

            assertTrue(cache.contains(first.address()));
            assertFalse(cache.isDirty(first.address()), "the proxy is marked written");
        }
    }

    /** The file reaching exactly to a zeroed chunk's end already covers it: nothing written. */
    @Test
    void aZeroedChunkEndingExactlyAtTheFilesEndIsNotWritten() throws IOException {
        TrackingOpener opener = new TrackingOpener();
        Path path = directory.resolve("f");
        try (IndexTestFile file = IndexTestFile.open(opener, path, OpenMode.CREATE_NEW)) {
            MetadataCache cache = file.cache(CACHE_BYTES);
            file.storage().write(ByteBuffer.wrap(new byte[1]), 49);
            file.file().allocate(10);
            opener.resetCounts();
            ChunkRecord zeroed = new InPlaceChunkStore(file.file(), cache, false).createZeroed(40);
            assertEquals(new ChunkRecord(10, 40, 0), zeroed);
            assertEquals(0, opener.counts(path).writes(), "writes");
            assertEquals(50, file.file().size());
        }
    }

    /** A stored size of exactly 2^31 - 1 is one Quire reads from (in part). */
    @Test
    void aRecordOfTheLargestSizeIsReadInPart() throws IOException {
        try (Fixture f = Fixture.open(directory.resolve("f"), false)) {
            f.store().write(ChunkRecord.UNWRITTEN, bytes(16, 0));
            ByteBuffer part = ByteBuffer.allocate(4);
            f.store().read(new ChunkRecord(0, Integer.MAX_VALUE, 0), 8, part);
            assertArrayEquals(array(bytes(4, 8)), part.array());
        }
    }
}
