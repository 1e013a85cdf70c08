package org.quire.launcher.workers;

import org.quire.runtime.Communicator;
import org.quire.runtime.Job;
import org.quire.runtime.Quire;
import org.quire.runtime.ReduceOp;

/**
 * Test worker: once the world has formed, each rank prints
 * {@code rank R of N on NODE: rank sum S}, NODE from Slurm's {@code SLURMD_NODENAME} and S the
 * allreduce of every rank's number, so a line proves the rank talked to the whole world.
 */
public final class ReportNode {

    private ReportNode() {
    }

    public static void main(String[] args) {
        try (Job job = Quire.init(args)) {
            Communicator world = job.world();
            long sum = world.allreduce(new long[] {world.rank()}, ReduceOp.SUM)[0];
            System.out.println("rank " + world.rank() + " of " + world.size() + " on " + System.getenv("SLURMD_NODENAME")
                    + ": rank sum " + sum);
        }
    }
}
