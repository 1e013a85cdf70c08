package org.quire.benchmarks;

import org.quire.format.Collectives;
import org.quire.format.DelegatingCollectives;

/**
 * Passes every collective through to another {@link Collectives} and counts, on the root of each
 * operation, the payload bytes that arrive there (gather) and leave it (broadcast to every other
 * rank, scatter parts for other ranks). Only the bytes the format hands over are counted, not the
 * engine's framing. One instance per rank; read the counts on rank 0.
 */
final class CountingCollectives extends DelegatingCollectives {

    private long bytesGatheredAtRoot;
    private long bytesSentByRoot;
    private int gathers;

    CountingCollectives(Collectives inner) {
        super(inner);
    }

    @Override
    public byte[] broadcast(byte[] data, int root) {
        byte[] result = super.broadcast(data, root);
        if (rank() == root) {
            bytesSentByRoot += (long) result.length * (size() - 1);
        }
        return result;
    }

    @Override
    public byte[][] gather(byte[] data, int root) {
        byte[][] all = super.gather(data, root);
        if (rank() == root) {
            gathers++;
            for (int r = 0; r < all.length; r++) {
                if (r != root) {
                    bytesGatheredAtRoot += all[r].length;
                }
            }
        }
        return all;
    }

    @Override
    public byte[] scatter(byte[][] parts, int root) {
        if (rank() == root) {
            for (int r = 0; r < parts.length; r++) {
                if (r != root) {
                    bytesSentByRoot += parts[r].length;
                }
            }
        }
        return super.scatter(parts, root);
    }

    /** Payload bytes other ranks sent to this rank in gathers it was the root of. */
    long bytesGatheredAtRoot() {
        return bytesGatheredAtRoot;
    }

    /** Payload bytes this rank sent to other ranks in broadcasts and scatters it was the root of. */
    long bytesSentByRoot() {
        return bytesSentByRoot;
    }

    /** Gathers this rank was the root of. */
    int gathers() {
        return gathers;
    }

    /** Starts counting afresh (between the open and the close of one file). */
    void reset() {
        bytesGatheredAtRoot = 0;
        bytesSentByRoot = 0;
        gathers = 0;
    }
}
