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
 * In a multi-rank world the calling thread (normally {@code main}) decides how the worker ends:
 * when it returns normally the worker leaves the world and exits with status 0; an exception that
 * escapes it ends the worker with status 1 at once, so that the launcher stops the job instead of
 * letting it hang (see {@link Job}).
 */
public final class Quire {

    private Quire() {
    }

    public static Job init(String[] args) {
        StopRequest.ofThisWorker(); // from here on SIGTERM, SIGINT and SIGUSR1 ask the worker to stop (Job)
        Thread caller = Thread.currentThread();
        if (MpjBootstrap.isMpjrunArguments(args)) {
            FailOnUncaughtException.install(caller);
            return leftAtEndOf(caller, MpjBootstrap.underMpjrun(args));
        }
        Map<String, String> env = System.getenv();
        if (!LaunchContract.isPresent(env) && !SlurmEnvironment.isPresent(env)) {
            return new Job(LocalWorld.self(), args, () -> { });
        }
        FailOnUncaughtException.install(caller); // before reading the environment: its errors are one line too
        WorldSpec spec;
        if (LaunchContract.isPresent(env)) {
            spec = LauncherLinkAgent.watchedWorld(env);
        } else {
            spec = SlurmEnvironment.read(env);
        }
        return leftAtEndOf(caller, switch (spec.transport()) {
            case MPJ -> MpjBootstrap.join(spec, args);
            case HAZELCAST -> HazelcastBootstrap.join(spec, args);
        });
    }

    private static Job leftAtEndOf(Thread caller, Job job) {
        LeaveAtThreadEnd.watch(caller, job);
        return job;
    }
}
