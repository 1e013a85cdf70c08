package org.quire.format.hdf5.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.OpenMode;

/**
 * Fractal heap headers (specification III.G) built field by field: the flag that says whether
 * direct blocks carry checksums, the object counts, and the limits on heap ID length and root rows.
 */
class FractalHeapHeaderTest {

    private static final long ADDRESS = 16;
    private static final long ID_LENGTH_AT = ADDRESS + 5;
    private static final long TABLE_AT = ADDRESS + 5 + 2 + 2 + 1 + 4 + 12 * 8;
    private static final long ROOT_ROWS_AT = TABLE_AT + 2 + 8 + 8 + 2 + 2 + 8;

    @TempDir
    Path dir;
    private int files;

    /** libhdf5's table for dense links (width 4, 512 to 64 KiB blocks, 32-bit heap: 22 root rows at most). */
    private static byte[] header(int idLength, int filtersLength, int flags, long startSize, int rootRows) {
        LittleEndianWriter out = new LittleEndianWriter(FractalHeapHeader.SIZE)
                .putBytes(FractalHeapHeader.IDENTITY.signature()).putByte(0)
                .putShort(idLength).putShort(filtersLength).putByte(flags).putInt(4096)
                .putLength(0).putAddress(Addresses.UNDEFINED).putLength(0).putAddress(Addresses.UNDEFINED)
                .putLength(512).putLength(512).putLength(512)
                .putLength(5).putLength(0).putLength(7).putLength(0).putLength(11)
                .putShort(4).putLength(startSize).putLength(65536).putShort(32).putShort(1)
                .putAddress(2048).putShort(rootRows);
        return out.putChecksumFrom(0).toByteArray();
    }

    private FractalHeapHeader read(byte[] header) throws IOException {
        try (BlockFile file = new BlockFile(FileStorage.open(dir.resolve("fh" + (++files) + ".h5"),
                OpenMode.CREATE_NEW))) {
            file.write(ADDRESS, header);
            return FractalHeapHeader.read(file, ADDRESS);
        }
    }

    private CorruptFileException corrupt(byte[] header) {
        return assertThrows(CorruptFileException.class, () -> read(header));
    }

    @Test
    void flagBitOneAloneSaysDirectBlocksAreChecksummed() throws IOException {
        assertEquals(FractalHeapHeader.SIZE, header(7, 0, 0, 512, 0).length);
        assertFalse(read(header(7, 0, 0, 512, 0)).directBlocksChecksummed());
        assertFalse(read(header(7, 0, 1, 512, 0)).directBlocksChecksummed(), "b0: huge IDs wrapped");
        assertTrue(read(header(7, 0, 2, 512, 0)).directBlocksChecksummed());
        FractalHeapHeader heap = read(header(7, 0, 3, 512, 0));
        assertTrue(heap.directBlocksChecksummed());
        assertEquals(5 + 7 + 11, heap.objects(), "managed, huge and tiny objects");
        assertEquals(4096, heap.maxManagedObjectSize());
        assertEquals(2048, heap.rootBlockAddress());
    }

    @Test
    void heapIdLengthsFromTwoTo4095AreRead() throws IOException {
        assertEquals(2, read(header(2, 0, 0, 512, 0)).heapIdLength());
        assertEquals(4095, read(header(4095, 0, 0, 512, 0)).heapIdLength());
        for (int length : new int[] {0, 1, 4096, 0xffff}) {
            CorruptFileException e = corrupt(header(length, 0, 0, 512, 0));
            assertEquals(ID_LENGTH_AT, e.offset());
            assertEquals("heap ID length", e.field());
            assertEquals("2..4095", e.expected());
            assertEquals(Integer.toString(length), e.found());
        }
    }

    @Test
    void rootRowsUpToWhatTheHeapSizeAllowsAreRead() throws IOException {
        assertEquals(22, read(header(7, 0, 0, 512, 22)).rootIndirectRows());
        CorruptFileException e = corrupt(header(7, 0, 0, 512, 23));
        assertEquals(ROOT_ROWS_AT, e.offset());
        assertEquals("current rows in root indirect block", e.field());
        assertEquals("0..22", e.expected());
        assertEquals("23", e.found());
    }

    @Test
    void aBadDoublingTableIsCorruptAtTheTableAndFiltersAreUnsupported() throws IOException {
        CorruptFileException table = corrupt(header(7, 0, 0, 500, 0));
        assertEquals(TABLE_AT, table.offset());
        assertEquals("doubling table", table.field());
        UnsupportedFormatException filters = assertThrows(UnsupportedFormatException.class,
                () -> read(header(7, 12, 0, 512, 0)));
        assertEquals(ADDRESS, filters.offset());
        assertEquals("I/O filters (12 bytes encoded)", filters.found());
    }
}
