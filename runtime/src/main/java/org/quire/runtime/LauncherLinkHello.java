package org.quire.runtime;

import java.nio.ByteBuffer;

/**
 * The one message a worker sends on its link to {@code quire run} (see {@link LauncherWatch}):
 * its rank and an HMAC of the rank keyed by the job secret, so the launcher keeps only links of
 * its own ranks open.
 * <pre>
 *   0: int rank (big-endian)
 *   4: byte[32] HMAC-SHA256(secret, "quire launcher link", rank)
 * </pre>
 */
public final class LauncherLinkHello {

    public static final int BYTES = Integer.BYTES + JobSecret.BYTES;
    private static final String PURPOSE = "quire launcher link";

    private LauncherLinkHello() {
    }

    public static byte[] encode(JobSecret secret, int rank) {
        byte[] rankBytes = ByteBuffer.allocate(Integer.BYTES).putInt(rank).array();
        return ByteBuffer.allocate(BYTES).put(rankBytes).put(secret.mac(PURPOSE, rankBytes)).array();
    }

    /** The rank in {@code hello}, or -1 when its MAC is not made with {@code secret}. */
    public static int verifiedRank(JobSecret secret, byte[] hello) {
        byte[] rankBytes = new byte[Integer.BYTES];
        byte[] mac = new byte[JobSecret.BYTES];
        ByteBuffer.wrap(hello).get(rankBytes).get(mac);
        return secret.verify(mac, PURPOSE, rankBytes) ? ByteBuffer.wrap(rankBytes).getInt() : -1;
    }
}
