package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.NoSuchElementException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.layout.AttributeInfoMessage;
import org.quire.format.hdf5.layout.HeaderMessage;

/**
 * {@link Hdf5Object}'s attributes as a user meets them: each unreadable one listed with its
 * reason while the others read; one with damaged strings failing the listing but not the
 * lookup of the others; and every change refused with one line naming the file, the object and
 * the attribute (read-only, closed, SWMR writing, a version-1 header, dense storage, a name
 * taken or missing), the refused change leaving the attribute as it was.
 */
class AttributeAccessMutationGapsTest {

    @TempDir
    Path dir;

    /** A new group /g with {@code attributes}, set in this order. */
    private static Group groupWith(Hdf5File file, Attribute... attributes) throws IOException {
        Group group = file.root().createGroup("g");
        for (Attribute attribute : attributes) {
            group.setAttribute(attribute);
        }
        return group;
    }

    /**
     * Reopened read-only, /g lists {@code names} and its attribute {@code name} reads {@code
     * values}.
     */
    private static void assertReopenedG(Path path, List<String> names, String name,
                                        long... values) throws IOException {
        try (Hdf5File file = Hdf5File.open(path)) {
            Group group = file.root().group("g");
            assertEquals(names, group.attributeNames());
            assertArrayEquals(values, group.attribute(name).longs());
        }
    }

    /** h5py's attributes Quire does not read: listed with the reason, the readable one read. */
    @Test
    void unreadableAttributesAreListedWithTheirReasonAndTheOthersRead() throws IOException {
        try (Hdf5File file = Hdf5File.open(H5pyFixtures.of(H5pyFixtures.COMPAT)
                .file("compat.h5"))) {
            Group group = file.root().group("unsupported");
            assertEquals(List.of("fine", "reference", "empty", "vlen_record", "int128"),
                    group.attributeNames());
            List<Attribute> readable = group.attributes();
            assertEquals(List.of("fine"), readable.stream().map(Attribute::name).toList());
            assertArrayEquals(new long[] {12}, readable.get(0).longs());
            List<Unsupported> unsupported = group.unsupportedAttributes();
            assertEquals(List.of("reference", "empty", "vlen_record", "int128"),
                    unsupported.stream().map(Unsupported::name).toList());
            List<String> found = List.of("found reference datatype (class 7);",
                    "found dataspace type 2 (a null dataspace: no elements);",
                    "found variable-length string member \"name\" of a compound;",
                    "found 16-byte integer (1 to 8 bytes are read);");
            for (int i = 0; i < found.size(); i++) {
                String reason = unsupported.get(i).reason();
                assertTrue(reason.startsWith("attribute \"" + unsupported.get(i).name()
                        + "\" (message at offset ") && reason.contains(found.get(i)), reason);
            }
            assertEquals("/unsupported has no attribute \"absent\"", assertThrows(
                    NoSuchElementException.class, () -> group.attribute("absent")).getMessage());
        }
    }

    /**
     * The strings of attribute "t" point at the root's object header instead of their global
     * heap collection: listing the attributes fails naming /@t, the names are still listed and
     * "n" still reads; a damage is no unsupported attribute.
     */
    @Test
    void damagedStringsFailTheListingNamingTheAttributeAndLeaveTheOthersReadable()
            throws IOException {
        Path path = dir.resolve("damaged.h5");
        long root = DamagedField.stringAttributePointingAtTheRootHeader(path);
        try (Hdf5File file = Hdf5File.open(path)) {
            Group group = file.root();
            CorruptFileException e = assertThrows(CorruptFileException.class, group::attributes);
            assertTrue(e.getMessage().contains("/@t"), e.getMessage());
            assertEquals(root, e.offset(), e.getMessage());
            assertEquals(List.of("t", "n"), group.attributeNames());
            assertEquals(List.of(), group.unsupportedAttributes());
            assertArrayEquals(new long[] {5}, group.attribute("n").longs());
        }
    }

    /**
     * A new object gets one attribute info message (libhdf5 counts a version-2 header's
     * attributes through it), however many attributes it has, and the attributes list in the
     * order they were set.
     */
    @Test
    void attributesAddOneAttributeInfoMessageAndListInTheOrderSet() throws IOException {
        try (Hdf5File file = Hdf5File.create(dir.resolve("info.h5"))) {
            Group group = groupWith(file, Attribute.of("zeta", 1L), Attribute.of("alpha", "text"),
                    Attribute.of("mid", 2.5));
            long infos = group.header.messages().stream().map(HeaderMessage::type)
                    .filter(type -> type == AttributeInfoMessage.TYPE).count();
            assertEquals(1, infos);
            assertEquals(List.of("zeta", "alpha", "mid"), group.attributeNames());
            assertEquals("/g already has attribute \"alpha\"", assertThrows(
                    IllegalArgumentException.class, () -> group.setAttribute(
                            Attribute.of("alpha", 3L))).getMessage());
            assertEquals("text", group.attribute("alpha").string());
        }
    }

