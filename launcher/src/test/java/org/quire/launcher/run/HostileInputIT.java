package org.quire.launcher.run;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.launcher.QuireCommand;
import org.quire.runtime.hazelcast.HazelcastSettings;

import java.io.DataOutputStream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A process of the same user attacks a running {@code quire run} job over loopback, knowing
 * everything a worker's environment holds (read from /proc): the job forms and verifies its
 * messages unaffected, each stranger is reported in one line naming its address, and nothing of
 * the stranger's reaches the ranks. Time limits are hang detectors.
 */
class HostileInputIT {

    private static final Duration HANG = Duration.ofSeconds(150);
    /** Rank 2 joins this late, so the coordinator waits for it while the test attacks. */
    private static final String LATE_SECONDS = "12";
    /** The relay's watchdog after the rendezvous's answer, shortened from 60 s (a property for tests only). */
    private static final String WATCHDOG_PROPERTY = "quire.test.niodevInitAfterAnswerMillis";
    private static final int WATCHDOG_SECONDS = 10;
    /** The relay's limit on MPI.Init as a whole, 300 s by default (a property for tests only). */
    private static final String INIT_LIMIT_PROPERTY = "quire.test.niodevInitMillis";
    /** A file niodev waits for before it registers with its relay (a property for tests only). */
    private static final String GATE_PROPERTY = "quire.test.niodevRelayGate";
    /** More than a guarded listener reads at once (256). */
    private static final int FLOOD_PER_LISTENER = 300;

    @Test
    void strangersAtTheRendezvousAndTheLauncherLinkDoNotDisturbAnMpjJob() throws Exception {
        QuireCommand.Running job = QuireCommand.start(Map.of(), "run", "-n", "3", "--transport", "mpj",
                "-cp", QuireCommand.testWorkers(), "org.quire.launcher.workers.LateJoiner", "2", LATE_SECONDS);
        Map<String, String> env = workerEnvironment(job);
        InetSocketAddress rendezvous = address(env.get("QUIRE_COORDINATOR"));
        InetSocketAddress link = address(env.get("QUIRE_LAUNCHER_LINK"));
        List<Socket> strangers = new ArrayList<>();
        try {
            Socket idle = connect(rendezvous, strangers);
            Socket garbage = connect(rendezvous, strangers);
            byte[] noise = new byte[64];
            new Random(14).nextBytes(noise);
            garbage.getOutputStream().write(noise);
            Socket forged = connect(rendezvous, strangers);
            forged.getInputStream().readNBytes(24); // the challenge
            forged.getOutputStream().write(ByteBuffer.allocate(44).putInt(0).putInt(6666).putInt(6667).array());
            Socket niodevSpeaker = connect(rendezvous, strangers);
            DataOutputStream niodev = new DataOutputStream(niodevSpeaker.getOutputStream());
            niodev.writeUTF("Sending Info");
            niodev.writeInt(6667);
            niodev.writeInt(6666);
            niodev.writeInt(0);
            Socket linkGarbage = connect(link, strangers);
            linkGarbage.getOutputStream().write(noise);

            QuireCommand.Result result = job.await(HANG);
            assertEquals(0, result.exitCode(), result.toString());
            assertEquals(3, result.stdoutLines().stream().filter(l -> l.endsWith("world of 3 verified")).count(),
                    result.toString());
            String where = "quire: niodev rendezvous on " + hostPort(rendezvous) + ": dropped a connection from ";
            assertReported(result, where + local(idle) + ": it sent no complete registration within 10 s");
            assertReported(result, where + local(garbage) + ": its registration does not carry this job's secret");
            assertReported(result, where + local(forged) + ": its registration does not carry this job's secret");
            assertReported(result, where + local(niodevSpeaker) + ": it sent no complete registration within 10 s");
            assertReported(result, "quire: launcher link on " + hostPort(link) + ": dropped a connection from "
                    + local(linkGarbage) + ": its hello does not carry this job's secret");
        } finally {
            for (Socket s : strangers) {
                s.close();
            }
        }
    }

