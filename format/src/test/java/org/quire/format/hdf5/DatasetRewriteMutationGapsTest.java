package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.layout.Addresses;
import org.quire.format.hdf5.layout.DataspaceMessage;
import org.quire.format.hdf5.layout.HeaderMessage;

/**
 * Changes to datasets of a file reopened for writing: a dataset whose dataspace message Quire
 * would not encode to the same bytes reads but refuses every change; shrinking in two steps
 * over chunks kept beyond the shape; a closed file refusing reads; an empty dataset written
 * whole owning no block.
 */
class DatasetRewriteMutationGapsTest {

    @TempDir
    Path dir;

    /**
     * legacy.h5's /chunked/resizable (10000 int64 in chunks of 2, h5py's default format) with
     * one of the five reserved bytes of its version-1 dataspace message set: libhdf5 ignores
     * them, Quire writes them as zeros.
     */
    @Test
    void aDatasetWhoseDataspaceQuireWouldEncodeOtherwiseReadsButRefusesChanges()
            throws IOException {
        Path path = H5pyFixtures.copy(H5pyFixtures.LEGACY, "legacy.h5", dir);
        long[] before;
        long body;
        try (Hdf5File file = Hdf5File.open(path)) {
            Dataset d = file.root().group("chunked").dataset("resizable");
            before = d.readLongs(new long[] {0}, new long[] {6});
            body = file.headerMessages(d.address()).stream()
                    .filter(m -> m.type() == DataspaceMessage.TYPE)
                    .mapToLong(HeaderMessage::bodyAddress).findFirst().orElseThrow();
        }
        byte[] bytes = Files.readAllBytes(path);
        assertEquals(1, bytes[(int) body], "a version-1 dataspace message");
        bytes[(int) body + 4] = 1;
        Files.write(path, bytes);
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            Dataset d = file.root().group("chunked").dataset("resizable");
            String expected = path + ": dataset /chunked/resizable cannot be changed: its message"
                    + " of type 1 at offset " + body + " is encoded otherwise than Quire writes "
                    + "it (version 1, 24 bytes); it is read as it is";
            long[] shape = d.shape();
            assertEquals(expected, assertThrows(UnsupportedOperationException.class,
                    () -> d.extend(shape[0] + 1)).getMessage());
            assertEquals(expected, assertThrows(UnsupportedOperationException.class,
                    () -> d.setExtent(1)).getMessage());
            assertEquals(expected, assertThrows(UnsupportedOperationException.class,
                    () -> d.write(new long[] {0}, new long[] {1}, new long[] {5})).getMessage());
            assertArrayEquals(shape, d.shape());
            assertArrayEquals(before, d.readLongs(new long[] {0}, new long[] {6}));
            // Its neighbour, encoded as Quire encodes it, still grows.
            Dataset sheet = file.root().group("chunked").dataset("sheet");
            sheet.write(new long[] {0, 0}, new long[] {1, 1}, new int[] {-4});
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            assertArrayEquals(new int[] {-4}, file.root().group("chunked").dataset("sheet")
                    .readInts(new long[] {0, 0}, new long[] {1, 1}));
        }
    }

    /**
     * Rows cut first keep their chunks (holding the fill value) beyond the shape; cutting columns
     * next passes over those chunks, which then lie wholly outside the rows left.
     */
    @Test
    void shrinkingOneDimensionAfterAnotherKeepsTheCornerLeft() throws IOException {
        Path path = dir.resolve("steps.h5");
        long[] values = new long[8 * 6];
        for (int i = 0; i < values.length; i++) {
            values[i] = i + 1;
        }
        try (Hdf5File file = Hdf5File.create(path)) {
            Dataset d = file.root().createDataset("d", DatasetSpec.builder(Datatype.INT64, 8, 6)
                    .maxShape(8, 6).chunkShape(4, 3).fillValue(-1L).build());
            d.write(new long[] {0, 0}, new long[] {8, 6}, values);
            d.setExtent(2, 6);
            d.setExtent(2, 2);
            d.setExtent(8, 6);
        }
        long[] expected = new long[8 * 6];
        java.util.Arrays.fill(expected, -1);
        for (int r = 0; r < 2; r++) {
            for (int c = 0; c < 2; c++) {
                expected[r * 6 + c] = values[r * 6 + c];
            }
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            assertArrayEquals(expected, file.root().dataset("d").readLongs(new long[] {0, 0},
                    new long[] {8, 6}));
        }
    }

    @Test
    void aClosedFileRefusesReads() throws IOException {
        Path path = dir.resolve("closed.h5");
        Hdf5File file = Hdf5File.create(path);
        Dataset chunked = file.root().createDataset("d", DatasetSpec.builder(Datatype.INT64, 4)
                .chunkShape(2).build());
        Dataset contiguous = file.root().createDataset("c", Datatype.INT64, new long[] {1},
                new byte[8]);
        file.close();
        assertEquals(path + " is closed", assertThrows(IllegalStateException.class,
                () -> chunked.readLongs(new long[] {0}, new long[] {4})).getMessage());
        assertEquals(path + " is closed", assertThrows(IllegalStateException.class,
                () -> contiguous.readLongs(new long[] {0}, new long[] {1})).getMessage());
        assertEquals(path + " is closed", assertThrows(IllegalStateException.class,
                () -> chunked.isChunkWritten(0)).getMessage());
    }

    /** As libhdf5: an empty dataset's layout message names no block (undefined address). */
    @Test
    void anEmptyDatasetWrittenWholeOwnsNoBlock() throws IOException {
        Path path = dir.resolve("empty.h5");
        try (Hdf5File file = Hdf5File.create(path)) {
            file.root().createDataset("e", Datatype.INT32, new long[] {0, 3}, new byte[0]);
            file.root().createDataset("one", Datatype.INT32, new long[] {1}, new byte[4]);
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            Dataset e = file.root().dataset("e");
            assertArrayEquals(new long[] {0, 3}, e.shape());
            assertFalse(Addresses.isDefined(e.contiguousData().address()));
            assertEquals(0, e.readInts(new long[] {0, 0}, new long[] {0, 3}).length);
            assertTrue(Addresses.isDefined(file.root().dataset("one").contiguousData()
                    .address()));
        }
    }
}
