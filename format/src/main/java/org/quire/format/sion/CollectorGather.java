package org.quire.format.sion;

import org.quire.format.Collectives;

/**
 * A gather from every rank of a collector group to its collector, built from whole-group gathers because
 * {@link Collectives} has no sub-groups: one gather per collector, in ascending rank order, to which only
 * that collector's group sends data (the other ranks send an empty array). Costs one gather per
 * collector; SIONlib's own callback is one gather per group run by the groups at once.
 */
final class CollectorGather {

    private static final byte[] NOTHING = new byte[0];

    private CollectorGather() {
    }

    /**
     * Collective over the whole group: sends {@code data} to {@code collector}.
     *
     * @param collectors every collector rank, ascending, the same on all ranks
     * @return on a collector, what every rank sent it, indexed by rank (empty from other groups); null elsewhere
     */
    static byte[][] toCollector(Collectives collectives, byte[] data, int collector, int[] collectors) {
        byte[][] received = null;
        for (int root : collectors) {
            byte[][] gathered = collectives.gather(root == collector ? data : NOTHING, root);
            if (root == collectives.rank()) {
                received = gathered;
            }
        }
        return received;
    }
}
