package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeSet;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.quire.format.StartsOutsideProgram;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.hdf5.chunk.Shapes;

/**
 * What h5py users write by default, read by Quire with the values h5py reads:
 * {@code make_h5py_compat_fixtures.py} writes the files and a manifest of every object,
 * attribute and element as h5py returns them, and the parts Quire does not read.
 */
class H5pyCompatFilesInQuireTest {

    private static H5pyFixtures fixtures;

    @BeforeAll
    static void generateFixtures() throws IOException {
        fixtures = H5pyFixtures.of(H5pyFixtures.COMPAT);
    }

    private static Set<String> files() {
        Set<String> files = new LinkedHashSet<>();
        for (String[] record : fixtures.manifest()) {
            files.add(record[1]);
        }
        return files;
    }

    private static Set<String> unsupported(String file) {
        Set<String> paths = new TreeSet<>();
        for (String[] u : fixtures.records("U")) {
            if (u[1].equals(file)) {
                paths.add(u[2]);
            }
        }
        return paths;
    }

    @Test
    void readsEveryObjectAndAttributeWithH5pysValues() throws IOException {
        assertEquals(7, files().size(), "compat, compat_latest and five user block files");
        int values = 0;
        for (String name : files()) {
            try (Hdf5File file = Hdf5File.open(fixtures.file(name))) {
                for (String[] o : fixtures.records("O")) {
                    if (o[1].equals(name) && !unsupported(name).contains(o[2])) {
                        Hdf5Object object = InteropCorpus.object(file, o[2]);
                        assertEquals(o[3], kind(object), name + " " + o[2]);
                    }
                }
                for (String[] d : fixtures.records("D")) {
                    if (d[1].equals(name)) {
                        Dataset dataset = (Dataset) InteropCorpus.object(file, d[2]);
                        String where = name + " " + d[2];
                        assertEquals(d[3], typeCode(dataset.type()), where);
                        assertEquals(d[4], csv(dataset.shape()), where);
                        long[] shape = dataset.shape();
                        assertEquals(d[5], datasetValues(dataset, shape), where);
                        values++;
                    }
                }
                for (String[] a : fixtures.records("A")) {
                    if (a[1].equals(name)) {
                        Attribute attribute = InteropCorpus.object(file, a[2]).attribute(a[3]);
                        String where = name + " " + a[2] + "@" + a[3];
                        assertEquals(a[4], typeCode(attribute.type()), where);
                        assertEquals(a[5], csv(attribute.shape()), where);
                        assertEquals(a[6], attributeValues(attribute), where);
                        values++;
                    }
                }
            }
        }
        assertEquals(fixtures.records("D").size() + fixtures.records("A").size(), values);
    }

    @Test
    void namesWhatItDoesNotReadAndReadsTheRestOfTheObject() throws IOException {
        for (String name : List.of("compat.h5", "compat_latest.h5")) {
            try (Hdf5File file = Hdf5File.open(fixtures.file(name))) {
                for (String[] u : fixtures.records("U")) {
                    if (!u[1].equals(name)) {
                        continue;
                    }
                    String reason = u[3];
                    int at = u[2].indexOf('@');
                    if (at >= 0) {
                        Hdf5Object object = InteropCorpus.object(file, u[2].substring(0, at));
                        String attribute = u[2].substring(at + 1);
                        assertTrue(object.attributeNames().contains(attribute), u[2]);
                        Unsupported found = object.unsupportedAttributes().stream()
                                .filter(x -> x.name().equals(attribute)).findFirst()
                                .orElseThrow();
                        assertTrue(found.reason().contains(reason), found.reason());
                        UnsupportedFormatException e = assertThrows(
                                UnsupportedFormatException.class,
                                () -> object.attribute(attribute));
                        assertTrue(e.getMessage().contains("\"" + attribute + "\""),
                                e.getMessage());
                    } else {
                        int slash = u[2].lastIndexOf('/');
                        Group parent = (Group) InteropCorpus.object(file,
                                u[2].substring(0, Math.max(1, slash)));
                        UnsupportedFormatException e = assertThrows(
                                UnsupportedFormatException.class,
                                () -> parent.get(u[2].substring(slash + 1)));
                        assertTrue(e.getMessage().contains(reason), e.getMessage());
                        assertTrue(e.getMessage().contains(u[2]), e.getMessage());
                        assertTrue(!e.detail().contains("offset -"), e.getMessage());
                    }
                }
            }
        }
    }

