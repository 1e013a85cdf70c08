package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.hdf5.layout.AttributeInfoMessage;
import org.quire.format.hdf5.layout.ChunkIndexParameters;
import org.quire.format.hdf5.layout.DataLayoutMessage;
import org.quire.format.hdf5.layout.HeaderMessage;
import org.quire.format.hdf5.layout.JenkinsLookup3;
import org.quire.format.hdf5.layout.LittleEndianReader;

/**
 * Every {@link UnsupportedFormatException} says which structure, where, which version or
 * feature was found and which are supported: one test per place that throws one without an
 * existing test of its fields, each asserting the fields and the whole message.
 */
class UnsupportedFormatMessagesTest {

    @TempDir
    Path dir;

    private static void assertParts(UnsupportedFormatException e, Path file, String structure,
                                    long offset, String found, String supported) {
        assertEquals(structure, e.structure(), e.getMessage());
        assertEquals(offset, e.offset(), e.getMessage());
        assertEquals(found, e.found(), e.getMessage());
        assertEquals(supported, e.supported(), e.getMessage());
        assertEquals(file + ": unsupported " + structure + " at offset " + offset + ": found "
                + found + "; supported: " + supported, e.getMessage());
    }

    @Test
    void anAttributeInfoMessageOfVersionOne() {
        Path file = Path.of("info.h5");
        byte[] body = AttributeInfoMessage.encodeCompact();
        body[0] = 1;
        UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class,
                () -> AttributeInfoMessage.decode(new LittleEndianReader(file, 500,
                        "attribute info message", body)));
        assertParts(e, file, "attribute info message", 500, "version 1", "version 0");
    }

    /** Superblock 0 has no checksum: byte 13 is its size of offsets. */
    @Test
    void offsetsOfFourBytesInTheSuperblock() throws IOException {
        byte[] bytes = Files.readAllBytes(H5pyFixtures.of(H5pyFixtures.LEGACY).file("legacy.h5"));
        bytes[13] = 4;
        Path file = Files.write(dir.resolve("offsets4.h5"), bytes);
        UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class,
                () -> Hdf5File.open(file));
        assertParts(e, file, "superblock size of offsets", 13, "4", "8");
    }

    /** A Fletcher-32 dataset whose filter pipeline names filter 4 (szip) instead of 3. */
    @Test
    void aFilterQuireDoesNotHave() throws IOException {
        Path file = dir.resolve("szip.h5");
        long header;
        try (Hdf5File hdf5 = Hdf5File.create(file)) {
            Dataset d = hdf5.root().createDataset("d", DatasetSpec.builder(Datatype.INT8, 4)
                    .chunkShape(2).filter(Filter.fletcher32()).build());
            header = d.address();
        }
        byte[] bytes = Files.readAllBytes(file);
        // Filter pipeline message version 2, one filter, filter ID 3 (2 bytes).
        int at = DamagedField.indexOf(bytes, new byte[] {2, 1, 3, 0}, (int) header);
        bytes[at + 2] = 4;
        DamagedField.resealObjectHeader(bytes, (int) header);
        Files.write(file, bytes);
        UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class,
                () -> Hdf5File.open(file).root().dataset("d"));
        assertParts(e, file, "/d: filter pipeline message", header, "filter 4",
                "filters 1 (deflate), 2 (shuffle), 3 (Fletcher-32), 32000 (LZF)");
    }

    @Test
    void chunksLargerThanAnArrayHolds() {
        Path file = Path.of("huge-chunks.h5");
        DatasetSpec spec = DatasetSpec.builder(Datatype.INT8, 70_000, 70_000).chunkShape(1, 1)
                .build();
        DataLayoutMessage layout = new DataLayoutMessage(new long[] {70_000, 70_000}, 1,
                ChunkIndexParameters.FixedArray.DEFAULT, 4096);
        List<HeaderMessage> messages = new ArrayList<>(DatasetHeader.messages(spec, layout));
        UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class,
                () -> DatasetHeader.decode(file, 800, messages, null));
        assertParts(e, file, "chunk size of the data layout message", 800,
                "chunks of 4900000000 bytes", "chunks of at most " + DatasetSpec.MAX_CHUNK_BYTES
                        + " bytes");
    }

    /**
     * A fixed array of 2^37 + 1 entries (libhdf5 makes one for a fixed-size dataset of that
     * many chunks, in 2^27 + 1 pages, one more than Quire holds the bitmap of): Quire's of 2,000
     * with its dataspace and header changed, both resealed.
     */
    @Test
    void aFixedArrayOfMorePagesThanQuireHolds() throws IOException {
        Path file = dir.resolve("fixed.h5");
        long header;
        long count = 2000;
        long entries = (1L << 37) + 1;
        try (Hdf5File hdf5 = Hdf5File.create(file)) {
            header = hdf5.root().createDataset("d", DatasetSpec.builder(Datatype.INT8, count)
                    .chunkShape(1).build()).address();
        }
        byte[] bytes = Files.readAllBytes(file);
        ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        byte[] size = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(count)
                .array();
        int dimension = DamagedField.indexOf(bytes, size, (int) header);
        buffer.putLong(dimension, entries);
        buffer.putLong(DamagedField.indexOf(bytes, size, dimension + 8), entries);
        DamagedField.resealObjectHeader(bytes, (int) header);
        int fixedArray = DamagedField.indexOf(bytes, "FAHD".getBytes(), 0);
        buffer.putLong(fixedArray + 8, entries);
        buffer.putInt(fixedArray + 24, JenkinsLookup3.checksum(bytes, fixedArray, 24));
        Files.write(file, bytes);
        UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class,
                () -> Hdf5File.open(file).root().dataset("d"));
        assertParts(e, file, "/d: fixed array header", fixedArray,
                entries + " entries in 134217729 pages of 1024", "at most 1048576 entries per"
                        + " page or unpaged data block, at most 134217728 pages");
    }

    /**
     * An extensible array whose data blocks of 16 elements take pages of 4 (page bits 2):
     * those the index block points at directly are paged, which Quire does not read. Quire's
     * array with the page bits changed in the layout message and the header, both resealed.
     */
    @Test
    void anExtensibleArrayPagingTheDataBlocksOfItsIndexBlock() throws IOException {
        Path file = dir.resolve("paged.h5");
        long header;
        try (Hdf5File hdf5 = Hdf5File.create(file)) {
            Dataset d = hdf5.root().createDataset("d", DatasetSpec.builder(Datatype.INT8, 40)
                    .maxShape(DatasetSpec.UNLIMITED).chunkShape(1).build());
            d.write(new long[] {0}, new long[] {40}, new byte[40]);
            header = d.address();
        }
        byte[] bytes = Files.readAllBytes(file);
        // Layout message: max bits, index block elements, data block pointers, elements, page bits.
        int layout = DamagedField.indexOf(bytes, new byte[] {32, 4, 4, 16, 10}, (int) header);
        bytes[layout + 4] = 2;
        DamagedField.resealObjectHeader(bytes, (int) header);
        int array = DamagedField.indexOf(bytes, "EAHD".getBytes(), 0);
        bytes[array + 11] = 2;
        int checksumAt = array + org.quire.format.hdf5.layout.ExtensibleArrayHeader.SIZE - 4;
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(checksumAt,
                JenkinsLookup3.checksum(bytes, array, checksumAt - array));
        Files.write(file, bytes);
        UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class, () -> {
            try (Hdf5File hdf5 = Hdf5File.open(file)) {
                // Elements 0 to 3 are in the index block, 4 to 19 in its first data block.
                hdf5.root().dataset("d").readBytes(new long[] {10}, new long[] {1});
            }
        });
        assertParts(e, file, "extensible array", array,
                "paged data blocks the index block points at directly",
                "unpaged direct data blocks");
    }

    /** An attribute of a type Quire does not read, asked for by name: the type's fields. */
    @Test
    void anAttributeAskedForByNameKeepsTheFieldsOfItsType() throws IOException {
        Path file = H5pyFixtures.of(H5pyFixtures.COMPAT).file("compat.h5");
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            Group unsupported = hdf5.root().group("unsupported");
            UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class,
                    () -> unsupported.attribute("reference"));
            String prefix = "/unsupported@reference: ";
            assertTrue(e.structure().startsWith(prefix) && e.structure().endsWith(
                    ": datatype message"), e.getMessage());
            assertEquals("reference datatype (class 7)", e.found(), e.getMessage());
            assertTrue(e.supported().startsWith("fixed-point"), e.getMessage());
            assertTrue(e.offset() > 0, e.getMessage());
            assertEquals(file + ": unsupported " + e.structure() + " at offset " + e.offset()
                    + ": found " + e.found() + "; supported: " + e.supported(), e.getMessage());
        }
    }
}
