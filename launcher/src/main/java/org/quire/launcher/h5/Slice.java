package org.quire.launcher.h5;

import java.util.Arrays;

import org.quire.launcher.UsageException;

/**
 * A hyperslab given as text, one comma-separated part per dimension, Python-like:
 * {@code start:stop} (stop excluded; either may be omitted; negative counts from the end),
 * {@code :} for the whole dimension, or a single index {@code i} (the dimension is kept, with
 * size 1). Dimensions left out at the end are whole. Steps are not supported.
 *
 * @param start first index per dimension
 * @param count number of indices per dimension
 */
record Slice(long[] start, long[] count) {

    /** The whole of a dataset of {@code shape}. */
    static Slice whole(long[] shape) {
        return new Slice(new long[shape.length], shape.clone());
    }

    /**
     * @throws UsageException {@code spec} is not a slice, or reaches outside {@code shape}
     */
    static Slice parse(String spec, long[] shape) throws UsageException {
        String[] parts = spec.split(",", -1);
        if (parts.length > shape.length) {
            throw invalid(spec, parts.length + " dimensions given, the dataset has "
                    + shape.length);
        }
        long[] start = new long[shape.length];
        long[] count = shape.clone();
        for (int d = 0; d < parts.length; d++) {
            String part = parts[d].strip();
            long size = shape[d];
            int colon = part.indexOf(':');
            if (colon < 0) {
                long index = resolve(spec, d, part, size);
                if (index >= size) {
                    throw invalid(spec, "dimension " + d + ": index " + part
                            + " is outside 0.." + (size - 1));
                }
                start[d] = index;
                count[d] = 1;
                continue;
            }
            if (part.indexOf(':', colon + 1) >= 0) {
                throw invalid(spec, "dimension " + d + ": steps are not supported");
            }
            String from = part.substring(0, colon).strip();
            String to = part.substring(colon + 1).strip();
            long first = from.isEmpty() ? 0 : resolve(spec, d, from, size);
            long stop = to.isEmpty() ? size : resolve(spec, d, to, size);
            if (stop > size) {
                throw invalid(spec, "dimension " + d + ": stop " + to + " is beyond the size "
                        + size);
            }
            if (first > stop) {
                throw invalid(spec, "dimension " + d + ": start " + from + " is after stop "
                        + (to.isEmpty() ? size : to));
            }
            start[d] = first;
            count[d] = stop - first;
        }
        return new Slice(start, count);
    }

    /** An index as written, negative ones counted from {@code size}; never below 0. */
    private static long resolve(String spec, int dimension, String text, long size)
            throws UsageException {
        long value;
        try {
            value = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw invalid(spec, "dimension " + dimension + ": '" + text + "' is not an index");
        }
        long resolved = value < 0 ? size + value : value;
        if (resolved < 0) {
            throw invalid(spec, "dimension " + dimension + ": index " + text
                    + " is before the start of size " + size);
        }
        return resolved;
    }

    private static UsageException invalid(String spec, String why) {
        return new UsageException("--slice '" + spec + "': " + why);
    }

    /** As it would be written: {@code 0:10,5:7}. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        for (int d = 0; d < start.length; d++) {
            text.append(d == 0 ? "" : ",").append(start[d]).append(':')
                    .append(start[d] + count[d]);
        }
        return text.toString();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Slice slice && Arrays.equals(start, slice.start)
                && Arrays.equals(count, slice.count);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(start) + Arrays.hashCode(count);
    }
}
