/**
 * The rank runtime: a {@link org.quire.runtime.Communicator} (rank, size, barrier, broadcast,
 * gather, allgather, reduce, allreduce, split, typed send/receive, receiveLater, sendrecv) and the
 * engines behind it — MPJ Express, Hazelcast, and in-JVM threads for unit tests — plus {@link org.quire.runtime.Quire#init}, the one entry
 * point through which a worker obtains its world however it was started ({@code quire run},
 * {@code mpjrun}, {@code srun}, or plain {@code java}).
 *
 * <p>Engine classes stay in this module; {@code format} never sees them.
 */
package org.quire.runtime;
