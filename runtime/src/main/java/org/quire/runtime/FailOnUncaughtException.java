package org.quire.runtime;

/**
 * Makes an exception that escapes the worker's main thread end the worker with status 1, as it
 * does in a plain Java program. Without this the engines' non-daemon threads (niodev, Hazelcast
 * client) keep the JVM alive after main died, and the rank neither works nor exits, so the
 * launcher's fail-fast never sees it. Under {@code mpjrun}'s multicore mode, where ranks are
 * threads of one JVM, this ends every rank: the equivalent of {@code MPI_Abort}.
 *
 * <p>Quire's own exceptions ({@link QuireRuntimeException}: a world that cannot form, a lost
 * message, a bad launch contract) say what failed in their message, so they are reported in one
 * line, {@code Exception in thread "main" org.quire.runtime.CommunicationException: rank 0 ...};
 * any other exception with its stack trace, as the JVM does.
 *
 * <p>The worker deliberately does not leave the world first: leaving waits for the other ranks,
 * which may be blocked in a collective waiting for this one ({@link LeaveAtThreadEnd}).
 */
final class FailOnUncaughtException {

    private static final int STATUS = 1;

    private FailOnUncaughtException() {
    }

    static void install(Thread mainThread) {
        mainThread.setUncaughtExceptionHandler((thread, failure) -> {
            System.err.print("Exception in thread \"" + thread.getName() + "\" ");
            if (failure instanceof QuireRuntimeException) {
                System.err.println(failure);
            } else {
                failure.printStackTrace(System.err); // the same report the JVM prints by default
            }
            System.err.flush();
            System.exit(STATUS);
        });
    }
}
