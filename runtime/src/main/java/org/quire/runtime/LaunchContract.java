package org.quire.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
    /** Job id, unique on the machine; public (it names the job in messages), unlike the secret. */
    public static final String JOB_ID = "QUIRE_JOB_ID";
    /**
     * Path of a file (mode 0600) holding the {@link JobSecret}; under {@code quire run} each rank
     * has its own, which it deletes once read.
     */
    public static final String SECRET_FILE = "QUIRE_SECRET_FILE";
    /** {@code host:port} of {@code quire run}'s link listener; a worker whose link closes stops itself. */
    public static final String LAUNCHER_LINK = "QUIRE_LAUNCHER_LINK";

    private LaunchContract() {
    }

    /** True when {@code env} comes from {@code quire run}. */
    public static boolean isPresent(Map<String, String> env) {
        return env.containsKey(RANK);
    }

    /** Reads the world from {@code quire run}'s variables; every malformed value is named in the error. */
    public static WorldSpec read(Map<String, String> env) {
        String coordinator = required(env, COORDINATOR);
        int rank = integer(env, RANK);
        int size = integer(env, SIZE);
        Transport transport = Transport.parse(required(env, TRANSPORT), TRANSPORT);
        String jobId = required(env, JOB_ID);
        return new WorldSpec(rank, size, transport, host(coordinator, COORDINATOR), port(coordinator, COORDINATOR),
                jobId, readAndDeleteSecret(env), false);
    }

    /** Reads this rank's secret file and deletes it: nobody needs it again, and a file on disk can leak. */
    private static JobSecret readAndDeleteSecret(Map<String, String> env) {
        Path file = Path.of(required(env, SECRET_FILE));
        JobSecret secret = JobSecret.readFrom(file);
        try {
            Files.delete(file);
        } catch (IOException e) {
            throw new LaunchContractException("cannot delete the job secret file " + file + " after reading it: " + e);
        }
        return secret;
    }

    /** The host of a {@code host:port} value of variable {@code name}. */
    static String host(String hostPort, String name) {
        return hostPort.substring(0, colon(hostPort, name));
    }

    /** The port of a {@code host:port} value of variable {@code name}. */
    static int port(String hostPort, String name) {
        return parseInt(hostPort.substring(colon(hostPort, name) + 1), name + " port");
    }

    private static int colon(String hostPort, String name) {
        int colon = hostPort.lastIndexOf(':');
        if (colon <= 0) {
            throw new LaunchContractException(name + " is '" + hostPort + "'; expected host:port");
        }
        return colon;
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
