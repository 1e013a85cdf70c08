package org.quire.launcher.h5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.quire.launcher.UsageException;

/** {@link Slice#parse}: the accepted forms, and one precise message for each bad one. */
class H5SliceTest {

    private static final long[] SHAPE = {20, 10, 5};

    private static long[] longs(String text) {
        String[] parts = text.split(" ");
        long[] values = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            values[i] = Long.parseLong(parts[i]);
        }
        return values;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {
        "0:10,5:7,:; 0 5 0; 10 2 5",
        ":,:,:; 0 0 0; 20 10 5",
        "3; 3 0 0; 1 10 5",
        "3,4,2; 3 4 2; 1 1 1",
        "-1,-10,-5:; 19 0 0; 1 1 5",
        ":-2,2:,1:-1; 0 2 1; 18 8 3",
        "' 1 : 4 , : '; 1 0 0; 3 10 5",
        "5:5,0:0; 5 0 0; 0 0 5",
        "0:20,0:10,0:5; 0 0 0; 20 10 5"})
    void parsesPythonLikeSlices(String spec, String start, String count) throws UsageException {
        Slice slice = Slice.parse(spec, SHAPE);
        assertArrayEquals(longs(start), slice.start(), spec);
        assertArrayEquals(longs(count), slice.count(), spec);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = ';', value = {
        "0:x; dimension 0: 'x' is not an index",
        "'';  dimension 0: '' is not an index",
        "1:2:3; dimension 0: steps are not supported",
        "0:21; dimension 0: stop 21 is beyond the size 20",
        ":,3:2; dimension 1: start 3 is after stop 2",
        "1,10; dimension 1: index 10 is outside 0..9",
        "-21; dimension 0: index -21 is before the start of size 20",
        "1,2,3,4; 4 dimensions given, the dataset has 3",
        "99999999999999999999; dimension 0: '99999999999999999999' is not an index"})
    void rejectsBadSpecsNamingTheDimensionAndTheReason(String spec, String reason) {
        UsageException e = assertThrows(UsageException.class, () -> Slice.parse(spec, SHAPE));
        assertEquals("--slice '" + spec + "': " + reason, e.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {"0:10,5:7,0:5", "3:4,0:10,0:5", "5:5,0:0,0:5"})
    void printsAsItParses(String spec) throws UsageException {
        assertEquals(spec, Slice.parse(spec, SHAPE).toString());
        assertEquals(Slice.parse(spec, SHAPE), Slice.parse(Slice.parse(spec, SHAPE).toString(), SHAPE));
    }
}
