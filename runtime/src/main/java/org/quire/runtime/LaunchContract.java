package org.quire.runtime;

import java.util.Map;

/**
 * The environment {@code quire run} gives each worker JVM (documented in
 * {@code docs/launcher.md}); the launcher writes these variables and {@link Quire#init} reads them.
 */
public final class LaunchContract {

    /** This worker's rank, 0-based. */
    public static final String RANK = "QUIRE_RANK";
    /** Number of ranks in the world. */
    public static final String SIZE = "QUIRE_SIZE";
    /** {@link Transport#cliName()} of the engine. */
    public static final String TRANSPORT = "QUIRE_TRANSPORT";
    /** {@code host:port} of the coordinator: niodev rendezvous server or Hazelcast member. */
    public static final String COORDINATOR = "QUIRE_COORDINATOR";
    /** Unique job id; the Hazelcast cluster name is derived from it. */
    public static final String JOB_ID = "QUIRE_JOB_ID";
    /** Process id of {@code quire run}; a worker whose launcher is gone stops itself. */
    public static final String LAUNCHER_PID = "QUIRE_LAUNCHER_PID";

    private LaunchContract() {
    }

    /** True when {@code env} comes from {@code quire run}. */
    public static boolean isPresent(Map<String, String> env) {
        return env.containsKey(RANK);
    }

    /** Reads the world from {@code quire run}'s variables; every malformed value is named in the error. */
    public static WorldSpec read(Map<String, String> env) {
        String coordinator = required(env, COORDINATOR);
        int colon = coordinator.lastIndexOf(':');
        if (colon <= 0) {
            throw new LaunchContractException(COORDINATOR + " is '" + coordinator + "'; expected host:port");
        }
        return new WorldSpec(
                integer(env, RANK),
                integer(env, SIZE),
                Transport.parse(required(env, TRANSPORT), TRANSPORT),
                coordinator.substring(0, colon),
                parseInt(coordinator.substring(colon + 1), COORDINATOR + " port"),
                required(env, JOB_ID),
                false);
    }

    static String required(Map<String, String> env, String name) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            throw new LaunchContractException(name + " is not set; workers started by 'quire run' always get it"
                    + " (see docs/launcher.md)");
        }
        return value.trim();
    }

    static int integer(Map<String, String> env, String name) {
        return parseInt(required(env, name), name);
    }

    static int parseInt(String value, String what) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new LaunchContractException(what + " is '" + value + "'; expected a decimal integer");
        }
    }
}
