package org.quire.runtime.net;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Tells whether the far end of an accepted loopback connection is a socket of this very process,
 * from Linux's {@code /proc}: the kernel's table of TCP sockets ({@code /proc/self/net/tcp} and
 * {@code tcp6}) names the inode of the socket whose local port is the peer's and whose remote port
 * is ours, and {@code /proc/self/fd} lists the sockets this process holds as
 * {@code socket:[inode]}. Another process (of any user) cannot make a socket appear among our
 * descriptors, so the answer cannot be forged from outside.
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

    /**
     * True when the peer of {@code accepted} (a loopback connection this process accepted) is a
     * socket this process holds; an {@link IOException} when /proc cannot tell (not Linux).
     */
    public static boolean isThisProcess(Socket accepted) throws IOException {
        String inode = peerInode(accepted.getPort(), accepted.getLocalPort());
        return inode != null && socketInodesOfThisProcess().contains(inode);
    }

    /** The inode of the socket with local port {@code peerPort} connected to {@code ourPort}, or null. */
    private static String peerInode(int peerPort, int ourPort) throws IOException {
        for (Path table : List.of(SOCKETS_V4, SOCKETS_V6)) {
            if (!Files.isReadable(table)) {
                continue;
            }
            for (String line : Files.readAllLines(table)) {
                String[] columns = line.trim().split("\\s+");
                if (columns.length > INODE && port(columns[LOCAL]) == peerPort && port(columns[REMOTE]) == ourPort) {
                    return columns[INODE];
                }
            }
        }
        if (!Files.isReadable(SOCKETS_V4) && !Files.isReadable(SOCKETS_V6)) {
            throw new IOException("cannot tell which process it comes from: " + SOCKETS_V4 + " is not readable"
                    + " (Quire checks this on Linux only)");
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

    /** The port of a /proc/net/tcp address such as {@code 0100007F:1F90}, or -1 for a header. */
    private static int port(String address) {
        int colon = address.lastIndexOf(':');
        try {
            return colon < 0 ? -1 : Integer.parseInt(address.substring(colon + 1), 16);
        } catch (NumberFormatException header) {
            return -1;
        }
    }
}
