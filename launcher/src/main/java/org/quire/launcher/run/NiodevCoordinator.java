package org.quire.launcher.run;

import org.quire.runtime.JobSecret;
import org.quire.runtime.mpj.NiodevRendezvous;

import java.io.IOException;
import java.net.InetAddress;

/** The launcher as MPJ Express's niodev rendezvous server, on loopback. */
record NiodevCoordinator(NiodevRendezvous rendezvous) implements JobCoordinator {

    static NiodevCoordinator start(int ranks, JobSecret secret) throws IOException {
        return new NiodevCoordinator(NiodevRendezvous.start(InetAddress.getLoopbackAddress(), 0, ranks, secret));
    }

    @Override
    public String host() {
        return InetAddress.getLoopbackAddress().getHostAddress();
    }

    @Override
    public int port() {
        return rendezvous.port();
    }

    @Override
    public void close() {
        rendezvous.close();
    }
}
