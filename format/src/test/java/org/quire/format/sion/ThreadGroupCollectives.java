package org.quire.format.sion;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.quire.format.Collectives;

/**
 * {@link Collectives} for tests: one thread per rank, exchanging arrays through a shared board
 * guarded by a {@link CyclicBarrier}. A rank that throws breaks the barrier, so the others fail
 * instead of waiting forever; every wait also has a timeout.
 */
final class ThreadGroupCollectives implements Collectives {

    /** The work of one rank. */
    interface RankBody<T> {
        T run(ThreadGroupCollectives collectives) throws Exception;
    }

    private static final long TIMEOUT_SECONDS = 30;

    /** State shared by the ranks of one group. */
    static final class Board {
        private final CyclicBarrier barrier;
        private final byte[][] slots;
        private volatile byte[] shared;
        private volatile byte[][] parts;
        /** Gathers performed so far (counted once per gather, by the root). */
        final AtomicInteger gathers = new AtomicInteger();

        Board(int size) {
            this.barrier = new CyclicBarrier(size);
            this.slots = new byte[size][];
        }
    }

    private final int rank;
    private final Board board;

    private ThreadGroupCollectives(int rank, Board board) {
        this.rank = rank;
        this.board = board;
    }

    /** Runs {@code body} on {@code size} ranks and returns each rank's result, indexed by rank. */
    static <T> List<T> run(int size, RankBody<T> body) throws Exception {
        return run(new Board(size), size, body);
    }

    static <T> List<T> run(Board board, int size, RankBody<T> body) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(size);
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (int r = 0; r < size; r++) {
                ThreadGroupCollectives collectives = new ThreadGroupCollectives(r, board);
                futures.add(pool.submit(() -> {
                    try {
                        return body.run(collectives);
                    } catch (Exception | Error e) {
                        board.barrier.reset();
                        throw e;
                    }
                }));
            }
            List<T> results = new ArrayList<>();
            Exception first = null;
            for (Future<T> future : futures) {
                try {
                    results.add(future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
                } catch (ExecutionException e) {
                    if (first == null || first instanceof RankAbandoned) {
                        first = e.getCause() instanceof Exception cause ? cause : e;
                    }
                    results.add(null);
                }
            }
            if (first != null) {
                throw first;
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    /** Thrown by a rank whose partner failed and broke the barrier. */
    static final class RankAbandoned extends RuntimeException {
        RankAbandoned(Throwable cause) {
            super(cause);
        }
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return board.slots.length;
    }

    @Override
    public void barrier() {
        try {
            board.barrier.await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException | BrokenBarrierException | TimeoutException e) {
            throw new RankAbandoned(e);
        }
    }

    @Override
    public byte[] broadcast(byte[] data, int root) {
        if (rank == root) {
            board.shared = data.clone();
        }
        barrier();
        byte[] copy = board.shared.clone();
        barrier();
        return copy;
    }

    @Override
    public byte[][] gather(byte[] data, int root) {
        board.slots[rank] = data.clone();
        if (rank == root) {
            board.gathers.incrementAndGet();
        }
        barrier();
        byte[][] all = null;
        if (rank == root) {
            all = new byte[size()][];
            for (int r = 0; r < size(); r++) {
                all[r] = board.slots[r].clone();
            }
        }
        barrier();
        return all;
    }

    @Override
    public byte[] scatter(byte[][] parts, int root) {
        if (rank == root) {
            if (parts.length != size()) {
                throw new IllegalArgumentException("scatter needs " + size() + " parts, got " + parts.length);
            }
            board.parts = parts.clone();
        }
        barrier();
        byte[] mine = board.parts[rank].clone();
        barrier();
        return mine;
    }
}
