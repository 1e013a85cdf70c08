package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.ChecksumMismatchException;
import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.hdf5.layout.DataspaceSelection;
import org.quire.format.hdf5.layout.JenkinsLookup3;
import org.quire.format.hdf5.layout.LittleEndianWriter;
import org.quire.format.hdf5.layout.VirtualMapping;

/**
 * Damaged virtual dataset mapping blocks (a heap object with a valid lookup3 checksum): regular
 * hyperslabs that would expand into more blocks than memory holds, and coordinates that
 * overflow, a regular hyperslab of rank 0, each refused with one line naming the file, the
 * dataset and the place: the offset in the file of the field that is wrong, counted from where
 * the heap object's bytes start; and a flipped bit, refused at the checksum's offset.
 */
class DamagedVirtualMappingsTest {

    private static final int ENTRIES = 120;

    @TempDir
    Path dir;

    /**
     * 120 entries of 70 bytes, each a regular hyperslab of 2^20 blocks: 8,413 bytes that once
     * expanded into 2^27 blocks (OutOfMemoryError).
     */
    @Test
    void regularHyperslabsExpandingBeyondTheCapAcrossMappingsAreRefusedFast() throws IOException {
        Path file = dir.resolve("expanding.h5");
        byte[] damaged = mappingBlock(ENTRIES, "/a", in -> regular(in, 0, 1, 1L << 20));
        assertEquals(8413, damaged.length);
        long at = writeDamaged(file, damaged);

        // The offset below (entry 1) shows the cap met before any expansion; the timeout only
        // keeps a regression from hanging the suite.
        UnsupportedFormatException e = assertTimeoutPreemptively(Duration.ofSeconds(60),
                () -> assertThrows(UnsupportedFormatException.class, () -> open(file)));
        // Version and entry count (9 bytes), entry 0 (70), entry 1's two names (5).
        assertEquals(file + ": unsupported /v: dataspace selection at offset " + (at + 9 + 70 + 5)
                + ": found a regular hyperslab of more block coordinates "
                + "(blocks x rank; start 0, stride 1, count 1048576, block 1 in dimension 0, rank "
                + "1) than the 0 left after 1048576 in earlier selections; supported: at most 1048576 across a "
                + "virtual dataset's mappings", e.getMessage());
    }

    /** An irregular block from 0 to 2^63 - 1 has 2^63 elements: more than a long counts. */
    @Test
    void irregularBlockEndingAtTheLargestLongIsCorrupt() throws IOException {
        Path file = dir.resolve("irregular.h5");
        long at = writeDamaged(file, mappingBlock(ENTRIES, "/abcdefghi", in -> in.putInt(2)
                .putInt(2).putByte(0).putInt(4 + 8 + 16).putInt(1).putLong(1).putLong(0)
                .putLong(Long.MAX_VALUE)));
        CorruptFileException e = assertThrows(CorruptFileException.class, () -> open(file));
        // Entry 0's names (13 bytes), selection header (13), rank and block count (12): the
        // block starts there.
        assertEquals(file + ": corrupt virtual dataset mappings of /v at offset "
                + (at + 9 + 13 + 13 + 12) + ": hyperslab block expected start <= end < 2^63 - 1, "
                + "found start 0, end " + Long.MAX_VALUE + " in dimension 0", e.getMessage());
    }

    /** Stride 2^62 - 1, count 4: the last block would start beyond 2^63. */
    @Test
    void regularHyperslabWhoseLastBlockOverflowsIsCorrupt() throws IOException {
        Path file = dir.resolve("stride.h5");
        long stride = Long.MAX_VALUE / 2;
        long at = writeDamaged(file, mappingBlock(ENTRIES, "/a", in -> regular(in, 0, stride, 4)));
        CorruptFileException e = assertThrows(CorruptFileException.class, () -> open(file));
        // Entry 0's names (5 bytes): the regular hyperslab is named where its selection starts.
        assertEquals(file + ": corrupt virtual dataset mappings of /v at offset "
                + (at + 9 + 5) + ": regular hyperslab expected a last block ending below 2^63 - 1, found start 0, "
                + "stride " + stride + ", count 4, block 1 in dimension 0", e.getMessage());
    }

