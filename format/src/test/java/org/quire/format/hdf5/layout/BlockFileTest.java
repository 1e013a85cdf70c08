package org.quire.format.hdf5.layout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.OpenMode;
import org.quire.format.storage.Storage;
import org.quire.format.storage.StorageLock;

class BlockFileTest {

    @TempDir
    Path dir;

    private BlockFile open() throws Exception {
        Path path = dir.resolve("blocks.h5");
        return new BlockFile(FileStorage.open(path, OpenMode.CREATE_OR_OPEN));
    }

    @Test
    void readsBackWhatItWrote() throws Exception {
        try (BlockFile file = open()) {
            file.write(4, new byte[] {1, 2, 3});
            assertArrayEquals(new byte[] {0, 1, 2, 3}, file.read(3, 4, "test"));
            assertEquals(7, file.endOfAllocation());
        }
    }

    @Test
    void allocatesConsecutiveRangesFromTheEnd() throws Exception {
        try (BlockFile file = open()) {
            file.write(0, new byte[10]);
            assertEquals(10, file.allocate(5));
            assertEquals(15, file.allocate(1));
        }
    }

    @Test
    void refusesAReadPastTheEndNamingTheStructure() throws Exception {
        try (BlockFile file = open()) {
            file.write(0, new byte[10]);
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> file.read(8, 4, "object header"));
            assertEquals("object header", e.structure());
            assertEquals(8, e.offset());
        }
    }

    @Test
    void refusesTheUndefinedAddress() throws Exception {
        try (BlockFile file = open()) {
            file.write(0, new byte[10]);
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> file.read(Addresses.UNDEFINED, 4, "fixed array header"));
            assertEquals("the undefined address", e.found());
        }
    }

    /** A file on disk whose size queries and forces are counted. */
    private static final class CountingStorage implements Storage {
        final FileStorage file;
        int sizeQueries;
        boolean closed;
        final List<Boolean> forces = new ArrayList<>();

        CountingStorage(Path path) throws IOException {
            file = FileStorage.open(path, OpenMode.CREATE_OR_OPEN);
        }

        @Override
        public Path path() {
            return file.path();
        }

        @Override
        public long size() throws IOException {
            sizeQueries++;
            return file.size();
        }

        @Override
        public int read(ByteBuffer target, long position) throws IOException {
            return file.read(target, position);
        }

        @Override
        public void write(ByteBuffer source, long position) throws IOException {
            file.write(source, position);
        }

        @Override
        public void truncate(long size) throws IOException {
            file.truncate(size);
        }

        @Override
        public void force(boolean metadata) throws IOException {
            forces.add(metadata);
            file.force(metadata);
        }

        @Override
        public StorageLock tryLock(long position, long size, boolean shared) throws IOException {
            return file.tryLock(position, size, shared);
        }

        @Override
        public void close() throws IOException {
            closed = true;
            file.close();
        }
    }

    private static byte[] bytes(int count) {
        byte[] out = new byte[count];
        for (int i = 0; i < count; i++) {
            out[i] = (byte) i;
        }
        return out;
    }

    @Test
    void aBlockEndingAtTheEndOfTheFileIsReadAndOneByteMoreNamesTheFileSize() throws Exception {
        Path path = dir.resolve("ten.h5");
        Files.write(path, bytes(10));
        try (BlockFile file = new BlockFile(FileStorage.open(path, OpenMode.READ))) {
            assertArrayEquals(new byte[] {6, 7, 8, 9}, file.read(6, 4, "heap"));
            assertArrayEquals(new byte[0], file.read(10, 0, "heap"));
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> file.read(7, 4, "heap"));
            assertEquals(7, e.offset());
            assertEquals("address", e.field());
            assertEquals("a block of 4 bytes inside the file of 10 bytes", e.expected());
            assertEquals("7", e.found());
            CorruptFileException negative = assertThrows(CorruptFileException.class,
                    () -> file.read(-8, 4, "heap"));
            assertEquals(Long.toUnsignedString(-8), negative.found());
            CorruptFileException length = assertThrows(CorruptFileException.class,
                    () -> file.read(0, -1, "heap"));
            assertEquals("a block of -1 bytes inside the file of 10 bytes", length.expected());
        }
    }

    /** A read inside the size last seen asks the file nothing; one beyond asks it again. */
    @Test
    void readsInsideTheKnownSizeAskNoSize() throws Exception {
        CountingStorage storage = new CountingStorage(dir.resolve("counted.h5"));
        try (BlockFile file = new BlockFile(storage)) {
            file.write(0, bytes(16));
            int queries = storage.sizeQueries;
            assertArrayEquals(new byte[] {12, 13, 14, 15}, file.read(12, 4, "node"));
            assertArrayEquals(new byte[] {15}, file.read(15, 1, "node"));
            assertArrayEquals(new byte[] {0}, file.read(0, 1, "superblock"));
            assertArrayEquals(new byte[0], file.read(16, 0, "empty message"));
            assertTrue(file.reaches(16));
            assertEquals(queries, storage.sizeQueries, "the write made 16 bytes known");
            assertFalse(file.reaches(17));
            assertEquals(queries + 1, storage.sizeQueries);
            // Another writer grew the file: the next read beyond asks and succeeds.
            storage.file.write(ByteBuffer.wrap(new byte[] {42}), 16);
            assertArrayEquals(new byte[] {15, 42}, file.read(15, 2, "node"));
            assertEquals(queries + 2, storage.sizeQueries);
            assertTrue(file.reaches(17));
            assertEquals(queries + 2, storage.sizeQueries);
        }
    }

    /** The file got shorter than a size seen before: the read fails where the bytes end. */
    @Test
    void aFileCutShortUnderTheReaderFailsAtItsNewEnd() throws Exception {
        CountingStorage storage = new CountingStorage(dir.resolve("cut.h5"));
        try (BlockFile file = new BlockFile(storage)) {
            file.write(0, bytes(10));
            storage.file.truncate(6);
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> file.read(4, 4, "local heap"));
            assertEquals(6, e.offset());
            assertEquals("local heap", e.structure());
            assertEquals("bytes", e.field());
            assertEquals("4 bytes", e.expected());
            assertEquals("2 bytes before end of file", e.found());
            // Into a buffer already holding 3 bytes: the count is of this read's bytes.
            ByteBuffer partly = ByteBuffer.allocate(7).position(3);
            CorruptFileException into = assertThrows(CorruptFileException.class,
                    () -> file.read(4, partly, "local heap"));
            assertEquals(6, into.offset());
            assertEquals("4 bytes", into.expected());
            assertEquals("2 bytes before end of file", into.found());
            assertEquals(5, partly.position());
        }
    }

    @Test
    void addressesAfterAUserBlockAreRelativeToIt() throws Exception {
        Path path = dir.resolve("user.h5");
        Files.write(path, bytes(600));
        try (BlockFile file = new BlockFile(FileStorage.open(path, OpenMode.READ_WRITE))) {
            assertEquals(600, file.read(0, 600, "whole").length); // 600 bytes known
            file.useBaseAddress(512);
            assertEquals(512, file.baseAddress());
            assertEquals(88, file.size());
            assertEquals(88, file.endOfAllocation());
            assertEquals(88, file.flushedEnd());
            assertArrayEquals(new byte[] {0, 1}, file.read(0, 2, "superblock")); // 512 % 256
            assertArrayEquals(new byte[] {84, 85, 86, 87}, file.read(84, 4, "end"));
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> file.read(85, 4, "end"));
            assertEquals("a block of 4 bytes inside the file of 88 bytes", e.expected());
            ByteBuffer direct = ByteBuffer.allocateDirect(3);
            file.read(1, direct, "direct");
            assertEquals(3, direct.position());
            assertEquals(3, direct.get(2));
            ByteBuffer past = ByteBuffer.allocateDirect(4);
            CorruptFileException beyond = assertThrows(CorruptFileException.class,
                    () -> file.read(85, past, "chunk"));
            assertEquals("address", beyond.field());
            assertEquals("a block of 4 bytes inside the file of 88 bytes", beyond.expected());
            assertEquals(0, past.position(), "nothing read");
            file.write(88, new byte[] {-1});
            assertEquals(89, file.endOfAllocation());
            assertEquals(601, Files.size(path));
            assertEquals(89, file.size());
        }
    }

    @Test
    void aFlushedStateReachesWhatWasAllocatedWhenTheFlushBegan() throws Exception {
        try (BlockFile file = open()) {
            file.write(0, new byte[100]);
            assertEquals(0, file.flushedEnd(), "an empty file when opened");
            file.flushBegins();
            assertEquals(100, file.flushedEnd());
            assertEquals(100, file.allocate(50));
            assertEquals(100, file.flushedEnd());
            assertTrue(file.reachableFromFlushedState(99));
            assertFalse(file.reachableFromFlushedState(100));
            file.flushBegins();
            assertTrue(file.reachableFromFlushedState(149));
            assertFalse(file.reachableFromFlushedState(150));
            file.write(10, new byte[5]);
            assertEquals(150, file.endOfAllocation(), "a write inside keeps the end");
            assertFalse(file.followedByReaders());
            file.followedByReaders(true);
            assertTrue(file.followedByReaders());
        }
    }

    @Test
    void anExistingFileIsAllocatedToItsEndAndFlushedThere() throws Exception {
        Path path = dir.resolve("existing.h5");
        Files.write(path, bytes(30));
        try (BlockFile file = new BlockFile(FileStorage.open(path, OpenMode.READ))) {
            assertEquals(30, file.endOfAllocation());
            assertEquals(30, file.flushedEnd());
            assertEquals(path, file.path());
            assertEquals(0, file.baseAddress());
        }
    }

    @Test
    void forcesPassTheirMetadataFlagAndCloseClosesTheFile() throws Exception {
        CountingStorage storage = new CountingStorage(dir.resolve("forced.h5"));
        BlockFile file = new BlockFile(storage);
        file.write(0, new byte[4]);
        file.force(false);
        file.force(true);
        assertEquals(List.of(false, true), storage.forces);
        file.close();
        assertTrue(storage.closed);
    }

    @Test
    void blocksReadAreCountedByStructure() throws Exception {
        try (BlockFile file = open()) {
            file.countChecked("local heap");
            file.countChecked("local heap");
            file.countChecked("B-tree node");
            assertEquals(Map.of("B-tree node", 1L, "local heap", 2L), file.checkedBlocks());
            assertEquals(List.of("B-tree node", "local heap"),
                    List.copyOf(file.checkedBlocks().keySet()));
            assertThrows(UnsupportedOperationException.class,
                    () -> file.checkedBlocks().put("x", 1L));
            byte[] block = new LittleEndianWriter().putBytes(new byte[] {'G', 'C', 'O', 'L', 1})
                    .putChecksumFrom(0).toByteArray();
            file.write(0, block);
            BlockIdentity identity = BlockIdentity.signed("global heap collection", "GCOL", 1);
            assertArrayEquals(block, file.readVerified(0, block.length, identity));
            file.readVerified(0, block.length, identity);
            assertEquals(Map.of("global heap collection", 2L), file.verifiedBlocks());
            assertThrows(UnsupportedOperationException.class,
                    () -> file.verifiedBlocks().clear());
        }
    }

    @Test
    void anUnsupportedOneByteFieldIsNamedAtItsOffset() throws Exception {
        LittleEndianReader in = new LittleEndianReader(Path.of("s.h5"), 40, "superblock",
                new byte[] {8, 4});
        BlockFile.requireSupported(in, "size of offsets", 8);
        UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class,
                () -> BlockFile.requireSupported(in, "size of lengths", 8));
        assertEquals("superblock size of lengths", e.structure());
        assertEquals(41, e.offset());
        assertEquals("4", e.found());
        assertEquals("8", e.supported());
        assertEquals(Path.of("s.h5"), e.file());
    }
}
