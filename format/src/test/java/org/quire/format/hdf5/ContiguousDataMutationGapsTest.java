package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.layout.Addresses;
import org.quire.format.hdf5.layout.BlockFile;

/**
 * A contiguous block at the edges of a 100-byte file: from byte 0, ending at its last byte
 * (one byte further is corrupt), and the whole file; the address and size a verifier checks;
 * compact data's; a run longer than one transfer piece.
 * {@link ContiguousDataTest} covers hyperslab reads and blocks well outside the file.
 */
class ContiguousDataMutationGapsTest {

    @TempDir
    Path dir;

    private BlockFile file() throws IOException {
        return ContiguousDataTest.countingFile(dir);
    }

    private static byte[] readAll(ContiguousData data, int bytes) throws IOException {
        byte[] target = new byte[bytes];
        data.read(new long[] {0, 0}, new long[] {bytes / 8, 2}, SelectionTarget.of(
                ByteBuffer.wrap(target), Datatype.INT32), new byte[4], new TransferBuffer());
        return target;
    }

    @Test
    void blocksFromTheFirstToTheLastByteOfTheFileAreInsideIt() throws IOException {
        try (BlockFile blocks = file()) {
            ContiguousData first = ContiguousData.contiguous(blocks, 7, 0, 24,
                    new long[] {3, 2}, 4);
            ContiguousData last = ContiguousData.contiguous(blocks, 7, 76, 24,
                    new long[] {3, 2}, 4);
            assertEquals(List.of(0L, 24L, 76L, 24L), List.of(first.address(), first.size(),
                    last.address(), last.size()));
            assertArrayEquals(bytes(0, 24), readAll(first, 24));
            assertArrayEquals(bytes(76, 24), readAll(last, 24));
            ContiguousData whole = ContiguousData.contiguous(blocks, 7, 0, 100,
                    new long[] {25}, 4);
            assertEquals(100, whole.size());
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> ContiguousData.contiguous(blocks, 7, 77, 24, new long[] {3, 2}, 4));
            assertEquals("contiguous dataset data at 77: address expected a block of 24 bytes"
                    + " inside the file of 100 bytes, found 77", e.structure() + " at "
                    + e.offset() + ": " + e.field() + " expected " + e.expected() + ", found "
                    + e.found());
        }
    }

    /** A block never written: undefined address, the shape's size; compact: no address. */
    @Test
    void theAddressAndSizeAreWhatTheLayoutSays() throws IOException {
        try (BlockFile blocks = file()) {
            ContiguousData unwritten = ContiguousData.contiguous(blocks, 7, Addresses.UNDEFINED,
                    6 * 8, new long[] {2, 3}, 8);
            ContiguousData compact = ContiguousData.compact(blocks, 7, new byte[12],
                    new long[] {2, 3}, 2);
            assertEquals(List.of(Addresses.UNDEFINED, 48L, Addresses.UNDEFINED, 12L),
                    List.of(unwritten.address(), unwritten.size(), compact.address(),
                            compact.size()));
        }
    }

    /**
     * 80,000 ints (320,000 bytes) written whole by Quire, read from element 1 into an array:
     * one run longer than a transfer piece (256 KiB), so read in two pieces.
     */
    @Test
    void aLongRunFromAnElementPastTheFirstReadsInPieces() throws IOException {
        int count = 80_000;
        ByteBuffer elements = ByteBuffer.allocate(4 * count).order(ByteOrder.LITTLE_ENDIAN);
        int[] values = new int[count];
        for (int i = 0; i < count; i++) {
            values[i] = 7 * i - 3;
            elements.putInt(values[i]);
        }
        Path path = dir.resolve("ints.h5");
        try (Hdf5File file = Hdf5File.create(path)) {
            file.root().createDataset("ints", Datatype.INT32, new long[] {count},
                    elements.array());
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            assertArrayEquals(Arrays.copyOfRange(values, 1, count), file.root().dataset("ints")
                    .readInts(new long[] {1}, new long[] {count - 1}));
        }
    }

    private static byte[] bytes(int from, int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (from + i);
        }
        return bytes;
    }
}
