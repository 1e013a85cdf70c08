package org.quire.runtime.local;

import org.quire.runtime.Communicator;
import org.quire.runtime.QuireRuntimeException;
import org.quire.runtime.WaitWatchdog;
import org.quire.runtime.message.Message;
import org.quire.runtime.message.MessageCommunicator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A world of N ranks as threads of this JVM, for unit tests and for simulating large rank
 * counts in benchmarks. Not a production engine: ranks share the heap and one process.
 *
 * <p>When one rank fails, the others are interrupted (a rank blocked in a collective would wait
 * forever otherwise) and {@link #run} rethrows the first failure.
 */
public final class LocalWorld {

    /** The code one rank runs. */
    @FunctionalInterface
    public interface RankBody<T> {
        T run(Communicator world) throws Exception;
    }

    private LocalWorld() {
    }

    /** A single-rank world in this thread, as a plain {@code java} run without a launcher gets. */
    public static MessageCommunicator self() {
        return new MessageCommunicator(new LocalTransport(0, List.of(new LinkedBlockingQueue<>())));
    }

    /**
     * Runs {@code body} on {@code size} rank threads and returns each rank's result by rank.
     *
     * @throws QuireRuntimeException when a rank fails (its exception is the cause) or the world
     *                               does not finish within {@code timeout}
     */
    public static <T> List<T> run(int size, Duration timeout, RankBody<T> body) {
        if (size < 1) {
            throw new IllegalArgumentException("a world needs at least 1 rank, got " + size);
        }
        List<BlockingQueue<Message>> inboxes = new ArrayList<>(size);
        for (int r = 0; r < size; r++) {
            inboxes.add(new LinkedBlockingQueue<>());
        }
        ExecutorService threads = Executors.newFixedThreadPool(size, runnable -> {
            Thread t = new Thread(runnable);
            t.setDaemon(true);
            return t;
        });
        CompletionService<Integer> finished = new ExecutorCompletionService<>(threads);
        List<T> results = new ArrayList<>(Collections.nCopies(size, null));
        for (int r = 0; r < size; r++) {
            int rank = r;
            Communicator world = WaitWatchdog.ofThisWorker().watch(new MessageCommunicator(new LocalTransport(rank, inboxes)));
            finished.submit(() -> {
                Thread.currentThread().setName("rank-" + rank);
                try {
                    results.set(rank, body.run(world));
                    return rank;
                } catch (Exception | Error e) {
                    throw new RankFailure(rank, e);
                }
            });
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            for (int done = 0; done < size; done++) {
                Future<Integer> next = finished.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (next == null) {
                    throw new QuireRuntimeException("the in-JVM world of " + size + " ranks did not finish within "
                            + timeout + " (" + done + " ranks finished)");
                }
                next.get();
            }
            return results;
        } catch (ExecutionException e) {
            RankFailure failure = (RankFailure) e.getCause();
            throw new QuireRuntimeException("rank " + failure.rank + " of the in-JVM world failed: "
                    + failure.getCause(), failure.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new QuireRuntimeException("interrupted while waiting for the in-JVM world", e);
        } finally {
            // Interrupts ranks still blocked in a receive after another rank failed.
            threads.shutdownNow();
        }
    }

    /** Carries the failing rank's number out of its thread. */
    private static final class RankFailure extends Exception {
        final int rank;

        RankFailure(int rank, Throwable cause) {
            super(cause);
            this.rank = rank;
        }
    }
}
