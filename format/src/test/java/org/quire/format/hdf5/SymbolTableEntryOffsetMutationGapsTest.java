package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.CorruptFileException;

/**
 * Symbol table entries (section III.C) are 40 bytes each after the node's 8-byte prefix ("SNOD",
 * version, reserved, number of symbols): an error in an entry other than the first names that
 * entry's own offset. The node is found by its signature in h5py's old-format file
 * ({@code legacy.h5}, committed), independently of Quire's reader.
 */
class SymbolTableEntryOffsetMutationGapsTest {

    private static final int PREFIX = 8;
    private static final int ENTRY = 40;

    @TempDir
    Path dir;

    /** The first "SNOD" at an 8-aligned offset whose node holds at least {@code symbols} entries. */
    private static int nodeWithSymbols(byte[] bytes, int symbols) {
        byte[] signature = "SNOD".getBytes(StandardCharsets.US_ASCII);
        ByteBuffer le = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        for (int at = 0; at + PREFIX <= bytes.length; at += 8) {
            if (bytes[at] == signature[0] && bytes[at + 1] == signature[1]
                    && bytes[at + 2] == signature[2] && bytes[at + 3] == signature[3]
                    && bytes[at + 4] == 1 && (le.getShort(at + 6) & 0xffff) >= symbols) {
                return at;
            }
        }
        throw new AssertionError("no symbol table node with " + symbols + " symbols");
    }

    @Test
    void aNameOffsetBeyondTheHeapInTheThirdEntryIsReportedAtThatEntry() throws IOException {
        byte[] bytes = Files.readAllBytes(H5pyFixtures.directory(H5pyFixtures.LEGACY)
                .resolve("legacy.h5"));
        int node = nodeWithSymbols(bytes, 3);
        int third = node + PREFIX + 2 * ENTRY;
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putLong(third, 1_000_000);
        Path damaged = dir.resolve("third-entry.h5");
        Files.write(damaged, bytes);
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> ReadEverything.read(damaged));
        assertEquals("symbol table node", e.structure());
        assertEquals("link name offset", e.field());
        assertEquals(third, e.offset());
        assertEquals("1000000", e.found());
        assertTrue(e.getMessage().startsWith(damaged + ": corrupt symbol table node"),
                e.getMessage());
    }
}
