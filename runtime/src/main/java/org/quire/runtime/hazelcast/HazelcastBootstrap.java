package org.quire.runtime.hazelcast;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import org.quire.runtime.CommunicationException;
import org.quire.runtime.Job;
import org.quire.runtime.WorldSpec;
import org.quire.runtime.message.MessageCommunicator;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Joins a Hazelcast world: as a client of the launcher's member under {@code quire run}; under
 * Slurm rank 0 starts the member on the first node and the other ranks become its clients.
 */
public final class HazelcastBootstrap {

    private HazelcastBootstrap() {
    }

    public static Job join(WorldSpec spec, String[] args) {
        HazelcastSettings.silenceLogging();
        String cluster = HazelcastSettings.clusterName(spec.secret(), spec.jobId());
        boolean hostsMember = spec.rankZeroRunsCoordinator() && spec.rank() == 0;
        HazelcastInstance instance;
        try {
            instance = hostsMember
                    ? Hazelcast.newHazelcastInstance(HazelcastSettings.member(cluster,
                            InetAddress.getByName(spec.coordinatorHost()).getHostAddress(), spec.coordinatorPort(), false))
                    : HazelcastClient.newHazelcastClient(HazelcastSettings.client(cluster, spec.coordinatorHost(),
                            spec.coordinatorPort()).addLabel(ClientsFirst.label(spec.rank())));
        } catch (UnknownHostException | RuntimeException e) {
            throw new CommunicationException("rank " + spec.rank() + " cannot reach the Hazelcast member of job "
                    + spec.jobId() + " at " + spec.coordinatorHost() + ":" + spec.coordinatorPort() + ": "
                    + e.getMessage(), e);
        }
        MessageCommunicator world = new MessageCommunicator(new HazelcastTransport(instance, spec.rank(), spec.size(),
                spec.secret(), spec.jobId()));
        return new Job(world, args, () -> leave(world, hostsMember ? instance : null, spec.jobId()));
    }

    /**
     * Leaves {@code world} once every rank reached the closing barrier, so that no rank's member or
     * client goes while another rank may still send to it. The rank that hosts the member
     * ({@code hostedMember}, else null) then shuts it down only after its clients have left
     * ({@link ClientsFirst}); a client shuts down at once.
     */
    static void leave(MessageCommunicator world, HazelcastInstance hostedMember, String jobId) {
        world.barrier();
        if (hostedMember != null) {
            ClientsFirst.await(hostedMember, world.rank(), jobId);
        }
        world.close();
    }
}
