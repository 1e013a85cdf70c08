package org.quire.launcher.workers;

import org.quire.runtime.Communicator;
import org.quire.runtime.Job;
import org.quire.runtime.Quire;

/**
 * Test worker: rank 1 waits in {@code receive(source=0, tag=7)} while rank 0 sleeps
 * {@code args[0]} milliseconds (outside any communicator call) before sending; then both end.
 */
public final class LateSender {

    private LateSender() {
    }

    public static void main(String[] args) throws InterruptedException {
        Job job = Quire.init(args);
        Communicator world = job.world();
        if (world.rank() == 0) {
            Thread.sleep(Long.parseLong(job.arguments()[0]));
            world.send(new byte[] {42}, 1, 7);
        } else if (world.rank() == 1) {
            System.out.println("received " + world.receive(0, 7)[0]);
        }
    }
}
