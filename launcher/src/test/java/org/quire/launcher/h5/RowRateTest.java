package org.quire.launcher.h5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalDouble;

import org.junit.jupiter.api.Test;

class RowRateTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void isMeasuredFromTwoLooksSomeTimeApart() {
        RowRate rate = new RowRate();
        assertTrue(rate.perSecond().isEmpty());
        rate.add(5 * SECOND, 100);
        assertTrue(rate.perSecond().isEmpty(), "one look");
        rate.add(5 * SECOND, 150);
        assertTrue(rate.perSecond().isEmpty(), "no time between them");
        rate.add(7 * SECOND, 300);
        assertEquals(OptionalDouble.of(100), rate.perSecond());
    }

    @Test
    void countsOnlyTheLastTenSecondsOrSo() {
        RowRate rate = new RowRate();
        rate.add(0, 0);
        rate.add(SECOND, 1000); // a burst, then 10 rows/s for 20 s
        for (int s = 2; s <= 21; s++) {
            rate.add(s * SECOND, 1000 + 10L * (s - 1));
        }
        assertEquals(OptionalDouble.of(10), rate.perSecond());
    }

    @Test
    void aTableThatShrankStartsTheCountAnew() {
        RowRate rate = new RowRate();
        rate.add(0, 500);
        rate.add(SECOND, 600);
        rate.add(2 * SECOND, 10);
        assertTrue(rate.perSecond().isEmpty());
        rate.add(4 * SECOND, 30);
        assertEquals(OptionalDouble.of(10), rate.perSecond());
    }
}
