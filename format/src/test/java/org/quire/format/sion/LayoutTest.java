package org.quire.format.sion;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Offsets and encodings of the layout classes against the values of reference sections 2.1-2.4. */
class LayoutTest {

    private static final EndiannessWord LITTLE = new EndiannessWord(ByteOrder.LITTLE_ENDIAN, ByteOrder.LITTLE_ENDIAN);
    private static final EndiannessWord BIG = new EndiannessWord(ByteOrder.BIG_ENDIAN, ByteOrder.BIG_ENDIAN);

    @Test
    void endiannessWordIsSymmetricAndRejectsAsymmetricWords() {
        assertArrayEquals(new byte[] {0, 0, 0, 0}, LITTLE.toBytes());
        assertArrayEquals(new byte[] {1, 1, 1, 1}, BIG.toBytes());
        EndiannessWord bigUserData = new EndiannessWord(ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN);
        assertArrayEquals(new byte[] {0, 1, 1, 0}, bigUserData.toBytes());
        assertEquals(bigUserData, EndiannessWord.parse(new byte[] {0, 1, 1, 0}).orElseThrow());
        assertEquals(BIG, EndiannessWord.parse(new byte[] {1, 1, 1, 1}).orElseThrow());
        assertTrue(EndiannessWord.parse(new byte[] {1, 0, 0, 0}).isEmpty(), "01 00 00 00 breaks SIONlib readers");
        assertTrue(EndiannessWord.parse(new byte[] {2, 0, 0, 2}).isEmpty());
        assertTrue(EndiannessWord.parse(new byte[] {0, 1, 0, 0}).isEmpty());
        assertEquals("00 01 01 00", EndiannessWord.hex(bigUserData.toBytes()));
    }

    @Test
    void meta1SizesAndOffsetsMatchTheReference() {
        assertEquals(1152, Meta1Layout.size(4));
        assertEquals(5888, Meta1Layout.size(300));
        assertEquals(1076, Meta1Layout.globalRankOffset(4, 0));
        assertEquals(1076 + 32 + 8, Meta1Layout.chunkCapacityOffset(4, 1));
        assertEquals(1076 + 64, Meta1Layout.maxChunksOffset(4));
        assertEquals(1080 + 64, Meta1Layout.startOfMeta2Offset(4));
    }

    @Test
    void meta1HeadAndTailRoundTripInBothByteOrders() {
        for (EndiannessWord word : List.of(LITTLE, BIG)) {
            Meta1FixedPart fixed = new Meta1FixedPart(word, 1007, 6, 5, 4096, 2, 1, 1,
                    KeyValueMode.INLINE.flag1(), 0, "dir/name.sion");
            ByteBuffer head = Meta1Layout.encodeHead(fixed, new long[] {100, 101}, new long[] {4096, 8192});
            ByteBuffer file = ByteBuffer.allocate((int) Meta1Layout.size(2)).order(word.metadataOrder());
            file.put(0, head, 0, head.capacity());
            file.put((int) Meta1Layout.maxChunksOffset(2), Meta1Layout.encodeTail(3, 65536, word.metadataOrder()), 0,
                    Meta1Layout.TAIL_SIZE);

            assertArrayEquals(Meta1Layout.MAGIC, Meta1Layout.magic(file));
            assertEquals(2, file.getInt(24), "ntasks at 24");
            assertEquals(219043332096L, file.getLong(36), "flag1 at 36, unaligned");
            assertEquals(8192, file.getLong(1076 + 16 + 8), "second capacity after both globalranks");
            assertEquals(0, file.get(52 + "dir/name.sion".length()), "prefix is NUL padded");

            Meta1FixedPart decodedFixed = Meta1Layout.decodeFixedPart(file.slice(0, Meta1Layout.FIXED_PART_SIZE), word);
            assertEquals(fixed, decodedFixed);
            Meta1 meta1 = Meta1Layout.decodeVariablePart(decodedFixed,
                    file.slice(Meta1Layout.FIXED_PART_SIZE, (int) Meta1Layout.variablePartSize(2)).order(word.metadataOrder()));
            assertArrayEquals(new long[] {100, 101}, meta1.globalRanks());
            assertArrayEquals(new long[] {4096, 8192}, meta1.chunkCapacities());
            assertEquals(3, meta1.maxChunks());
            assertEquals(65536, meta1.startOfMeta2());
        }
    }