    @Test
    void softLinksLeadWhereH5pyGoesAbsoluteRelativeAndChainedAndADanglingOneToNothing()
            throws IOException {
        List<String[]> links = fixtures.records("L");
        assertEquals(8, links.size());
        for (String[] l : links) {
            try (Hdf5File file = Hdf5File.open(fixtures.file(l[1]))) {
                Group parent = (Group) InteropCorpus.object(file, "/links");
                String name = l[2].substring("/links/".length());
                if (l[3].isEmpty()) {
                    java.util.NoSuchElementException e = assertThrows(
                            java.util.NoSuchElementException.class, () -> parent.get(name));
                    assertTrue(e.getMessage().contains(l[2] + " is a soft link to /nowhere"),
                            e.getMessage());
                    continue;
                }
                Hdf5Object target = InteropCorpus.object(file, l[3]);
                Hdf5Object linked = parent.get(name);
                assertEquals(target.address(), linked.address(), l[1] + " " + l[2]);
                assertEquals(l[3], linked.path(), l[1] + " " + l[2]);
            }
        }
    }

    /**
     * libhdf5 follows at most 16 soft links in one resolution (H5L_NUM_LINKS), nested ones and
     * those in a target's path counted together; each target here names the previous link 8
     * times, so counting per path component would walk 8^14 paths.
     */
    @Test
    @StartsOutsideProgram
    void softLinksFollowedAtMostSixteenInOneResolutionAsLibhdf5() throws Exception {
        ExternalTools.requireH5py();
        Path dir = java.nio.file.Files.createTempDirectory("quire-soft-links-");
        Path path = dir.resolve("links.h5");
        String make = "import sys, h5py\n"
                + "with h5py.File(sys.argv[1], 'w') as f:\n"
                + "    g = f.create_group('g'); g['d'] = [1]\n"
                + "    g['s0'] = h5py.SoftLink('/g')\n"
                + "    for i in range(1, 15):\n"
                + "        g['s%d' % i] = h5py.SoftLink('/g' + ('/s%d' % (i - 1)) * 8)\n"
                + "    f['bomb'] = h5py.SoftLink('/g/s14/d')\n"
                + "    f['back16'] = h5py.SoftLink('/g' + '/s0' * 15 + '/d')\n"
                + "    f['back17'] = h5py.SoftLink('/g' + '/s0' * 16 + '/d')\n"
                + "with h5py.File(sys.argv[1], 'r') as f:\n"
                + "    for name in ('back16', 'back17', 'bomb'):\n"
                + "        try:\n"
                + "            print(name, list(f[name][()]))\n"
                + "        except (KeyError, RuntimeError) as e:\n"
                + "            print(name, 'too many links' in str(e))\n";
        ExternalTools.Result made = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                "-c", make, path.toString()), 120);
        assertEquals(0, made.exitCode(), made.output());
        // h5py: 16 links (back16 and 15 s0) lead to /g/d; 17 do not.
        assertEquals("back16 [1]\nback17 True\nbomb True", made.stdout().strip());
        try (Hdf5File file = Hdf5File.open(path)) {
            assertEquals("/g/d", file.root().get("back16").path());
            for (String name : List.of("back17", "bomb")) {
                UnsupportedFormatException e = org.junit.jupiter.api.Assertions
                        .assertTimeoutPreemptively(java.time.Duration.ofSeconds(5),
                                () -> assertThrows(UnsupportedFormatException.class,
                                        () -> file.root().get(name)));
                assertTrue(e.getMessage().contains("/" + name), e.getMessage());
                assertTrue(e.getMessage().contains("more than 16 soft links"), e.getMessage());
            }
        } finally {
            java.nio.file.Files.deleteIfExists(path);
            java.nio.file.Files.deleteIfExists(dir);
        }
    }

    /**
     * Names are bytes to libhdf5: two that differ only in a byte that is not valid UTF-8 are two
     * names, each leading to its own dataset, in both formats (the old one checks their order).
     */
    @Test
    @StartsOutsideProgram
    void namesThatAreNotValidUtf8StayDistinctAndLeadToTheirOwnObjects() throws Exception {
        ExternalTools.requireH5py();
        Path dir = java.nio.file.Files.createTempDirectory("quire-names-");
        String make = "import sys, h5py\n"
                + "for name, libver in (('earliest.h5', 'earliest'), ('latest.h5', 'latest')):\n"
                + "    with h5py.File(sys.argv[1] + '/' + name, 'w', libver=libver) as f:\n"
                + "        f[b'x\\xff'] = [1]; f[b'x\\xfe'] = [2]; f['caf\\u00e9'] = [3]\n"
                + "        f.attrs[b'a\\xff'] = 4; f.attrs[b'a\\xfe'] = 5\n";
        ExternalTools.Result made = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                "-c", make, dir.toString()), 120);
        assertEquals(0, made.exitCode(), made.output());
        try {
            for (String name : List.of("earliest.h5", "latest.h5")) {
                try (Hdf5File file = Hdf5File.open(dir.resolve(name))) {
                    Group root = file.root();
                    Set<String> names = new TreeSet<>();
                    for (Group.Member member : root.members()) {
                        names.add(member.name());
                    }
                    assertEquals(Set.of("x\udcff", "x\udcfe", "caf\u00e9"), names, name);
                    assertEquals(1, ((Dataset) root.get("x\udcff")).readLongs(new long[] {0},
                            new long[] {1})[0], name);
                    assertEquals(2, ((Dataset) root.get("x\udcfe")).readLongs(new long[] {0},
                            new long[] {1})[0], name);
                    assertEquals(3, ((Dataset) root.get("caf\u00e9")).readLongs(new long[] {0},
                            new long[] {1})[0], name);
                    assertEquals(Set.of("a\udcff", "a\udcfe"),
                            new TreeSet<>(root.attributeNames()), name);
                    assertEquals(5, root.attribute("a\udcfe").longs()[0], name);
                }
                assertTrue(Hdf5Verifier.verify(dir.resolve(name)).unsupported().isEmpty(), name);
            }
        } finally {
            for (String name : List.of("earliest.h5", "latest.h5")) {
                java.nio.file.Files.deleteIfExists(dir.resolve(name));
            }
            java.nio.file.Files.deleteIfExists(dir);
        }
    }

    @Test
    void verifierReportsEveryUnsupportedPartAndChecksTheRest() throws IOException {
        for (String name : files()) {
            VerificationReport report = Hdf5Verifier.verify(fixtures.file(name));
            Set<String> expected = new TreeSet<>();
            for (String path : unsupported(name)) {
                if (!path.endsWith("/external")) {
                    expected.add(path);
                }
            }
            Set<String> found = new TreeSet<>();
            for (Unsupported part : report.unsupported()) {
                found.add(part.name());
            }
            assertEquals(expected, found, name);
            // The external link and the four soft links: their targets are checked where their
            // hard links are.
            assertEquals(expected.isEmpty() ? 0 : 5, report.linksNotFollowed(), name);
            assertEquals(name.startsWith("compat") ? 1 : 0, report.committedDatatypes(), name);
        }
    }

    /**
     * A damaged heap reference in one attribute of the root: the file still opens, the root's
     * other attributes and its members read; that attribute fails naming {@code /@title}.
     */
    @Test
    void aDamagedHeapReferenceFailsOnlyItsAttributeNamingIt() throws IOException {
        byte[] bytes = java.nio.file.Files.readAllBytes(fixtures.file("compat.h5"));
        // The one heap ID of a 6-byte string ("run 42"): length, collection address, index.
        int reference = -1;
        for (int at = 0; at + 16 <= bytes.length; at++) {
            ByteBuffer id = ByteBuffer.wrap(bytes, at, 16).order(ByteOrder.LITTLE_ENDIAN);
            long collection = id.getLong(at + 4);
            if (id.getInt(at) == 6 && collection > 0 && collection + 4 <= bytes.length
                    && new String(bytes, (int) collection, 4, java.nio.charset.StandardCharsets
                            .US_ASCII).equals("GCOL")) {
                assertEquals(-1, reference, "a single such heap ID");
                reference = at;
            }
        }
        assertTrue(reference > 0);
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putLong(reference + 4,
                bytes.length + 4096L);
        Path damaged = java.nio.file.Files.createTempFile("quire-attribute-reference-", ".h5");
        try {
            java.nio.file.Files.write(damaged, bytes);
            try (Hdf5File file = Hdf5File.open(damaged)) {
                Group root = file.root();
                assertTrue(root.attributeNames().contains("title"));
                assertEquals("caf\u00e9", root.attribute("unicode_\u00e9").string());
                assertTrue(root.members().size() > 5);
                org.quire.format.CorruptFileException e = assertThrows(
                        org.quire.format.CorruptFileException.class,
                        () -> root.attribute("title"));
                assertEquals("/@title", e.object(), e.getMessage());
                assertTrue(e.getMessage().contains(" of /@title at "), e.getMessage());
                assertThrows(org.quire.format.CorruptFileException.class, root::attributes);
            }
            org.quire.format.CorruptFileException e = assertThrows(
                    org.quire.format.CorruptFileException.class,
                    () -> Hdf5Verifier.verify(damaged));
            assertEquals("/@title", e.object(), e.getMessage());
        } finally {
            java.nio.file.Files.deleteIfExists(damaged);
        }
    }

    /**
     * A damaged byte anywhere (the default format has no checksums, nor has the global heap in
     * either) reads as valid, or fails with a format exception naming the file, never another
     * exception or a hang.
     */
    @Test
    void aDamagedByteAnywhereIsAFormatErrorOrReadsNeverACrash() throws Exception {
        for (String name : List.of("compat.h5", "compat_latest.h5")) {
            flipBits(java.nio.file.Files.readAllBytes(fixtures.file(name)), 300);
        }
    }

    private static void flipBits(byte[] intact, int copies) throws Exception {
        java.util.Random random = new java.util.Random(42);
        Path damaged = java.nio.file.Files.createTempFile("quire-compat-damaged-", ".h5");
        try {
            for (int i = 0; i < copies; i++) {
                byte[] bytes = intact.clone();
                int at = random.nextInt(bytes.length);
                bytes[at] ^= (byte) (1 << random.nextInt(8));
                java.nio.file.Files.write(damaged, bytes);
                String where = "bit flipped at " + at;
                org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
                        java.time.Duration.ofSeconds(10), () -> {
                            readOrFormatError(() -> Hdf5Verifier.verify(damaged), where);
                            readOrFormatError(() -> readEverything(damaged), where);
                        });
            }
        } finally {
            java.nio.file.Files.deleteIfExists(damaged);
        }
    }

    private interface Read {
        void run() throws Exception;
    }

    private static void readOrFormatError(Read read, String where) {
        try {
            read.run();
        } catch (org.quire.format.FormatException e) {
            assertTrue(e.getMessage().startsWith(e.file().toString()), where + ": " + e);
        } catch (Exception | Error e) {
            throw new AssertionError(where + ": " + e, e);
        }
    }

    /** Every object, attribute and element Quire reads, strings from the global heap. */
    private static void readEverything(Path path) throws IOException {
        try (Hdf5File file = Hdf5File.open(path)) {
            java.util.ArrayDeque<Group> pending = new java.util.ArrayDeque<>(List.of(file.root()));
            Set<Long> seen = new java.util.HashSet<>();
            while (!pending.isEmpty()) {
                Group group = pending.pop();
                group.attributes();
                for (Group.Member member : group.members()) {
                    if (member.softLinkTarget() != null) {
                        continue; // its target is read through its hard link
                    }
                    Hdf5Object object;
                    try {
                        object = member.open();
                    } catch (UnsupportedFormatException e) {
                        continue;
                    }
                    if (!seen.add(object.address())) {
                        continue;
                    }
                    object.attributes();
                    if (object instanceof Group child) {
                        pending.push(child);
                    } else if (object instanceof Dataset dataset) {
                        datasetValues(dataset, dataset.shape());
                    }
                }
            }
        }
    }

    private static String kind(Hdf5Object object) {
        if (object instanceof Group) {
            return "group";
        }
        return object instanceof Dataset ? "dataset" : "datatype";
    }

    /** The manifest's type code of {@code type} (see make_h5py_compat_fixtures.py). */
    static String typeCode(Datatype type) {
        if (type instanceof Datatype.VariableLengthStringType string) {
            return string.utf8() ? "vlen-utf8" : "vlen-ascii";
        }
        if (type instanceof Datatype.StringType string) {
            return "S" + string.size();
        }
        if (type.equals(Datatype.EnumType.BOOLEAN)) {
            return "bool";
        }
        if (type instanceof Datatype.EnumType enumeration) {
            StringJoiner members = new StringJoiner(";", "{", "}");
            enumeration.members().stream()
                    .sorted((a, b) -> Long.compare(a.value(), b.value()))
                    .forEach(m -> members.add(m.name() + "=" + m.value()));
            return "enum(" + typeCode(enumeration.base()) + ")" + members;
        }
        String order = type.byteOrder() == ByteOrder.BIG_ENDIAN ? ">" : "<";
        if (type instanceof Datatype.IntegerType integer) {
            return (integer.signed() ? "i" : "u") + integer.size() + order;
        }
        return "f" + type.size() + order;
    }

    static String datasetValues(Dataset dataset, long[] shape) throws IOException {
        long[] start = new long[shape.length];
        Datatype type = dataset.type();
        if (type instanceof Datatype.StringType
                || type instanceof Datatype.VariableLengthStringType) {
            return hexList(dataset.readStringBytes(start, shape));
        }
        if (type instanceof Datatype.FloatType) {
            return numbers(type, dataset.read(start, shape), (int) Shapes.elementCount(shape));
        }
        if (type instanceof Datatype.CompoundType) {
            ByteBuffer records = dataset.read(start, shape);
            byte[] bytes = new byte[records.remaining()];
            records.get(bytes);
            return HexFormat.of().formatHex(bytes);
        }
        return integers(type, dataset.readIntegers(start, shape));
    }

    static String attributeValues(Attribute attribute) {
        Datatype type = attribute.type();
        if (type instanceof Datatype.StringType
                || type instanceof Datatype.VariableLengthStringType) {
            return hexList(attribute.stringBytes());
        }
        return numbers(type, ByteBuffer.wrap(attribute.data()), (int) attribute.elementCount());
    }

    private static String numbers(Datatype type, ByteBuffer bytes, int count) {
        List<String> tokens = new ArrayList<>();
        if (type instanceof Datatype.FloatType) {
            ByteBuffer in = bytes.duplicate().order(type.byteOrder());
            for (int i = 0; i < count; i++) {
                tokens.add(type.size() == 4
                        ? String.format("%08x", Float.floatToRawIntBits(in.getFloat()))
                        : String.format("%016x", Double.doubleToRawLongBits(in.getDouble())));
            }
            return String.join(",", tokens);
        }
        return integers(type, ElementCodec.decodeLongs(type, bytes, count));
    }

    private static String integers(Datatype type, long[] values) {
        boolean signed = ElementCodec.integerOf(type).signed();
        List<String> tokens = new ArrayList<>();
        for (long value : values) {
            tokens.add(signed ? Long.toString(value) : Long.toUnsignedString(value));
        }
        return String.join(",", tokens);
    }

    private static String hexList(List<byte[]> strings) {
        List<String> tokens = new ArrayList<>();
        for (byte[] string : strings) {
            tokens.add(HexFormat.of().formatHex(string));
        }
        return String.join(",", tokens);
    }

    static String csv(long[] values) {
        StringJoiner text = new StringJoiner(",");
        for (long value : values) {
            text.add(Long.toString(value));
        }
        return text.toString();
    }
}
