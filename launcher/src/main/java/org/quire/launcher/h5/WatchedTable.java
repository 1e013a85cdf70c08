package org.quire.launcher.h5;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.quire.format.hdf5.Dataset;
import org.quire.format.hdf5.Datatype;
import org.quire.launcher.UsageException;

/**
 * A dataset as {@code quire watch} reads it: a table with one row per index of its first
 * dimension. The columns are the members of a compound element, by name; or the elements of a
 * rank-2 dataset's row, named {@code 0}, {@code 1}, ...; or a rank-1 dataset's element itself,
 * named after the dataset. Every column holds integers or floats.
 */
final class WatchedTable {

    /** What {@code quire watch} follows, for the message refusing anything else. */
    static final String WHAT_IS_WATCHED = "quire watch follows rank-1 datasets of numbers or of "
            + "compounds of numbers, and rank-2 datasets of numbers";

    /** The dataset is not a table of numbers. */
    static final class NotATableException extends Exception {
        NotATableException(Path file, Dataset dataset, String why) {
            super(file + ": " + dataset.path() + " " + why + " (" + WHAT_IS_WATCHED
                    + ")");
        }
    }

    /** One column: a number at {@code offset} of each row's bytes. */
    record Column(String name, Datatype type, int offset) {

        /** The exact value as {@code quire h5 dump} prints it. */
        String text(byte[] row) {
            return ValueFormat.format(type, row, offset);
        }

        /** The value as a JSON number, or null for a float that is none (NaN, infinities). */
        String json(byte[] row) {
            double value = value(row);
            return Double.isFinite(value) ? text(row) : null;
        }

        /** The value as a double: exact up to 2^53, rounded beyond (for drawing, not printing). */
        double value(byte[] row) {
            if (type instanceof Datatype.IntegerType integer) {
                long bits = integer.decode(row, offset);
                return integer.signed() || bits >= 0 ? bits : (bits >>> 1) * 2.0 + (bits & 1);
            }
            ByteBuffer in = ByteBuffer.wrap(row).order(type.byteOrder());
            return type.size() == 4 ? in.getFloat(offset) : in.getDouble(offset);
        }
    }

    /** One look at the table: its rows and the bytes of its last {@code recentRows} rows. */
    record Sample(long rows, byte[] recent, int rowBytes) {

        /** Bytes of the last row; none when the table is empty. */
        byte[] latest() {
            byte[] row = new byte[rows == 0 ? 0 : rowBytes];
            System.arraycopy(recent, recent.length - row.length, row, 0, row.length);
            return row;
        }

        /** How many recent rows there are. */
        int recentRows() {
            return recent.length / rowBytes;
        }

        /** Bytes of recent row {@code i}, oldest first. */
        byte[] recentRow(int i) {
            byte[] row = new byte[rowBytes];
            System.arraycopy(recent, i * rowBytes, row, 0, rowBytes);
            return row;
        }

        /** {@code column}'s values in the recent rows, oldest first. */
        double[] values(Column column) {
            double[] values = new double[recentRows()];
            for (int i = 0; i < values.length; i++) {
                values[i] = column.value(recentRow(i));
            }
            return values;
        }
    }

    private final Path file;
    private final Dataset dataset;
    private final List<Column> columns;
    private final int rowBytes;

    private WatchedTable(Path file, Dataset dataset, List<Column> columns, int rowBytes) {
        this.file = file;
        this.dataset = dataset;
        this.columns = List.copyOf(columns);
        this.rowBytes = rowBytes;
    }

    /** {@code dataset} of {@code file} as a table. */
    static WatchedTable of(Path file, Dataset dataset) throws NotATableException {
        long[] shape = dataset.shape();
        Datatype type = dataset.type();
        if (shape.length == 2) {
            requireNumber(file, dataset, type, "holds");
            if (shape[1] == 0 || shape[1] * type.size() > Integer.MAX_VALUE) {
                throw new NotATableException(file, dataset, "has rows of " + shape[1] + " elements");
            }
            List<Column> columns = new ArrayList<>();
            for (int i = 0; i < shape[1]; i++) {
                columns.add(new Column(Integer.toString(i), type, i * type.size()));
            }
            return new WatchedTable(file, dataset, columns, columns.size() * type.size());
        }
        if (shape.length != 1) {
            throw new NotATableException(file, dataset, "has rank " + shape.length);
        }
        if (type instanceof Datatype.CompoundType compound) {
            List<Column> columns = new ArrayList<>();
            for (Datatype.Member member : compound.members()) {
                requireNumber(file, dataset, member.type(), "has a member \"" + member.name() + "\" of");
                columns.add(new Column(member.name(), member.type(), member.offset()));
            }
            if (columns.isEmpty()) {
                throw new NotATableException(file, dataset, "holds compounds without members");
            }
            return new WatchedTable(file, dataset, columns, compound.size());
        }
        requireNumber(file, dataset, type, "holds");
        String name = dataset.path().substring(dataset.path().lastIndexOf('/') + 1);
        return new WatchedTable(file, dataset, List.of(new Column(name, type, 0)), type.size());
    }

    private static void requireNumber(Path file, Dataset dataset, Datatype type, String what)
            throws NotATableException {
        if (!(type instanceof Datatype.IntegerType) && !(type instanceof Datatype.FloatType)) {
            throw new NotATableException(file, dataset, what + " type " + TypeDescription.of(type)
                    + ", not numbers");
        }
    }

    Dataset dataset() {
        return dataset;
    }

    List<Column> columns() {
        return columns;
    }

    /** The last column: the default one to draw. */
    Column lastColumn() {
        return columns.get(columns.size() - 1);
    }

    /** @throws UsageException no column is named {@code name} */
    Column column(String name) throws UsageException {
        for (Column column : columns) {
            if (column.name().equals(name)) {
                return column;
            }
        }
        throw new UsageException("no column \"" + name + "\" in " + dataset.path() + " of "
                + file + " (columns: " + String.join(", ",
                columns.stream().map(Column::name).toList()) + ")");
    }

    /** The rows as last refreshed, with the bytes of the last {@code recentRows} of them. */
    Sample sample(int recentRows) throws IOException {
        long rows = dataset.shape()[0];
        int count = (int) Math.min(rows, recentRows);
        if (count == 0) {
            return new Sample(0, new byte[0], rowBytes);
        }
        long[] start = dataset.shape().length == 1 ? new long[] {rows - count}
                : new long[] {rows - count, 0};
        long[] counts = dataset.shape().length == 1 ? new long[] {count}
                : new long[] {count, columns.size()};
        return new Sample(rows, dataset.read(start, counts).array(), rowBytes);
    }
}
