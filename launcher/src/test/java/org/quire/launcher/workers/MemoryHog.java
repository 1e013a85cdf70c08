package org.quire.launcher.workers;

import org.quire.runtime.Communicator;
import org.quire.runtime.Job;
import org.quire.runtime.Quire;

import java.util.ArrayList;
import java.util.List;

/**
 * Test worker: every rank prints {@code max heap <bytes>} (its {@link Runtime#maxMemory()}),
 * then rank {@code args[0]} fills its heap until it runs out while the others wait in a barrier.
 * {@code args[0] = -1}: nobody does, and the job ends normally.
 */
public final class MemoryHog {

    private MemoryHog() {
    }

    public static void main(String[] args) {
        Job job = Quire.init(args);
        Communicator world = job.world();
        System.out.println("max heap " + Runtime.getRuntime().maxMemory());
        if (world.rank() == Integer.parseInt(job.arguments()[0])) {
            List<long[]> hoard = new ArrayList<>();
            while (true) {
                hoard.add(new long[1 << 20]);
            }
        }
        world.barrier();
    }
}
