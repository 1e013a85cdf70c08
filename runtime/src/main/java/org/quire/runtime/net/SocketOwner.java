package org.quire.runtime.net;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Tells whether the far end of an accepted loopback connection is a socket of this very process,
 * from Linux's {@code /proc}: the kernel's table of TCP sockets ({@code /proc/self/net/tcp} and
 * {@code tcp6}) names the inode of the socket whose local end is the peer's address and port and
 * whose remote end is ours (the whole 4-tuple, which only one connected socket has: a port alone
 * can be shared by a socket bound to another loopback address such as 127.0.0.2), and
 * {@code /proc/self/fd} lists the sockets this process holds as {@code socket:[inode]}. Another
 * process (of any user) can neither make a socket appear among our descriptors nor give its own
 * socket the 4-tuple of ours while ours is connected.
 *
 * <p>Linux only: where {@code /proc/self/net/tcp} cannot be read, {@link #requireProc} says so in
 * one line.
 */
public final class SocketOwner {

    private static final Path SOCKETS_V4 = Path.of("/proc/self/net/tcp");
    private static final Path SOCKETS_V6 = Path.of("/proc/self/net/tcp6");
    private static final Path DESCRIPTORS = Path.of("/proc/self/fd");
    /** Columns of /proc/net/tcp: sl local_address rem_address st tx:rx tr:tm retrnsmt uid timeout inode. */
    private static final int LOCAL = 1;
    private static final int REMOTE = 2;
    private static final int INODE = 9;

    private SocketOwner() {
    }

    /** Throws an {@link IOException} saying why when this system has no /proc to tell sockets' owners (not Linux). */
    public static void requireProc() throws IOException {
        if (!Files.isReadable(SOCKETS_V4) || !Files.isDirectory(DESCRIPTORS)) {
            throw new IOException("cannot tell which process a loopback connection comes from: " + SOCKETS_V4
                    + " or " + DESCRIPTORS + " is not readable (the MPJ transport needs Linux's /proc;"
                    + " use the Hazelcast transport elsewhere)");
        }
    }

    /**
     * True when the peer of {@code accepted} (a loopback connection this process accepted) is a
     * socket this process holds; an {@link IOException} when /proc cannot tell (not Linux).
     */
    public static boolean isThisProcess(Socket accepted) throws IOException {
        requireProc();
        String inode = inodeOf((InetSocketAddress) accepted.getRemoteSocketAddress(),
                (InetSocketAddress) accepted.getLocalSocketAddress());
        return inode != null && socketInodesOfThisProcess().contains(inode);
    }

    /** The inode of the socket whose local end is {@code local} and whose remote end is {@code remote}, or null. */
    static String inodeOf(InetSocketAddress local, InetSocketAddress remote) throws IOException {
        for (Path table : List.of(SOCKETS_V4, SOCKETS_V6)) {
            if (!Files.isReadable(table)) {
                continue;
            }
            for (String line : Files.readAllLines(table)) {
                String[] columns = line.trim().split("\\s+");
                if (columns.length > INODE && local.equals(endpoint(columns[LOCAL]))
                        && remote.equals(endpoint(columns[REMOTE]))) {
                    return columns[INODE];
                }
            }
        }
        return null;
    }

    private static Set<String> socketInodesOfThisProcess() throws IOException {
        Set<String> inodes = new HashSet<>();
        try (Stream<Path> descriptors = Files.list(DESCRIPTORS)) {
            for (Path fd : (Iterable<Path>) descriptors::iterator) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring("socket:[".length(), target.length() - 1));
                    }
                } catch (IOException | UncheckedIOException closedMeanwhile) {
                    // The descriptor was closed while listing: not the one sought, which is open.
                }
            }
        }
        return inodes;
    }

    /**
     * The address and port of a /proc/net/tcp endpoint such as {@code 0100007F:1F90}, or null for
     * a header. The kernel prints the address as 32-bit words in the machine's byte order (8 hex
     * digits in {@code tcp}, 32 in {@code tcp6}); an IPv4-mapped IPv6 address ({@code ::ffff:a.b.c.d})
     * comes back as the IPv4 address, as Java reports it for a socket.
     */
    static InetSocketAddress endpoint(String text) {
        int colon = text.indexOf(':');
        if (colon < 0 || (colon != 8 && colon != 32)) {
            return null;
        }
        try {
            ByteBuffer address = ByteBuffer.allocate(colon / 2).order(ByteOrder.nativeOrder());
            for (int word = 0; word < colon; word += 8) {
                address.putInt((int) Long.parseLong(text.substring(word, word + 8), 16));
            }
            int port = Integer.parseInt(text.substring(colon + 1), 16);
            return new InetSocketAddress(InetAddress.getByAddress(address.array()), port);
        } catch (NumberFormatException | IOException header) {
            return null;
        }
    }
}