    /** Every change of a file opened read-only, or closed, is refused naming the file. */
    @Test
    void aReadOnlyOrClosedFileRefusesEveryAttributeChange() throws IOException {
        Path path = dir.resolve("ro.h5");
        Hdf5File written = Hdf5File.create(path);
        Group root = written.root();
        root.setAttribute(Attribute.of("n", 1L));
        written.close();
        Attribute two = Attribute.of("n", 2L);
        assertEquals(path + " is closed", assertThrows(IllegalStateException.class,
                () -> root.setAttribute(Attribute.of("m", 1L))).getMessage());
        assertEquals(path + " is closed", assertThrows(IllegalStateException.class,
                () -> root.rewriteAttribute(two)).getMessage());
        try (Hdf5File file = Hdf5File.open(path)) {
            Group group = file.root();
            String readOnly = path + " is open read-only";
            assertEquals(readOnly, assertThrows(IllegalStateException.class,
                    () -> group.setAttribute(Attribute.of("m", 1L))).getMessage());
            assertEquals(readOnly, assertThrows(IllegalStateException.class,
                    () -> group.deleteAttribute("n")).getMessage());
            assertEquals(readOnly, assertThrows(IllegalStateException.class,
                    () -> group.rewriteAttribute(two)).getMessage());
            assertArrayEquals(new long[] {1}, group.attribute("n").longs());
        }
    }

    /**
     * While SWMR writing, adding and deleting attributes and rewriting strings are refused
     * naming the change; a fixed-size value is rewritten in place.
     */
    @Test
    void swmrWritingRefusesAttributeChangesButFixedSizeRewrites() throws IOException {
        Path path = dir.resolve("swmr.h5");
        try (Hdf5File file = Hdf5File.create(path)) {
            Group group = groupWith(file, Attribute.of("n", 1L), Attribute.of("s", "one"));
            file.startSwmrWrite();
            String refused = " while the file is open for SWMR writing";
            assertTrue(assertThrows(SwmrWriteRefusedException.class,
                    () -> group.setAttribute(Attribute.of("m", 1L))).getMessage().startsWith(
                    path + ": cannot add attribute \"m\" to /g" + refused));
            assertTrue(assertThrows(SwmrWriteRefusedException.class,
                    () -> group.deleteAttribute("n")).getMessage().startsWith(
                    path + ": cannot delete attribute \"n\" of /g" + refused));
            assertTrue(assertThrows(SwmrWriteRefusedException.class,
                    () -> group.rewriteAttribute(Attribute.of("s", "two"))).getMessage()
                    .startsWith(path + ": cannot rewrite string attribute \"s\" of /g"
                            + refused));
            group.rewriteAttribute(Attribute.of("n", 7L));
            assertEquals("one", group.attribute("s").string());
        }
        assertReopenedG(path, List.of("n", "s"), "n", 7);
    }

