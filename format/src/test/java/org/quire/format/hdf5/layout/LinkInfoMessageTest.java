package org.quire.format.hdf5.layout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/**
 * Link info messages (section IV.A.2.c) built byte by byte: where the addresses start with and
 * without the maximum creation index, and turning dense storage back into compact storage.
 */
class LinkInfoMessageTest {

    private static LinkInfoMessage decode(byte[] body) throws Exception {
        return LinkInfoMessage.decode(new LittleEndianReader(Path.of("l.h5"), 40, "link info message", body));
    }

    /** Version 0, flags b0|b1: creation index 7, heap 0x100, name index 0x200, order index 0x300. */
    private static byte[] trackedAndIndexed() {
        LittleEndianWriter out = new LittleEndianWriter().putByte(0).putByte(3);
        out.putLong(7).putAddress(0x100).putAddress(0x200).putAddress(0x300);
        return out.toByteArray();
    }

    @Test
    void addressesFollowTheMaximumCreationIndexWhenOrderIsTracked() throws Exception {
        LinkInfoMessage dense = decode(trackedAndIndexed());
        assertEquals(new LinkInfoMessage(0x100, 0x200, 0x300), dense);
        assertTrue(dense.isDense());
        LinkInfoMessage untracked = decode(new LittleEndianWriter().putByte(0).putByte(0)
                .putAddress(0x100).putAddress(0x200).toByteArray());
        assertEquals(new LinkInfoMessage(0x100, 0x200, Addresses.UNDEFINED), untracked);
        // Tracked but not indexed: the creation index, then two addresses only.
        LinkInfoMessage trackedOnly = decode(new LittleEndianWriter().putByte(0).putByte(1)
                .putLong(7).putAddress(0x100).putAddress(0x200).toByteArray());
        assertEquals(new LinkInfoMessage(0x100, 0x200, Addresses.UNDEFINED), trackedOnly);
    }

    /** Flags and the creation index are kept; every address becomes undefined; same length. */
    @Test
    void withoutDenseStorageUndefinesEveryAddressAndKeepsTheRest() throws Exception {
        byte[] body = trackedAndIndexed();
        byte[] compact = LinkInfoMessage.withoutDenseStorage(body);
        assertEquals(body.length, compact.length);
        assertArrayEquals(java.util.Arrays.copyOf(body, 10), java.util.Arrays.copyOf(compact, 10));
        assertEquals(LinkInfoMessage.compact(), decode(compact));
        assertFalse(decode(compact).isDense());
        // Without a tracked creation order the addresses start right after the flags.
        byte[] untracked = new LittleEndianWriter().putByte(0).putByte(0)
                .putAddress(0x100).putAddress(0x200).toByteArray();
        byte[] expected = new byte[untracked.length];
        java.util.Arrays.fill(expected, (byte) 0xff);
        expected[0] = 0;
        expected[1] = 0;
        assertArrayEquals(expected, LinkInfoMessage.withoutDenseStorage(untracked));
    }
}
