package org.quire.runtime.mpj;

import mpi.MPI;
import org.quire.runtime.CommunicationException;
import org.quire.runtime.Job;
import org.quire.runtime.WorldSpec;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Set;

/**
 * Joins an MPJ Express world, however the worker was started.
 *
 * <p>Under {@code mpjrun} the JVM's arguments are MPJ's: {@code [rank, configuration, device,
 * application args...]}; they go to {@code MPI.Init} unchanged. Under {@code quire run} and
 * {@code srun} Quire builds the niodev arguments itself: {@code [rank, "#Number of Processes;N;
 * #Protocol Switch Limit;131072;#Server Name;host;#Server Port;port", "niodev"]}, with the
 * rendezvous served by the launcher or, under Slurm, by rank 0 ({@link NiodevRendezvous}).
 */
public final class MpjBootstrap {

    private static final Set<String> DEVICES = Set.of("smpdev", "niodev", "hybdev", "mxdev", "native");
    /** MPJ's default eager/rendezvous switch, as mpjrun passes it. */
    private static final int PROTOCOL_SWITCH_LIMIT = 128 * 1024;
    private static final long COORDINATOR_WAIT_MILLIS = 120_000;

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
        } else {
            awaitCoordinator(spec.coordinatorHost(), spec.coordinatorPort());
        }
        String configuration = "#Number of Processes;" + spec.size() + ";#Protocol Switch Limit;" + PROTOCOL_SWITCH_LIMIT
                + ";#Server Name;" + spec.coordinatorHost() + ";#Server Port;" + spec.coordinatorPort();
        MPI.Init(new String[] {Integer.toString(spec.rank()), configuration, "niodev"});
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

    private static NiodevRendezvous startRendezvous(WorldSpec spec) {
        try {
            return NiodevRendezvous.start(InetAddress.getByName(spec.coordinatorHost()), spec.coordinatorPort(),
                    spec.size());
        } catch (IOException e) {
            throw new CommunicationException("rank 0 cannot serve the niodev rendezvous on " + spec.coordinatorHost()
                    + ":" + spec.coordinatorPort() + " (" + e.getMessage() + "); set QUIRE_COORDINATOR_PORT to a free port",
                    e);
        }
    }

    /**
     * Waits until the rendezvous accepts connections: niodev connects exactly once and fails if
     * nobody listens yet. The probe connection closes without data, which the server ignores.
     */
    static void awaitCoordinator(String host, int port) {
        long deadline = System.currentTimeMillis() + COORDINATOR_WAIT_MILLIS;
        IOException last = null;
        while (System.currentTimeMillis() < deadline) {
            try (Socket probe = new Socket()) {
                probe.connect(new InetSocketAddress(host, port), 1000);
                return;
            } catch (IOException e) {
                last = e;
                sleep(100);
            }
        }
        throw new CommunicationException("no coordinator answered on " + host + ":" + port + " within "
                + COORDINATOR_WAIT_MILLIS / 1000 + " s", last);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommunicationException("interrupted while waiting for the coordinator", e);
        }
    }
}