    /**
     * libhdf5's version-1 header (h5py's default format): adding and deleting are refused
     * naming the header's address; rewriting a value keeps the message's size and reads back.
     */
    @Test
    void aVersion1HeaderRefusesAddAndDeleteButRewritesInPlace() throws IOException {
        Path path = H5pyFixtures.copy(H5pyFixtures.LEGACY, "legacy.h5", dir);
        byte[] value = {0, 0, 1, 2};
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            Group group = file.root().group("nested").group("level_1");
            String version1 = "/nested/level_1: its object header at " + group.address()
                    + " is version 1 (libhdf5's default format), which Quire changes in place "
                    + "only; rewriteAttribute replaces the value of an existing attribute";
            assertEquals(path + ": cannot add attribute \"x\" to " + version1, assertThrows(
                    UnsupportedOperationException.class, () -> group.setAttribute(
                            Attribute.of("x", 1L))).getMessage());
            assertEquals(path + ": cannot delete attribute \"scalar_0\" of " + version1,
                    assertThrows(UnsupportedOperationException.class,
                            () -> group.deleteAttribute("scalar_0")).getMessage());
            Attribute old = group.attribute("scalar_2");
            group.rewriteAttribute(new Attribute("scalar_2", old.type(), new long[0], value));
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            Group group = file.root().group("nested").group("level_1");
            assertArrayEquals(value, group.attribute("scalar_2").data());
            assertEquals(14, group.attributeNames().size());
        }
    }

    /**
     * Attributes libhdf5 stores densely: adding and deleting are refused naming the storage;
     * a rewrite finds no attribute in the object header; they still read.
     */
    @Test
    void denseAttributesRefuseChangesAndStillRead() throws IOException {
        Path path = H5pyFixtures.copy(H5pyFixtures.DENSE, "dense.h5", dir);
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            Group group = file.root().group("attributes");
            assertEquals(path + ": cannot add attribute \"x\" to /attributes: its attributes "
                    + "are stored densely (fractal heap and version-2 B-trees); Quire adds "
                    + "attributes to objects storing them in the object header only",
                    assertThrows(UnsupportedOperationException.class,
                            () -> group.setAttribute(Attribute.of("x", 1L))).getMessage());
            assertEquals(path + ": cannot delete attribute \"large\" of /attributes: its "
                    + "attributes are stored densely; Quire deletes attributes stored in the "
                    + "object header only", assertThrows(UnsupportedOperationException.class,
                    () -> group.deleteAttribute("large")).getMessage());
            assertEquals("/attributes has no attribute \"scalar_le_i4\" in its object header "
                    + "to rewrite", assertThrows(NoSuchElementException.class,
                    () -> group.rewriteAttribute(Attribute.scalar("scalar_le_i4",
                            Datatype.INT32, 5))).getMessage());
            assertArrayEquals(new long[] {7}, group.attribute("scalar_le_i4").longs());
        }
    }

    /**
     * An attribute Quire does not read is listed but cannot be rewritten; deleting one that
     * does not exist names the object.
     */
    @Test
    void anUnreadableAttributeIsNotRewrittenAndAMissingOneNotDeleted() throws IOException {
        Path path = H5pyFixtures.copy(H5pyFixtures.COMPAT, "compat_latest.h5", dir);
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            Group group = file.root().group("unsupported");
            assertEquals("/unsupported has no attribute \"reference\" in its object header to "
                    + "rewrite", assertThrows(NoSuchElementException.class,
                    () -> group.rewriteAttribute(Attribute.of("reference", 1L))).getMessage());
            assertEquals("/unsupported has no attribute \"absent\"", assertThrows(
                    NoSuchElementException.class, () -> group.deleteAttribute("absent"))
                    .getMessage());
        }
    }

    /**
     * Strings rewritten keep the stored type (ASCII here, given as UTF-8), in memory and in the
     * file; strings of another shape are refused.
     */
    @Test
    void rewrittenStringsKeepTheStoredTypeAndShape() throws IOException {
        Path path = dir.resolve("strings.h5");
        Datatype ascii = new Datatype.VariableLengthStringType(
                Datatype.StringPadding.NULL_TERMINATED, false);
        try (Hdf5File file = Hdf5File.create(path)) {
            Group root = file.root();
            root.setAttribute(Attribute.ofStrings("pair", ascii, new long[] {2},
                    List.of(new byte[] {'a'}, new byte[] {'b'})));
            root.setAttribute(Attribute.ofStrings("one", ascii, new long[0],
                    List.of(new byte[] {'x'})));
            assertThrows(IllegalArgumentException.class, () -> root.rewriteAttribute(
                    Attribute.of("pair", "c")));
            root.rewriteAttribute(Attribute.of("one", "yz"));
            assertEquals(ascii, root.attribute("one").type());
            assertEquals("yz", root.attribute("one").string());
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            assertEquals(ascii, file.root().attribute("one").type());
            assertEquals("yz", file.root().attribute("one").string());
            assertEquals(List.of("a", "b"), file.root().attribute("pair").strings().stream()
                    .map(b -> new String(b, StandardCharsets.US_ASCII)).toList());
        }
    }
    /**
     * Deleting the middle one of three attributes: its message becomes a null message of its
     * size (the others keep theirs), the listing and the reopened file lose it only.
     */
    @Test
    void deletingAnAttributeNullsItsMessageOnly() throws IOException {
        Path path = dir.resolve("delete.h5");
        try (Hdf5File file = Hdf5File.create(path)) {
            Group group = groupWith(file, Attribute.of("a", 1L), Attribute.of("b", 2L, 3L),
                    Attribute.of("c", 4L));
            List<HeaderMessage> before = group.header.messages();
            group.deleteAttribute("b");
            List<HeaderMessage> after = group.header.messages();
            assertEquals(before.size(), after.size());
            int nulled = 0;
            for (int i = 0; i < before.size(); i++) {
                if (after.get(i).type() != before.get(i).type()) {
                    assertEquals(0, after.get(i).type());
                    assertEquals(before.get(i).body().length, after.get(i).body().length);
                    nulled++;
                }
            }
            assertEquals(1, nulled);
            assertEquals(List.of("a", "c"), group.attributeNames());
        }
        assertReopenedG(path, List.of("a", "c"), "c", 4);
    }

    /**
     * The header chunk holding a string attribute is written only after the global heap
     * collection holding its strings: when added, and when rewritten in a reopened file.
     */
    @Test
    void aStringAttributesHeaderWaitsForItsHeapCollection() throws IOException {
        Path path = dir.resolve("order.h5");
        try (Hdf5File file = Hdf5File.create(path)) {
            Group root = file.root();
            root.setAttribute(Attribute.of("s", "one"));
            assertTrue(file.cache().dependsOn(root.address(), collection(root)));
        }
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            Group root = file.root();
            root.rewriteAttribute(Attribute.of("s", "two"));
            assertTrue(file.cache().dependsOn(root.address(), collection(root)));
        }
    }

    /** The collection address of the scalar string attribute "s": its heap ID's 8 bytes. */
    private static long collection(Group group) throws IOException {
        for (HeaderMessage message : group.header.messages()) {
            if (message.type() == org.quire.format.hdf5.layout.AttributeMessage.TYPE) {
                byte[] body = message.body();
                return ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN)
                        .getLong(body.length - 12);
            }
        }
        throw new AssertionError("no attribute message");
    }
}
