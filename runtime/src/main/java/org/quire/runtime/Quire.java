package org.quire.runtime;

import org.quire.runtime.hazelcast.HazelcastBootstrap;
import org.quire.runtime.local.LocalWorld;
import org.quire.runtime.mpj.MpjBootstrap;

import java.util.Map;

/**
 * The entry point of a worker: {@code try (Job job = Quire.init(args)) { Communicator world = job.world(); ... }}.
 *
 * <p>The same main class runs unchanged however it was started, recognised in this order:
 * <ol>
 *   <li>under MPJ Express's {@code mpjrun}: {@code args} begin with MPJ's
 *       {@code rank, configuration, device} and go to {@code MPI.Init};</li>
 *   <li>under {@code quire run}: the {@link LaunchContract} variables;</li>
 *   <li>under Slurm's {@code srun}: the {@link SlurmEnvironment} variables;</li>
 *   <li>otherwise (plain {@code java}): a world of one rank.</li>
 * </ol>
 * In a multi-rank world, an exception that escapes the calling thread (normally {@code main})
 * ends the worker with status 1, so that the launcher stops the job instead of letting it hang.
 */
public final class Quire {

    private Quire() {
    }

    public static Job init(String[] args) {
        if (MpjBootstrap.isMpjrunArguments(args)) {
            FailOnUncaughtException.install(Thread.currentThread());
            return MpjBootstrap.underMpjrun(args);
        }
        Map<String, String> env = System.getenv();
        WorldSpec spec;
        if (LaunchContract.isPresent(env)) {
            spec = LaunchContract.read(env);
            LauncherWatch.start(env.get(LaunchContract.LAUNCHER_PID), spec.rank());
        } else if (SlurmEnvironment.isPresent(env)) {
            spec = SlurmEnvironment.read(env);
        } else {
            return new Job(LocalWorld.self(), args, () -> { });
        }
        FailOnUncaughtException.install(Thread.currentThread());
        return switch (spec.transport()) {
            case MPJ -> MpjBootstrap.join(spec, args);
            case HAZELCAST -> HazelcastBootstrap.join(spec, args);
        };
    }
}
