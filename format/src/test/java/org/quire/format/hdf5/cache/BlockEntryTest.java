package org.quire.format.hdf5.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;

/** A block held as a value and encoded only when written ({@link BlockEntry}). */
class BlockEntryTest {

    @Test
    void carriesItsAddressSizeStageAndValueAndEncodesTheValue() {
        StringBuilder value = new StringBuilder("abcd");
        BlockEntry<StringBuilder> entry = BlockEntry.metadata(4096, 4, value,
                text -> text.toString().getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        assertEquals(4096, entry.address());
        assertEquals(4, entry.imageSize());
        assertEquals(FlushStage.METADATA, entry.stage());
        assertSame(value, entry.value());
        assertEquals("METADATA block at 4096 (4 bytes)", entry.toString());
        value.setCharAt(0, 'x'); // the holder changes the value; the image follows it
        ByteBuffer image = ByteBuffer.allocate(6).put((byte) 9);
        entry.encode(image);
        assertArrayEquals(new byte[] {9, 'x', 'b', 'c', 'd', 0}, image.array());
    }

    @Test
    void anImageOfAnotherSizeAndARawDataStageAreRefused() {
        BlockEntry<byte[]> entry = new BlockEntry<>(64, 8, FlushStage.OBJECT_HEADER,
                new byte[7], bytes -> bytes);
        assertEquals(FlushStage.OBJECT_HEADER, entry.stage());
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> entry.encode(ByteBuffer.allocate(8)));
        assertEquals("OBJECT_HEADER block at 64 encoded 7 bytes, its image has 8",
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new BlockEntry<>(64, 8,
                FlushStage.RAW_DATA, new byte[8], bytes -> bytes));
    }
}
