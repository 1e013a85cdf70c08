package org.quire.format.hdf5.layout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;

/**
 * Fill value message versions libhdf5 1.10 no longer writes (version 1, the old type-4
 * message), decoded from bodies laid out as the specification's section IV.A.2.e/f says.
 */
class FillValueMessageTest {

    private static LittleEndianReader reader(int... bytes) {
        byte[] body = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            body[i] = (byte) bytes[i];
        }
        return new LittleEndianReader(Path.of("fill.h5"), 100, "fill value message", body);
    }

    @Test
    void version1AlwaysStoresSizeAndValue() throws Exception {
        // version 1, allocation late, write on allocation, "undefined", size 2, value 0x0102
        FillValueMessage message = FillValueMessage.decode(reader(1, 2, 0, 0, 2, 0, 0, 0, 2, 1));
        assertArrayEquals(new byte[] {2, 1}, message.value());
        assertNull(FillValueMessage.decode(reader(1, 2, 0, 1, 0, 0, 0, 0)).value());
    }

    @Test
    void theOldMessageIsSizeAndValue() throws Exception {
        assertArrayEquals(new byte[] {7, 0, 0, 0},
                FillValueMessage.decodeOld(reader(4, 0, 0, 0, 7, 0, 0, 0)).value());
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> FillValueMessage.decodeOld(reader(9, 0, 0, 0, 7)));
        assertEquals("fill value size", e.field());
        assertEquals(100, e.offset());
    }

    @Test
    void version2WithoutDefinedValueHasNone() throws Exception {
        assertNull(FillValueMessage.decode(reader(2, 3, 2, 0)).value());
        assertThrows(UnsupportedFormatException.class,
                () -> FillValueMessage.decode(reader(4, 0)));
    }
}
