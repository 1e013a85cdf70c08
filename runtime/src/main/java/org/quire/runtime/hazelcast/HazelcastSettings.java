package org.quire.runtime.hazelcast;

import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.config.ClassFilter;
import com.hazelcast.config.Config;
import com.hazelcast.config.JavaSerializationFilterConfig;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import org.quire.runtime.JobSecret;

/**
 * How Quire configures Hazelcast: one member per job (the launcher, or rank 0 under Slurm),
 * bound to one interface, with no discovery of other members — so two jobs on one machine never
 * join each other even before their cluster names are compared — and ranks as its clients.
 * The open-source CP subsystem is not used (it is an Enterprise feature since 5.5).
 *
 * <p>Members and clients decode no Java-serialized object ({@link #nothingDeserialised}): Quire
 * puts only {@code byte[]} in queues, which Hazelcast encodes itself, so a serialized object a
 * client with the cluster name puts there is refused before its class is resolved, and no
 * {@code readObject} of a class on the ranks' class path runs.
 */
public final class HazelcastSettings {

    /** How long a client keeps trying to reach the member before its rank fails. */
    private static final long CLIENT_CONNECT_TIMEOUT_MILLIS = 60_000;
    /** Ports a member tries upwards from its first port when that one is taken. */
    private static final int MEMBER_PORT_COUNT = 100;

    private HazelcastSettings() {
    }

    /**
     * Silences Hazelcast's ~250 start-up lines. Must run before the first Hazelcast class loads:
     * the early "modular environment" warning ignores the property set in {@link Config}.
     */
    public static void silenceLogging() {
        System.setProperty("hazelcast.logging.type", "none");
    }

    /**
     * The cluster name of world {@code worldId} (the job id: unique per {@code quire run}, and per
     * Slurm job, step and restart), derived from the secret: open-source Hazelcast admits every
     * client and member that presents the cluster name, so nobody without the secret may be able to
     * know or guess it, and two worlds sharing a secret (Slurm steps) never share a cluster. (It
     * crosses the network in clear text when a client connects; what keeps an eavesdropper's
     * messages out is the MAC of {@link InboxElement}.)
     */
    public static String clusterName(JobSecret secret, String worldId) {
        return "quire-" + secret.derivedName("quire hazelcast cluster name of world " + worldId);
    }

    /**
     * A standalone member on the interface with address {@code bindAddress} (an IP address, not a
     * host name: Hazelcast matches interfaces by address), listening on {@code port} or, when
     * {@code portMayMove}, the first free port above it.
     */
    public static Config member(String clusterName, String bindAddress, int port, boolean portMayMove) {
        Config config = new Config();
        config.setClusterName(clusterName);
        config.setProperty("hazelcast.logging.type", "none");
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.socket.bind.any", "false");
        config.getSerializationConfig().setJavaSerializationFilterConfig(nothingDeserialised());
        config.getJetConfig().setEnabled(false);
        config.getMetricsConfig().setEnabled(false);
        NetworkConfig network = config.getNetworkConfig();
        network.setPort(port).setPortAutoIncrement(portMayMove).setPortCount(portMayMove ? MEMBER_PORT_COUNT : 1);
        network.getInterfaces().setEnabled(true).addInterface(bindAddress);
        JoinConfig join = network.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(false);
        return config;
    }

    /** A client of the member at {@code host:port}. */
    public static ClientConfig client(String clusterName, String host, int port) {
        ClientConfig config = new ClientConfig();
        config.setClusterName(clusterName);
        config.setProperty("hazelcast.logging.type", "none");
        config.getMetricsConfig().setEnabled(false);
        config.getSerializationConfig().setJavaSerializationFilterConfig(nothingDeserialised());
        config.getNetworkConfig().addAddress(host + ":" + port);
        config.getConnectionStrategyConfig().getConnectionRetryConfig()
                .setClusterConnectTimeoutMillis(CLIENT_CONNECT_TIMEOUT_MILLIS);
        return config;
    }

    /**
     * A filter that lets no class through: Hazelcast consults its blacklist before resolving the
     * class of a Java-serialized object, and the empty prefix lists every class name. (An empty
     * whitelist would allow everything once the defaults, which allow {@code java.*}, are disabled.)
     */
    static JavaSerializationFilterConfig nothingDeserialised() {
        return new JavaSerializationFilterConfig().setDefaultsDisabled(true).setBlacklist(new ClassFilter().addPrefixes(""));
    }
}
