package org.quire.format.hdf5.layout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.CorruptFileException;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.OpenMode;

class BlockFileTest {

    @TempDir
    Path dir;

    private BlockFile open() throws Exception {
        Path path = dir.resolve("blocks.h5");
        return new BlockFile(FileStorage.open(path, OpenMode.CREATE_OR_OPEN));
    }

    @Test
    void readsBackWhatItWrote() throws Exception {
        try (BlockFile file = open()) {
            file.write(4, new byte[] {1, 2, 3});
            assertArrayEquals(new byte[] {0, 1, 2, 3}, file.read(3, 4, "test"));
            assertEquals(7, file.endOfAllocation());
        }
    }

    @Test
    void allocatesConsecutiveRangesFromTheEnd() throws Exception {
        try (BlockFile file = open()) {
            file.write(0, new byte[10]);
            assertEquals(10, file.allocate(5));
            assertEquals(15, file.allocate(1));
        }
    }

    @Test
    void refusesAReadPastTheEndNamingTheStructure() throws Exception {
        try (BlockFile file = open()) {
            file.write(0, new byte[10]);
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> file.read(8, 4, "object header"));
            assertEquals("object header", e.structure());
            assertEquals(8, e.offset());
        }
    }

    @Test
    void refusesTheUndefinedAddress() throws Exception {
        try (BlockFile file = open()) {
            file.write(0, new byte[10]);
            CorruptFileException e = assertThrows(CorruptFileException.class,
                    () -> file.read(Addresses.UNDEFINED, 4, "fixed array header"));
            assertEquals("the undefined address", e.found());
        }
    }
}
