package org.quire.launcher.run;

import com.hazelcast.cluster.Address;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import org.quire.runtime.JobSecret;
import org.quire.runtime.hazelcast.HazelcastSettings;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** The launcher as the job's only Hazelcast member, on loopback; the ranks are its clients. */
record HazelcastCoordinator(HazelcastInstance member, Address address) implements JobCoordinator {

    static HazelcastCoordinator start(JobSecret secret) throws IOException {
        String loopback = InetAddress.getLoopbackAddress().getHostAddress();
        HazelcastInstance member = Hazelcast.newHazelcastInstance(HazelcastSettings.member(
                HazelcastSettings.clusterName(secret), loopback, freePort(), true));
        return new HazelcastCoordinator(member, member.getCluster().getLocalMember().getAddress());
    }

    /** A port free a moment ago; the member moves up from it if another job took it meanwhile. */
    private static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }

    @Override
    public String host() {
        return address.getHost();
    }

    @Override
    public int port() {
        return address.getPort();
    }

    @Override
    public void close() {
        member.shutdown();
    }
}
