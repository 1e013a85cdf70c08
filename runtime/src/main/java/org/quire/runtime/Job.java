package org.quire.runtime;

/**
 * A worker's membership in its world, obtained from {@link Quire#init}.
 *
 * <p>The worker leaves the world (MPJ's {@code MPI.Finalize}, Hazelcast's closing barrier and
 * client shutdown) when the thread that called {@link Quire#init} returns normally: every message
 * sent before is delivered, the other ranks are waited for, and the JVM then exits with status 0.
 * If an exception escapes that thread instead, the worker prints it and exits with status 1
 * without waiting for anyone, and the launcher stops the other ranks. Leaving is therefore not
 * {@link #close()}'s work: in {@code try (Job job = Quire.init(args)) { ... }} a close that waited
 * for the other ranks would hang a job whose body threw while the others sat in a collective.
 *
 * <p>A worker is asked to stop by SIGTERM, SIGINT or SIGUSR1 (from {@code quire run}, Ctrl-C,
 * {@code scancel}, Slurm's {@code --signal=USR1@SECONDS} warning): the signal does not end the JVM
 * but sets {@link #stopRequested()} and runs the hooks of {@link #onStopRequest}; the program
 * writes what it must and returns from main. One that does not is killed when its launcher's grace
 * period ends (docs/launcher.md, "Stopping a job").
 */
public final class Job implements AutoCloseable {

    private final Communicator world;
    private final String[] arguments;
    private final Runnable leave;

    /**
     * For engines: {@code leave} runs once, after the thread that called {@link Quire#init}
     * returned. The world is handed out watched by this worker's {@link WaitWatchdog}.
     */
    public Job(Communicator world, String[] arguments, Runnable leave) {
        this.world = WaitWatchdog.ofThisWorker().watch(world);
        this.arguments = arguments.clone();
        this.leave = leave;
    }

    /** The communicator of all ranks of the job. */
    public Communicator world() {
        return world;
    }

    /** The application's own arguments, with any engine arguments (e.g. {@code mpjrun}'s) removed. */
    public String[] arguments() {
        return arguments.clone();
    }

    /**
     * Whether this worker has been asked to stop (SIGTERM, SIGINT or SIGUSR1 received since
     * {@link Quire#init}). Ranks receive the signal at slightly different moments, so a program
     * that stops at a step boundary agrees on it first, e.g. with an {@code allreduce} of the flag.
     */
    public boolean stopRequested() {
        return StopRequest.ofThisWorker().requested();
    }

    /**
     * Runs {@code hook} once, on a thread of its own (never the JVM's signal thread), when this
     * worker is asked to stop; at once, on such a thread, if it has been asked already.
     */
    public void onStopRequest(Runnable hook) {
        StopRequest.ofThisWorker().onRequest(hook);
    }

    /**
     * Marks the end of the worker's use of {@link #world()}, which must not be used afterwards.
     * It never blocks: the world is left when the thread that called {@link Quire#init} returns,
     * so a worker may close and go on with serial work, and the other ranks then wait for it in
     * their own leaving.
     */
    @Override
    public void close() {
        // Nothing to do here by design: see the class comment.
    }

    /** Leaves the world; called once, by {@link LeaveAtThreadEnd}. */
    void leave() {
        leave.run();
    }
}
