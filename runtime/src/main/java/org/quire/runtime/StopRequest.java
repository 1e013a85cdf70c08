package org.quire.runtime;

import java.util.ArrayList;
import java.util.List;

import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * The request to stop that a worker receives as SIGTERM ({@code quire run} stopping its ranks,
 * {@code scancel}, Slurm's time limit), SIGINT (Ctrl-C) or SIGUSR1 (Slurm's warning,
 * {@code --signal=USR1@SECONDS}): instead of ending the JVM, the signal sets a flag the program
 * polls ({@link Job#stopRequested()}) and runs the hooks it registered ({@link Job#onStopRequest}),
 * so that it can write a last checkpoint and return from main. A second SIGINT ends the worker at
 * once with status 130, so that Ctrl-C twice still stops a program that ignores the request.
 *
 * <p>One instance per class loader: under {@code mpjrun}'s multicore mode every rank is a thread
 * of one JVM with its own copy of this class, and each copy installs its handler; a signal then
 * reaches the newest handler, which passes it on to the one it replaced when that is another
 * copy of this class (the JVM's own handlers, which would end the JVM, are not called).
 */
final class StopRequest {

    private static final List<String> SIGNALS = List.of("TERM", "INT", "USR1");
    private static final int SECOND_INTERRUPT_STATUS = 128 + 2;
    private static final StopRequest WORKER = new StopRequest();

    private volatile boolean requested;
    /** Guarded by this: the hooks still to run when the request comes. */
    private final List<Runnable> hooks = new ArrayList<>();
    private boolean installed;
    private int interrupts;
    /** Guarded by this: the threads running hooks, which the worker waits for before it leaves. */
    private final List<Thread> hookThreads = new ArrayList<>();
    /** Guarded by this: the worker is leaving its world; no hook starts any more. */
    private boolean closed;

    /** One per worker ({@link #ofThisWorker}); a test makes its own, without signal handlers. */
    StopRequest() {
    }

    /** This worker's stop request, its signal handlers installed on first use. */
    static StopRequest ofThisWorker() {
        WORKER.installSignalHandlers();
        return WORKER;
    }

    boolean requested() {
        return requested;
    }

    /** Runs {@code hook} once on its own thread when the request comes, or at once if it came already. */
    synchronized void onRequest(Runnable hook) {
        if (requested) {
            runOnItsOwnThread(List.of(hook));
        } else {
            hooks.add(hook);
        }
    }

    private synchronized void installSignalHandlers() {
        if (installed) {
            return;
        }
        installed = true;
        for (String name : SIGNALS) {
            Handler handler = new Handler(this);
            handler.replaced = Signal.handle(new Signal(name), handler);
        }
    }

    /** Passes the signal on to the handler it replaced when that is another rank's copy of this class. */
    private static final class Handler implements SignalHandler {
        private final StopRequest request;
        private volatile SignalHandler replaced;

        Handler(StopRequest request) {
            this.request = request;
        }

        @Override
        public void handle(Signal signal) {
            request.receive(signal);
            SignalHandler previous = replaced;
            // Another class loader's copy of this class has the same name; the JVM's own handlers have not.
            if (previous != null && previous.getClass().getName().equals(Handler.class.getName())) {
                previous.handle(signal);
            }
        }
    }

    /** Called on the JVM's signal thread: only sets the flag and hands the hooks to a thread of their own. */
    synchronized void receive(Signal signal) {
        if (signal.getName().equals("INT") && ++interrupts > 1) {
            System.err.println("quire: received a second SIGINT, exiting");
            System.exit(SECOND_INTERRUPT_STATUS);
        }
        if (requested) {
            return;
        }
        System.err.println("quire: received SIG" + signal.getName() + ", stop requested");
        requested = true;
        // Under the lock: a worker that sees the flag finds the hooks started, unless it had begun to leave.
        runOnItsOwnThread(List.copyOf(hooks));
        hooks.clear();
    }

    /** Started under the lock, so that {@link #awaitHooks} joins every hook thread that ever starts. */
    private synchronized void runOnItsOwnThread(List<Runnable> toRun) {
        if (toRun.isEmpty() || closed) {
            return; // closed: main has returned, nothing is left for a hook to stop
        }
        Thread thread = new Thread(() -> toRun.forEach(Runnable::run), "quire-stop-request");
        hookThreads.add(thread);
        thread.start();
    }

    /**
     * Closes the request and waits for the hooks that started: a hook writing a last checkpoint
     * must finish before the worker leaves its world (MPJ's {@code MPI.Finalize} ends the JVM's
     * other threads with it), and none may start while it leaves.
     */
    void awaitHooks() throws InterruptedException {
        List<Thread> threads;
        synchronized (this) {
            closed = true;
            threads = List.copyOf(hookThreads);
        }
        for (Thread thread : threads) {
            thread.join();
        }
    }
}
