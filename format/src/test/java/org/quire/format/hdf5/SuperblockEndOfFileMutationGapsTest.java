package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.CorruptFileException;

/**
 * A file one byte shorter than its superblock's end-of-file address is refused at that field,
 * at its absolute offset: 40 bytes into a version 0 superblock, 28 into a version 3 one, after
 * the user block if there is one (section II.A). The files are h5py's (committed,
 * {@code make_h5py_compat_fixtures.py}); a file exactly as long as the address opens.
 */
class SuperblockEndOfFileMutationGapsTest {

    @TempDir
    Path dir;

    private Path cutByOne(String name) throws IOException {
        byte[] bytes = Files.readAllBytes(H5pyFixtures.directory(H5pyFixtures.COMPAT)
                .resolve(name));
        Path cut = dir.resolve("cut-" + name);
        Files.write(cut, Arrays.copyOf(bytes, bytes.length - 1));
        return cut;
    }

    private static void assertEndOfFileRefused(Path file, long offset, long size) {
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> Hdf5File.open(file).close());
        assertEquals("superblock", e.structure());
        assertEquals("end of file address", e.field());
        assertEquals(offset, e.offset());
        assertEquals("at most the file size " + size, e.expected());
        assertEquals(Long.toString(size + 1), e.found());
    }

    @Test
    void aFileCutByOneByteIsRefusedAtItsEndOfFileAddress() throws IOException {
        Path v0 = cutByOne("userblock_512.h5");
        assertEndOfFileRefused(v0, 512 + 40, Files.size(v0));
        Path v0Large = cutByOne("userblock_4096.h5");
        assertEndOfFileRefused(v0Large, 4096 + 40, Files.size(v0Large));
        Path v3 = cutByOne("userblock_latest.h5");
        assertEndOfFileRefused(v3, 1024 + 28, Files.size(v3));
    }

    @Test
    void aFileAsLongAsItsEndOfFileAddressOpens() throws IOException {
        Path whole = H5pyFixtures.directory(H5pyFixtures.COMPAT).resolve("userblock_latest.h5");
        try (Hdf5File file = Hdf5File.open(whole)) {
            assertEquals(5, file.root().dataset("plain").shape()[0]);
        }
    }

    /** Opening for writing checks the same field, in a file without user block. */
    @Test
    void aFileCutByOneByteIsNotOpenedForWriting() throws IOException {
        Path plain = dir.resolve("plain.h5");
        try (Hdf5File file = Hdf5File.create(plain)) {
            file.root().createGroup("g");
        }
        byte[] bytes = Files.readAllBytes(plain);
        Files.write(plain, Arrays.copyOf(bytes, bytes.length - 1));
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> Hdf5File.openForWriting(plain).close());
        assertEquals("end of file address", e.field());
        assertEquals(28, e.offset());
        assertEquals("at most the file size " + (bytes.length - 1), e.expected());
        assertEquals(Long.toString(bytes.length), e.found());
    }
}
