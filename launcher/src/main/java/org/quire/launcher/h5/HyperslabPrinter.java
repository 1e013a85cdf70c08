package org.quire.launcher.h5;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.List;

import org.quire.format.hdf5.Dataset;
import org.quire.format.hdf5.Datatype;

/**
 * Prints the elements of a hyperslab of a dataset, one line per row of the last dimension:
 * {@code [i, j, k]: v, v, v}, where {@code [i, j, k]} is the dataset index of the row's first
 * element ({@code []: v} for a scalar). The hyperslab is read in boxes of at most a fixed number of bytes (several whole
 * rows, or pieces of one long row), so memory stays bounded whatever the selection's size; each
 * value is formatted as it is printed, so a box costs its bytes, not a string per element.
 */
final class HyperslabPrinter {

    /** The elements of one box read, formatted one at a time, by index in the box. */
    @FunctionalInterface
    private interface Box {
        String format(int element);
    }

    private final Dataset dataset;
    private final Datatype type;
    /** Most elements one read returns (at least 1). */
    private final long readElements;

    HyperslabPrinter(Dataset dataset, long readBudgetBytes) {
        this.dataset = dataset;
        this.type = dataset.type();
        this.readElements = Math.max(1, readBudgetBytes / type.size());
    }

    void print(Slice slice, PrintWriter out) throws IOException {
        long[] start = slice.start();
        long[] count = slice.count();
        if (Arrays.stream(count).anyMatch(c -> c == 0)) {
            return;
        }
        if (start.length == 0) { // a scalar: one value, at index []
            out.print("[]: ");
            printValues(read(start, count), 0, 1, out);
            out.println();
            return;
        }
        int last = start.length - 1;
        int rowDimension = last - 1; // -1 for a 1-D dataset: a single row
        long rowLength = count[last];
        long[] row = start.clone(); // the first element of the current row
        long rows;
        do {
            rows = 1;
            if (rowLength <= readElements) {
                if (rowDimension >= 0) {
                    rows = Math.min(readElements / rowLength,
                            start[rowDimension] + count[rowDimension] - row[rowDimension]);
                }
                printRows(row, rows, rowLength, out);
            } else {
                printLongRow(row, rowLength, out);
            }
        } while (advance(row, rows, start, count, rowDimension));
    }

    /** {@code rows} whole rows from {@code row} on, read in one box. */
    private void printRows(long[] row, long rows, long rowLength, PrintWriter out)
            throws IOException {
        long[] boxCount = new long[row.length];
        Arrays.fill(boxCount, 1);
        boxCount[row.length - 1] = rowLength;
        if (row.length > 1) {
            boxCount[row.length - 2] = rows;
        }
        Box data = read(row, boxCount);
        long[] index = row.clone();
        for (long r = 0; r < rows; r++) {
            if (row.length > 1) {
                index[row.length - 2] = row[row.length - 2] + r;
            }
            out.print(Arrays.toString(index));
            out.print(": ");
            printValues(data, (int) (r * rowLength), (int) rowLength, out);
            out.println();
        }
    }

    /** One row longer than a read, in pieces, on one line. */
    private void printLongRow(long[] row, long rowLength, PrintWriter out) throws IOException {
        out.print(Arrays.toString(row));
        out.print(": ");
        int last = row.length - 1;
        long[] pieceStart = row.clone();
        long[] pieceCount = new long[row.length];
        Arrays.fill(pieceCount, 1);
        for (long done = 0; done < rowLength; done += pieceCount[last]) {
            pieceStart[last] = row[last] + done;
            pieceCount[last] = Math.min(readElements, rowLength - done);
            if (done > 0) {
                out.print(", ");
            }
            printValues(read(pieceStart, pieceCount), 0, (int) pieceCount[last], out);
        }
        out.println();
    }

    /** The hyperslab's elements, variable-length strings read from the global heap. */
    private Box read(long[] start, long[] count) throws IOException {
        if (type instanceof Datatype.VariableLengthStringType string) {
            List<byte[]> strings = dataset.readStringBytes(start, count);
            return element -> ValueFormat.string(strings.get(element), string.utf8());
        }
        byte[] data = dataset.read(start, count).array();
        return element -> ValueFormat.format(type, data, element * type.size());
    }

    private static void printValues(Box values, int first, int count, PrintWriter out) {
        for (int i = 0; i < count; i++) {
            if (i > 0) {
                out.print(", ");
            }
            out.print(values.format(first + i));
        }
    }

    /**
     * Moves {@code row} on by {@code rows} rows in row-major order; false past the last row.
     */
    private static boolean advance(long[] row, long rows, long[] start, long[] count,
                                   int rowDimension) {
        if (rowDimension < 0) {
            return false;
        }
        row[rowDimension] += rows;
        for (int d = rowDimension; row[d] >= start[d] + count[d]; d--) {
            if (d == 0) {
                return false;
            }
            row[d] = start[d];
            row[d - 1]++;
        }
        return true;
    }
}
