package org.quire.launcher.workers;

import org.quire.runtime.Communicator;
import org.quire.runtime.Job;
import org.quire.runtime.Quire;

/**
 * Test worker: every rank prints its pid after a first barrier, then rank {@code args[0]} sleeps
 * while the others wait in a barrier it never enters — a job that ends only when something
 * outside kills it. {@code args[0] = -1}: every rank sleeps.
 */
public final class Blocked {

    private Blocked() {
    }

    public static void main(String[] args) throws InterruptedException {
        Job job = Quire.init(args);
        Communicator world = job.world();
        int sleeper = Integer.parseInt(job.arguments()[0]);
        world.barrier();
        System.out.println("pid " + ProcessHandle.current().pid());
        if (sleeper < 0 || world.rank() == sleeper) {
            Thread.sleep(Long.MAX_VALUE);
        }
        world.barrier();
    }
}
