package org.quire.runtime;

/**
 * Leaves the engine once the thread that called {@link Quire#init} has returned normally.
 *
 * <p>Leaving (MPJ's {@code MPI.Finalize}, Hazelcast's closing barrier) waits for the other ranks,
 * so it must not run while an exception is on its way out of the worker: in
 * {@code try (Job job = Quire.init(args))} the close would then wait for ranks that are blocked in
 * a collective waiting for this one, and the exception would never be reported. An exception that
 * escapes the thread instead reaches {@link FailOnUncaughtException}, which exits before this
 * watcher's join returns; the watcher only ever sees a normal end.
 */
final class LeaveAtThreadEnd {

    private LeaveAtThreadEnd() {
    }

    static void watch(Thread initThread, Job job) {
        // Not a daemon: the JVM must stay up until the engine has been left.
        Thread watcher = new Thread(() -> {
            try {
                initThread.join();
                StopRequest.ofThisWorker().awaitHooks();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            job.leave();
            System.out.flush();
        }, "quire-leave");
        FailOnUncaughtException.install(watcher);
        watcher.start();
    }
}
