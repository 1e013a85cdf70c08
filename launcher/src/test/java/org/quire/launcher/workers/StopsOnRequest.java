package org.quire.launcher.workers;

import org.quire.runtime.Communicator;
import org.quire.runtime.Job;
import org.quire.runtime.Quire;
import org.quire.runtime.ReduceOp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Test worker: steps until any rank has been asked to stop (the ranks agree on it with an
 * allreduce of their {@link Job#stopRequested()} flags), then writes {@code stopped-<rank>} (the
 * step it stopped at) into directory {@code args[0]} and returns. Its stop hook writes
 * {@code hook-<rank>} with the name of the thread it ran on. Every rank prints {@code pid N} once
 * the world has formed. Every rank is expected to receive the signal itself. {@code args[1]}, if given, is a rank that ignores the request: it registers no hook and sleeps
 * instead of stepping.
 */
public final class StopsOnRequest {

    private StopsOnRequest() {
    }

    public static void main(String[] args) throws InterruptedException {
        Job job = Quire.init(args);
        Communicator world = job.world();
        Path directory = Path.of(job.arguments()[0]);
        int ignoring = job.arguments().length > 1 ? Integer.parseInt(job.arguments()[1]) : -1;
        int rank = world.rank();
        if (rank != ignoring) {
            job.onStopRequest(() -> write(directory.resolve("hook-" + rank), Thread.currentThread().getName()));
        }
        world.barrier();
        System.out.println("pid " + ProcessHandle.current().pid());
        if (rank == ignoring) {
            Thread.sleep(Long.MAX_VALUE);
        }
        long step = 0;
        while (world.allreduce(new long[] {job.stopRequested() ? 1 : 0}, ReduceOp.MAX)[0] == 0) {
            step++;
            Thread.sleep(20);
        }
        // Every rank is signalled, but another's signal may end the loop first: wait for this rank's own,
        // whose hook has then started (once main has returned, a signal starts no hook).
        while (!job.stopRequested()) {
            Thread.sleep(5);
        }
        write(directory.resolve("stopped-" + rank), Long.toString(step));
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
