package org.quire.launcher.workers;

import org.quire.runtime.Communicator;
import org.quire.runtime.Job;
import org.quire.runtime.Quire;

/**
 * Test worker: after a first barrier, rank {@code args[0]} fails ({@code args[1]}: "throw", or
 * "exit=N") while the other ranks wait in a second barrier that can never complete.
 */
public final class FailingRank {

    private FailingRank() {
    }

    public static void main(String[] args) {
        Job job = Quire.init(args);
        Communicator world = job.world();
        int failing = Integer.parseInt(job.arguments()[0]);
        world.barrier();
        System.out.println("past the first barrier");
        if (world.rank() == failing) {
            if (job.arguments()[1].equals("throw")) {
                throw new IllegalStateException("rank " + failing + " fails on purpose");
            }
            System.exit(Integer.parseInt(job.arguments()[1].substring("exit=".length())));
        }
        world.barrier();
        System.out.println("past the second barrier, which should be impossible");
    }
}
