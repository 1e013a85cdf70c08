package org.quire.runtime.mpj;

import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;
import org.quire.runtime.CommunicationException;

import java.util.function.IntFunction;

/**
 * A barrier and an allgather of equal-sized blocks in ceil(log2 N) rounds of point-to-point
 * messages, where every rank sends one message and receives one per round: the dissemination
 * barrier (Hensgen, Finkel and Manber, 1988) and Bruck et al.'s allgather (1997). Over niodev
 * each round costs one message latency, so these finish in half the sequential hops of MPJ
 * 0.44's tree-shaped Barrier and Allreduce (a reduce then a broadcast).
 *
 * <p>The messages travel in a private duplicate of the communicator, so they never match the
 * user's; each round has its own tag, and since all ranks run these operations in the same order
 * and MPI keeps per-pair, per-tag order, consecutive operations never mix.
 */
final class DisseminationRounds {

    private static final int BARRIER_TAG = 0;
    private static final int ALLGATHER_TAG = 64;

    private final Intracomm comm;
    private final int rank;
    private final int size;

    /** Collective over {@code parent}: duplicates it. */
    DisseminationRounds(Intracomm parent, int rank, int size) {
        try {
            this.comm = (Intracomm) parent.clone();
        } catch (MPIException e) {
            throw new CommunicationException("MPJ Express could not duplicate a communicator: " + e.getMessage(), e);
        }
        this.rank = rank;
        this.size = size;
    }

    /** Returns once every rank has entered. */
    void barrier() {
        byte[] none = new byte[1];
        int round = 0;
        for (int distance = 1; distance < size; distance <<= 1, round++) {
            exchange(none, 0, 1, MPI.BYTE, (rank + distance) % size, (rank - distance + size) % size, BARRIER_TAG + round,
                    none, 0, 1);
        }
    }

    /**
     * Every rank's {@code blockLength} elements, indexed by rank, on every rank.
     *
     * @param mine      an array of {@code type} holding at least {@code blockLength} elements
     * @param newArray  makes an array of {@code type} of a given length
     * @throws IllegalArgumentException when a rank's block has another length than this rank's
     */
    Object allgather(Object mine, int blockLength, Datatype type, IntFunction<Object> newArray, String operation) {
        // Block i holds rank (rank + i) % size's elements; after the round of distance d this rank has 2d blocks.
        Object gathered = newArray.apply(size * blockLength);
        System.arraycopy(mine, 0, gathered, 0, blockLength);
        int have = 1;
        int round = 0;
        for (int distance = 1; distance < size; distance <<= 1, round++) {
            int count = Math.min(distance, size - have);
            int from = (rank + distance) % size;
            // Room for all missing blocks, so that a longer block shows as a wrong count rather than an MPJ error.
            int received = exchange(gathered, 0, count * blockLength, type, (rank - distance + size) % size, from,
                    ALLGATHER_TAG + round, gathered, have * blockLength, (size - have) * blockLength);
            if (received != count * blockLength) {
                throw new IllegalArgumentException(operation + " vectors differ in length: rank " + rank + " has "
                        + blockLength + " values, rank " + from + " sent " + received + " for " + count + " ranks");
            }
            have += count;
        }
        Object byRank = newArray.apply(size * blockLength);
        for (int i = 0; i < size; i++) {
            System.arraycopy(gathered, i * blockLength, byRank, (rank + i) % size * blockLength, blockLength);
        }
        return byRank;
    }

    /**
     * Sends {@code count} elements to {@code to} and receives at most {@code room} from
     * {@code from} into {@code into} at {@code at}; returns the number received.
     */
    private int exchange(Object out, int offset, int count, Datatype type, int to, int from, int tag, Object into, int at,
                         int room) {
        try {
            Request sent = comm.Isend(out, offset, count, type, to, tag);
            Status status = comm.Recv(into, at, room, type, from, tag);
            sent.Wait();
            return status.Get_count(type);
        } catch (MPIException e) {
            throw new CommunicationException("MPJ Express exchange with ranks " + to + " and " + from + " failed: "
                    + e.getMessage(), e);
        }
    }
}
