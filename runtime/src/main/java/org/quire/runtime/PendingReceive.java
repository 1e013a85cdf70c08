package org.quire.runtime;

/**
 * A receive started by {@link Communicator#receiveLater}: MPI's {@code MPI_Irecv} request with
 * its {@code MPI_Test} and {@code MPI_Wait}. Used by the thread that uses its communicator.
 */
public interface PendingReceive {

    /**
     * Lets the communicator take in what has arrived, without waiting.
     *
     * @return true once the message is here ({@link #await()} then returns it, or throws for a
     *         message of another kind, at once)
     */
    boolean test();

    /**
     * Waits for the message and returns its bytes; later calls return the same array.
     *
     * @throws CommunicationException when the message is not a byte message (it is consumed)
     */
    byte[] await();
}
