package org.quire.launcher.h5;

import java.util.ArrayDeque;
import java.util.OptionalDouble;

/**
 * Rows per second over the looks of about the last ten seconds: the rows gained between the
 * oldest and the newest look kept, by the time between them. A table that shrank (rewritten
 * from scratch) starts the count anew.
 */
final class RowRate {

    private static final long WINDOW_NANOS = 10_000_000_000L;

    /** One look: when (System.nanoTime) and how many rows. */
    private record Look(long nanos, long rows) {
    }

    private final ArrayDeque<Look> looks = new ArrayDeque<>();

    void add(long nanos, long rows) {
        if (!looks.isEmpty() && rows < looks.getLast().rows()) {
            looks.clear();
        }
        looks.addLast(new Look(nanos, rows));
        while (looks.size() > 2 && nanos - secondOldest().nanos() >= WINDOW_NANOS) {
            looks.removeFirst();
        }
    }

    private Look secondOldest() {
        return looks.stream().skip(1).findFirst().orElseThrow();
    }

    /** Empty before two looks some time apart. */
    OptionalDouble perSecond() {
        if (looks.size() < 2 || looks.getLast().nanos() == looks.getFirst().nanos()) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of((looks.getLast().rows() - looks.getFirst().rows()) * 1e9
                / (looks.getLast().nanos() - looks.getFirst().nanos()));
    }
}
