package org.quire.runtime.net;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * Another process on the same host: binds {@code args[0]}:{@code args[1]}, connects to
 * 127.0.0.1:{@code args[2]}, prints "connected" and holds the connection until its stdin closes.
 */
public final class ForeignConnector {

    private ForeignConnector() {
    }

    public static void main(String[] args) throws Exception {
        try (Socket socket = new Socket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getByName(args[0]), Integer.parseInt(args[1])));
            socket.connect(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), Integer.parseInt(args[2])));
            System.out.println("connected");
            System.out.flush();
            while (System.in.read() >= 0) {
                // Held until the test closes our stdin.
            }
        }
    }
}
