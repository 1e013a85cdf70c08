package org.quire.format.hangar;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LocatorRecordTest {

    /** The two examples of Hangar's backend description (the seed), in its dialect, v0.3. */
    @Test
    void seedExamplesParseToTheirFieldsAndFormatBackByteIdentical() throws Exception {
        LocatorRecord first = LocatorRecord.parse("00:2HvGf9$0 0*10");
        assertEquals(new LocatorRecord("2HvGf9", 0, 0, 10), first);
        assertEquals("00", first.formatCode());
        assertEquals("2HvGf9", first.uid());
        assertNull(first.checksum());
        assertEquals(0, first.collection());
        assertEquals(0, first.index());
        assertArrayEquals(new long[] {10}, first.shape());
        assertEquals("00:2HvGf9$0 0*10", first.format());

        LocatorRecord second = LocatorRecord.parse("00:WzUtdu$3 199*20 2 3");
        assertEquals("WzUtdu", second.uid());
        assertEquals(3, second.collection());
        assertEquals(199, second.index());
        assertArrayEquals(new long[] {20, 2, 3}, second.shape());
        assertEquals("00:WzUtdu$3 199*20 2 3", second.format());
    }

    /** Reference §4.3: v0.4 adds a checksum after the UID; v0.5 separates every field by ':'. */
    @Test
    void laterDialectsParseToTheSameFieldsAndFormatInTheSeedDialect() throws Exception {
        LocatorRecord v04 = LocatorRecord.parse("00:rlUK3C$8067007c0f05c359$16 105*10 10");
        assertEquals(new LocatorRecord("rlUK3C", "8067007c0f05c359", 16, 105, new long[] {10, 10}),
                v04);
        assertEquals("00:rlUK3C$16 105*10 10", v04.format());

        LocatorRecord v05 = LocatorRecord.parse("00:rlUK3C:b89f873d3d153a9c:8:199:20 2 3");
        assertEquals(new LocatorRecord("rlUK3C", "b89f873d3d153a9c", 8, 199, new long[] {20, 2, 3}),
                v05);
        assertEquals("00:rlUK3C$8 199*20 2 3", v05.format());

        // A checksum of decimal digits only is still a checksum when a '$' follows it.
        assertEquals("1234567890123456",
                LocatorRecord.parse("00:abc$1234567890123456$1 2*3").checksum());
    }

    /** Reference §4.4: 0-d samples end in an empty shape; empty variable-shape samples hold a 0. */
    @Test
    void edgeCasesOfTheReference() throws Exception {
        assertArrayEquals(new long[0], LocatorRecord.parse("00:2HvGf9$0 0*").shape());
        assertEquals("00:2HvGf9$0 0*", LocatorRecord.parse("00:2HvGf9$0 0*").format());
        assertArrayEquals(new long[0],
                LocatorRecord.parse("00:rlUK3C:b89f873d3d153a9c:8:199:").shape());
        assertArrayEquals(new long[0],
                LocatorRecord.parse("00:rlUK3C$8067007c0f05c359$16 105*").shape());
        assertArrayEquals(new long[] {0}, LocatorRecord.parse("00:2HvGf9$0 0*0").shape());
        assertArrayEquals(new long[] {3, 0}, LocatorRecord.parse("00:2HvGf9$0 0*3 0").shape());
        // No size limit in the grammar: a record far longer than v0.5's 255-character parser took.
        long[] highRank = new long[200];
        java.util.Arrays.fill(highRank, 1);
        LocatorRecord longRecord = new LocatorRecord("AbC123", 98, 249, highRank);
        assertTrue(longRecord.format().length() > 255);
        assertEquals(longRecord, LocatorRecord.parse(longRecord.format()));
        assertEquals(Long.MAX_VALUE,
                LocatorRecord.parse("00:a$0 9223372036854775807*1").index());
    }

    @Test
    void oneLineMessagesNameTheRecordThePositionWhatWasFoundAndWhatWasExpected() {
        assertEquals("HDF5_00 record \"00:2HvGf9$0 x*10\" at position 12: found 'x', expected a"
                + " digit of the collection index", message("00:2HvGf9$0 x*10"));
        assertEquals("HDF5_00 record \"01:2HvGf9$0 0*10\" at position 0: found format code '01',"
                + " expected format code 00 (HDF5_00)", message("01:2HvGf9$0 0*10"));
        assertEquals("HDF5_00 record \"00:2HvGf9$0 0*10 \" at position 17: found the end of the"
                + " record, expected a digit of the shape extent", message("00:2HvGf9$0 0*10 "));
        assertEquals("HDF5_00 record \"00:2H\\u00e9Gf9$0 0*10\" at position 5: found U+00E9 (not"
                + " ASCII), expected '$' (v0.3, v0.4) or ':' (v0.5) after the UID",
                message("00:2H\u00e9Gf9$0 0*10"));
        assertEquals("HDF5_00 record \"00:2HvGf9$0 99999999999999999999*10\" at position 30:"
                + " found '9', making the collection index 99999999999999999999, expected the"
                + " collection index at most 9223372036854775807",
                message("00:2HvGf9$0 99999999999999999999*10"));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        // record                                    | position | found                       | expected
        "\"\"                                        | 0  | the end of the record   | the format code 00",
        ":2HvGf9$0 0*10                              | 0  | ':'                     | the format code 00",
        "10:2HvGf9$0 0*10                            | 0  | format code '10'        | format code 00 (HDF5_00)",
        "00$2HvGf9$0 0*10                            | 2  | '$'                     | ':' after the format code",
        "00:$0 0*10                                  | 3  | '$'                     | the file UID (ASCII letters and digits)",
        "00:2HvGf9 0 0*10                            | 9  | ' '                     | '$' (v0.3, v0.4) or ':' (v0.5) after the UID",
        "00:2HvGf9$ 0*10                             | 10 | ' '                     | a digit of the collection number",
        "00:2HvGf9$-1 0*10                           | 10 | '-'                     | a digit of the collection number",
        "00:2HvGf9$0  0*10                           | 12 | ' '                     | a digit of the collection index",
        "00:2HvGf9$0*0*10                            | 11 | '*'                     | ' ' after the collection number (or '$' after a 16-digit checksum)",
        "00:2HvGf9$0 0 10                            | 13 | ' '                     | '*' after the collection index",
        "00:2HvGf9$0 0*10,2                          | 16 | ','                     | ' ' or the end of the record after an extent",
        "00:2HvGf9$0 0*1e3                           | 15 | 'e'                     | ' ' or the end of the record after an extent",
        "00:2HvGf9$0 0*-10                           | 14 | '-'                     | a digit of the shape extent",
        "00:2HvGf9$07 0*10                           | 11 | '7' after a leading '0' | the collection number without leading zeros",
        "00:2HvGf9$0 0*10 9223372036854775808        | 35 | '8', making the shape extent 9223372036854775808 | the shape extent at most 9223372036854775807",
        "00:2HvGf9$0 0*10 09                         | 18 | '9' after a leading '0' | the shape extent without leading zeros",
        "00:rlUK3C$8067007c0f05c35$16 105*10         | 25 | '$'                     | a lowercase hex digit of the 16-digit XXH64 checksum",
        "00:rlUK3C$8067007c0f05c3599$16 105*10       | 26 | '9'                     | '$' after the checksum",
        "00:a$0123456789ABCDEF$1 2*3                 | 15 | 'A'                     | a lowercase hex digit of the 16-digit XXH64 checksum",
        "00:a$0123456789abcdeg$1 2*3                 | 20 | 'g'                     | a lowercase hex digit of the 16-digit XXH64 checksum",
        "00:a$8067007c0f05c35 1$1 2*3                | 12 | 'c'                     | ' ' after the collection number (or '$' after a 16-digit checksum)",
        "00:rlUK3C$8067007c0f05c359$16*105*10        | 29 | '*'                     | ' ' after the collection number",
        "00:rlUK3C:8067007C0f05c359:8:199:20         | 17 | 'C'                     | a lowercase hex digit of the 16-digit XXH64 checksum",
        "00:rlUK3C:b89f873d3d153a9c:8 199:20         | 28 | ' '                     | ':' after the collection number",
        "00:rlUK3C:b89f873d3d153a9c:8:199*20         | 32 | '*'                     | ':' after the collection index",
        "00:rlUK3C:b89f873d3d153a9c::199:20          | 27 | ':'                     | a digit of the collection number",
        "00:rlUK3C:b89f873d3d153a9c:8:199:20:        | 35 | ':'                     | ' ' or the end of the record after an extent",
    })
    void malformedRecordsFailAtTheirFirstWrongCharacter(String record, int position, String found,
                                                        String expected) {
        MalformedRecordException e = assertThrows(MalformedRecordException.class,
                () -> LocatorRecord.parse(record));
        assertEquals(record, e.record());
        assertEquals(position, e.position(), e.getMessage());
        assertEquals(found, e.found(), e.getMessage());
        assertEquals(expected, e.expected(), e.getMessage());
        assertNull(e.file());
    }

    @Test
    void controlCharactersAndCharactersOutsideTheBmpAreNamedByCodePoint() {
        MalformedRecordException tab = assertThrows(MalformedRecordException.class,
                () -> LocatorRecord.parse("00:2HvGf9$0\t0*10"));
        assertEquals(11, tab.position());
        assertEquals("U+0009 (a control character)", tab.found());
        assertTrue(tab.getMessage().startsWith("HDF5_00 record \"00:2HvGf9$0\\u00090*10\""),
                tab.getMessage());
        MalformedRecordException emoji = assertThrows(MalformedRecordException.class,
                () -> LocatorRecord.parse("00:2HvGf9$0 0*\ud83d\ude00"));
        assertEquals(14, emoji.position());
        assertEquals("U+1F600 (not ASCII)", emoji.found());
        assertEquals(1, emoji.getMessage().lines().count());
    }

    @Test
    void aSchemaFixesTheRankAndTheExtentsOrBoundsThem() throws Exception {
        SampleSchema fixed = SampleSchema.fixed(20, 2, 3);
        assertEquals(new LocatorRecord("WzUtdu", 3, 199, 20, 2, 3),
                LocatorRecord.parse("00:WzUtdu$3 199*20 2 3", fixed));

        MalformedRecordException rank = assertThrows(MalformedRecordException.class,
                () -> LocatorRecord.parse("00:WzUtdu$3 199*20 2", fixed));
        assertEquals("HDF5_00 record \"00:WzUtdu$3 199*20 2\" at position 20: found the end of"
                + " the record, expected ' ' and extent 2 of a shape of rank 3 (the schema shape"
                + " (20, 2, 3))", rank.getMessage());
        MalformedRecordException higher = assertThrows(MalformedRecordException.class,
                () -> LocatorRecord.parse("00:WzUtdu$3 199*20 2 3 4 x", fixed));
        assertEquals("HDF5_00 record \"00:WzUtdu$3 199*20 2 3 4 x\" at position 22: found ' ',"
                + " expected the end of the record after 3 extents, rank 3 of the schema shape"
                + " (20, 2, 3)", higher.getMessage());

        MalformedRecordException extent = assertThrows(MalformedRecordException.class,
                () -> LocatorRecord.parse("00:WzUtdu$3 199*20 4 3", fixed));
        assertEquals("HDF5_00 record \"00:WzUtdu$3 199*20 4 3\" at position 19: found extent 4 in"
                + " dimension 1, expected 2 as in the fixed-shape schema (20, 2, 3)", extent.getMessage());

        SampleSchema variable = SampleSchema.variable(10);
        assertArrayEquals(new long[] {7}, LocatorRecord.parse("00:a$0 1*7", variable).shape());
        assertArrayEquals(new long[] {0}, LocatorRecord.parse("00:a$0 1*0", variable).shape());
        MalformedRecordException tooLong = assertThrows(MalformedRecordException.class,
                () -> LocatorRecord.parse("00:a$0 1*11", variable));
        assertEquals(9, tooLong.position());
        assertEquals("at most 10 as in the variable-shape schema (10,)", tooLong.expected());

        SampleSchema scalar = SampleSchema.fixed();
        assertArrayEquals(new long[0], LocatorRecord.parse("00:a$0 1*", scalar).shape());
        MalformedRecordException notScalar = assertThrows(MalformedRecordException.class,
                () -> LocatorRecord.parse("00:a$0 1*1", scalar));
        assertEquals(9, notScalar.position());
        assertEquals("the end of the record after 0 extents, rank 0 of the schema shape ()",
                notScalar.expected());
    }

    @Test
    void aNullRecordIsANullPointerExceptionNamingIt() {
        NullPointerException e = assertThrows(NullPointerException.class,
                () -> LocatorRecord.parse(null));
        assertEquals("the record text", e.getMessage());
    }

    @Test
    void recordsOnlyHoldWhatTheGrammarCanSay() {
        assertThrows(IllegalArgumentException.class, () -> new LocatorRecord("", 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new LocatorRecord("a/b", 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new LocatorRecord("a", -1, 0));
        assertThrows(IllegalArgumentException.class, () -> new LocatorRecord("a", 0, -1));
        assertThrows(IllegalArgumentException.class, () -> new LocatorRecord("a", 0, 0, 3, -1));
        assertThrows(IllegalArgumentException.class,
                () -> new LocatorRecord("a", "8067007C0f05c359", 0, 0, new long[0]));
        assertThrows(IllegalArgumentException.class,
                () -> new LocatorRecord("a", "8067007c0f05c35", 0, 0, new long[0]));
        long[] shape = {1, 2};
        LocatorRecord record = new LocatorRecord("a", 0, 0, shape);
        shape[0] = 9;
        record.shape()[1] = 9;
        assertArrayEquals(new long[] {1, 2}, record.shape());
    }

    private static String message(String record) {
        try {
            LocatorRecord.parse(record);
        } catch (MalformedRecordException e) {
            return e.getMessage();
        }
        return fail("parsed: " + record);
    }
}
