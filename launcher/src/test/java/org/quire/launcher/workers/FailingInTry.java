package org.quire.launcher.workers;

import org.quire.runtime.Communicator;
import org.quire.runtime.Job;
import org.quire.runtime.Quire;

/**
 * Test worker in the documented {@code try (Job job = Quire.init(args))} form: after a first
 * barrier, rank {@code args[0]} throws out of the try block while the other ranks wait in a second
 * barrier that can never complete. Closing the job on the way out must not wait for them.
 */
public final class FailingInTry {

    private FailingInTry() {
    }

    public static void main(String[] args) {
        try (Job job = Quire.init(args)) {
            Communicator world = job.world();
            int failing = Integer.parseInt(job.arguments()[0]);
            world.barrier();
            System.out.println("past the first barrier");
            if (world.rank() == failing) {
                throw new IllegalStateException("rank " + failing + " fails inside try-with-resources");
            }
            world.barrier();
            System.out.println("past the second barrier, which should be impossible");
        }
    }
}
