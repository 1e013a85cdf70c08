package org.quire.runtime;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.Map;

/**
 * The world of a worker started by Slurm's {@code srun}: rank and size from
 * {@code SLURM_PROCID} and {@code SLURM_STEP_NUM_TASKS}, the coordinator on the first node of
 * {@code SLURM_STEP_NODELIST} (where rank 0 runs under block and cyclic distribution), on a port
 * derived from the job and step ids so that concurrent steps do not collide, unless
 * {@value #COORDINATOR_PORT} names one. A step on one node ({@code SLURM_STEP_NUM_NODES=1}) has its
 * coordinator on the loopback address instead, out of the network's reach. The port is public;
 * what keeps other processes out is the job secret in the file {@value LaunchContract#SECRET_FILE}
 * names.
 */
public final class SlurmEnvironment {

    public static final String PROCID = "SLURM_PROCID";
    /** Overrides the derived coordinator port, e.g. when the derived one is taken. */
    public static final String COORDINATOR_PORT = "QUIRE_COORDINATOR_PORT";

    private static final int FIRST_DERIVED_PORT = 30000;
    private static final int DERIVED_PORT_RANGE = 20000;

    private SlurmEnvironment() {
    }

    /** True when {@code env} is that of an {@code srun} task. */
    public static boolean isPresent(Map<String, String> env) {
        return env.containsKey(PROCID);
    }

    public static WorldSpec read(Map<String, String> env) {
        int rank = LaunchContract.integer(env, PROCID);
        int size = LaunchContract.integer(env, env.containsKey("SLURM_STEP_NUM_TASKS") ? "SLURM_STEP_NUM_TASKS"
                : "SLURM_NTASKS");
        String nodeList = LaunchContract.required(env, env.containsKey("SLURM_STEP_NODELIST") ? "SLURM_STEP_NODELIST"
                : "SLURM_JOB_NODELIST");
        int jobId = LaunchContract.integer(env, "SLURM_JOB_ID");
        int stepId = env.containsKey("SLURM_STEP_ID") ? LaunchContract.integer(env, "SLURM_STEP_ID") : 0;
        int port = env.containsKey(COORDINATOR_PORT) ? LaunchContract.integer(env, COORDINATOR_PORT)
                : FIRST_DERIVED_PORT + Math.floorMod(jobId * 31L + stepId, DERIVED_PORT_RANGE);
        Transport transport = env.containsKey(LaunchContract.TRANSPORT)
                ? Transport.parse(env.get(LaunchContract.TRANSPORT), LaunchContract.TRANSPORT) : Transport.MPJ;
        boolean oneNode = env.containsKey("SLURM_STEP_NUM_NODES")
                && LaunchContract.integer(env, "SLURM_STEP_NUM_NODES") == 1;
        String coordinatorHost = oneNode ? InetAddress.getLoopbackAddress().getHostAddress() : firstHost(nodeList);
        return new WorldSpec(rank, size, transport, coordinatorHost, port, "slurm-" + jobId + "." + stepId,
                secret(env), true);
    }

    /**
     * The job secret from the file {@value LaunchContract#SECRET_FILE} names, which whoever submits
     * the job creates (slurm/quire-job.sbatch does; see docs/security.md). Every rank reads the
     * same file, so nobody deletes it before the step ends.
     */
    private static JobSecret secret(Map<String, String> env) {
        String file = env.get(LaunchContract.SECRET_FILE);
        if (file == null || file.isBlank()) {
            throw new LaunchContractException(LaunchContract.SECRET_FILE + " is not set: under srun every rank needs"
                    + " the job's secret in a file only its user can read, e.g. made with"
                    + " 'umask 077; head -c 32 /dev/urandom > FILE' (slurm/quire-job.sbatch does it; see docs/security.md)");
        }
        return JobSecret.readFrom(Path.of(file.trim()));
    }

    /**
     * The first host of a Slurm host list such as {@code node[07-09,12],gpu1} (here {@code node07}),
     * as {@code scontrol show hostnames} would list it first.
     */
    public static String firstHost(String hostList) {
        String list = hostList.trim();
        int bracket = list.indexOf('[');
        int comma = list.indexOf(',');
        if (bracket < 0 || (comma >= 0 && comma < bracket)) {
            String host = comma < 0 ? list : list.substring(0, comma);
            if (host.isEmpty()) {
                throw new LaunchContractException("Slurm node list '" + hostList + "' starts with an empty host name");
            }
            return host;
        }
        int close = list.indexOf(']', bracket);
        if (close < 0) {
            throw new LaunchContractException("Slurm node list '" + hostList + "' has an unclosed '['");
        }
        String firstRange = list.substring(bracket + 1, close).split(",", 2)[0];
        String firstNumber = firstRange.split("-", 2)[0];
        if (firstNumber.isEmpty() || !firstNumber.chars().allMatch(Character::isDigit)) {
            throw new LaunchContractException("Slurm node list '" + hostList + "' has a range that does not start"
                    + " with a number: '" + firstRange + "'");
        }
        return list.substring(0, bracket) + firstNumber + list.substring(close + 1).split(",", 2)[0];
    }
}
