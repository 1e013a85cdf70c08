package org.quire.format.versioned;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/**
 * A version's {@code timestamp} attribute (reference note §1.7): Python's
 * {@code "%Y-%m-%d %H:%M:%S.%f%z"} in UTC, e.g. {@code 2099-01-01 00:00:00.000000+0000}.
 * The width is fixed and the zone always UTC, so versioned-hdf5 compares these strings
 * lexicographically; comparing the instants gives the same order.
 */
final class VersionTimestamp {

    private static final DateTimeFormatter FORMAT =
            DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSSSSSxx").withZone(ZoneOffset.UTC);

    private VersionTimestamp() {
    }

    /** The text of {@code time}, cut to microseconds as Python's datetime holds it. */
    static String format(Instant time) {
        return FORMAT.format(time.truncatedTo(ChronoUnit.MICROS));
    }

    /** The instant {@code text} names, or null if it is not in the format. */
    static Instant parse(String text) {
        try {
            return FORMAT.parse(text, Instant::from);
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
