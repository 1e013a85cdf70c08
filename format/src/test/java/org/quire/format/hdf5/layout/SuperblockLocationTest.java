package org.quire.format.hdf5.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.WrongFormatException;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.OpenMode;

/**
 * Where {@link Superblock#read} finds the superblock (offset 0, or after a user block of 512,
 * 1024, 2048, ... bytes, as libhdf5's H5FD_locate_signature looks) and how the stored base and
 * end-of-file addresses are taken, in the files h5py 3.7.0 with libhdf5 1.10.8 wrote with
 * {@code userblock_size} and with 512 bytes put before a finished file
 * ({@code make_h5py_compat_fixtures.py}, committed), read in the JVM.
 */
class SuperblockLocationTest {

    private static final String FIXTURES = "/hdf5/make_h5py_compat_fixtures/";

    @TempDir
    Path dir;

    private static byte[] fixture(String name) throws IOException {
        URL url = SuperblockLocationTest.class.getResource(FIXTURES + name);
        if (url == null) {
            throw new AssertionError("test resource " + FIXTURES + name + " is not on the class path");
        }
        try {
            return Files.readAllBytes(Path.of(url.toURI()));
        } catch (URISyntaxException e) {
            throw new AssertionError("cannot turn " + url + " into a path", e);
        }
    }

    private Path write(String name, byte[] bytes) throws IOException {
        Path path = dir.resolve(name);
        Files.write(path, bytes);
        return path;
    }

    private static BlockFile open(Path path) throws IOException {
        return new BlockFile(FileStorage.open(path, OpenMode.READ));
    }

    private Superblock read(String name, byte[] bytes) throws IOException {
        try (BlockFile file = open(write(name, bytes))) {
            return Superblock.read(file);
        }
    }

    private static byte[] prefixed(int zeros, byte[] file) {
        byte[] out = new byte[zeros + file.length];
        System.arraycopy(file, 0, out, zeros, file.length);
        return out;
    }

    /** The file h5py wrote without user block: the last 6,804 - 512 bytes of the prepended one. */
    private static byte[] withoutUserBlock() throws IOException {
        byte[] prepended = fixture("prepended_512_latest.h5");
        return Arrays.copyOfRange(prepended, 512, prepended.length);
    }

    @Test
    void theSuperblockAfterEachUserBlockH5pyWroteIsTheBaseOfEveryAddress() throws IOException {
        record Case(String name, long userBlock, int version) {
        }
        for (Case c : new Case[] {new Case("userblock_512.h5", 512, 0),
                new Case("userblock_4096.h5", 4096, 0), new Case("userblock_latest.h5", 1024, 3)}) {
            Path path = write(c.name(), fixture(c.name()));
            long size = Files.size(path);
            try (BlockFile file = open(path)) {
                Superblock superblock = Superblock.read(file);
                assertEquals(c.userBlock(), file.baseAddress(), c.name());
                assertEquals(size - c.userBlock(), file.size(), c.name());
                assertEquals(size - c.userBlock(), file.endOfAllocation(), c.name());
                // libhdf5 stores the end of file counting the user block: the file's size.
                assertEquals(size, superblock.endOfFileAddress(), c.name());
                assertEquals(c.version() == 0 ? SuperblockV0.class : SuperblockV3.class,
                        superblock.getClass(), c.name());
            }
        }
    }

    /** libhdf5's 1.10.8 latest-format superblock of userblock_latest.h5, field by field. */
    @Test
    void aVersion3SuperblockAfterAUserBlockHasItsOwnOffsetAsBase() throws IOException {
        byte[] bytes = fixture("userblock_latest.h5");
        SuperblockV3 superblock = assertInstanceOf(SuperblockV3.class,
                read("latest.h5", bytes));
        assertEquals(48, superblock.rootGroupAddress());
        assertEquals(0, superblock.consistencyFlags());
        assertEquals(bytes.length, superblock.endOfFileAddress());
    }

    /** {@code cat block.bin plain.h5}: the superblock keeps base 0 and an end of file without the block. */
    @Test
    void aUserBlockPutBeforeAFinishedFileMovesItsEndOfFile() throws IOException {
        for (String name : new String[] {"prepended_512.h5", "prepended_512_latest.h5"}) {
            byte[] bytes = fixture(name);
            Path path = write(name, bytes);
            try (BlockFile file = open(path)) {
                Superblock superblock = Superblock.read(file);
                assertEquals(512, file.baseAddress(), name);
                assertEquals(bytes.length, superblock.endOfFileAddress(), name);
            }
        }
        // The same bytes without the block: base 0, the end of file as stored.
        byte[] plain = withoutUserBlock();
        try (BlockFile file = open(write("plain.h5", plain))) {
            assertEquals(plain.length, Superblock.read(file).endOfFileAddress());
            assertEquals(0, file.baseAddress());
        }
    }

