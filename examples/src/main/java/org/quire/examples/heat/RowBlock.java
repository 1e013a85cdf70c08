package org.quire.examples.heat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

import org.quire.format.sion.RecordRange;
import org.quire.runtime.Communicator;

/**
 * One rank's rows of the grid (a {@link RecordRange#balanced} block of the n rows) between two
 * ghost rows that hold the neighbouring ranks' edge rows, or the boundary's zeros at the top and
 * bottom of the grid.
 */
final class RowBlock {

    /** Tag of a row sent to the rank below (higher rank). */
    private static final int DOWNWARDS = 1;
    /** Tag of a row sent to the rank above. */
    private static final int UPWARDS = 2;

    private final int n;
    private final RecordRange rows;
    private double[] cells;
    private double[] next;

    private RowBlock(int n, RecordRange rows) {
        this.n = n;
        this.rows = rows;
        this.cells = new double[Math.toIntExact((rows.count() + 2) * n)];
        this.next = new double[cells.length];
    }

    /** The block of {@code rows} at the start of the simulation. */
    static RowBlock initial(int n, RecordRange rows) {
        RowBlock block = new RowBlock(n, rows);
        for (int r = 0; r < rows.count(); r++) {
            for (int c = 0; c < n; c++) {
                block.cells[(r + 1) * n + c] = HeatStencil.initial(rows.first() + r, c, n);
            }
        }
        return block;
    }

    /** The block of {@code rows} holding {@code data}: its rows as little-endian doubles. */
    static RowBlock of(int n, RecordRange rows, ByteBuffer data) {
        RowBlock block = new RowBlock(n, rows);
        data.order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().get(block.cells, n, Math.toIntExact(rows.count() * n));
        return block;
    }

    int n() {
        return n;
    }

    RecordRange rows() {
        return rows;
    }

    /**
     * Fills the ghost rows from the neighbours with the communicator's typed sendrecv: first every
     * rank's last row goes down, then every first row goes up. The top and bottom ranks have one
     * neighbour (MPI's {@code MPI_PROC_NULL} on the other side): they only send or only receive.
     */
    void exchangeHalos(Communicator world) {
        int above = world.rank() - 1;
        int below = world.rank() + 1 < world.size() ? world.rank() + 1 : -1;
        int last = Math.toIntExact(rows.count());
        shift(world, row(last), below, above, DOWNWARDS, 0);
        shift(world, row(1), above, below, UPWARDS, last + 1);
    }

    /** Sends {@code row} to {@code to} and receives ghost row {@code ghost} from {@code from}; -1 is nobody. */
    private void shift(Communicator world, double[] row, int to, int from, int tag, int ghost) {
        double[] received;
        if (to >= 0 && from >= 0) {
            received = world.sendrecv(row, to, tag, from, tag);
        } else if (to >= 0) {
            world.send(row, to, tag);
            return;
        } else if (from >= 0) {
            received = world.receiveDoubles(from, tag);
        } else {
            return;
        }
        System.arraycopy(received, 0, cells, ghost * n, n);
    }

    private double[] row(int r) {
        return Arrays.copyOfRange(cells, r * n, (r + 1) * n);
    }

    /** One time step of this block (the ghost rows must be current). */
    void step() {
        HeatStencil.step(cells, next, Math.toIntExact(rows.count()), n);
        double[] previous = cells;
        cells = next;
        next = previous;
    }

    /** Sum of this block's temperatures weighted by the cell area. */
    double energy() {
        double sum = 0;
        for (int i = n; i < cells.length - n; i++) {
            sum += cells[i];
        }
        return sum * HeatStencil.cellArea(n);
    }

    /** The highest temperature of this block; -infinity for a block without cells. */
    double maxTemperature() {
        double max = Double.NEGATIVE_INFINITY;
        for (int i = n; i < cells.length - n; i++) {
            max = Math.max(max, cells[i]);
        }
        return max;
    }

    /** This block's rows (without ghosts) as little-endian doubles, the checkpoint's records. */
    ByteBuffer interiorBytes() {
        ByteBuffer bytes = ByteBuffer.allocate(Math.toIntExact(rows.count() * n * Double.BYTES))
                .order(ByteOrder.LITTLE_ENDIAN);
        bytes.asDoubleBuffer().put(cells, n, Math.toIntExact(rows.count() * n));
        return bytes;
    }
}
