package org.quire.launcher.run;

import org.quire.runtime.JobSecret;
import org.quire.runtime.Transport;

import java.io.IOException;

/**
 * What {@code quire run} serves its workers while they form a world: MPJ's niodev rendezvous or
 * the job's Hazelcast member. Bound to loopback on a port the system picks, so several jobs run
 * side by side.
 */
sealed interface JobCoordinator extends AutoCloseable permits NiodevCoordinator, HazelcastCoordinator {

    /** The host workers connect to. */
    String host();

    /** The port workers connect to. */
    int port();

    @Override
    void close();

    static JobCoordinator start(Transport transport, int ranks, JobSecret secret) throws IOException {
        return switch (transport) {
            case MPJ -> NiodevCoordinator.start(ranks, secret);
            case HAZELCAST -> HazelcastCoordinator.start(secret);
        };
    }
}
