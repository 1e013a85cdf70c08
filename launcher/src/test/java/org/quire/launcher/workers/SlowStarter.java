package org.quire.launcher.workers;

import org.quire.runtime.Job;
import org.quire.runtime.Quire;

/**
 * Test worker: prints its pid, then spends {@code args[0]} seconds in its own code before
 * {@link Quire#init}, as a main that loads its input first would; then waits in a barrier.
 */
public final class SlowStarter {

    private SlowStarter() {
    }

    public static void main(String[] args) throws InterruptedException {
        System.out.println("pid " + ProcessHandle.current().pid());
        Thread.sleep(Long.parseLong(args[0]) * 1000);
        Job job = Quire.init(args);
        job.world().barrier();
    }
}