    @Test
    void meta2IsChunkMajorWithZeroForUnusedEntries() {
        long[][] fills = {{3000, 3000, 3500}, {0}, {4096, 10}, {100}};
        ByteBuffer meta2 = Meta2Layout.encode(fills, 3, ByteOrder.LITTLE_ENDIAN);
        assertEquals(128, meta2.capacity());
        long[] stored = new long[16];
        meta2.asLongBuffer().get(stored);
        assertArrayEquals(new long[] {3, 1, 2, 1, 3000, 0, 4096, 100, 3000, 0, 10, 0, 3500, 0, 0, 0}, stored);
        Meta2 decoded = Meta2Layout.decode(meta2, 4, 3);
        assertArrayEquals(new long[] {3, 1, 2, 1}, decoded.chunkCounts());
        assertArrayEquals(new long[] {4096, 10, 0}, decoded.bytesPerChunk()[2]);
        assertEquals(8L * 4 + 8L * 4 * 2 + 8, Meta2Layout.bytesInChunkOffset(4, 2, 1));
    }

    @Test
    void mappingTrailerRoundTrips() {
        List<TaskLocation> mapping = List.of(new TaskLocation(0, 0), new TaskLocation(0, 1), new TaskLocation(1, 0));
        ByteBuffer trailer = MappingLayout.encode(mapping, ByteOrder.BIG_ENDIAN);
        assertEquals(28, trailer.capacity());
        assertEquals(3, MappingLayout.decodeMappingSize(trailer));
        assertEquals(mapping, MappingLayout.decodeEntries(trailer, 3));
        ByteBuffer serial = MappingLayout.encodeSerialTrailer(ByteOrder.LITTLE_ENDIAN);
        assertEquals(4, serial.capacity());
        assertEquals(0, serial.getInt(0));
    }

    @Test
    void geometryUsesPrefixSumsOfStoredCapacities() {
        ChunkGeometry serial = ChunkGeometry.fromCapacities(4096,
                ChunkGeometry.alignedCapacities(new long[] {1000, 5000, 4096, 100}, 4096));
        assertArrayEquals(new long[] {4096, 8192, 4096, 4096}, serial.chunkCapacities());
        assertEquals(4096, serial.startOfData());
        assertArrayEquals(new long[] {4096, 8192, 16384, 20480}, serial.taskStarts());
        assertEquals(20480, serial.globalSkip());
        assertEquals(4096 + 2 * 20480, serial.chunkOffset(0, 2));
        assertEquals(65536, serial.startOfMeta2(3));

        ChunkGeometry collective = ChunkGeometry.fromCapacities(4096, new long[] {3000, 5192, 3000, 5192});
        assertArrayEquals(new long[] {4096, 7096, 12288, 15288}, collective.taskStarts());
        assertEquals(16384, collective.globalSkip());

        ChunkGeometry unaligned = ChunkGeometry.fromCapacities(1, new long[] {9500, 0, 4106, 100});
        assertArrayEquals(new long[] {1152, 10652, 10652, 14758}, unaligned.taskStarts());
        assertArrayEquals(new long[] {0, 512, 1024}, ChunkGeometry.alignedCapacities(new long[] {0, 1, 513}, 512));
    }

    @Test
    void aPrefixOfExactly1024BytesFillsTheFieldWithoutTerminatorAndOneMoreIsRefused() {
        String longest = "p".repeat(Meta1Layout.PREFIX_LENGTH);
        Meta1FixedPart fixed = SionWriteOptions.defaults().meta1FixedPart(64, 1, 1, 1, longest);
        ByteBuffer head = Meta1Layout.encodeHead(fixed, new long[] {0}, new long[] {64});
        Meta1FixedPart decoded = Meta1Layout.decodeFixedPart(head.slice(0, Meta1Layout.FIXED_PART_SIZE),
                fixed.endianness());
        assertEquals(longest, decoded.prefix());
        assertEquals(fixed, decoded);
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> SionWriteOptions.defaults().meta1FixedPart(64, 1, 1, 1, longest + "p"));
        Meta1FixedPart tooLong = new Meta1FixedPart(fixed.endianness(), fixed.version(), fixed.versionPatchlevel(),
                fixed.fileFormatVersion(), 64, 1, 1, 1, fixed.flag1(), 0, longest + "p");
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> Meta1Layout.encodeHead(tooLong, new long[] {0}, new long[] {64}));
        assertEquals("META1 head does not match 1 tasks or prefix is longer than 1024 bytes", e.getMessage());
    }
}
