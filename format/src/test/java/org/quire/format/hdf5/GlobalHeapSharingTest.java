package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.layout.GlobalHeapCollection;

/**
 * The strings of text attributes and string datasets share global heap collections (docs/hdf5.md,
 * "Types and what h5py writes"): a collection is filled before the next one starts, a string
 * larger than a collection gets one of its own, and a file reopened for writing goes on filling
 * its last collection.
 */
class GlobalHeapSharingTest {

    private static final byte[] GCOL = "GCOL".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path dir;

    /** The addresses of the collections in {@code file}: where its "GCOL" signatures are. */
    static List<Integer> collections(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        List<Integer> found = new ArrayList<>();
        for (int i = 0; i + GCOL.length <= bytes.length; i++) {
            if (Arrays.equals(bytes, i, i + GCOL.length, GCOL, 0, GCOL.length)) {
                found.add(i);
            }
        }
        return found;
    }

    private static String text(int i) {
        return "value " + i;
    }

    /**
     * 1,000 text attributes of 7 to 9 bytes take 24 or 32 bytes of a collection each (16-byte
     * object header, the string padded to a multiple of 8): 31,200 bytes, which 8 collections
     * of 4,096 bytes (4,080 after the collection header) hold.
     */
    @Test
    void aThousandTextAttributesShareEightCollections() throws IOException {
        Path file = dir.resolve("attributes.h5");
        try (Hdf5File hdf5 = Hdf5File.create(file)) {
            for (int i = 0; i < 1000; i++) {
                hdf5.root().setAttribute(Attribute.of("a" + i, text(i)));
            }
            // Read back before any flush: the strings come from the collections in the cache.
            assertEquals(text(999), hdf5.root().attribute("a999").string());
        }
        List<Integer> collections = collections(file);
        assertEquals(8, collections.size(), "file of " + Files.size(file) + " bytes");
        // 4,164,645 bytes with a collection per attribute; the headers' messages are the rest.
        assertTrue(Files.size(file) < 110_000, "file of " + Files.size(file) + " bytes");
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            for (int i = 0; i < 1000; i++) {
                assertEquals(text(i), hdf5.root().attribute("a" + i).string());
            }
        }
    }

    /**
     * A string larger than a collection gets one of its own; the strings after it go on in the
     * current collection's free space, and a string dataset read before any flush reads them
     * from the cache.
     */
    @Test
    void aStringLargerThanACollectionGetsOneOfItsOwn() throws IOException {
        Path file = dir.resolve("large.h5");
        String large = "x".repeat(3 * GlobalHeapCollection.MINIMUM_SIZE);
        try (Hdf5File hdf5 = Hdf5File.create(file)) {
            hdf5.root().setAttribute(Attribute.of("small", "s"));
            hdf5.root().setAttribute(Attribute.of("large", large));
            Dataset words = hdf5.root().createStringDataset("words", new long[] {3},
                    List.of("alpha", "beta", "gamma"));
            assertEquals(List.of("alpha", "beta", "gamma"),
                    words.readStrings(new long[] {0}, new long[] {3}));
        }
        assertEquals(2, collections(file).size());
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            assertEquals("s", hdf5.root().attribute("small").string());
            assertEquals(large, hdf5.root().attribute("large").string());
            assertEquals(List.of("alpha", "beta", "gamma"), hdf5.root().dataset("words")
                    .readStrings(new long[] {0}, new long[] {3}));
        }
    }

    /**
     * Reopened for writing, the file's last collection (read with the root's attributes) takes
     * the new strings at its free space: no new collection until it is full.
     */
    @Test
    void aReopenedFileGoesOnFillingItsLastCollection() throws IOException {
        Path file = dir.resolve("reopened.h5");
        try (Hdf5File hdf5 = Hdf5File.create(file)) {
            hdf5.root().setAttribute(Attribute.of("first", "one"));
        }
        List<Integer> before = collections(file);
        assertEquals(1, before.size());
        try (Hdf5File hdf5 = Hdf5File.openForWriting(file)) {
            hdf5.root().setAttribute(Attribute.of("second", "two"));
            hdf5.root().createGroup("g").setAttribute(Attribute.of("third", "three"));
        }
        assertEquals(before, collections(file));
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            assertEquals("one", hdf5.root().attribute("first").string());
            assertEquals("two", hdf5.root().attribute("second").string());
            assertEquals("three", hdf5.root().group("g").attribute("third").string());
        }
    }
    /**
     * Reopened for writing, a heap ID pointing at a structure the writer's cache holds as
     * something else (here the root's own header) is corrupt at that address, naming the
     * attribute, and the root and its other attributes stay readable.
     */
    @Test
    void aHeapIdPointingAtAnotherCachedStructureIsCorrupt() throws IOException {
        Path file = dir.resolve("misdirected.h5");
        long root = DamagedField.stringAttributePointingAtTheRootHeader(file);
        try (Hdf5File hdf5 = Hdf5File.openForWriting(file)) {
            org.quire.format.CorruptFileException e = org.junit.jupiter.api.Assertions
                    .assertThrows(org.quire.format.CorruptFileException.class,
                            () -> hdf5.root().attribute("t"));
            assertEquals("global heap collection", e.structure(), e.getMessage());
            assertEquals(root, e.offset(), e.getMessage());
            // Found in the cache, not read from the file (whose bytes there are "OHDR").
            assertEquals("a global heap collection", e.expected(), e.getMessage());
            assertTrue(e.getMessage().contains("/@t"), e.getMessage());
            assertEquals(5, hdf5.root().attribute("n").longs()[0]);
        }
    }
}
