package org.quire.runtime.mpj;

import mpi.MPI;
import org.quire.runtime.CommunicationException;
import org.quire.runtime.Job;
import org.quire.runtime.WorldSpec;

import java.io.IOException;
import java.net.InetAddress;
import java.util.Set;

/**
 * Joins an MPJ Express world, however the worker was started.
 *
 * <p>Under {@code mpjrun} the JVM's arguments are MPJ's: {@code [rank, configuration, device,
 * application args...]}; they go to {@code MPI.Init} unchanged. Under {@code quire run} and
 * {@code srun} Quire builds the niodev arguments itself: {@code [rank, "#Number of Processes;N;
 * #Protocol Switch Limit;131072;#Server Name;127.0.0.1;#Server Port;port", "niodev"]}, where the
 * server is the rank's own {@link NiodevRelay}, which registers with the job's
 * {@link NiodevRendezvous} (served by the launcher or, under Slurm, by rank 0) using the job secret.
 */
public final class MpjBootstrap {

    private static final Set<String> DEVICES = Set.of("smpdev", "niodev", "hybdev", "mxdev", "native");
    /** MPJ's default eager/rendezvous switch, as mpjrun passes it. */
    private static final int PROTOCOL_SWITCH_LIMIT = 128 * 1024;

    private MpjBootstrap() {
    }

    /** True when {@code args} are those {@code mpjrun} passes: integer rank, configuration, known device. */
    public static boolean isMpjrunArguments(String[] args) {
        return args.length >= 3 && args[0].matches("\\d+") && DEVICES.contains(args[2]);
    }

    /** Initialises MPJ with {@code mpjrun}'s arguments. */
    public static Job underMpjrun(String[] args) {
        String[] applicationArgs = MPI.Init(args);
        MpjCommunicator world = new MpjCommunicator(MPI.COMM_WORLD);
        return new Job(world, applicationArgs == null ? new String[0] : applicationArgs, () -> {
            world.completeSends();
            MPI.Finalize();
        });
    }

    /** Joins the niodev world {@code spec} describes; {@code args} are the application's. */
    public static Job join(WorldSpec spec, String[] args) {
        NiodevRendezvous rendezvous = null;
        if (spec.rankZeroRunsCoordinator() && spec.rank() == 0) {
            rendezvous = startRendezvous(spec);
        }
        NiodevRelay relay;
        try {
            relay = NiodevRelay.start(spec);
        } catch (IOException e) {
            throw new CommunicationException("rank " + spec.rank() + " cannot open its niodev relay on loopback: "
                    + e.getMessage(), e);
        }
        String configuration = "#Number of Processes;" + spec.size() + ";#Protocol Switch Limit;" + PROTOCOL_SWITCH_LIMIT
                + ";#Server Name;" + InetAddress.getLoopbackAddress().getHostAddress() + ";#Server Port;" + relay.port();
        try {
            MPI.Init(new String[] {Integer.toString(spec.rank()), configuration, "niodev"});
        } catch (RuntimeException e) {
            throw new CommunicationException("rank " + spec.rank() + " could not connect to its niodev peers ("
                    + rootCause(e) + ")" + relay.listenerExposure(), e);
        }
        relay.initReturned();
        NiodevRendezvous served = rendezvous;
        MpjCommunicator world = new MpjCommunicator(MPI.COMM_WORLD);
        return new Job(world, args, () -> {
            world.completeSends();
            MPI.Finalize();
            if (served != null) {
                served.close();
            }
        });
    }

    private static String rootCause(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root.toString();
    }

    private static NiodevRendezvous startRendezvous(WorldSpec spec) {
        try {
            return NiodevRendezvous.start(InetAddress.getByName(spec.coordinatorHost()), spec.coordinatorPort(),
                    spec.size(), spec.secret());
        } catch (IOException e) {
            throw new CommunicationException("rank 0 cannot serve the niodev rendezvous on " + spec.coordinatorHost()
                    + ":" + spec.coordinatorPort() + " (" + e.getMessage() + "); set QUIRE_COORDINATOR_PORT to a free port",
                    e);
        }
    }
}