    /** A regular hyperslab of rank 0 selects nothing to expand. */
    @Test
    void regularHyperslabOfRankZeroIsCorrupt() throws IOException {
        Path file = dir.resolve("rank0.h5");
        long at = writeDamaged(file, mappingBlock(ENTRIES, "/" + "a".repeat(33), in -> in.putInt(2)
                .putInt(2).putByte(1).putInt(4).putInt(0)));
        CorruptFileException e = assertThrows(CorruptFileException.class, () -> open(file));
        // Entry 0's names (37 bytes): the selection starts there.
        assertEquals(file + ": corrupt virtual dataset mappings of /v at offset "
                + (at + 9 + 37) + ": regular hyperslab expected a rank, found rank 0",
                e.getMessage());
    }

    /** A bit flipped in an entry: the checksum over the block fails, named at its own offset. */
    @Test
    void aFlippedBitFailsTheChecksumAtTheChecksumsOffset() throws IOException {
        Path file = dir.resolve("flipped.h5");
        byte[] damaged = mappingBlock(ENTRIES, "/a", in -> regular(in, 0, 1, 1));
        int stored = ByteBuffer.wrap(damaged, damaged.length - 4, 4)
                .order(ByteOrder.LITTLE_ENDIAN).getInt();
        damaged[20] ^= 1;
        int computed = JenkinsLookup3.checksum(damaged, 0, damaged.length - 4);
        long at = writeDamaged(file, damaged);
        ChecksumMismatchException e = assertThrows(ChecksumMismatchException.class,
                () -> open(file));
        assertEquals(String.format("%s: corrupt virtual dataset mappings of /v at offset %d:"
                + " checksum expected 0x%08x, found 0x%08x", file, at + damaged.length - 4,
                computed, stored), e.getMessage());
    }

    private static void open(Path file) throws IOException {
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            hdf5.root().dataset("v");
        }
    }

    /**
     * Writes {@code file} with virtual dataset /v of 120 mappings of 70 bytes each and puts
     * {@code damaged} (as many bytes) over its mapping block; returns the block's offset.
     */
    private static long writeDamaged(Path file, byte[] damaged) throws IOException {
        List<VirtualMapping> written = new ArrayList<>();
        for (int i = 0; i < ENTRIES; i++) {
            written.add(VirtualMapping.sameFile("/ab", DataspaceSelection.block(new long[] {i},
                    new long[] {1}), DataspaceSelection.block(new long[] {i}, new long[] {1})));
        }
        try (Hdf5File hdf5 = Hdf5File.create(file)) {
            hdf5.root().createVirtualDataset("v", Datatype.INT64, new long[] {ENTRIES}, null,
                    written);
        }
        return replaceMappingBlock(file, VirtualMapping.encode(written), damaged);
    }

    /**
     * Puts {@code replacement} over the first place {@code file} holds the mapping block
     * {@code stored} (as many bytes); returns its offset.
     */
    static long replaceMappingBlock(Path file, byte[] stored, byte[] replacement)
            throws IOException {
        assertEquals(stored.length, replacement.length);
        byte[] bytes = Files.readAllBytes(file);
        for (int at = 0; at + stored.length <= bytes.length; at++) {
            if (Arrays.equals(bytes, at, at + stored.length, stored, 0, stored.length)) {
                System.arraycopy(replacement, 0, bytes, at, replacement.length);
                Files.write(file, bytes);
                return at;
            }
        }
        throw new AssertionError("mapping block not found in " + file);
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

    /** A rank-1 regular version-2 hyperslab of {@code count} blocks of 1. */
    private static void regular(LittleEndianWriter out, long start, long stride, long count) {
        out.putInt(2).putInt(2).putByte(1).putInt(4 + 32).putInt(1)
                .putLong(start).putLong(stride).putLong(count).putLong(1);
    }
}