    /**
     * Another process reaches a rank's niodev relay (the loopback listener niodev registers with)
     * before niodev does: one stranger trickles a byte every few seconds into a greeting, another
     * sends niodev's registration of that rank with its own ports. niodev is held back from the
     * relay until the strangers are in (the relay's gate, a test property: the relay lives only
     * milliseconds otherwise, and niodev won that race under load), and the rank is stopped
     * (SIGSTOP) while they connect, so they are queued ahead of niodev. The relay refuses both at
     * once as coming from another process, and the world forms with niodev's true ports.
     */
    @Test
    void strangersAtANiodevRelayCanNeitherHoldNorForgeTheRanksRegistration(@TempDir Path dir) throws Exception {
        Path gate = dir.resolve("strangers-in");
        QuireCommand.Running job = QuireCommand.start(Map.of(), "run", "-n", "3", "--transport", "mpj",
                "--jvm-opt=-D" + GATE_PROPERTY + "=" + gate, "-cp", QuireCommand.testWorkers(),
                "org.quire.launcher.workers.LateJoiner", "2", LATE_SECONDS);
        long late = workerPid(job, "2");
        List<Socket> strangers = new ArrayList<>();
        List<ServerSocket> fakeNiodev = List.of(new ServerSocket(0), new ServerSocket(0));
        try {
            int relay = awaitLoopbackListener(late);
            signal("STOP", late);
            Socket slow;
            Socket forged;
            try {
                assertTrue(connectionsTo(relay) == 0, "niodev reached its relay through the closed gate");
                InetSocketAddress at = new InetSocketAddress("127.0.0.1", relay);
                slow = connect(at, strangers);
                slow.getOutputStream().write(0xFF); // the first byte of a greeting's length
                trickle(slow);
                forged = connect(at, strangers);
                DataOutputStream registration = new DataOutputStream(forged.getOutputStream());
                registration.writeUTF("Sending Info");
                registration.writeInt(fakeNiodev.get(0).getLocalPort());
                registration.writeInt(fakeNiodev.get(1).getLocalPort());
                registration.writeInt(2);
            } finally {
                Files.createFile(gate);
                signal("CONT", late);
            }
            QuireCommand.Result result = job.await(HANG);
            assertEquals(0, result.exitCode(), result.toString());
            assertEquals(3, result.stdoutLines().stream().filter(l -> l.endsWith("world of 3 verified")).count(),
                    result.toString());
            String where = "[2] quire: niodev relay of rank 2 on 127.0.0.1:" + relay + ": dropped a connection from ";
            String why = ": it comes from another process; only niodev in this JVM registers here";
            assertReported(result, where + local(slow) + why);
            assertReported(result, where + local(forged) + why);
        } finally {
            for (Socket s : strangers) {
                s.close();
            }
            for (ServerSocket s : fakeNiodev) {
                s.close();
            }
        }
    }

    /**
     * Strangers keep more connections than the listeners read at once open to the launcher link
     * and the rendezvous, each trickling a byte every 2 s and reopened when closed, while the late
     * rank joins. Each is closed at its deadline; the ranks whose hello or registration was dropped
     * meanwhile try again, and the job completes once the flood ends: no rank takes a dropped
     * connection for its launcher's death.
     */
    @Test
    void aFloodOfSlowStrangersDelaysButDoesNotKillTheJob() throws Exception {
        QuireCommand.Running job = QuireCommand.start(Map.of(), "run", "-n", "3", "--transport", "mpj",
                "-cp", QuireCommand.testWorkers(), "org.quire.launcher.workers.LateJoiner", "2", LATE_SECONDS);
        Map<String, String> env = workerEnvironment(job);
        List<InetSocketAddress> targets = new ArrayList<>(List.of(address(env.get("QUIRE_LAUNCHER_LINK")),
                address(env.get("QUIRE_COORDINATOR"))));
        List<Socket> flood = new ArrayList<>();
        long end = System.nanoTime() + Duration.ofSeconds(25).toNanos();
        try {
            while (System.nanoTime() < end) {
                flood.removeIf(Socket::isClosed);
                for (InetSocketAddress target : List.copyOf(targets)) {
                    try {
                        while (flood.stream().filter(s -> s.getPort() == target.getPort()).count() < FLOOD_PER_LISTENER) {
                            flood.add(new Socket(target.getAddress(), target.getPort()));
                        }
                    } catch (ConnectException closedOnceTheWorldFormed) {
                        targets.remove(target);
                    }
                }
                for (Socket s : flood) {
                    try {
                        s.getOutputStream().write(0);
                    } catch (IOException closedByTheListener) {
                        s.close();
                    }
                }
                Thread.sleep(2000);
            }
        } finally {
            for (Socket s : flood) {
                s.close();
            }
        }
        QuireCommand.Result result = job.await(HANG);
        assertEquals(0, result.exitCode(), result.toString());
        assertEquals(3, result.stdoutLines().stream().filter(l -> l.endsWith("world of 3 verified")).count(),
                result.toString());
        assertTrue(!result.stderr().contains("launcher is gone") && !result.stderr().contains("Exception"),
                result.toString());
    }

