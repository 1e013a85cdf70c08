package org.quire.launcher.run;

/**
 * How one rank's JVM ended. The JDK reports death by signal n as status 128 + n.
 *
 * @param outOfMemory the message of the OutOfMemoryError that ended the rank, or null
 */
record RankExit(int rank, int status, String outOfMemory) {

    /**
     * The status HotSpot exits with under {@code -XX:+ExitOnOutOfMemoryError} ({@code os::_exit(3)}
     * after printing {@link RankOutput#OUT_OF_MEMORY}): only a rank that ended with it ran out of memory.
     */
    static final int OUT_OF_MEMORY_STATUS = 3;

    private static final String[] SIGNAL_NAMES = {null, "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT",
        "SIGBUS", "SIGFPE", "SIGKILL", "SIGUSR1", "SIGSEGV", "SIGUSR2", "SIGPIPE", "SIGALRM", "SIGTERM"};

    boolean failed() {
        return status != 0;
    }

    /** E.g. "rank 2 exited with status 3" or "rank 1 was killed by SIGKILL (status 137)". */
    String describe() {
        if (outOfMemory != null) {
            return "rank " + rank + " ran out of memory (java.lang.OutOfMemoryError: " + outOfMemory + ") and exited"
                    + " with status " + status + "; give the ranks more with --heap";
        }
        int signal = status - 128;
        if (signal > 0 && signal < SIGNAL_NAMES.length) {
            return "rank " + rank + " was killed by " + SIGNAL_NAMES[signal] + " (status " + status + ")";
        }
        return "rank " + rank + " exited with status " + status;
    }
}
