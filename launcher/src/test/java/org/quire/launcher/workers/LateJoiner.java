package org.quire.launcher.workers;

import org.quire.runtime.Communicator;
import org.quire.runtime.Job;
import org.quire.runtime.Quire;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Test worker (under quire run or srun): rank {@code args[0]} waits {@code args[1]} seconds before joining, so the world
 * forms late and a test can meet the coordinator in the meantime; then every rank checks an
 * allgather of the ranks and a message ring, and prints {@code world of N verified}.
 */
public final class LateJoiner {

    private LateJoiner() {
    }

    public static void main(String[] args) throws InterruptedException {
        String myRank = System.getenv().getOrDefault("QUIRE_RANK", System.getenv("SLURM_PROCID"));
        if (args[0].equals(myRank)) {
            Thread.sleep(Long.parseLong(args[1]) * 1000);
        }
        Job job = Quire.init(args);
        Communicator world = job.world();
        int rank = world.rank();
        System.out.println("rank " + rank + " joined");
        int size = world.size();
        byte[][] all = world.allgather(ByteBuffer.allocate(4).putInt(rank).array());
        for (int r = 0; r < size; r++) {
            if (ByteBuffer.wrap(all[r]).getInt() != r) {
                throw new IllegalStateException("allgather slot " + r + " holds " + Arrays.toString(all[r]));
            }
        }
        world.send(ByteBuffer.allocate(4).putInt(rank).array(), (rank + 1) % size, 7);
        int from = (rank + size - 1) % size;
        int got = ByteBuffer.wrap(world.receive(from, 7)).getInt();
        if (got != from) {
            throw new IllegalStateException("rank " + rank + " expected " + from + " in the ring, got " + got);
        }
        world.barrier();
        System.out.println("world of " + size + " verified");
    }
}