    /** Base address fields: 24 bytes into a version 0 superblock, 12 into a version 3 one. */
    @Test
    void aStoredBaseAddressNeitherZeroNorTheSuperblocksOwnIsUnsupportedAtItsField()
            throws IOException {
        byte[] v0 = fixture("userblock_512.h5");
        v0[512 + 24] = 0x01; // base 256 + 1 = 0x101
        v0[512 + 25] = 0x01;
        UnsupportedFormatException old = assertThrows(UnsupportedFormatException.class,
                () -> read("base0.h5", v0));
        assertEquals("superblock base address", old.structure());
        assertEquals(24, old.offset());
        assertEquals("257", old.found());
        assertEquals("0 or the superblock's own offset 512", old.supported());

        byte[] v3 = fixture("userblock_latest.h5");
        v3[1024 + 12] = 0x00; // 1024 -> 2048
        v3[1024 + 13] = 0x08;
        int checksum = JenkinsLookup3.checksum(v3, 1024, SuperblockV3.SIZE - 4);
        for (int i = 0; i < 4; i++) {
            v3[1024 + SuperblockV3.SIZE - 4 + i] = (byte) (checksum >>> (8 * i));
        }
        UnsupportedFormatException latest = assertThrows(UnsupportedFormatException.class,
                () -> read("base3.h5", v3));
        assertEquals(12, latest.offset());
        assertEquals("2048", latest.found());
        assertEquals("0 or the superblock's own offset 1024", latest.supported());
    }

    @Test
    void theSignatureIsLookedForAtZeroAndPowersOfTwoFrom512Only() throws IOException {
        byte[] plain = withoutUserBlock();
        try (BlockFile file = open(write("at2048.h5", prefixed(2048, plain)))) {
            Superblock.read(file);
            assertEquals(2048, file.baseAddress());
        }
        for (int zeros : new int[] {256, 768, 1536}) {
            WrongFormatException e = assertThrows(WrongFormatException.class,
                    () -> read("at" + zeros + ".h5", prefixed(zeros, plain)), "at " + zeros);
            assertEquals("it starts with 00 00 00 00 00 00 00 00 (\"........\"), and no HDF5 "
                    + "signature 89 48 44 46 0d 0a 1a 0a (\".HDF....\") is at offset 0, 512, 1024, "
                    + "2048, ...", e.found());
        }
    }

    /**
     * A signature that ends exactly at the end of the file is found: the file is an HDF5 file
     * cut short (its superblock missing), not another kind of file. One byte less is no
     * signature.
     */
    @Test
    void aSignatureEndingTheFileIsACutShortSuperblockNotAForeignFile() throws IOException {
        byte[] signature = SuperblockV0.SIGNATURE_ONLY.signature();
        byte[] cut = prefixed(512, signature);
        CorruptFileException e = assertThrows(CorruptFileException.class, () -> read("cut.h5", cut));
        assertEquals("superblock", e.structure());
        assertEquals(0, e.offset());
        assertEquals("a block of 9 bytes inside the file of 8 bytes", e.expected());
        assertTrue(e.getMessage().contains("corrupt superblock at offset 0: address expected"),
                e.getMessage());
        assertThrows(WrongFormatException.class,
                () -> read("shorter.h5", Arrays.copyOf(cut, cut.length - 1)));
        CorruptFileException atZero = assertThrows(CorruptFileException.class,
                () -> read("signature.h5", signature));
        assertEquals("a block of 9 bytes inside the file of 8 bytes", atZero.expected());
    }

    @Test
    void aFileShorterThanASignatureShowsWhatItHolds() throws IOException {
        WrongFormatException three = assertThrows(WrongFormatException.class,
                () -> read("three.h5", "abc".getBytes(StandardCharsets.US_ASCII)));
        assertEquals("it starts with 61 62 63 (\"abc\"), and no HDF5 signature 89 48 44 46 0d 0a"
                + " 1a 0a (\".HDF....\") is at offset 0, 512, 1024, 2048, ...", three.found());
        WrongFormatException spaced = assertThrows(WrongFormatException.class,
                () -> read("spaced.h5", new byte[] {' ', '~', 0x1f, 0x7f}));
        assertTrue(spaced.found().startsWith("it starts with 20 7e 1f 7f (\" ~..\")"),
                spaced.found());
        WrongFormatException empty = assertThrows(WrongFormatException.class,
                () -> read("empty.h5", new byte[0]));
        assertEquals("it is empty", empty.found());
    }

    /** The version byte after a user block: unsupported at the superblock's absolute offset. */
    @Test
    void anUnknownVersionAfterAUserBlockIsUnsupportedWhereTheSuperblockIs() throws IOException {
        byte[] bytes = fixture("userblock_512.h5");
        bytes[512 + Superblock.VERSION_OFFSET] = 4;
        UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class,
                () -> read("v4.h5", bytes));
        assertEquals(512, e.offset());
        assertEquals("version 4", e.found());
        assertEquals("versions 0 to 3", e.supported());
    }

    /**
     * Recovery reads a version 3 superblock directly ({@code Hdf5File.recover}): a file too short
     * for one whose first bytes are not the signature is refused at its signature, not as a
     * superblock cut short.
     */
    @Test
    void aShortForeignFileIsRefusedAtTheSignatureOfAVersion3Superblock() throws IOException {
        Path path = write("short.h5", "not an HDF5 file".getBytes(StandardCharsets.US_ASCII));
        try (BlockFile file = open(path)) {
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> SuperblockV3.read(file));
            assertEquals("signature", e.field());
            assertEquals(0, e.offset());
            assertEquals("\"not an H\"", e.found());
        }
    }
}
