package org.quire.examples;

import org.quire.runtime.Communicator;
import org.quire.runtime.Job;
import org.quire.runtime.Quire;
import org.quire.runtime.ReduceOp;

import java.util.Arrays;

/**
 * Smooths a periodic 1-D field of {@code args[0]} cells (default 1,000,000) for {@code args[1]}
 * steps (default 100), split over the ranks: each step every rank swaps its edge cells with its
 * neighbours by {@code sendrecv} of {@code double[]} halos, replaces each cell by the mean of
 * itself and its two neighbours, and an {@code allreduce} gives every rank the field's largest
 * change, so all ranks agree on when to stop. Rank 0 prints the field's sum (which smoothing
 * keeps) and the last step's largest change.
 *
 * <pre>quire run -n 4 -cp examples/target/quire-examples.jar org.quire.examples.HaloExchange</pre>
 */
public final class HaloExchange {

    private static final int TO_RIGHT = 1;
    private static final int TO_LEFT = 2;

    private HaloExchange() {
    }

    public static void main(String[] args) {
        try (Job job = Quire.init(args)) {
            Communicator world = job.world();
            String[] arguments = job.arguments();
            int cells = arguments.length > 0 ? Integer.parseInt(arguments[0]) : 1_000_000;
            int steps = arguments.length > 1 ? Integer.parseInt(arguments[1]) : 100;
            Slice slice = new Slice(world, cells);
            double change = 0;
            for (int step = 0; step < steps; step++) {
                change = world.allreduce(new double[] {slice.smooth()}, ReduceOp.MAX)[0];
            }
            double sum = world.allreduce(new double[] {slice.sum()}, ReduceOp.SUM)[0];
            if (world.rank() == 0) {
                System.out.printf("%d cells on %d ranks, %d steps: sum %.6f, last largest change %.3e%n", cells,
                        world.size(), steps, sum, change);
            }
        }
    }

    /** The starting value of cell {@code i}: a saw tooth, so smoothing has something to do. */
    static double initial(int i) {
        return (i % 7) * 1.5;
    }

    /** This rank's cells {@code [first, end)} of the field, between two ghost cells. */
    static final class Slice {
        private final Communicator world;
        private final int left;
        private final int right;
        private double[] field;

        Slice(Communicator world, int cells) {
            this.world = world;
            int rank = world.rank();
            int size = world.size();
            if (cells < size) {
                throw new IllegalArgumentException(cells + " cells cannot be split over " + size + " ranks");
            }
            int first = (int) ((long) cells * rank / size);
            int end = (int) ((long) cells * (rank + 1) / size);
            left = (rank - 1 + size) % size;
            right = (rank + 1) % size;
            field = new double[end - first + 2];
            for (int i = first; i < end; i++) {
                field[i - first + 1] = initial(i);
            }
        }

        /** One step; returns this rank's largest change of a cell. */
        double smooth() {
            int last = field.length - 2;
            // Halos: my last cell goes right while my left neighbour's arrives, then the other way.
            field[0] = world.sendrecv(new double[] {field[last]}, right, TO_RIGHT, left, TO_RIGHT)[0];
            field[last + 1] = world.sendrecv(new double[] {field[1]}, left, TO_LEFT, right, TO_LEFT)[0];
            double[] next = new double[field.length];
            double largest = 0;
            for (int i = 1; i <= last; i++) {
                next[i] = (field[i - 1] + field[i] + field[i + 1]) / 3;
                largest = Math.max(largest, Math.abs(next[i] - field[i]));
            }
            field = next;
            return largest;
        }

        double sum() {
            double sum = 0;
            for (int i = 1; i < field.length - 1; i++) {
                sum += field[i];
            }
            return sum;
        }

        /** This rank's cells, without the ghosts. */
        double[] cells() {
            return Arrays.copyOfRange(field, 1, field.length - 1);
        }
    }
}
