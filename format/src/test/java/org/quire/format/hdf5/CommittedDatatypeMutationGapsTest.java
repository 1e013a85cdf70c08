package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;

/**
 * A committed datatype, as h5py writes one ({@code named["int16_type"] = numpy.dtype("<i2")}
 * in {@code make_h5py_compat_fixtures.py}), read in the JVM from the committed fixture files:
 * the type object itself with its attribute, and a dataset and an attribute that use it
 * through a shared datatype message. In the default format and the latest (version-2 headers).
 */
class CommittedDatatypeMutationGapsTest {

    @TempDir
    Path dir;

    private static Path fixture(String name) throws IOException {
        return H5pyFixtures.of(H5pyFixtures.COMPAT).file(name);
    }

    @Test
    void aCommittedTypeAndTheObjectsSharingItReadAsH5pyReadsThem() throws IOException {
        for (String name : List.of("compat.h5", "compat_latest.h5")) {
            try (Hdf5File file = Hdf5File.open(fixture(name))) {
                Group named = file.root().group("named");
                CommittedDatatype type = (CommittedDatatype) named.get("int16_type");
                assertEquals(Datatype.INT16, type.type(), name);
                assertEquals("/named/int16_type", type.path(), name);
                assertEquals(List.of("doc"), type.attributeNames(), name);
                assertEquals("a committed type", type.attribute("doc").string(), name);
                Dataset typed = named.dataset("typed");
                assertEquals(Datatype.INT16, typed.type(), name);
                assertArrayEquals(new short[] {0, 1, 2, 3, 4, 5},
                        typed.readShorts(new long[] {0}, new long[] {6}), name);
                Attribute attribute = typed.attribute("typed_attr");
                assertEquals(Datatype.INT16, attribute.type(), name);
                assertArrayEquals(new long[] {5}, attribute.longs(), name);
            }
        }
    }

    /**
     * The committed type's own datatype message flagged as shared (a type naming another
     * object instead of describing itself): the object is corrupt at its header, which has no
     * datatype message of its own.
     */
    @Test
    void aCommittedTypeWithoutItsOwnDatatypeMessageIsCorrupt() throws IOException {
        Int16Type type = int16Type();
        long header = type.header();
        byte[] bytes = type.bytes();
        int at = type.message();
        // The body of '<i2': fixed-point version 1, signed, 2 bytes.
        byte[] body = HexFormat.of().parseHex("1008000002000000");
        assertEquals(HexFormat.of().formatHex(body),
                HexFormat.of().formatHex(bytes, at + 8, at + 16), "the datatype message");
        bytes[at + 4] |= 0x02; // HeaderMessage.FLAG_SHARED
        Path damaged = dir.resolve("shared-committed-type.h5");
        Files.write(damaged, bytes);
        try (Hdf5File file = Hdf5File.open(damaged)) {
            Group named = file.root().group("named");
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> named.get("int16_type"));
            assertEquals(header, e.offset(), e.getMessage());
            assertEquals("object header", e.structure(), e.getMessage());
            assertEquals("messages", e.field(), e.getMessage());
            assertEquals("the datatype message of a committed datatype", e.expected(),
                    e.getMessage());
            assertEquals("none", e.found(), e.getMessage());
        }
    }

    /**
     * The committed type's datatype message turned into a NIL message (type 0): the object is
     * neither a group, a dataset nor a committed datatype, refused as unsupported at its header.
     */
    @Test
    void anObjectWithoutADatatypeLayoutOrLinksIsUnsupported() throws IOException {
        Int16Type type = int16Type();
        long header = type.header();
        byte[] bytes = type.bytes();
        bytes[type.message()] = 0;
        Path damaged = dir.resolve("kindless.h5");
        Files.write(damaged, bytes);
        try (Hdf5File file = Hdf5File.open(damaged)) {
            Group named = file.root().group("named");
            UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class,
                    () -> named.get("int16_type"));
            assertEquals(damaged + ": unsupported /named/int16_type: object header at offset "
                    + header + ": found neither a group, a dataset nor a committed datatype; "
                    + "supported: groups, datasets and committed datatypes", e.getMessage());
        }
    }

    /**
     * compat.h5's bytes, the header address of its committed type /named/int16_type and where
     * that header's datatype message starts (version 1: type 3 in 2 bytes, body size 16 in 2,
     * flags, 3 reserved, then the body).
     */
    private record Int16Type(long header, byte[] bytes, int message) {
    }

    private static Int16Type int16Type() throws IOException {
        Path original = fixture("compat.h5");
        long header;
        try (Hdf5File file = Hdf5File.open(original)) {
            header = file.root().group("named").get("int16_type").address();
        }
        byte[] bytes = Files.readAllBytes(original);
        return new Int16Type(header, bytes,
                DamagedField.indexOf(bytes, HexFormat.of().parseHex("03001000"), (int) header));
    }
}