    /** Writes a byte every 3 s to {@code socket} until it is closed, as a slow stranger does. */
    private static void trickle(Socket socket) {
        Thread writer = new Thread(() -> {
            try {
                while (true) {
                    Thread.sleep(3000);
                    socket.getOutputStream().write(0xFF);
                }
            } catch (IOException | InterruptedException closed) {
                // The relay closed it (or the test ended): the trickle ends.
            }
        }, "slow stranger");
        writer.setDaemon(true);
        writer.start();
    }

    private static void signal(String name, long pid) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).inheritIO().start();
        assertEquals(0, kill.waitFor(), "kill -" + name + " " + pid);
    }

    /** Waits until {@code pid} listens on loopback. */
    private static int awaitLoopbackListener(long pid) throws Exception {
        long deadline = System.nanoTime() + HANG.toNanos();
        while (System.nanoTime() < deadline) {
            Set<String> inodes = socketInodes(pid);
            for (String[] socket : tcpSockets(pid)) {
                if (socket[3].equals("0A") && inodes.contains(socket[9]) && isLoopback(socket[1])) {
                    return port(socket[1]);
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("process " + pid + " did not listen on loopback within " + HANG);
    }

    /** How many connections to local port {@code port} are established or being set up. */
    private static long connectionsTo(int port) throws IOException {
        return tcpSockets(ProcessHandle.current().pid()).stream()
                .filter(f -> !f[3].equals("0A") && port(f[2]) == port).count();
    }

    private static boolean isLoopback(String procAddress) {
        String ip = procAddress.substring(0, procAddress.indexOf(':'));
        return ip.equals("0100007F") || ip.equals("0000000000000000FFFF00000100007F");
    }

    /**
     * Idle strangers at niodev's own listeners (MPJ Express binds them on all interfaces and cannot
     * be told otherwise) while the world forms hold niodev's handshake: the relay's watchdog, here
     * shortened to {@value #WATCHDOG_SECONDS} s after the rendezvous's answer, ends a rank with its
     * line and fail-fast ends the job.
     */
    @Test
    void idleStrangersAtNiodevsOwnListenersEndTheJobThroughTheWatchdog() throws Exception {
        QuireCommand.Result result = strangersAtNiodevsListeners(null);
        assertNotEquals(0, result.exitCode(), result.toString());
        assertTrue(Pattern.compile("\\[(\\d)] quire: rank \\1 cannot join the niodev world: MPJ niodev did not connect to"
                + " its peers within " + WATCHDOG_SECONDS + " s of the rendezvous's answer; niodev's listeners \\(ports"
                + " \\d+ and \\d+, all interfaces\\) accept any connection while the world forms")
                .matcher(result.stderr()).find(), result.toString());
        assertTrue(result.stderr().contains("; stopping the other 2 ranks"), result.toString());
        assertEndedWithinTheWatchdog(result);
    }

    /**
     * Garbage at niodev's own listeners makes MPJ Express either fail at once (an exception in
     * {@code MPI.Init}) or wait; either ending is reported and bounded by the watchdog.
     */
    @Test
    void garbageToNiodevsOwnListenersEndsTheJobPromptlyIfItDisturbsIt() throws Exception {
        byte[] noise = new byte[64];
        new Random(14).nextBytes(noise);
        QuireCommand.Result result = strangersAtNiodevsListeners(noise);
        if (result.exitCode() == 0) {
            assertEquals(3, result.stdoutLines().stream().filter(l -> l.endsWith("world of 3 verified")).count(),
                    result.toString());
        } else {
            assertTrue(result.stderr().contains("; stopping the other 2 ranks"), result.toString());
            assertTrue(Pattern.compile("\\[(\\d)] (Exception in thread \"main\" org.quire.runtime.CommunicationException:"
                    + " rank \\1 could not connect to its niodev peers|quire: rank \\1 cannot join the niodev world: MPJ"
                    + " niodev did not connect to its peers within " + WATCHDOG_SECONDS + " s)")
                    .matcher(result.stderr()).find(), result.toString());
        }
        assertEndedWithinTheWatchdog(result);
    }

    /** Connects to both niodev listeners of rank 0 as they open, sends {@code data} (null: nothing) and awaits the job. */
    private static QuireCommand.Result strangersAtNiodevsListeners(byte[] data) throws Exception {
        QuireCommand.Running job = QuireCommand.start(Map.of(), "run", "-n", "3", "--transport", "mpj",
                "--jvm-opt=-D" + WATCHDOG_PROPERTY + "=" + WATCHDOG_SECONDS * 1000,
                "-cp", QuireCommand.testWorkers(), "org.quire.launcher.workers.LateJoiner", "2", LATE_SECONDS);
        long early = workerPid(job, "0");
        List<Integer> ports = awaitListeningPorts(early, 2);
        List<Socket> strangers = new ArrayList<>();
        try {
            for (int port : ports) {
                Socket stranger = connect(new InetSocketAddress("127.0.0.1", port), strangers);
                if (data != null) {
                    stranger.getOutputStream().write(data);
                }
            }
            return job.await(HANG);
        } finally {
            for (Socket s : strangers) {
                s.close();
            }
        }
    }

    /** The late rank's 12 s, the watchdog, and start-up on a loaded machine: the 60 s default would exceed it. */
    private static void assertEndedWithinTheWatchdog(QuireCommand.Result result) {
        assertTrue(result.took().compareTo(Duration.ofSeconds(Integer.parseInt(LATE_SECONDS) + WATCHDOG_SECONDS + 40))
                < 0, result.toString());
    }

    /**
     * A rank that starts later than the (here shortened) limit on {@code MPI.Init} is no failure:
     * the limit does not count the wait for the other ranks to register.
     */
    @Test
    void aPeerLaterThanTheInitLimitDoesNotFailTheJob() throws Exception {
        QuireCommand.Running job = QuireCommand.start(Map.of(), "run", "-n", "3", "--transport", "mpj",
                "--jvm-opt=-D" + INIT_LIMIT_PROPERTY + "=10000",
                "-cp", QuireCommand.testWorkers(), "org.quire.launcher.workers.LateJoiner", "2", "20");
        QuireCommand.Result result = job.await(HANG);
        assertEquals(0, result.exitCode(), result.toString());
        assertEquals(3, result.stdoutLines().stream().filter(l -> l.endsWith("world of 3 verified")).count(),
                result.toString());
        assertTrue(result.took().compareTo(Duration.ofSeconds(20)) > 0, result.toString());
    }

    @Test
    void aForeignHazelcastClientOrMemberCannotJoinAJobWithAGuessedOrReadClusterName() throws Exception {
        QuireCommand.Running job = QuireCommand.start(Map.of(), "run", "-n", "3", "--transport", "hazelcast",
                "-cp", QuireCommand.testWorkers(), "org.quire.launcher.workers.LateJoiner", "2", LATE_SECONDS);
        Map<String, String> env = workerEnvironment(job);
        String member = env.get("QUIRE_COORDINATOR");
        HazelcastSettings.silenceLogging();
        // Every name an outsider could build from what it can see, including the older and Slurm schemes.
        List<String> guesses = List.of("quire-" + env.get("QUIRE_JOB_ID"), env.get("QUIRE_JOB_ID"), "quire",
                "dev", "quire-slurm-1.0");
        for (String name : guesses) {
            ClientConfig client = new ClientConfig();
            client.setClusterName(name);
            client.getNetworkConfig().addAddress(member);
            client.getConnectionStrategyConfig().getConnectionRetryConfig().setClusterConnectTimeoutMillis(2000);
            assertThrows(IllegalStateException.class, () -> HazelcastClient.newHazelcastClient(client),
                    "a client with cluster name " + name);
        }
        // Positive control: the member listens at the address tried, so each refusal above was Hazelcast's, not a dead port.
        try (Socket live = new Socket(address(member).getAddress(), address(member).getPort())) {
            assertTrue(live.isConnected(), "the job's member listens at " + member);
        }
        Config foreign = HazelcastSettings.member(guesses.get(0), "127.0.0.1", 5701, true);
        foreign.getNetworkConfig().getJoin().getTcpIpConfig().setEnabled(true).addMember(member);
        HazelcastInstance intruder = Hazelcast.newHazelcastInstance(foreign);
        try {
            assertEquals(1, intruder.getCluster().getMembers().size(), "the foreign member stays alone");
        } finally {
            intruder.shutdown();
        }
        QuireCommand.Result result = job.await(HANG);
        assertEquals(0, result.exitCode(), result.toString());
        assertEquals(3, result.stdoutLines().stream().filter(l -> l.endsWith("world of 3 verified")).count(),
                result.toString());
    }

    /** The pid of the worker whose QUIRE_RANK is {@code rank}. */
    private static long workerPid(QuireCommand.Running job, String rank) throws Exception {
        long deadline = System.nanoTime() + HANG.toNanos();
        while (System.nanoTime() < deadline) {
            for (ProcessHandle child : job.process().children().toList()) {
                if (rank.equals(environmentOf(child.pid()).get("QUIRE_RANK"))) {
                    return child.pid();
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("rank " + rank + " did not start within " + HANG);
    }

    /** Waits until process {@code pid} listens on {@code count} TCP ports (from /proc) and returns them. */
    private static List<Integer> awaitListeningPorts(long pid, int count) throws Exception {
        long deadline = System.nanoTime() + HANG.toNanos();
        while (System.nanoTime() < deadline) {
            List<Integer> ports = listeningPorts(pid);
            if (ports.size() >= count) {
                return ports;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("process " + pid + " did not open " + count + " listeners within " + HANG);
    }

    private static List<Integer> listeningPorts(long pid) throws IOException {
        Set<String> inodes = socketInodes(pid);
        List<Integer> ports = new ArrayList<>();
        for (String[] socket : tcpSockets(pid)) {
            // niodev's listeners bind all interfaces; Quire's relay, on loopback, lives only milliseconds.
            if (socket[3].equals("0A") && inodes.contains(socket[9]) && !isLoopback(socket[1])) {
                ports.add(port(socket[1]));
            }
        }
        return ports;
    }

    /** The inodes of the sockets process {@code pid} holds, from /proc/pid/fd. */
    private static Set<String> socketInodes(long pid) throws IOException {
        Set<String> inodes = new HashSet<>();
        try (var fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring(8, target.length() - 1));
                    }
                } catch (IOException closedMeanwhile) {
                    // The descriptor went away while listing.
                }
            }
        }
        return inodes;
    }

    /**
     * The TCP sockets of the network namespace of {@code pid}, as the columns of /proc/pid/net/tcp
     * and tcp6: sl local_address rem_address st(0A is LISTEN) ... inode(column 9).
     */
    private static List<String[]> tcpSockets(long pid) throws IOException {
        List<String[]> sockets = new ArrayList<>();
        for (String table : List.of("tcp", "tcp6")) {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "net", table))) {
                String[] columns = line.trim().split("\\s+");
                if (columns.length > 9 && !columns[0].equals("sl")) {
                    sockets.add(columns);
                }
            }
        }
        return sockets;
    }

    private static int port(String procAddress) {
        return Integer.parseInt(procAddress.substring(procAddress.indexOf(':') + 1), 16);
    }

    /** The environment of the job's first worker, as any process of the same user can read it. */
    private static Map<String, String> workerEnvironment(QuireCommand.Running job) throws Exception {
        long deadline = System.nanoTime() + HANG.toNanos();
        while (System.nanoTime() < deadline) {
            for (ProcessHandle child : job.process().children().toList()) {
                Map<String, String> env = environmentOf(child.pid());
                if (env.containsKey("QUIRE_COORDINATOR")) {
                    return env;
                }
            }
            if (!job.process().isAlive()) {
                throw new AssertionError("the job ended before a worker started:\n" + job.await(HANG));
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no worker started within " + HANG);
    }

    private static Map<String, String> environmentOf(long pid) {
        Map<String, String> env = new HashMap<>();
        try {
            String raw = Files.readString(Path.of("/proc", Long.toString(pid), "environ"), StandardCharsets.UTF_8);
            for (String entry : raw.split("\0")) {
                int eq = entry.indexOf('=');
                if (eq > 0) {
                    env.put(entry.substring(0, eq), entry.substring(eq + 1));
                }
            }
        } catch (IOException goneOrNotYetExeced) {
            // Try again on the next round.
        }
        return env;
    }

    private static InetSocketAddress address(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        return new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
    }

    private static Socket connect(InetSocketAddress to, List<Socket> opened) throws IOException {
        Socket socket = new Socket(to.getAddress(), to.getPort());
        opened.add(socket);
        return socket;
    }

    private static String hostPort(InetSocketAddress address) {
        return address.getAddress().getHostAddress() + ":" + address.getPort();
    }

    private static String local(Socket socket) {
        return socket.getLocalAddress().getHostAddress() + ":" + socket.getLocalPort();
    }

    private static void assertReported(QuireCommand.Result result, String line) {
        assertTrue(result.stderr().lines().anyMatch(line::equals), "missing line: " + line + "\n" + result);
    }
}
