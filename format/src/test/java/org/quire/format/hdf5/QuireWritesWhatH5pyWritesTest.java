package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeSet;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.StartsOutsideProgram;

/**
 * Quire writes what h5py users expect: text attributes and string datasets as variable-length
 * UTF-8 strings, bools as h5py's enumeration, enumerations, scalar datasets and attributes.
 * h5py reads every value back ({@code describe_h5py_file.py}, in the manifest lines of
 * {@code make_h5py_compat_fixtures.py}) as Quire reads it, and h5dump dumps the whole file.
 */
class QuireWritesWhatH5pyWritesTest {

    private static final Datatype.EnumType COLOURS = new Datatype.EnumType(
            Datatype.UINT16.withByteOrder(ByteOrder.BIG_ENDIAN), List.of(
                    new Datatype.EnumMember("RED", 0), new Datatype.EnumMember("GREEN", 1),
                    new Datatype.EnumMember("BLUE", 7)));

    @TempDir
    static Path dir;
    private static Path file;

    @BeforeAll
    static void write() throws IOException {
        file = dir.resolve("quire-types.h5");
        try (Hdf5File hdf5 = Hdf5File.create(file)) {
            Group root = hdf5.root();
            root.setAttribute(Attribute.of("title", "run 42"));
            root.setAttribute(Attribute.of("unicode", "caf\u00e9 \u03b2"));
            root.setAttribute(Attribute.ofStrings("names", Datatype.VariableLengthStringType.UTF8,
                    new long[] {3}, List.of(bytes("alpha"), bytes(""), bytes("x".repeat(300)))));
            root.setAttribute(Attribute.of("flags", true, false, true));
            root.setAttribute(new Attribute("flag", Datatype.EnumType.BOOLEAN, new long[0],
                    new byte[] {1}));
            root.setAttribute(Attribute.scalar("count", Datatype.INT32, -7));
            root.setAttribute(Attribute.scalar("ratio", Datatype.FLOAT64, 0.25));
            root.setAttribute(Attribute.scalar("colour", COLOURS, 7));

            Group data = root.createGroup("data");
            data.createDataset("scalar", Datatype.FLOAT64, new long[0],
                    ElementCodec.encodeOne(Datatype.FLOAT64, 3.5));
            data.createDataset("matrix", Datatype.INT16.withByteOrder(ByteOrder.BIG_ENDIAN),
                    new long[] {2, 3}, ElementCodec.encode(Datatype.INT16.withByteOrder(
                            ByteOrder.BIG_ENDIAN), new short[] {1, -2, 3, -4, 5, -32768}));
            data.createStringDataset("words", new long[] {2, 2},
                    List.of("alpha", "\u03b2eta", "", "y".repeat(5000)));
            data.createStringDataset("one", new long[0], List.of("only one"));
            data.createStringDataset("none", new long[] {0}, List.of());
            Dataset bools = data.createDataset("bools", DatasetSpec.builder(
                    Datatype.EnumType.BOOLEAN, 10).chunkShape(4).build());
            bools.write(new long[] {0}, new long[] {6}, new byte[] {1, 0, 0, 1, 1, 0});
            Dataset colours = data.createDataset("colours", DatasetSpec.builder(COLOURS, 5)
                    .chunkShape(2).filter(Filter.deflate(6)).build());
            colours.write(new long[] {0}, new long[] {5}, new short[] {0, 1, 7, 7, 0});
            colours.setAttribute(Attribute.of("note", "one of RED, GREEN, BLUE"));
        }
        // Reopened: new strings go on filling the last collection, then the next ones.
        try (Hdf5File hdf5 = Hdf5File.openForWriting(file)) {
            hdf5.root().setAttribute(Attribute.of("reopened", "yes"));
            Group texts = hdf5.root().createGroup("texts");
            for (int i = 0; i < 300; i++) {
                texts.setAttribute(Attribute.of("t" + i, "text " + i + " " + "z".repeat(i % 50)));
            }
            texts.createStringDataset("more", new long[] {3}, List.of("one", "two", "three"));
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    @StartsOutsideProgram
    void h5pyReadsEveryValueAsQuireReadsIt() throws IOException {
        ExternalTools.requireH5py();
        // Run where it is: it imports fixture_manifest.py from its own directory.
        Path script = H5pyFixtures.resourceDirectory().resolve("describe_h5py_file.py");
        Path manifest = dir.resolve("h5py-manifest.txt");
        ExternalTools.Result result = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                script.toString(), file.toString(), manifest.toString()), 120);
        assertEquals(0, result.exitCode(), result.output());
        TreeSet<String> h5py = new TreeSet<>(Files.readAllLines(manifest));
        h5py.remove("");
        TreeSet<String> quire = new TreeSet<>();
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            describe(hdf5.root(), quire);
        }
        assertEquals(quire, h5py);
        String name = file.getFileName().toString();
        assertTrue(h5py.contains("A|" + name + "|/|title|vlen-utf8||"
                + HexFormat.of().formatHex(bytes("run 42"))), h5py.toString());
        assertTrue(h5py.contains("D|" + name + "|/data/bools|bool|10|1,0,0,1,1,0,0,0,0,0"),
                h5py.toString());
        assertTrue(h5py.contains("D|" + name + "|/data/scalar|f8<||400c000000000000"),
                h5py.toString());
        assertTrue(h5py.contains("A|" + name + "|/texts|t299|vlen-utf8||"
                + HexFormat.of().formatHex(bytes("text 299 " + "z".repeat(49)))),
                h5py.toString());
        assertTrue(GlobalHeapSharingTest.collections(file).size() > 3);
    }

    /**
     * A collection numbers its objects with 2 bytes: 70,000 strings need two collections, or
     * number 65,536 wraps to 0 (free space) and readers silently read wrong strings.
     */
    @Test
    @StartsOutsideProgram
    void moreStringsThanOneGlobalHeapCollectionNumbersReadBackInH5pyAndQuire() throws IOException {
        ExternalTools.requireH5py();
        Path many = dir.resolve("many-strings.h5");
        int count = 70_000;
        List<String> strings = new java.util.ArrayList<>();
        for (int i = 0; i < count; i++) {
            strings.add("s" + i);
        }
        try (Hdf5File hdf5 = Hdf5File.create(many)) {
            hdf5.root().createStringDataset("many", new long[] {count}, strings);
        }
        try (Hdf5File hdf5 = Hdf5File.open(many)) {
            Dataset dataset = (Dataset) hdf5.root().get("many");
            assertEquals(strings, dataset.readStrings(new long[] {0}, new long[] {count}));
        }
        String check = "import sys, h5py\n"
                + "v = h5py.File(sys.argv[1], 'r')['many'].asstr()[()]\n"
                + "bad = [i for i in range(len(v)) if v[i] != 's%d' % i]\n"
                + "print(len(v), len(bad), bad[:3])\n";
        ExternalTools.Result result = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                "-c", check, many.toString()), 120);
        assertEquals(0, result.exitCode(), result.output());
        assertEquals(count + " 0 []", result.stdout().strip(), result.output());
    }

    /** Strings in more collections than are kept: read whole, only the last few stay held. */
    @Test
    void globalHeapCollectionsReadAreKeptOnlyWhileRecentlyUsed() throws IOException {
        Path wide = dir.resolve("wide-strings.h5");
        int count = 3 * FileReferences.CACHED_COLLECTIONS;
        List<String> strings = new java.util.ArrayList<>();
        for (int i = 0; i < count; i++) {
            // Over half a collection each: one collection per string.
            strings.add(Integer.toString(i).repeat(GlobalHeap.COLLECTION_TARGET_SIZE / 2));
        }
        try (Hdf5File hdf5 = Hdf5File.create(wide)) {
            hdf5.root().createStringDataset("wide", new long[] {count}, strings);
        }
        try (Hdf5File hdf5 = Hdf5File.open(wide)) {
            Dataset dataset = (Dataset) hdf5.root().get("wide");
            assertEquals(strings, dataset.readStrings(new long[] {0}, new long[] {count}));
            assertEquals(FileReferences.CACHED_COLLECTIONS, hdf5.references().cachedCollections());
            assertEquals(strings.get(0), dataset.readStrings(new long[] {0}, new long[] {1})
                    .get(0));
        } finally {
            Files.deleteIfExists(wide);
        }
    }

    @Test
    void unsignedSixtyFourBitAttributesOfTwoToTheSixtyThreeOrMoreReadAsPositiveDoubles() {
        Attribute big = new Attribute("big", Datatype.UINT64, new long[] {3},
                ElementCodec.encode(Datatype.UINT64, new long[] {-1L, 1L << 63, 5}));
        assertEquals(java.util.Arrays.toString(new double[] {0x1p64, 0x1p63, 5.0}),
                java.util.Arrays.toString(big.doubles()));
        Attribute signed = new Attribute("signed", Datatype.INT64, new long[] {1},
                ElementCodec.encode(Datatype.INT64, new long[] {-1L}));
        assertEquals(-1.0, signed.doubles()[0]);
    }

    @Test
    @StartsOutsideProgram
    void h5dumpDumpsTheWholeFile() {
        ExternalTools.requireTool("h5dump");
        ExternalTools.Result result = ExternalTools.run(List.of("h5dump", file.toString()), 120);
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.output().contains("\"run 42\""), result.output());
        assertTrue(result.output().contains("\"only one\""), result.output());
        assertTrue(result.output().contains("H5T_ENUM"), result.output());
    }

    @Test
    void aWholeDatasetCannotGrowOrBeRewrittenAndChunkedStringsAreRefused() throws IOException {
        try (Hdf5File hdf5 = Hdf5File.create(dir.resolve("refusals.h5"))) {
            Dataset scalar = hdf5.root().createDataset("s", Datatype.INT8, new long[0],
                    new byte[] {5});
            assertThrows(IllegalStateException.class, () -> scalar.extend());
            assertThrows(IllegalStateException.class,
                    () -> scalar.write(new long[0], new long[0], new byte[] {6}));
            assertEquals(5, scalar.readBytes(new long[0], new long[0])[0]);
            assertThrows(IllegalArgumentException.class, () -> DatasetSpec.builder(
                    Datatype.VariableLengthStringType.UTF8, 4).build());
            assertThrows(IllegalArgumentException.class, () -> hdf5.root().createDataset("t",
                    Datatype.INT32, new long[] {2}, new byte[4]));
            // Its strings would be global heap IDs Quire does not write inside a record.
            IllegalArgumentException table = assertThrows(IllegalArgumentException.class,
                    () -> Datatype.CompoundType.packed(List.of("id", "name"), List.of(
                            Datatype.INT32, Datatype.VariableLengthStringType.UTF8)));
            assertTrue(table.getMessage().contains("variable-length strings in a compound"),
                    table.getMessage());
            // h5py refuses a str with a NUL ("embedded null character"): libhdf5 readers would
            // cut the string there.
            IllegalArgumentException nul = assertThrows(IllegalArgumentException.class,
                    () -> hdf5.root().setAttribute(Attribute.of("nul", "a\u0000b")));
            assertTrue(nul.getMessage().contains("NUL byte at 1"), nul.getMessage());
            assertThrows(IllegalArgumentException.class, () -> hdf5.root().createStringDataset(
                    "nul", new long[] {2}, List.of("fine", "not\u0000fine")));
            assertTrue(!hdf5.root().attributeNames().contains("nul"));
        }
    }

    @Test
    void aDamagedGlobalHeapCollectionIsCorruptNamingItsPlace() throws IOException {
        byte[] intact = Files.readAllBytes(file);
        int collection = indexOf(intact, "GCOL".getBytes(StandardCharsets.US_ASCII));
        assertTrue(collection > 0);
        byte[] signature = intact.clone();
        signature[collection + 1] ^= 0x20;
        Path damaged = Files.write(dir.resolve("gcol-signature.h5"), signature);
        org.quire.format.CorruptFileException e = assertThrows(
                org.quire.format.CorruptFileException.class, () -> ReadEverything.read(damaged));
        assertEquals("global heap collection", e.structure(), e.getMessage());
        assertEquals(collection, e.offset(), e.getMessage());
        // The first object's index (2 bytes after the 16-byte collection header) changed to
        // one above those of the file's strings, which share the collection.
        byte[] index = intact.clone();
        index[collection + 16] = (byte) 0xF0;
        Path renumbered = Files.write(dir.resolve("gcol-index.h5"), index);
        e = assertThrows(org.quire.format.CorruptFileException.class,
                () -> Hdf5Verifier.verify(renumbered));
        assertEquals("global heap collection", e.structure(), e.getMessage());
        assertEquals("object 1", e.field(), e.getMessage());
        assertEquals("no such object", e.found(), e.getMessage());
    }

    private static int indexOf(byte[] bytes, byte[] pattern) {
        for (int i = 0; i + pattern.length <= bytes.length; i++) {
            if (java.util.Arrays.equals(bytes, i, i + pattern.length, pattern, 0, pattern.length)) {
                return i;
            }
        }
        return -1;
    }

    /** The manifest lines of {@code group} and everything under it, as Quire reads them. */
    private static void describe(Group group, TreeSet<String> lines) throws IOException {
        String name = file.getFileName().toString();
        lines.add("O|" + name + "|" + group.path() + "|group");
        attributes(group, lines);
        for (Group.Member member : group.members()) {
            Hdf5Object object = member.open();
            if (object instanceof Group child) {
                describe(child, lines);
                continue;
            }
            Dataset dataset = (Dataset) object;
            lines.add("O|" + name + "|" + dataset.path() + "|dataset");
            lines.add("D|" + name + "|" + dataset.path() + "|"
                    + H5pyCompatFilesInQuireTest.typeCode(dataset.type()) + "|"
                    + H5pyCompatFilesInQuireTest.csv(dataset.shape()) + "|"
                    + H5pyCompatFilesInQuireTest.datasetValues(dataset, dataset.shape()));
            attributes(dataset, lines);
        }
    }

    private static void attributes(Hdf5Object object, TreeSet<String> lines) throws IOException {
        String name = file.getFileName().toString();
        for (Attribute attribute : object.attributes()) {
            lines.add("A|" + name + "|" + object.path() + "|" + attribute.name() + "|"
                    + H5pyCompatFilesInQuireTest.typeCode(attribute.type()) + "|"
                    + H5pyCompatFilesInQuireTest.csv(attribute.shape()) + "|"
                    + H5pyCompatFilesInQuireTest.attributeValues(attribute));
        }
    }
}
