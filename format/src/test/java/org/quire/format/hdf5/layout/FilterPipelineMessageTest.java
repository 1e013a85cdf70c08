package org.quire.format.hdf5.layout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Filter pipelines (section IV.A.2.l) built byte by byte: version 1 with names padded to 8 bytes
 * and client data padded to an even count, version 2 with names only from identifier 256.
 */
class FilterPipelineMessageTest {

    private static FilterPipelineMessage decode(byte[] body) throws Exception {
        return FilterPipelineMessage.decode(new LittleEndianReader(Path.of("f.h5"), 100,
                "filter pipeline message", body));
    }

    private static void assertEntry(int id, int flags, String name, int[] values,
                                    FilterPipelineMessage.Entry entry) {
        assertEquals(id, entry.id());
        assertEquals(flags, entry.flags());
        assertEquals(name, entry.name());
        assertArrayEquals(values, entry.clientData());
    }

    /**
     * Version 1: a name of 5 bytes with its NUL ("abcd") takes 8; one client value is followed
     * by 4 bytes of padding; a name of exactly 8 bytes without NUL is read whole; the second
     * filter is only found where it is if both paddings are skipped.
     */
    @Test
    void versionOnePadsNamesToEightBytesAndOddClientDataToEven() throws Exception {
        byte[] body = {
            1, 2, 0, 0, 0, 0, 0, 0,                     // version 1, 2 filters, reserved
            2, 0, 5, 0, 1, 0, 1, 0,                     // id 2, name length 5, flags 1, 1 value
            'a', 'b', 'c', 'd', 0, 'x', 'x', 'x',       // name, padded
            4, 0, 0, 0, 9, 9, 9, 9,                     // value 4, padding
            1, 1, 8, 0, 0, 0, 2, 0,                     // id 257, name length 8, flags 0, 2 values
            'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l',     // name of 8 bytes, no NUL
            6, 0, 0, 0, 7, 0, 0, 0};
        List<FilterPipelineMessage.Entry> filters = decode(body).filters();
        assertEquals(2, filters.size());
        assertEntry(2, 1, "abcd", new int[] {4}, filters.get(0));
        assertEntry(257, 0, "efghijkl", new int[] {6, 7}, filters.get(1));
    }

    /** A name length of 0 in version 1: no name, and the values follow at once. */
    @Test
    void versionOneWithoutANameReadsNoName() throws Exception {
        FilterPipelineMessage.Entry entry = decode(new byte[] {
            1, 1, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 2, 0, 5, 0, 0, 0, 6, 0, 0, 0}).filters().get(0);
        assertEntry(3, 0, null, new int[] {5, 6}, entry);
    }

    /**
     * Version 2: identifier 255 is libhdf5's range and has no name length field; 256 is the
     * first with one. Quire writes both that way, and reads its own bytes back.
     */
    @Test
    void versionTwoNamesFiltersFromIdentifier256() throws Exception {
        FilterPipelineMessage pipeline = new FilterPipelineMessage(List.of(
                new FilterPipelineMessage.Entry(255, 1, "ignored", new int[] {7}),
                new FilterPipelineMessage.Entry(256, 0, "ab", new int[0]),
                new FilterPipelineMessage.Entry(300, 0, null, new int[] {8})));
        byte[] expected = {
            2, 3,
            (byte) 255, 0, 1, 0, 1, 0, 7, 0, 0, 0,      // id 255, flags 1, 1 value: no name
            0, 1, 3, 0, 0, 0, 0, 0, 'a', 'b', 0,        // id 256, name length 3, "ab\0"
            44, 1, 0, 0, 0, 0, 1, 0, 8, 0, 0, 0};       // id 300, name length 0
        assertArrayEquals(expected, pipeline.encode());
        List<FilterPipelineMessage.Entry> back = decode(expected).filters();
        assertEntry(255, 1, null, new int[] {7}, back.get(0));
        assertEntry(256, 0, "ab", new int[0], back.get(1));
        assertEntry(300, 0, null, new int[] {8}, back.get(2));
        assertNull(back.get(2).name());
    }
}
