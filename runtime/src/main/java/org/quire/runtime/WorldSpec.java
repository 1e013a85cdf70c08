package org.quire.runtime;

/**
 * Everything a worker needs to join its world: who it is, how many there are, which engine they
 * use and where the coordinator (niodev rendezvous server or Hazelcast member) listens.
 *
 * @param jobId                  names the job in messages; public
 * @param secret                 the key every message between the job's processes is authenticated with
 * @param rankZeroRunsCoordinator true when rank 0 must start the coordinator itself (under Slurm);
 *                                false when the launcher already runs it ({@code quire run})
 */
public record WorldSpec(int rank, int size, Transport transport, String coordinatorHost, int coordinatorPort,
                        String jobId, JobSecret secret, boolean rankZeroRunsCoordinator) {

    public WorldSpec {
        if (size < 1) {
            throw new LaunchContractException("world size is " + size + "; expected at least 1");
        }
        if (rank < 0 || rank >= size) {
            throw new LaunchContractException("rank is " + rank + "; expected 0.." + (size - 1) + " for a world of "
                    + size);
        }
        if (coordinatorPort < 1 || coordinatorPort > 65535) {
            throw new LaunchContractException("coordinator port is " + coordinatorPort + "; expected 1..65535");
        }
    }
}
