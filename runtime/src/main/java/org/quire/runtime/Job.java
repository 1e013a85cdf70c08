package org.quire.runtime;

/**
 * A worker's membership in its world, from {@link Quire#init} until {@link #close()}.
 * Closing leaves the world (MPJ's {@code MPI.Finalize}, Hazelcast client shutdown); every rank
 * must close, since closing may synchronise with the other ranks.
 */
public final class Job implements AutoCloseable {

    private final Communicator world;
    private final String[] arguments;
    private final Runnable leave;
    private boolean closed;

    /** For engines: {@code leave} runs once, at the first {@link #close()}. */
    public Job(Communicator world, String[] arguments, Runnable leave) {
        this.world = world;
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

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            leave.run();
        }
    }
}
