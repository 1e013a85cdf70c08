package org.quire.format.sion;

import java.math.BigInteger;

/**
 * A contiguous run of records {@code [first, first + count)} of a sequence: the part one rank of
 * a job owns. {@link #balanced} is the decomposition {@link SionRepartitionedReader} hands out,
 * so that a program that splits its data with it reads back exactly its own part after a
 * restart on any number of ranks.
 *
 * @param first index of the first record
 * @param count number of records, at least 0
 */
public record RecordRange(long first, long count) {

    public RecordRange {
        if (first < 0 || count < 0) {
            throw new IllegalArgumentException("a record range needs first >= 0 and count >= 0, got first " + first
                    + ", count " + count);
        }
    }

    /**
     * Part {@code part} of {@code total} records dealt to {@code parts} owners as evenly as
     * possible: owner p gets {@code [total * p / parts, total * (p + 1) / parts)}, so the counts
     * differ by at most one and every record has exactly one owner.
     */
    public static RecordRange balanced(long total, int part, int parts) {
        if (total < 0 || parts < 1 || part < 0 || part >= parts) {
            throw new IllegalArgumentException("cannot take part " + part + " of " + total + " records in " + parts
                    + " parts");
        }
        long first = split(total, part, parts);
        long end = split(total, part + 1, parts);
        return new RecordRange(first, end - first);
    }

    /** {@code total * part / parts} without overflow. */
    private static long split(long total, int part, int parts) {
        return BigInteger.valueOf(total).multiply(BigInteger.valueOf(part)).divide(BigInteger.valueOf(parts))
                .longValueExact();
    }

    /** One past the last record. */
    public long end() {
        return first + count;
    }
}
