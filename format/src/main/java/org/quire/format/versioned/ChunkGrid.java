package org.quire.format.versioned;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The chunks of a dataset of {@code shape} cut into {@code chunks}: each chunk's origin (a
 * multiple of the chunk shape) and its edge-trimmed extent, and copies between a whole
 * dataset held in C order and one chunk's elements in C order.
 */
final class ChunkGrid {

    private final long[] shape;
    private final long[] chunks;
    private final int elementSize;

    ChunkGrid(long[] shape, long[] chunks, int elementSize) {
        this.shape = shape.clone();
        this.chunks = chunks.clone();
        this.elementSize = elementSize;
    }

    /** The origins of every chunk holding at least one element, in C order. */
    List<long[]> origins() {
        return origins(new long[shape.length], shape);
    }

    /** The origins of the chunks the box {@code start}/{@code count} overlaps, in C order. */
    List<long[]> origins(long[] start, long[] count) {
        List<long[]> origins = new ArrayList<>();
        long[] first = new long[shape.length];
        long[] last = new long[shape.length];
        for (int d = 0; d < shape.length; d++) {
            if (count[d] == 0) {
                return origins;
            }
            first[d] = start[d] / chunks[d] * chunks[d];
            last[d] = (start[d] + count[d] - 1) / chunks[d] * chunks[d];
        }
        long[] origin = first.clone();
        while (true) {
            origins.add(origin.clone());
            int d = shape.length - 1;
            while (d >= 0) {
                origin[d] += chunks[d];
                if (origin[d] <= last[d]) {
                    break;
                }
                origin[d] = first[d];
                d--;
            }
            if (d < 0) {
                return origins;
            }
        }
    }

    /** The extent of the chunk at {@code origin}, trimmed at the dataset's edge. */
    long[] trimmed(long[] origin) {
        long[] extent = new long[shape.length];
        for (int d = 0; d < shape.length; d++) {
            extent[d] = Math.min(chunks[d], shape[d] - origin[d]);
        }
        return extent;
    }

    /** Whether {@code origin} is a chunk origin inside the shape. */
    boolean isOrigin(long[] origin) {
        if (origin.length != shape.length) {
            return false;
        }
        for (int d = 0; d < shape.length; d++) {
            if (origin[d] < 0 || origin[d] >= shape[d] || origin[d] % chunks[d] != 0) {
                return false;
            }
        }
        return true;
    }

    /** The elements of the box {@code start}/{@code count} of {@code whole}, in C order. */
    byte[] copyOut(byte[] whole, long[] start, long[] count) {
        byte[] box = new byte[Math.toIntExact(elements(count) * elementSize)];
        copy(whole, start, count, box, true);
        return box;
    }

    /** Writes {@code box} (C order) into the box {@code start}/{@code count} of {@code whole}. */
    void copyIn(byte[] whole, long[] start, long[] count, byte[] box) {
        copy(whole, start, count, box, false);
    }

    private void copy(byte[] whole, long[] start, long[] count, byte[] box, boolean out) {
        if (elements(count) == 0) {
            return;
        }
        int rank = shape.length;
        int run = Math.toIntExact((rank == 0 ? 1 : count[rank - 1]) * elementSize);
        long[] at = new long[rank];
        int boxOffset = 0;
        while (true) {
            long offset = 0;
            for (int d = 0; d < rank; d++) {
                offset = offset * shape[d] + start[d] + at[d];
            }
            int wholeOffset = Math.toIntExact(offset * elementSize);
            if (out) {
                System.arraycopy(whole, wholeOffset, box, boxOffset, run);
            } else {
                System.arraycopy(box, boxOffset, whole, wholeOffset, run);
            }
            boxOffset += run;
            int d = rank - 2;
            while (d >= 0) {
                if (++at[d] < count[d]) {
                    break;
                }
                at[d] = 0;
                d--;
            }
            if (d < 0) {
                return;
            }
        }
    }

    /**
     * Fills {@code target}, a new array (its length a multiple of the element's), with copies
     * of {@code element}, doubling what is copied each time: a few bulk copies, not one per
     * element. Nothing to do for an all-zero element (a new array is zeros already).
     */
    static void fill(byte[] target, byte[] element) {
        boolean zero = true;
        for (byte b : element) {
            zero &= b == 0;
        }
        if (zero || target.length == 0) {
            return;
        }
        System.arraycopy(element, 0, target, 0, element.length);
        for (int done = element.length; done < target.length; done *= 2) {
            System.arraycopy(target, 0, target, done, Math.min(done, target.length - done));
        }
    }

    static long elements(long[] count) {
        long n = 1;
        for (long c : count) {
            n = Math.multiplyExact(n, c);
        }
        return n;
    }

    /** A chunk origin as a map key. */
    static List<Long> key(long[] origin) {
        return Arrays.stream(origin).boxed().toList();
    }

    static long[] origin(List<Long> key) {
        return key.stream().mapToLong(Long::longValue).toArray();
    }
}
