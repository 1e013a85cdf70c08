package org.quire.format.hdf5.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/**
 * The minimum for dense storage a group info message (section IV.A.2.k) stores, or libhdf5's
 * default when its flags say it stores none (h5py offers no way to write another minimum).
 */
class GroupInfoMessageTest {

    private static LittleEndianReader reader(byte[] body) {
        return new LittleEndianReader(Path.of("g.h5"), 100, "group info message", body);
    }

    @Test
    void theDefaultWhenNoneIsStored() throws Exception {
        assertEquals(6, GroupInfoMessage.minDense(reader(GroupInfoMessage.encodeDefault())));
        // flags b1 only: estimates, no thresholds
        assertEquals(6, GroupInfoMessage.minDense(reader(new byte[] {0, 2, 4, 0, 18, 0})));
    }

    @Test
    void theStoredMinimumWhenFlagsBit0IsSet() throws Exception {
        // max compact 20, min dense 18, then the estimates (flags b1)
        assertEquals(18, GroupInfoMessage.minDense(reader(new byte[] {0, 3, 20, 0, 18, 0, 4, 0, 8, 0})));
    }
}
