package org.quire.format.hdf5.layout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.ChecksumMismatchException;
import org.quire.format.CorruptFileException;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.OpenMode;

/**
 * Direct blocks of fractal heaps with and without checksums (header flag b1). libhdf5 checksums
 * the direct blocks of link and attribute heaps, so the files of the interoperability corpus never
 * show a heap without; these blocks are built here field by field.
 */
class FractalHeapDirectBlockTest {

    private static final long HEADER = 40;
    private static final long BLOCK = 100;
    private static final int SIZE = 512;
    /** Signature and version, heap header address, 4-byte block offset (32-bit heap). */
    private static final int UNCHECKSUMMED_PREFIX = 5 + 8 + 4;

    @TempDir
    Path dir;
    private int files;

    private static FractalHeapHeader heap(boolean checksummed) {
        return new FractalHeapHeader(8, checksummed, SIZE, Addresses.UNDEFINED, 1,
                new FractalHeapDoublingTable(4, SIZE, 4 * SIZE, 32, SIZE), BLOCK, 0);
    }

    /** A block owned by {@code owner} at heap offset {@code offset}, objects 0, 1, 2, ... */
    private static byte[] block(boolean checksummed, long owner, long offset) {
        LittleEndianWriter out = new LittleEndianWriter(SIZE).putBytes(FractalHeapDirectBlock.IDENTITY.signature())
                .putByte(0).putAddress(owner).putUnsigned(offset, 4);
        if (checksummed) {
            out.putInt(0);
        }
        for (int i = out.position(); i < SIZE; i++) {
            out.putByte(i);
        }
        byte[] bytes = out.toByteArray();
        if (checksummed) {
            int checksum = JenkinsLookup3.checksum(bytes, 0, bytes.length);
            System.arraycopy(new LittleEndianWriter(4).putInt(checksum).toByteArray(), 0, bytes,
                    UNCHECKSUMMED_PREFIX, 4);
        }
        return bytes;
    }

    private BlockFile fileWith(byte[] block) throws IOException {
        BlockFile file = new BlockFile(FileStorage.open(dir.resolve("heap" + (++files) + ".h5"), OpenMode.CREATE_NEW));
        file.write(BLOCK, block);
        return file;
    }

    @Test
    void aBlockWithoutChecksumHasObjectsRightAfterTheBlockOffset() throws IOException {
        FractalHeapHeader heap = heap(false);
        assertEquals(UNCHECKSUMMED_PREFIX, FractalHeapDirectBlock.prefixSize(heap));
        byte[] bytes = block(false, HEADER, 0);
        try (BlockFile file = fileWith(bytes)) {
            FractalHeapDirectBlock read = FractalHeapDirectBlock.read(file, BLOCK, SIZE, HEADER, heap, 0);
            assertEquals(0, read.blockOffset());
            assertArrayEquals(bytes, read.bytes());
            assertFalse(file.verifiedBlocks().containsKey("fractal heap direct block"), "nothing was verified");
        }
    }

    @Test
    void aChecksummedBlockIsVerifiedAndAChangedObjectByteIsAMismatchAtTheChecksum() throws IOException {
        FractalHeapHeader heap = heap(true);
        assertEquals(UNCHECKSUMMED_PREFIX + 4, FractalHeapDirectBlock.prefixSize(heap));
        byte[] bytes = block(true, HEADER, SIZE);
        try (BlockFile file = fileWith(bytes)) {
            assertEquals(SIZE, FractalHeapDirectBlock.read(file, BLOCK, SIZE, HEADER, heap, SIZE).blockOffset());
            assertEquals(1L, file.verifiedBlocks().get("fractal heap direct block"));
        }
        bytes[SIZE - 1] ^= 1;
        try (BlockFile file = fileWith(bytes)) {
            ChecksumMismatchException e = assertThrows(ChecksumMismatchException.class,
                    () -> FractalHeapDirectBlock.read(file, BLOCK, SIZE, HEADER, heap, SIZE));
            assertEquals(BLOCK + UNCHECKSUMMED_PREFIX, e.offset());
            assertEquals("fractal heap direct block", e.structure());
        }
    }

    @Test
    void sizesFromThePrefixToTheLargestDirectBlockAreAccepted() throws IOException {
        for (boolean checksummed : new boolean[] {false, true}) {
            FractalHeapHeader heap = heap(checksummed);
            int prefix = FractalHeapDirectBlock.prefixSize(heap);
            try (BlockFile file = fileWith(block(checksummed, HEADER, 0))) {
                CorruptFileException small = assertThrows(CorruptFileException.class,
                        () -> FractalHeapDirectBlock.read(file, BLOCK, prefix - 1, HEADER, heap, 0));
                assertEquals(BLOCK, small.offset());
                assertEquals("size", small.field());
                assertEquals(prefix + ".." + (1L << 30), small.expected());
                assertEquals(Integer.toString(prefix - 1), small.found());
                assertEquals(Long.toString((1L << 30) + 1), assertThrows(CorruptFileException.class,
                        () -> FractalHeapDirectBlock.read(file, BLOCK, (1L << 30) + 1, HEADER, heap, 0)).found());
            }
        }
        try (BlockFile file = fileWith(block(false, HEADER, 0))) {
            assertEquals(UNCHECKSUMMED_PREFIX, FractalHeapDirectBlock.read(file, BLOCK, UNCHECKSUMMED_PREFIX, HEADER,
                    heap(false), 0).bytes().length, "a block of only its prefix");
        }
    }

    @Test
    void aBlockOfAnotherHeapOrAnotherPlaceIsCorruptAtThatField() throws IOException {
        FractalHeapHeader heap = heap(false);
        try (BlockFile file = fileWith(block(false, HEADER + 8, 0))) {
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> FractalHeapDirectBlock.read(file, BLOCK, SIZE, HEADER, heap, 0));
            assertEquals(BLOCK + 5, e.offset());
            assertEquals("heap header address", e.field());
            assertEquals("40", e.expected());
            assertEquals("48", e.found());
        }
        try (BlockFile file = fileWith(block(false, HEADER, 0xffff_ffffL))) {
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> FractalHeapDirectBlock.read(file, BLOCK, SIZE, HEADER, heap, SIZE));
            assertEquals(BLOCK + 13, e.offset());
            assertEquals("block offset", e.field());
            assertEquals("512 (its place in the parent)", e.expected());
            assertEquals("4294967295", e.found());
        }
    }

    @Test
    void aBlockWithoutChecksumStillNeedsItsSignature() throws IOException {
        byte[] bytes = block(false, HEADER, 0);
        bytes[0] = 'X';
        try (BlockFile file = fileWith(bytes)) {
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> FractalHeapDirectBlock.read(file, BLOCK, SIZE, HEADER, heap(false), 0));
            assertEquals(BLOCK, e.offset());
            assertEquals("signature", e.field());
        }
    }
}
