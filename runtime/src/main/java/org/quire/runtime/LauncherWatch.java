package org.quire.runtime;

/**
 * Stops a worker whose {@code quire run} is gone (killed with SIGKILL, say), so that no rank is
 * left blocked forever in a collective with peers that no longer exist.
 */
final class LauncherWatch {

    private static final long POLL_MILLIS = 500;
    /** Exit status of a worker that stops because its launcher died (EX_SOFTWARE). */
    private static final int ORPHANED_STATUS = 70;

    private LauncherWatch() {
    }

    static void start(String launcherPid, int rank) {
        if (launcherPid == null) {
            return;
        }
        long pid = LaunchContract.parseInt(launcherPid, LaunchContract.LAUNCHER_PID);
        Thread watch = new Thread(() -> {
            while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                try {
                    Thread.sleep(POLL_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
            }
            System.err.println("quire: rank " + rank + " stops: its launcher (pid " + pid + ") is gone");
            Runtime.getRuntime().halt(ORPHANED_STATUS);
        }, "quire-launcher-watch");
        watch.setDaemon(true);
        watch.start();
    }
}
