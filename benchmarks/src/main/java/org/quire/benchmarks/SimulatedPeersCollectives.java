package org.quire.benchmarks;

import org.quire.format.Collectives;

import java.util.Arrays;

/**
 * Rank 0 of a group of {@code size} ranks whose other ranks are simulated instead of run: in a
 * gather every other rank contributes a copy of what rank 0 contributes, what rank 0 broadcasts
 * or scatters to them is dropped, and a barrier returns at once.
 *
 * <p>Only right where every rank makes the same calls with the same arguments, as in
 * {@link SionOpenCloseCost} (same chunk size, same bytes written): there it drives rank 0's real
 * open and close code for N ranks (gathering N requests, planning N chunks, encoding N
 * assignments, writing META1 and META2 for N tasks) without N threads, so that the cost of the
 * format's work on the root can be seen apart from the cost of scheduling N ranks.
 */
final class SimulatedPeersCollectives implements Collectives {

    private final int size;

    SimulatedPeersCollectives(int size) {
        if (size < 1) {
            throw new IllegalArgumentException("a group needs at least 1 rank, got " + size);
        }
        this.size = size;
    }

    @Override
    public int rank() {
        return 0;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public void barrier() {
    }

    @Override
    public byte[] broadcast(byte[] data, int root) {
        requireRootZero(root);
        return data.clone();
    }

    @Override
    public byte[][] gather(byte[] data, int root) {
        requireRootZero(root);
        byte[][] all = new byte[size][];
        Arrays.setAll(all, r -> data.clone());
        return all;
    }

    @Override
    public byte[] scatter(byte[][] parts, int root) {
        requireRootZero(root);
        if (parts.length != size) {
            throw new IllegalArgumentException("scatter needs " + size + " parts, got " + parts.length);
        }
        return parts[0].clone();
    }

    private static void requireRootZero(int root) {
        if (root != 0) {
            throw new IllegalArgumentException("only rank 0 runs in a simulated group; root " + root + " is simulated");
        }
    }
}
