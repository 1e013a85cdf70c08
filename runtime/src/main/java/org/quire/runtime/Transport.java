package org.quire.runtime;

import java.util.Arrays;
import java.util.stream.Collectors;

/** The engine a world's ranks talk through. */
public enum Transport {
    /** MPJ Express 0.44, niodev device: separate JVMs over TCP. */
    MPJ("mpj"),
    /** Hazelcast 5: ranks are clients of one member (the launcher, or rank 0 under Slurm). */
    HAZELCAST("hazelcast");

    private final String cliName;

    Transport(String cliName) {
        this.cliName = cliName;
    }

    /** The name used on the command line and in {@code QUIRE_TRANSPORT}. */
    public String cliName() {
        return cliName;
    }

    /** Parses a {@link #cliName()}; {@code source} names where the value came from, for the error. */
    public static Transport parse(String value, String source) {
        for (Transport t : values()) {
            if (t.cliName.equals(value)) {
                return t;
            }
        }
        throw new LaunchContractException(source + " is '" + value + "'; expected one of "
                + Arrays.stream(values()).map(Transport::cliName).collect(Collectors.joining(", ")));
    }

    @Override
    public String toString() {
        return cliName;
    }
}
