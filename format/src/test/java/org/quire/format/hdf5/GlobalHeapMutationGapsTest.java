package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.layout.DataspaceSelection;
import org.quire.format.hdf5.layout.VirtualMapping;
import org.quire.format.storage.Durability;

/**
 * How {@link GlobalHeap} sizes the collections of one call's strings, which collection a
 * reopened file goes on filling, that a string holding a NUL is refused, that a writer reads a
 * virtual dataset's mappings back from its heap, and that collections it holds only while
 * storing or reading leave the metadata cache within its bound. GlobalHeapSharingTest counts
 * collections across many calls; these look at one call's sizes, read from the file.
 */
class GlobalHeapMutationGapsTest {

    @TempDir
    Path dir;

    /** The sizes of the file's collections (the 8 bytes after "GCOL", version and reserved). */
    private static List<Long> collectionSizes(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        List<Long> sizes = new ArrayList<>();
        for (int at : GlobalHeapSharingTest.collections(file)) {
            sizes.add(ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getLong(at + 8));
        }
        return sizes;
    }

    private static long[] all(int n) {
        return new long[] {n};
    }

    /**
     * One call's strings: the first collection is sized for all of them that need no
     * collection of their own (the minimum of 4,096 bytes for the first, then 16 bytes of
     * object header plus the text padded to 8 for each other: 4,096 + 3 x 120), the 5,000-byte
     * string gets one of its own (16 + 16 + 5,016), and every string reads back.
     */
    @Test
    void aCallsCollectionIsSizedForItsStringsExceptOneTooLarge() throws IOException {
        Path file = dir.resolve("sized.h5");
        List<String> strings = List.of("a", "x".repeat(5000), "y".repeat(100), "z".repeat(100),
                "w".repeat(100));
        try (Hdf5File hdf5 = Hdf5File.create(file)) {
            hdf5.root().createStringDataset("s", all(5), strings);
        }
        assertEquals(List.of(4096L + 3 * 120, 5048L), collectionSizes(file));
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            assertEquals(strings, hdf5.root().dataset("s").readStrings(new long[] {0}, all(5)));
        }
    }

    /**
     * 512 strings of 2,024 bytes (2,040 each in a collection) after a first short one add up
     * to exactly 1 MiB, the largest collection one call starts: all of them, and one more that
     * fits in the room the first string's minimum left, go into that one collection.
     */
    @Test
    void stringsAddingUpToExactlyOneMebibyteShareOneCollection() throws IOException {
        Path file = dir.resolve("mebibyte.h5");
        List<String> strings = new ArrayList<>(Collections.nCopies(514, "m".repeat(2024)));
        strings.set(0, "a");
        try (Hdf5File hdf5 = Hdf5File.create(file)) {
            hdf5.root().createStringDataset("s", all(514), strings);
        }
        assertEquals(List.of((long) GlobalHeap.COLLECTION_TARGET_SIZE), collectionSizes(file));
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            assertEquals(strings, hdf5.root().dataset("s").readStrings(new long[] {0},
                    all(514)));
        }
    }

    /**
     * A file with two collections with free space (the first, then a second one call started
     * when the first was full): reopened for writing, the strings of both read in either
     * order, a new string goes into the one at the higher address.
     */
    @Test
    void aReopenedWriterFillsTheCollectionAtTheHighestAddress() throws IOException {
        Path file = dir.resolve("two.h5");
        List<String> thousands = Collections.nCopies(10, "k".repeat(1000));
        try (Hdf5File hdf5 = Hdf5File.create(file)) {
            hdf5.root().setAttribute(Attribute.of("first", "one"));
            hdf5.root().createStringDataset("s", all(10), thousands);
        }
        List<Integer> before = GlobalHeapSharingTest.collections(file);
        assertEquals(2, before.size());
        for (boolean highFirst : new boolean[] {true, false}) {
            Path copy = dir.resolve("two-" + highFirst + ".h5");
            Files.copy(file, copy);
            String added = (highFirst ? "h" : "l").repeat(500);
            try (Hdf5File hdf5 = Hdf5File.openForWriting(copy)) {
                // The dataset's last string is in the second collection, its first in the first.
                Dataset s = hdf5.root().dataset("s");
                List<String> read = new ArrayList<>();
                for (long i : highFirst ? new long[] {9, 0} : new long[] {0, 9}) {
                    read.addAll(s.readStrings(new long[] {i}, all(1)));
                }
                assertEquals(List.of(thousands.get(0), thousands.get(0)), read);
                hdf5.root().setAttribute(Attribute.of("added", added));
            }
            assertEquals(before, GlobalHeapSharingTest.collections(copy));
            int at = DamagedField.indexOf(Files.readAllBytes(copy),
                    added.getBytes(StandardCharsets.US_ASCII), 0);
            assertTrue(at > before.get(1), "the new string at " + at + ", collections at "
                    + before + " (read high first: " + highFirst + ")");
        }
    }

    /**
     * A string holding a NUL is refused, naming which string and where, before anything is
     * stored: no dataset, and the next strings are stored.
     */
    @Test
    void aStringHoldingANulIsRefused() throws IOException {
        Path file = dir.resolve("nul.h5");
        try (Hdf5File hdf5 = Hdf5File.create(file)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> hdf5.root().createStringDataset("s", all(3),
                            List.of("ok", "ab\u0000c", "d")));
            assertEquals("string 1 holds a NUL byte at 2: a variable-length string ends at its"
                    + " first NUL for libhdf5's readers (h5py refuses to write one too)",
                    e.getMessage());
            assertFalse(hdf5.root().contains("s"));
            hdf5.root().createStringDataset("t", all(1), List.of("fine"));
        }
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            assertEquals(List.of("t"), hdf5.root().memberNames());
            assertEquals(List.of("fine"), hdf5.root().dataset("t").readStrings(new long[] {0},
                    all(1)));
        }
    }

    /** A writer that reopened the file reads a virtual dataset's mappings from its heap. */
    @Test
    void aWriterReadsAVirtualDatasetsMappingsFromItsHeap() throws IOException {
        Path file = dir.resolve("virtual.h5");
        List<VirtualMapping> mappings = List.of(
                VirtualMapping.sameFile("/a", DataspaceSelection.block(new long[] {0},
                        new long[] {2}), DataspaceSelection.block(new long[] {0}, new long[] {2})),
                VirtualMapping.sameFile("/b", DataspaceSelection.block(new long[] {1},
                        new long[] {2}), DataspaceSelection.block(new long[] {2}, new long[] {2})));
        try (Hdf5File hdf5 = Hdf5File.create(file)) {
            hdf5.root().createVirtualDataset("v", Datatype.INT64, all(4), null, mappings);
        }
        try (Hdf5File hdf5 = Hdf5File.openForWriting(file)) {
            assertEquals(mappings, hdf5.root().dataset("v").virtualMappings());
        }
    }

    /**
     * Collections are held only while a call stores or reads strings: with a metadata cache of
     * 64 KiB, 40 strings of 5,000 bytes (a collection of 5,048 bytes each, 200 KiB) written one
     * call each and then read again leave the cache within its bound once flushed.
     */
    @Test
    void collectionsAreReleasedAfterStoringAndReading() throws IOException {
        Path file = dir.resolve("bounded.h5");
        long bound = 16 * org.quire.format.hdf5.cache.MetadataCache.BOOKKEEPING_BYTES_PER_ENTRY
                + (64 << 10);
        WriteOptions options = new WriteOptions(Durability.ON_CLOSE, bound);
        try (Hdf5File hdf5 = Hdf5File.create(file, options)) {
            for (int i = 0; i < 40; i++) {
                hdf5.root().createStringDataset("s" + i, all(1),
                        List.of(Character.toString('A' + i).repeat(5000)));
                hdf5.flush();
            }
            assertTrue(hdf5.cache().accountedBytes() <= bound, hdf5.cache().accountedBytes()
                    + " bytes cached after writing, bound " + bound);
        }
        try (Hdf5File hdf5 = Hdf5File.openForWriting(file, options)) {
            for (int i = 0; i < 40; i++) {
                assertEquals(List.of(Character.toString('A' + i).repeat(5000)),
                        hdf5.root().dataset("s" + i).readStrings(new long[] {0}, all(1)));
            }
            assertTrue(hdf5.cache().accountedBytes() <= bound, hdf5.cache().accountedBytes()
                    + " bytes cached after reading, bound " + bound);
        }
    }
}
