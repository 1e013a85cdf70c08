package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.hdf5.layout.DataspaceSelection;
import org.quire.format.hdf5.layout.LittleEndianWriter;
import org.quire.format.hdf5.layout.VirtualMapping;

/**
 * Damaged virtual dataset mapping blocks (a heap object with a valid lookup3 checksum): regular
 * hyperslabs that would expand into more blocks than memory holds, and coordinates that
 * overflow, each refused with one line naming the file and the place.
 */
class DamagedVirtualMappingsTest {

    private static final int ENTRIES = 120;

    @TempDir
    Path dir;

    /**
     * 120 entries of 70 bytes, each a regular hyperslab of 2^20 blocks: 8,413 bytes that once
     * expanded into 2^27 blocks (OutOfMemoryError). Written over the mapping block of a virtual
     * dataset Quire wrote with as many entries of the same size.
     */
    @Test
    void regularHyperslabsExpandingBeyondTheCapAcrossMappingsAreRefusedFast() throws IOException {
        Path file = dir.resolve("expanding.h5");
        List<VirtualMapping> written = new ArrayList<>();
        for (int i = 0; i < ENTRIES; i++) {
            written.add(VirtualMapping.sameFile("/ab", DataspaceSelection.block(new long[] {i},
                    new long[] {1}), DataspaceSelection.block(new long[] {i}, new long[] {1})));
        }
        try (Hdf5File hdf5 = Hdf5File.create(file)) {
            hdf5.root().createVirtualDataset("v", Datatype.INT64, new long[] {ENTRIES}, null,
                    written);
        }
        byte[] damaged = mappingBlock(ENTRIES, "/a", in -> regular(in, 1L << 20));
        assertEquals(8413, damaged.length);
        replace(file, VirtualMapping.encode(written), damaged);

        long began = System.nanoTime();
        UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class, () -> {
            try (Hdf5File hdf5 = Hdf5File.open(file)) {
                hdf5.root().dataset("v");
            }
        });
        double seconds = (System.nanoTime() - began) / 1e9;
        assertTrue(seconds < 2, seconds + " s");
        String message = e.getMessage();
        assertEquals(1, message.lines().count(), message);
        assertTrue(message.startsWith(file + ": unsupported /v: dataspace selection at offset "),
                message);
        assertTrue(message.contains("more than 0 more block coordinates (blocks x rank; start 0, "
                + "stride 1, count 1048576, block 1 in dimension 0, rank 1, after 1048576 from "
                + "earlier selections); supported: at most 1048576 across a virtual dataset's "
                + "mappings"), message);
    }

    /** An irregular block from 0 to 2^63 - 1 has 2^63 elements: more than a long counts. */
    @Test
    void irregularBlockEndingAtTheLargestLongIsCorrupt() {
        byte[] bytes = mappingBlock(1, "/a", in -> in.putInt(2).putInt(2).putByte(0)
                .putInt(4 + 8 + 16).putInt(1).putLong(1).putLong(0).putLong(Long.MAX_VALUE));
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> VirtualMapping.decode(Path.of("vds.h5"), 4096, bytes));
        assertEquals("vds.h5: corrupt virtual dataset mappings at offset " + (4096 + 9 + 5 + 25)
                + ": hyperslab block expected start <= end < 2^63 - 1, found start 0, end "
                + Long.MAX_VALUE + " in dimension 0", e.getMessage());
    }

    /** Stride 2^62 - 1, count 4: the last block would start beyond 2^63. */
    @Test
    void regularHyperslabWhoseLastBlockOverflowsIsCorrupt() {
        long stride = Long.MAX_VALUE / 2;
        byte[] bytes = mappingBlock(1, "/a", in -> in.putInt(2).putInt(2).putByte(1)
                .putInt(4 + 32).putInt(1).putLong(0).putLong(stride).putLong(4).putLong(1));
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> VirtualMapping.decode(Path.of("vds.h5"), 4096, bytes));
        assertEquals("vds.h5: corrupt virtual dataset mappings at offset " + (4096 + 9 + 5)
                + ": regular hyperslab expected a last block ending below 2^63 - 1, found start 0, "
                + "stride " + stride + ", count 4, block 1 in dimension 0", e.getMessage());
    }

    /**
     * A mapping block of {@code entries} entries, each from dataset {@code name} of the same
     * file: the source selection {@code source} writes, the virtual selection "all".
     */
    private static byte[] mappingBlock(int entries, String name,
                                       Consumer<LittleEndianWriter> source) {
        LittleEndianWriter out = new LittleEndianWriter();
        out.putByte(0).putLength(entries);
        for (int i = 0; i < entries; i++) {
            out.putBytes(new byte[] {'.', 0}).putBytes(name.getBytes()).putByte(0);
            source.accept(out);
            out.putInt(3).putInt(1).putInt(0).putInt(0);
        }
        return out.putChecksumFrom(0).toByteArray();
    }

    /** A rank-1 regular version-2 hyperslab of {@code count} blocks of 1 from 0. */
    private static void regular(LittleEndianWriter out, long count) {
        out.putInt(2).putInt(2).putByte(1).putInt(4 + 32).putInt(1)
                .putLong(0).putLong(1).putLong(count).putLong(1);
    }

    private static void replace(Path file, byte[] stored, byte[] replacement) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        int at = -1;
        for (int i = 0; i + stored.length <= bytes.length && at < 0; i++) {
            if (Arrays.equals(bytes, i, i + stored.length, stored, 0, stored.length)) {
                at = i;
            }
        }
        assertTrue(at >= 0, "mapping block not found in " + file);
        System.arraycopy(replacement, 0, bytes, at, replacement.length);
        Files.write(file, bytes);
    }
}
